/**
 * The store conformance suite, the part crawl strategies rely on: the value kept
 * with each URL (DESIGN 1.5) and claims partitioned into queues (DESIGN 1.2).
 */
import assert from 'node:assert/strict';
import {
  addAndClaim,
  collect,
  isInvalid,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';
import type { ClaimedUrl } from './types.js';

/** Best first: highest priority, ties by id. */
const bestFirst = (a: { priority: number; id: number }, b: { priority: number; id: number }) =>
  b.priority - a.priority || a.id - b.id;

export function queueConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('value defaults to 0', async ({ store }) => {
    await store.addSeeds([url('s')]);
    await store.addUrls([{ url: url(1), depth: 1, priority: 0.5 }]);
    assert.deepEqual(
      (await collect(store.urls())).map((r) => [r.url, r.value]),
      [
        [url('s'), 0],
        [url(1), 0],
      ],
    );
    const claimed = await store.claim(1);
    await store.complete(url('s'), page({ newUrls: [{ url: url(2), depth: 1, priority: 1 }] }));
    claimed.push(...(await store.claim(5)));
    assert.deepEqual(
      claimed.map((c) => [c.url, c.value]),
      [
        [url('s'), 0],
        [url(2), 0],
        [url(1), 0],
      ],
    );
  });

  test('value round-trips through addUrls, newUrls of commit, claim and urls()', async ({
    store,
  }) => {
    await store.addUrls([
      { url: url('a'), depth: 0, priority: 3, value: 100 },
      { url: url('b'), depth: 0, priority: 2, value: -2.5 },
      { url: url('c'), depth: 0, priority: 1, value: 1e-9 },
    ]);
    assert.deepEqual(
      (await store.claim(2)).map((c) => [c.url, c.value]),
      [
        [url('a'), 100],
        [url('b'), -2.5],
      ],
    );
    await store.commit([
      {
        url: url('a'),
        state: 'complete',
        result: page({
          links: [{ url: url('a1') }, { url: url('a2') }],
          newUrls: [
            { url: url('a1'), depth: 1, priority: 0.9, value: 15 },
            { url: url('a2'), depth: 1, priority: 0.8, value: 0.15 },
          ],
        }),
      },
      {
        url: url('b'),
        state: 'discard',
        result: page({ newUrls: [{ url: url('b1'), depth: 1, priority: 0.7, value: 1.7e308 }] }),
      },
    ]);
    const rows = await collect(store.urls());
    assert.deepEqual(
      rows.map((r) => [r.url, r.state, r.value]),
      [
        [url('a'), 'complete', 100],
        [url('b'), 'discard', -2.5],
        [url('c'), 'waiting', 1e-9],
        [url('a1'), 'waiting', 15],
        [url('a2'), 'waiting', 0.15],
        [url('b1'), 'waiting', 1.7e308],
      ],
    );
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((r) => r.value),
      [1e-9, 15, 0.15, 1.7e308],
    );
    const claimed = await store.claim(10);
    assert.deepEqual(
      claimed.map((c) => [c.url, c.parent, c.value]),
      [
        [url('c'), null, 1e-9],
        [url('a1'), url('a'), 15],
        [url('a2'), url('a'), 0.15],
        [url('b1'), url('b'), 1.7e308],
      ],
    );
    // reclaim and recover keep the value.
    await store.reclaim([url('a1')], { priority: 5 });
    await store.recover();
    assert.deepEqual(
      (await store.claim(2)).map((c) => [c.url, c.priority, c.value]),
      [
        [url('a1'), 5, 15],
        [url('c'), 1, 1e-9],
      ],
    );
  });

  test('a higher-priority re-add replaces the value, a lower or equal one does not', async ({
    store,
  }) => {
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.5, value: 1 },
      { url: url('b'), depth: 1, priority: 0.5, value: 2 },
      { url: url('c'), depth: 1, priority: 0.5, value: 3 },
      { url: url('d'), depth: 1, priority: 0.5, value: 4 },
    ]);
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.4, value: 9 }, // lower: kept
      { url: url('b'), depth: 1, priority: 0.5, value: 9 }, // equal: kept
      { url: url('c'), depth: 1, priority: 0.6, value: 7 }, // higher: replaced
      { url: url('d'), depth: 1, priority: 0.6 }, // higher without value: 0
    ]);
    const values = async () =>
      new Map((await collect(store.urls())).map((r) => [r.url, [r.priority, r.value]]));
    assert.deepEqual(
      await values(),
      new Map([
        [url('a'), [0.5, 1]],
        [url('b'), [0.5, 2]],
        [url('c'), [0.6, 7]],
        [url('d'), [0.6, 0]],
      ]),
    );
    // The same through newUrls of a fetched page.
    await store.addUrls([{ url: url('p'), depth: 0, priority: 10 }]);
    await store.claim(1);
    await store.complete(
      url('p'),
      page({
        newUrls: [
          { url: url('a'), depth: 1, priority: 0.9, value: 11 },
          { url: url('b'), depth: 1, priority: 0.1, value: 12 },
          { url: url('a'), depth: 1, priority: 0.8, value: 13 },
        ],
      }),
    );
    const after = await values();
    assert.deepEqual(after.get(url('a')), [0.9, 11]);
    assert.deepEqual(after.get(url('b')), [0.5, 2]);
    // A URL no longer waiting keeps its value whatever is added.
    await store.addUrls([{ url: url('p'), depth: 0, priority: 99, value: 99 }]);
    assert.deepEqual((await values()).get(url('p')), [10, 0]);
    assert.deepEqual(
      (await store.claim(2)).map((c) => [c.url, c.value]),
      [
        [url('a'), 11],
        [url('c'), 7],
      ],
    );
  });

  test('queue claims partition the waiting set, each queue best first', async ({ store }) => {
    const n = 61;
    await store.addUrls(
      Array.from({ length: n }, (_, i) => ({ url: url(i), depth: 1, priority: (i * 7) % 5 })),
    );
    // Raised after discovery: it moves up within its own queue only.
    await store.addUrls([{ url: url(40), depth: 1, priority: 9 }]);
    const waiting = await collect(store.urls('waiting'));
    const Q = 3;
    const byQueue: ClaimedUrl[][] = [[], [], []];
    // Interleaved claims of the three queues, in small batches, until all are dry.
    for (let progress = true; progress; ) {
      progress = false;
      for (let k = 0; k < Q; k++) {
        const got = await store.claim(2, { queue: { index: k, of: Q } });
        byQueue[k]?.push(...got);
        if (got.length > 0) progress = true;
      }
    }
    const all = byQueue.flat();
    assert.equal(all.length, n);
    assert.equal(new Set(all.map((c) => c.url)).size, n);
    for (let k = 0; k < Q; k++) {
      const got = byQueue[k] as ClaimedUrl[];
      const want = waiting.filter((r) => r.id % Q === k).sort(bestFirst);
      assert.deepEqual(
        got.map((c) => c.url),
        want.map((r) => r.url),
        `queue ${k} of ${Q}`,
      );
      for (const c of got) assert.equal(c.id % Q, k);
    }
    const raised = waiting.find((r) => r.url === url(40));
    assert.equal(byQueue[(raised?.id ?? 0) % Q]?.[0]?.url, url(40));
    assert.deepEqual(await store.counts(), {
      waiting: 0,
      processing: n,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
  });

  test('queue claims mix with plain claims, reclaim, trimming and concurrent calls', async ({
    store,
  }) => {
    const n = 40;
    await store.addUrls(
      Array.from({ length: n }, (_, i) => ({ url: url(i), depth: 1, priority: i % 4 })),
    );
    const Q = 4;
    const first = await store.claim(3, { queue: { index: 1, of: Q } });
    assert.ok(first.every((c) => c.id % Q === 1));
    // A plain claim takes the best of every queue, skipping what queue 1 took.
    const plain = await store.claim(5);
    const rest = (await collect(store.urls('waiting'))).length;
    assert.equal(rest, n - 8);
    assert.equal(new Set([...first, ...plain].map((c) => c.url)).size, 8);
    // Reclaimed URLs return to their queue, at their new priority.
    await store.reclaim(
      first.map((c) => c.url),
      { priority: 100 },
    );
    const again = await store.claim(10, { queue: { index: 1, of: Q } });
    assert.deepEqual(
      again.slice(0, 3).map((c) => c.url),
      [...first].sort((a, b) => a.id - b.id).map((c) => c.url),
    );
    assert.ok(again.every((c) => c.id % Q === 1));
    await store.reclaim(again.map((c) => c.url));
    // of: 1 is the plain claim; a different partition of the same store works too.
    assert.equal((await store.claim(1, { queue: { index: 0, of: 1 } })).length, 1);
    const two = await store.claim(2, { queue: { index: 1, of: 2 } });
    assert.ok(two.every((c) => c.id % 2 === 1));
    // Trimming forgets URLs in every queue.
    const kept = 12;
    await store.trimWaiting(kept);
    const waiting = await collect(store.urls('waiting'));
    assert.equal(waiting.length, kept);
    // Concurrent claims, two per queue, hand out every kept URL once.
    const batches = await Promise.all(
      Array.from({ length: 2 * Q }, (_, i) => store.claim(n, { queue: { index: i % Q, of: Q } })),
    );
    const got = batches.flat();
    assert.deepEqual(got.map((c) => c.url).sort(), waiting.map((r) => r.url).sort());
    for (const [i, b] of batches.entries()) {
      for (const c of b) assert.equal(c.id % Q, i % Q);
    }
    assert.deepEqual(await store.claim(5), []);
  });

  test('invalid queue options and values are refused with InvalidOptionError', async ({
    store,
  }) => {
    await store.addUrls([{ url: url(1), depth: 1, priority: 0 }]);
    const bad = [
      [{ queue: { index: 0, of: 0 } }, /claim options\.queue\.of: .*≥ 1/],
      [{ queue: { index: 0, of: 1.5 } }, /queue\.of/],
      [{ queue: { index: 0 } }, /queue\.of/],
      [{ queue: { index: 2, of: 2 } }, /claim options\.queue\.index: .*below of \(2\)/],
      [{ queue: { index: -1, of: 2 } }, /queue\.index/],
      [{ queue: { index: Number.NaN, of: 2 } }, /queue\.index/],
      [{ queue: { of: 2 } }, /queue\.index/],
      [{ queue: { index: 0, of: 2, size: 3 } }, /queue: unknown field "size"/],
      [{ queue: 3 }, /claim options\.queue/],
      [{ queue: null }, /claim options\.queue/],
      [{ queues: 3 }, /unknown option "queues"/],
      ['queue', /claim options/],
    ] as const;
    for (const [options, re] of bad) {
      await assert.rejects(store.claim(1, options as never), isInvalid(re));
    }
    assert.equal((await store.counts()).waiting, 1);
    for (const [value, re] of [
      [Number.NaN, /addUrls\[1\]\.value/],
      [Number.POSITIVE_INFINITY, /addUrls\[1\]\.value/],
      ['1', /addUrls\[1\]\.value/],
      [null, /addUrls\[1\]\.value/],
    ] as const) {
      await assert.rejects(
        store.addUrls([
          { url: url(2), depth: 1, priority: 0 },
          { url: url(3), depth: 1, priority: 0, value: value as never },
        ]),
        isInvalid(re),
      );
    }
    await addAndClaim(store, [url(1)]);
    await assert.rejects(
      store.complete(
        url(1),
        page({ newUrls: [{ url: url(4), depth: 1, priority: 0, value: Number.NaN }] }),
      ),
      isInvalid(/commit\[0\]\.result\.newUrls\[0\]\.value/),
    );
    const s = await store.stats();
    assert.deepEqual([s.discovered, s.counts.processing, s.counts.waiting], [1, 1, 0]);
  });

  test('claim with hosts: a walk past many URLs of one host, ties included, stops at the scan', async ({
    store,
  }) => {
    const at = (host: string, i: number) => `http://${host}.test/${i}`;
    // 300 URLs of a.test at one priority, then b.test at that priority, c.test below.
    const many = Array.from({ length: 300 }, (_, i) => ({
      url: at('a', i),
      depth: 1,
      priority: 0.9,
    }));
    await store.addUrls([
      ...many,
      { url: at('b', 1), depth: 1, priority: 0.9 },
      { url: at('c', 1), depth: 1, priority: 0.5 },
    ]);
    // Looking at no more than 250 URLs: only a.test's first is in reach.
    assert.deepEqual(
      (await store.claim(3, { hosts: { perHost: 1, scan: 250 } })).map((c) => c.url),
      [at('a', 0)],
    );
    assert.deepEqual(
      (await store.claim(3, { hosts: { perHost: 1, scan: 4096 } })).map((c) => c.url),
      [at('a', 1), at('b', 1), at('c', 1)],
    );
    assert.equal((await store.counts()).waiting, 298);
  });

  test('claim with hosts: the best URLs of distinct hosts, skipped hosts left waiting, within the scan', async ({
    store,
  }) => {
    const at = (host: string, i: number) => `http://${host}.test/${i}`;
    // a.test holds the top of the frontier; b and c follow; d is skipped by the caller.
    await store.addUrls([
      { url: at('a', 1), depth: 1, priority: 0.9 },
      { url: at('a', 2), depth: 1, priority: 0.8 },
      { url: at('a', 3), depth: 1, priority: 0.7 },
      { url: at('d', 1), depth: 1, priority: 0.65 },
      { url: at('b', 1), depth: 1, priority: 0.6 },
      { url: at('b', 2), depth: 1, priority: 0.5 },
      { url: at('c', 1), depth: 1, priority: 0.4 },
    ]);
    const got = await store.claim(10, { hosts: { perHost: 1, skip: ['d.test'] } });
    assert.deepEqual(
      got.map((c) => c.url),
      [at('a', 1), at('b', 1), at('c', 1)],
    );
    // Passed-over URLs still wait, in order; a plain claim takes them best first.
    assert.deepEqual(
      (await store.claim(2)).map((c) => c.url),
      [at('a', 2), at('a', 3)],
    );
    // Two per host, looking at no more than the three best waiting URLs.
    assert.deepEqual(
      (await store.claim(10, { hosts: { perHost: 2, scan: 3 } })).map((c) => c.url),
      [at('d', 1), at('b', 2)],
    );
    assert.deepEqual((await store.counts()).waiting, 0);
    for (const [options, re] of [
      [{ hosts: { perHost: 0 } }, /claim options\.hosts\.perHost/],
      [{ hosts: { perHost: 1, scan: 0 } }, /claim options\.hosts\.scan/],
      [{ hosts: { perHost: 1, skip: 'a.test' } }, /claim options\.hosts\.skip/],
      [{ hosts: { perHost: 1, most: 2 } }, /unknown field "most"/],
    ] as const) {
      await assert.rejects(store.claim(1, options as never), isInvalid(re));
    }
  });
}
