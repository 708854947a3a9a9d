/**
 * The store conformance suite: the contract of `Store` (types.ts) as `node:test`
 * tests. Every implementation runs it:
 *
 * ```ts
 * storeConformance('sqlite', async () => { ... return { store, reopen, cleanup, dir }; });
 * ```
 *
 * `reopen` enables the persistence and recovery tests, `dir` the checks of body files.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contextConformance } from './conformance-context.js';
import { dataConformance } from './conformance-data.js';
import {
  addAndClaim,
  collect,
  page,
  type StoreFactory,
  url,
  withStore,
} from './conformance-kit.js';
import { queueConformance } from './conformance-queues.js';
import { redirectStatsConformance } from './conformance-redirect-stats.js';
import { redirectConformance } from './conformance-redirects.js';
import { rescoreConformance } from './conformance-rescore.js';
import { rulesConformance } from './conformance-rules.js';
import { searchConformance } from './conformance-search.js';

export type { StoreFactory, StoreHarness } from './conformance-kit.js';

export function storeConformance(name: string, factory: StoreFactory): void {
  const test = (title: string, fn: Parameters<typeof withStore>[1]) =>
    it(title, () => withStore(factory, fn));

  describe(`Store conformance: ${name}`, () => {
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

    test('claim hands out the highest priority first, ties in discovery order', async ({
      store,
    }) => {
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

    test('complete stores the page, its links, the new URLs and a history row', async ({
      store,
    }) => {
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
        (await collect(store.history())).map((h) => [
          h.url,
          h.state,
          h.status,
          h.relevance,
          h.error,
        ]),
        [
          [url(1), 'discard', 200, 0.01, null],
          [url(2), 'error', 503, null, 'FC_ERR_NETWORK: reset'],
        ],
      );
      const c = await store.counts();
      assert.deepEqual([c.discard, c.error, c.processing], [1, 1, 0]);
    });

    rulesConformance(factory);
    dataConformance(factory);
    queueConformance(factory);
    contextConformance(factory);
    rescoreConformance(factory);
    searchConformance(factory);
    redirectConformance(factory);
    redirectStatsConformance(factory);
  });
}
