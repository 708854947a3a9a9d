/**
 * The store conformance suite, the part a frontier rescorer relies on: walking
 * the waiting URLs by id (`scanWaiting`) and setting new priorities on them
 * (`reprioritize`), higher or lower, in every queue.
 */
import assert from 'node:assert/strict';
import { collect, isInvalid, page, type StoreFactory, storeTest, url } from './conformance-kit.js';
import type { ClaimedUrl, Store, WaitingUrl } from './types.js';

type Ranked = { priority: number; id: number };
/** Best first: highest priority, ties by id. */
const bestFirst = (a: Ranked, b: Ranked) => b.priority - a.priority || a.id - b.id;

/** The ids of the known URLs, by URL. */
async function idsOf(store: Store): Promise<Map<string, number>> {
  return new Map((await collect(store.urls())).map((r) => [r.url, r.id]));
}

/** Every waiting URL through scanWaiting, `limit` at a time; checks each page. */
async function scanAll(store: Store, limit: number): Promise<WaitingUrl[]> {
  const all: WaitingUrl[] = [];
  for (let afterId = 0; ; ) {
    const got = await store.scanWaiting({ afterId, limit });
    assert.ok(got.length <= limit, `a page of ${got.length} for limit ${limit}`);
    if (got.length === 0) return all;
    for (const w of got) {
      assert.ok(w.id > afterId, `id ${w.id} after ${afterId}`);
      afterId = w.id;
    }
    all.push(...got);
  }
}

