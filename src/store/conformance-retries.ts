/**
 * The store conformance suite, `Claims`: failed attempts. A failure with `retryAt`
 * records its row and puts the URL back to waiting, out of reach of claims until
 * then, its attempts counted through every later claim, reclaim and reopening;
 * `requeueErrors` brings URLs in error back with their attempts reset.
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
import type { Store } from './types.js';

const HTTP503 = { error: 'HTTP 503', status: 503 };

/** [url, state, status, attempt, retryAt] of each history row. */
async function rows(store: Store): Promise<unknown[][]> {
  return (await collect(store.history())).map((h) => [
    h.url,
    h.state,
    h.status,
    h.attempt,
    h.retryAt,
  ]);
}

export function retryConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('a failed attempt goes back to waiting, claimed again at its retry time with its attempts', async ({
    store,
  }) => {
    const [a, b] = [url('a'), url('b')];
    await store.addUrls([
      { url: a, depth: 1, priority: 0.9, value: 3, context: 'ctx' },
      { url: b, depth: 1, priority: 0.5 },
    ]);
    assert.deepEqual(
      (await store.claim(5, { now: 0 })).map((c) => [c.url, c.attempts]),
      [
        [a, 0],
        [b, 0],
      ],
    );
    await store.fail(a, { fetchedAt: 10, ...HTTP503, retryAt: 500 });
    assert.deepEqual(await store.counts(), {
      waiting: 1,
      processing: 1,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    assert.equal(await store.nextRetryAt(), 500);
    assert.deepEqual(await store.claim(5, { now: 499 }), []);
    const [again] = await store.claim(5, { now: 500 });
    assert.deepEqual(again && { ...again, id: 0 }, {
      id: 0,
      url: a,
      depth: 1,
      priority: 0.9,
      value: 3,
      parent: null,
      context: 'ctx',
      attempts: 1,
    });
    assert.equal(await store.nextRetryAt(), null);
    await store.fail(a, { fetchedAt: 20, ...HTTP503, retryAt: 900 });
    assert.deepEqual(
      (await store.claim(5, { now: 1_000 })).map((c) => [c.url, c.attempts]),
      [[a, 2]],
    );
    // A failure without retryAt ends the URL, counting its attempt too.
    await store.fail(a, { fetchedAt: 30, ...HTTP503 });
    assert.deepEqual(await rows(store), [
      [a, 'error', 503, 1, 500],
      [a, 'error', 503, 2, 900],
      [a, 'error', 503, 3, null],
    ]);
    const [ua] = (await collect(store.urls())).filter((u) => u.url === a);
    assert.deepEqual([ua?.state, ua?.attempts, ua?.retryAt], ['error', 3, null]);
    const s = await store.stats();
    // Every attempt is a fetch recorded; only the last one, which ended the URL, a response.
    assert.deepEqual(
      [s.counts.error, s.counts.processing, s.fetched, s.retries, s.responses, s.failed],
      [1, 1, 3, 2, 1, 1],
    );
    assert.deepEqual(s.errors, [{ code: 'HTTP 503', count: 3 }]);
    assert.deepEqual(
      s.topHosts.map((h) => [h.host, h.fetched, h.error]),
      [[new URL(a).hostname, 3, 3]],
    );
  });

  test('the page of a later attempt records its attempt number; a retry time past is claimable at once', async ({
    store,
  }) => {
    const a = url('a');
    await addAndClaim(store, [a]);
    await store.fail(a, { fetchedAt: 10, error: 'FC_ERR_DNS: no such host', retryAt: 0 });
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.attempts]),
      [[a, 1]],
    );
    await store.complete(a, page({ fetchedAt: 20 }));
    assert.deepEqual(await rows(store), [
      [a, 'error', null, 1, 0],
      [a, 'complete', 200, 2, null],
    ]);
    const s = await store.stats();
    assert.deepEqual(
      [s.counts.complete, s.counts.waiting, s.fetched, s.retries, s.responses],
      [1, 0, 2, 1, 1],
    );
  });

  test('URLs waiting for their retry time are out of claims by queue and by host, and kept by trimWaiting', async ({
    store,
  }) => {
    const [a, b, c] = [url('a'), url('b'), url('c')];
    await store.addUrls([
      { url: a, depth: 1, priority: 0.9 },
      { url: b, depth: 1, priority: 0.5 },
      { url: c, depth: 1, priority: 0.4 },
    ]);
    await store.claim(1, { now: 0 });
    await store.fail(a, { fetchedAt: 10, ...HTTP503, retryAt: 100 });
    assert.deepEqual(
      (await store.claim(5, { now: 50, queue: { index: 0, of: 1 } })).map((x) => x.url),
      [b, c],
    );
    await store.reclaim([b, c]);
    assert.deepEqual(
      (await store.claim(5, { now: 50, hosts: { perHost: 5 } })).map((x) => x.url),
      [b, c],
    );
    await store.reclaim([b, c]);
    // a counts against the bound and stays: the worst others go.
    assert.equal(await store.trimWaiting(2), 1);
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((u) => [u.url, u.retryAt]),
      [
        [a, 100],
        [b, null],
      ],
    );
    assert.deepEqual(
      (await store.claim(5, { now: 100 })).map((x) => [x.url, x.attempts]),
      [
        [a, 1],
        [b, 0],
      ],
    );
  });

  test('a raised or reprioritized URL still waits for its retry time', async ({ store }) => {
    const [a, b] = [url('a'), url('b')];
    await store.addUrls([
      { url: a, depth: 1, priority: 0.2 },
      { url: b, depth: 1, priority: 0.5 },
    ]);
    const [claimed] = await store.claim(1, { now: 0 });
    assert.equal(claimed?.url, b);
    await store.fail(b, { fetchedAt: 10, ...HTTP503, retryAt: 100 });
    await store.addUrls([{ url: b, depth: 1, priority: 0.9 }]);
    assert.equal(await store.reprioritize([{ id: claimed?.id ?? 0, priority: 0.95 }]), 1);
    assert.deepEqual(
      (await store.claim(5, { now: 99 })).map((x) => x.url),
      [a],
    );
    assert.deepEqual(
      (await store.claim(5, { now: 100 })).map((x) => [x.url, x.priority]),
      [[b, 0.95]],
    );
  });

  test('nextRetryAt is the earliest retry time still waiting', async ({ store }) => {
    const [a, b] = [url('a'), url('b')];
    assert.equal(await store.nextRetryAt(), null);
    await addAndClaim(store, [a, b]);
    await store.commit([
      { url: a, state: 'error', result: { fetchedAt: 1, ...HTTP503, retryAt: 300 } },
      { url: b, state: 'error', result: { fetchedAt: 1, ...HTTP503, retryAt: 200 } },
    ]);
    assert.equal(await store.nextRetryAt(), 200);
    assert.deepEqual(
      (await store.claim(5, { now: 250 })).map((x) => x.url),
      [b],
    );
    assert.equal(await store.nextRetryAt(), 300);
    // One past due and not claimed yet is claimable now: its time is past.
    await store.fail(b, { fetchedAt: 2, ...HTTP503, retryAt: 100 });
    assert.equal(await store.nextRetryAt(), 100);
  });

  test('attempts and retry times survive reclaim, closeLease, recover and reopening', async (h) => {
    let store = h.store;
    const [a, b] = [url('a'), url('b')];
    await addAndClaim(store, [a, b]);
    await store.fail(a, { fetchedAt: 1, ...HTTP503, retryAt: 10 });
    await store.fail(b, { fetchedAt: 1, ...HTTP503, retryAt: 5_000 });
    const lease = await store.openLease({ host: 'h', pid: 1, startedAt: 0 }, 1e15);
    assert.deepEqual(
      (await store.claim(5, { now: 10, lease: lease.id })).map((x) => [x.url, x.attempts]),
      [[a, 1]],
    );
    assert.equal(await store.reclaim([a], { lease: lease.id }), 1);
    await store.claim(5, { now: 10, lease: lease.id });
    assert.equal(await store.closeLease(lease.id), 1);
    await store.claim(5, { now: 10 });
    assert.equal(await store.recover(), 1);
    if (h.reopen !== undefined) {
      await store.close();
      store = await h.reopen();
      h.store = store;
    }
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((u) => [u.url, u.attempts, u.retryAt]),
      [
        [a, 1, null],
        [b, 1, 5_000],
      ],
    );
    assert.equal(await store.nextRetryAt(), 5_000);
    assert.deepEqual(
      (await store.claim(5, { now: 4_999 })).map((x) => [x.url, x.attempts]),
      [[a, 1]],
    );
    assert.deepEqual(
      (await store.claim(5, { now: 5_000 })).map((x) => [x.url, x.attempts]),
      [[b, 1]],
    );
  });

  test('requeueErrors puts URLs in error back, all or by code, status or class of status, attempts reset', async ({
    store,
  }) => {
    const [u404, u503, dns, u410, done] = [1, 2, 3, 4, 5].map((i) => url(`e${i}`)) as [
      string,
      string,
      string,
      string,
      string,
    ];
    await addAndClaim(store, [u404, u503, dns, u410, done]);
    await store.fail(u410, { fetchedAt: 1, ...HTTP503, retryAt: 0 });
    await store.claim(5);
    await store.commit([
      { url: u404, state: 'error', result: { fetchedAt: 2, error: 'HTTP 404', status: 404 } },
      { url: u503, state: 'error', result: { fetchedAt: 2, ...HTTP503 } },
      {
        url: dns,
        state: 'error',
        result: { fetchedAt: 2, error: 'FC_ERR_DNS: http://x.test/: cannot resolve x.test' },
      },
      { url: u410, state: 'error', result: { fetchedAt: 2, error: 'HTTP 410', status: 410 } },
      { url: done, state: 'complete', result: page({ fetchedAt: 2 }) },
    ]);
    assert.equal((await store.counts()).error, 4);
    const back = async (filter: Parameters<Store['requeueErrors']>[0]) => {
      const n = await store.requeueErrors(filter);
      const got = (await store.claim(10)).map((c) => [c.url, c.attempts]);
      assert.equal(got.length, n);
      return got;
    };
    assert.deepEqual(await back({ codes: ['FC_ERR_DNS'] }), [[dns, 0]]);
    assert.deepEqual(await back({ statuses: [404] }), [[u404, 0]]);
    assert.deepEqual(await back({ codes: ['HTTP 999'], statusClasses: [5] }), [[u503, 0]]);
    assert.deepEqual(await back({ codes: ['FC_ERR_DNS'] }), []);
    assert.deepEqual(await back(undefined), [[u410, 0]]);
    assert.deepEqual(await back({}), []);
    const c = await store.counts();
    assert.deepEqual([c.error, c.processing, c.complete], [0, 4, 1]);
    // The history keeps every attempt.
    assert.equal((await collect(store.history())).length, 6);
    const [u] = (await collect(store.urls())).filter((x) => x.url === u410);
    assert.deepEqual([u?.state, u?.attempts], ['processing', 0]);
  });

  test('bad retry times, claim times and error filters are refused, and nothing changes', async ({
    store,
  }) => {
    const [a, f] = [url('a'), url('f')];
    await addAndClaim(store, [a]);
    await assert.rejects(
      store.fail(a, { fetchedAt: 1, error: 'x', retryAt: Number.NaN }),
      isInvalid(/retryAt/),
    );
    await assert.rejects(
      store.fail(a, {
        fetchedAt: 1,
        ...HTTP503,
        retryAt: 5,
        redirects: [{ url: a, status: 301, location: f }],
      }),
      isInvalid(/retryAt: a failure reached through redirects/),
    );
    assert.equal((await store.counts()).processing, 1);
    await assert.rejects(store.claim(1, { now: Number.NaN }), isInvalid(/now/));
    await assert.rejects(store.requeueErrors({ statuses: [99] }), isInvalid(/statuses\[0\]/));
    await assert.rejects(store.requeueErrors({ statusClasses: [6] }), isInvalid(/statusClasses/));
    await assert.rejects(store.requeueErrors({ codes: [''] } as never), isInvalid(/codes\[0\]/));
    await assert.rejects(
      store.requeueErrors({ nope: 1 } as never),
      isInvalid(/unknown field "nope"/),
    );
  });

  test('history rows keep how long each fetch took, null where it was not given and for hops', async ({
    store,
  }) => {
    const [a, b, c, d, f] = [url('a'), url('b'), url('c'), url('d'), url('f')];
    await addAndClaim(store, [a, b, c, d]);
    await store.complete(a, page({ fetchMs: 120 }));
    await store.fail(b, { fetchedAt: 1_000, ...HTTP503, retryAt: 5_000, fetchMs: 40 });
    await store.fail(c, { fetchedAt: 1_000, error: 'FC_ERR_DNS: x' });
    await store.discard(d, page({ redirects: [{ url: d, status: 301, location: f }], fetchMs: 7 }));
    const ms = new Map((await collect(store.history())).map((h) => [h.url, h.fetchMs]));
    assert.deepEqual(Object.fromEntries(ms), { [a]: 120, [b]: 40, [c]: null, [d]: null, [f]: 7 });
    for (const bad of [-1, Number.NaN, '5']) {
      await store.addUrls([{ url: url(`bad${String(bad)}`), depth: 1, priority: 0.5 }]);
      const [claimed] = await store.claim(1);
      await assert.rejects(
        store.complete(claimed?.url as string, page({ fetchMs: bad as number })),
        isInvalid(/fetchMs: expected a number of ms ≥ 0/),
      );
      await store.reclaim([claimed?.url as string]);
      await store.claim(1).then((x) => store.reclaim(x.map((y) => y.url)));
    }
  });
}
