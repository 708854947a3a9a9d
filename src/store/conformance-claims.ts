/**
 * The store conformance suite, `Claims`: claims best first and never shared, and
 * the outcomes that end a claim (complete, discard, fail) with what they record.
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

export function claimBasicsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('claim hands out the highest priority first, ties in discovery order', async ({ store }) => {
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.5 },
      { url: url('b'), depth: 2, priority: 0.9 },
      { url: url('c'), depth: 1, priority: 0.5 },
    ]);
    await store.addUrls([
      { url: url('d'), depth: 1, priority: 0.9 },
      { url: url('e'), depth: 1, priority: -1 },
    ]);
    const first = await store.claim(2);
    assert.deepEqual(
      first.map((c) => [c.url, c.depth, c.priority, c.parent]),
      [
        [url('b'), 2, 0.9, null],
        [url('d'), 1, 0.9, null],
      ],
    );
    assert.deepEqual(
      (await store.claim(10)).map((c) => c.url),
      [url('a'), url('c'), url('e')],
    );
    assert.deepEqual(await store.claim(1), []);
    assert.deepEqual(await store.counts(), {
      waiting: 0,
      processing: 5,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
  });

  test('concurrent claims never hand out the same URL twice', async ({ store }) => {
    const urls = Array.from({ length: 200 }, (_, i) => url(i));
    await store.addUrls(urls.map((u, i) => ({ url: u, depth: 1, priority: i % 7 })));
    const batches = await Promise.all(Array.from({ length: 30 }, () => store.claim(9)));
    const got = batches.flat().map((c) => c.url);
    assert.equal(got.length, 200);
    assert.equal(new Set(got).size, 200);
    assert.equal((await store.counts()).processing, 200);
  });

  test('complete stores the page, its links, the new URLs and a history row', async ({ store }) => {
    await store.addSeeds([url('seed')]);
    await store.claim(1);
    await store.complete(url('seed'), {
      fetchedAt: 5_000,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      bytes: 1234,
      title: '电网 新闻',
      relevance: 0.42,
      contentHash: 'abc',
      links: [
        { url: url('n1'), anchor: 'first' },
        { url: url('n2') },
        { url: 'http://elsewhere.test/' },
      ],
      newUrls: [
        { url: url('n1'), depth: 1, priority: 0.3, anchor: 'first' },
        { url: url('n2'), depth: 1, priority: 0.6 },
        { url: url('seed'), depth: 1, priority: 0.9 },
      ],
    });
    assert.deepEqual(await store.counts(), {
      waiting: 2,
      processing: 0,
      complete: 1,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    const [p] = await collect(store.pages());
    assert.deepEqual(p, {
      url: url('seed'),
      state: 'complete',
      depth: 0,
      fetchedAt: 5_000,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      bytes: 1234,
      title: '电网 新闻',
      relevance: 0.42,
      contentHash: 'abc',
      bodyFile: null,
      pageRank: null,
      score: null,
      simhash: null,
      textHash: null,
      duplicate: null,
      etag: null,
      lastModified: null,
      modifiedAt: null,
    });
    assert.deepEqual(await collect(store.links()), [
      { from: url('seed'), to: url('n1'), anchor: 'first' },
      { from: url('seed'), to: url('n2'), anchor: null },
      { from: url('seed'), to: 'http://elsewhere.test/', anchor: null },
    ]);
    const claimed = await store.claim(5);
    assert.deepEqual(
      claimed.map((c) => [c.url, c.parent, c.depth]),
      [
        [url('n2'), url('seed'), 1],
        [url('n1'), url('seed'), 1],
      ],
    );
    assert.deepEqual(await collect(store.history()), [
      {
        url: url('seed'),
        fetchedAt: 5_000,
        status: 200,
        state: 'complete',
        relevance: 0.42,
        depth: 0,
        error: null,
        location: null,
        attempt: 1,
        retryAt: null,
        fetchMs: null,
      },
    ]);
  });

  test('discard stores the page in state discard; fail stores only a history row', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1), url(2)]);
    await store.discard(url(1), page({ relevance: 0.01, fetchedAt: 10 }));
    await store.fail(url(2), { fetchedAt: 11, error: 'FC_ERR_NETWORK: reset', status: 503 });
    assert.deepEqual(
      (await collect(store.pages())).map((p) => [p.url, p.state, p.relevance]),
      [[url(1), 'discard', 0.01]],
    );
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.state, h.status, h.relevance, h.error]),
      [
        [url(1), 'discard', 200, 0.01, null],
        [url(2), 'error', 503, null, 'FC_ERR_NETWORK: reset'],
      ],
    );
    const c = await store.counts();
    assert.deepEqual([c.discard, c.error, c.processing], [1, 1, 0]);
  });
}