export function rescoreConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('scanWaiting walks every waiting URL once, in id order, a page at a time', async ({
    store,
  }) => {
    assert.deepEqual(await store.scanWaiting({ limit: 10 }), []);
    const n = 30;
    await store.addUrls(
      Array.from({ length: n }, (_, i) => ({
        url: url(i),
        depth: 1 + (i % 3),
        priority: (i * 7) % 5,
        value: i / 2,
        ...(i % 2 === 0 ? {} : { context: `context ${i}` }),
        ...(i % 3 === 0 ? { anchor: `anchor ${i}` } : {}),
      })),
    );
    // Some URLs leave the waiting state: claimed, fetched, trimmed; one comes back.
    const claimed = await store.claim(5);
    await store.complete(claimed[0]?.url as string, page());
    await store.fail(claimed[1]?.url as string, { fetchedAt: 1, error: 'x' });
    await store.trimWaiting(20);
    await store.reclaim([claimed[4]?.url as string]);
    const waiting = (await collect(store.urls('waiting'))).map(
      (r): WaitingUrl => ({
        id: r.id,
        url: r.url,
        depth: r.depth,
        priority: r.priority,
        value: r.value,
        anchor: r.anchor,
        context: r.context,
      }),
    );
    assert.equal(waiting.length, 21);
    for (const limit of [1, 4, 7, 21, 1000]) {
      assert.deepEqual(await scanAll(store, limit), waiting, `limit ${limit}`);
    }
    assert.deepEqual(await store.scanWaiting({ limit: 1000 }), waiting);
    const third = waiting[2] as WaitingUrl;
    assert.deepEqual(await store.scanWaiting({ afterId: third.id, limit: 2 }), waiting.slice(3, 5));
    // The ids of URLs that are not waiting work as starting points too.
    const done = claimed[0]?.id as number;
    assert.deepEqual(
      await store.scanWaiting({ afterId: done, limit: 1000 }),
      waiting.filter((w) => w.id > done),
    );
    const lastId = (waiting[waiting.length - 1] as WaitingUrl).id;
    assert.deepEqual(await store.scanWaiting({ afterId: lastId, limit: 5 }), []);
    assert.deepEqual(await store.scanWaiting({ afterId: 2 ** 40, limit: 5 }), []);
  });

  test('scanWaiting refuses invalid options with InvalidOptionError naming the field', async ({
    store,
  }) => {
    await store.addUrls([{ url: url(1), depth: 1, priority: 0 }]);
    const bad = [
      [undefined, /scanWaiting options: expected/],
      [null, /scanWaiting options: expected/],
      [5, /scanWaiting options: expected/],
      [{}, /scanWaiting options\.limit: expected an integer ≥ 1, got undefined/],
      [{ limit: 0 }, /scanWaiting options\.limit: .*got 0/],
      [{ limit: 1.5 }, /scanWaiting options\.limit/],
      [{ limit: '5' }, /scanWaiting options\.limit/],
      [{ limit: Number.NaN }, /scanWaiting options\.limit/],
      [{ limit: 5, afterId: -1 }, /scanWaiting options\.afterId: expected an integer ≥ 0/],
      [{ limit: 5, afterId: 1.5 }, /scanWaiting options\.afterId/],
      [{ limit: 5, afterId: '3' }, /scanWaiting options\.afterId/],
      [{ limit: 5, afterId: null }, /scanWaiting options\.afterId/],
      [{ limit: 5, after: 3 }, /scanWaiting options: unknown option "after"/],
    ] as const;
    for (const [options, re] of bad) {
      await assert.rejects(store.scanWaiting(options as never), isInvalid(re));
    }
  });

  test('reprioritize raises and lowers waiting URLs, and claims follow', async ({ store }) => {
    assert.equal(await store.reprioritize([]), 0);
    await store.addUrls(
      ['a', 'b', 'c', 'd', 'e'].map((k, i) => ({
        url: url(k),
        depth: 1,
        priority: i + 1,
        value: i + 1,
      })),
    );
    const id = await idsOf(store);
    const at = (k: string) => id.get(url(k)) as number;
    const n = await store.reprioritize([
      { id: at('a'), priority: 10, value: 11 }, // raised above all
      { id: at('e'), priority: -1 }, // lowered below all, value kept
      { id: at('d'), priority: 3, value: 0 }, // lowered to c's: ties in discovery order
      { id: at('b'), priority: 2 }, // the same priority: set all the same
    ]);
    assert.equal(n, 4);
    assert.deepEqual(
      (await store.scanWaiting({ limit: 10 })).map((w) => [w.url, w.priority, w.value]),
      [
        [url('a'), 10, 11],
        [url('b'), 2, 2],
        [url('c'), 3, 3],
        [url('d'), 3, 0],
        [url('e'), -1, 5],
      ],
    );
    // addUrls compares with the new priorities: e (now -1) is raised by 0, a (10) not by 9.
    await store.addUrls([
      { url: url('e'), depth: 1, priority: 0, value: 7 },
      { url: url('a'), depth: 1, priority: 9, value: 8 },
    ]);
    assert.deepEqual(
      (await store.claim(2)).map((c) => [c.url, c.priority, c.value]),
      [
        [url('a'), 10, 11],
        [url('c'), 3, 3],
      ],
    );
    // Claimed URLs are not changed; the others can be set again, and again.
    assert.equal(
      await store.reprioritize([
        { id: at('a'), priority: -5 },
        { id: at('b'), priority: 4 },
        { id: at('e'), priority: 3.5 },
      ]),
      2,
    );
    assert.equal(await store.reprioritize([{ id: at('b'), priority: 2 }]), 1);
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.priority, c.value]),
      [
        [url('e'), 3.5, 7],
        [url('d'), 3, 0],
        [url('b'), 2, 2],
      ],
    );
    assert.deepEqual((await store.counts()).processing, 5);
  });

  test('reprioritize skips URLs that are not waiting and counts the ones it set', async ({
    store,
  }) => {
    await store.addUrls(
      [1, 2, 3, 4, 5, 6].map((i) => ({ url: url(i), depth: 1, priority: i, context: `c${i}` })),
    );
    const old = await idsOf(store);
    const at = (i: number) => old.get(url(i)) as number;
    await store.claim(2); // 6 and 5
    await store.complete(url(6), page());
    await store.trimWaiting(3); // forgets 1
    await store.addUrls([{ url: url(1), depth: 1, priority: 1 }]); // known again, with a new id
    const n = await store.reprioritize([
      { id: at(1), priority: 100 }, // trimmed: its old id is unknown now
      { id: at(5), priority: 100 }, // processing
      { id: at(6), priority: 100 }, // complete
      { id: 1_000_000, priority: 100 }, // never known
      { id: at(2), priority: 50 },
      { id: at(3), priority: 40, value: 9 },
      { id: at(4), priority: 70 },
      { id: at(4), priority: 45 }, // given twice: the last counts, once
    ]);
    assert.equal(n, 3);
    assert.deepEqual(
      (await collect(store.urls())).map((r) => [r.url, r.state, r.priority, r.value, r.context]),
      [
        [url(2), 'waiting', 50, 0, 'c2'],
        [url(3), 'waiting', 40, 9, 'c3'],
        [url(4), 'waiting', 45, 0, 'c4'],
        [url(5), 'processing', 5, 0, 'c5'],
        [url(6), 'complete', 6, 0, 'c6'],
        [url(1), 'waiting', 1, 0, null],
      ],
    );
    await store.reclaim([url(5)]);
    assert.deepEqual(
      (await store.claim(10)).map((c) => [c.url, c.priority]),
      [
        [url(2), 50],
        [url(4), 45],
        [url(3), 40],
        [url(5), 5],
        [url(1), 1],
      ],
    );
    assert.equal(await store.reprioritize([{ id: at(2), priority: 1 }]), 0);
  });

  test('reprioritize refuses invalid items with InvalidOptionError and changes nothing', async ({
    store,
  }) => {
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 1, value: 1 },
      { url: url('b'), depth: 1, priority: 2, value: 2 },
    ]);
    const id = await idsOf(store);
    const a = id.get(url('a')) as number;
    const b = id.get(url('b')) as number;
    const bad = [
      [{ id: b, priority: Number.NaN }, /reprioritize\[1\]\.priority: expected a finite number/],
      [{ id: b, priority: Number.POSITIVE_INFINITY }, /reprioritize\[1\]\.priority/],
      [{ id: b, priority: Number.NEGATIVE_INFINITY }, /reprioritize\[1\]\.priority/],
      [{ id: b, priority: '1' }, /reprioritize\[1\]\.priority/],
      [{ id: b }, /reprioritize\[1\]\.priority/],
      [{ id: b, priority: 1, value: Number.NaN }, /reprioritize\[1\]\.value/],
      [{ id: b, priority: 1, value: null }, /reprioritize\[1\]\.value/],
      [{ id: 0, priority: 1 }, /reprioritize\[1\]\.id: expected an integer ≥ 1/],
      [{ id: 1.5, priority: 1 }, /reprioritize\[1\]\.id/],
      [{ id: String(b), priority: 1 }, /reprioritize\[1\]\.id/],
      [{ priority: 1 }, /reprioritize\[1\]\.id/],
      [null, /reprioritize\[1\]: expected an object/],
      ['x', /reprioritize\[1\]: expected an object/],
    ] as const;
    for (const [item, re] of bad) {
      await assert.rejects(
        store.reprioritize([{ id: a, priority: 9, value: 9 }, item as never]),
        isInvalid(re),
      );
    }
    await assert.rejects(
      store.reprioritize('x' as never),
      isInvalid(/reprioritize: expected an array/),
    );
    await assert.rejects(store.reprioritize(null as never), isInvalid(/reprioritize/));
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.priority, c.value]),
      [
        [url('b'), 2, 2],
        [url('a'), 1, 1],
      ],
    );
  });

  test('after reprioritize, plain and queue claims hand out every waiting URL once, best first', async ({
    store,
  }) => {
    const n = 60;
    await store.addUrls(
      Array.from({ length: n }, (_, i) => ({ url: url(i), depth: 1, priority: (i * 7) % 5 })),
    );
    // Claims of several partitions first, so that their queues exist before the change.
    const Q = 3;
    const early = [
      ...(await store.claim(2, { queue: { index: 0, of: Q } })),
      ...(await store.claim(1)),
      ...(await store.claim(1, { queue: { index: 1, of: 2 } })),
    ];
    const waiting = await collect(store.urls('waiting'));
    assert.equal(waiting.length, n - early.length);
    const priority = new Map(waiting.map((r, k) => [r.id, ((k * 11) % 13) - 6]));
    const value = new Map(priority);
    assert.equal(
      await store.reprioritize([...priority].map(([id, p]) => ({ id, priority: p, value: p }))),
      waiting.length,
    );
    // Some move away and back, some back to the priority they were added with.
    const away = waiting.filter((_, k) => k % 4 === 0);
    await store.reprioritize(away.map((r) => ({ id: r.id, priority: 100 })));
    await store.reprioritize(
      away.map((r) => ({ id: r.id, priority: priority.get(r.id) as number })),
    );
    const back = waiting.filter((_, k) => k % 5 === 1);
    await store.reprioritize(back.map((r) => ({ id: r.id, priority: r.priority })));
    for (const r of back) priority.set(r.id, r.priority);
    const want = waiting.map((r) => ({
      id: r.id,
      url: r.url,
      priority: priority.get(r.id) as number,
    }));
    want.sort(bestFirst);
    // A plain claim takes the best of all queues, then each queue its own, best first.
    const plain = await store.claim(3);
    assert.deepEqual(
      plain.map((c) => [c.url, c.priority]),
      want.slice(0, 3).map((w) => [w.url, w.priority]),
    );
    const byQueue: ClaimedUrl[][] = [[], [], []];
    for (let progress = true; progress; ) {
      progress = false;
      for (let k = 0; k < Q; k++) {
        const got = await store.claim(2, { queue: { index: k, of: Q } });
        byQueue[k]?.push(...got);
        if (got.length > 0) progress = true;
      }
    }
    const all = [...plain, ...byQueue.flat()];
    assert.equal(all.length, waiting.length);
    assert.equal(new Set(all.map((c) => c.url)).size, waiting.length);
    for (let k = 0; k < Q; k++) {
      assert.deepEqual(
        (byQueue[k] as ClaimedUrl[]).map((c) => [c.url, c.priority, c.value]),
        want
          .slice(3)
          .filter((w) => w.id % Q === k)
          .map((w) => [w.url, w.priority, value.get(w.id)]),
        `queue ${k} of ${Q}`,
      );
    }
    assert.deepEqual(await store.claim(5), []);
    assert.equal((await store.counts()).waiting, 0);
  });
}
