/**
 * The store conformance suite, `Frontier`: queueing URLs and seeds, the waiting
 * set's counts, re-adds that raise a waiting URL and leave the others alone.
 */
import assert from 'node:assert/strict';
import {
  addAndClaim,
  collect,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';

export function frontierBasicsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('a new store is empty', async ({ store }) => {
    assert.deepEqual(await store.counts(), {
      waiting: 0,
      processing: 0,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    assert.deepEqual(await store.claim(5), []);
    const s = await store.stats();
    assert.equal(s.discovered, 0);
    assert.equal(s.firstFetchAt, null);
    assert.deepEqual(s.topHosts, []);
    assert.deepEqual(await collect(store.history()), []);
  });

  test('addUrls queues the new URLs as waiting and says how many were new', async ({ store }) => {
    const n = await store.addUrls([
      { url: url(1), depth: 1, priority: 0.5, anchor: 'one', discoveredAt: 42 },
      { url: url(2), depth: 2, priority: 0.25 },
      { url: url(1), depth: 3, priority: 0.1 },
    ]);
    assert.equal(n, 2);
    assert.equal(
      await store.addUrls([
        { url: url(2), depth: 1, priority: 0 },
        { url: url(3), depth: 1, priority: 0 },
      ]),
      1,
    );
    assert.equal((await store.counts()).waiting, 3);
    const rows = await collect(store.urls('waiting'));
    assert.deepEqual(
      rows.map((r) => [r.url, r.state, r.depth, r.priority, r.parent, r.anchor]),
      [
        [url(1), 'waiting', 1, 0.5, null, 'one'],
        [url(2), 'waiting', 2, 0.25, null, null],
        [url(3), 'waiting', 1, 0, null, null],
      ],
    );
    assert.equal(rows[0]?.discoveredAt, 42);
    assert.ok((rows[1]?.id ?? 0) > (rows[0]?.id ?? 0));
  });

  test('a known waiting URL is raised to the higher priority and keeps its place', async ({
    store,
  }) => {
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.5 },
      { url: url('b'), depth: 1, priority: 0.1 },
      { url: url('c'), depth: 1, priority: 0.5 },
    ]);
    assert.equal(await store.addUrls([{ url: url('b'), depth: 5, priority: 0.5 }]), 0);
    assert.equal(await store.addUrls([{ url: url('a'), depth: 1, priority: 0.2 }]), 0);
    const claimed = await store.claim(3);
    assert.deepEqual(
      claimed.map((c) => [c.url, c.priority, c.depth]),
      [
        [url('a'), 0.5, 1],
        [url('b'), 0.5, 1],
        [url('c'), 0.5, 1],
      ],
    );
  });

  test('URLs already claimed or fetched are not queued again', async ({ store }) => {
    await addAndClaim(store, [url(1), url(2)]);
    await store.complete(url(1), page());
    assert.equal(
      await store.addUrls([
        { url: url(1), depth: 1, priority: 9 },
        { url: url(2), depth: 1, priority: 9 },
      ]),
      0,
    );
    const states = (await collect(store.urls())).map((r) => [r.url, r.state, r.priority]);
    assert.deepEqual(states, [
      [url(1), 'complete', 0.5],
      [url(2), 'processing', 0.5],
    ]);
    assert.deepEqual(await store.claim(5), []);
  });

  test('addSeeds records the seeds and queues them at depth 0 before anything else', async ({
    store,
  }) => {
    await store.addUrls([{ url: url('x'), depth: 1, priority: 1e6 }]);
    assert.equal(await store.addSeeds([url('s1'), url('s2')]), 2);
    assert.equal(await store.addSeeds([url('s2'), url('x'), url('s3')], { priority: 7 }), 1);
    assert.deepEqual(await store.getSeeds(), [url('s1'), url('s2'), url('x'), url('s3')]);
    const c = await store.claim(2);
    assert.deepEqual(
      c.map((x) => [x.url, x.depth, x.parent]),
      [
        [url('s1'), 0, null],
        [url('s2'), 0, null],
      ],
    );
    assert.deepEqual(
      (await store.claim(5)).map((x) => x.url),
      [url('x'), url('s3')],
    );
  });
}
