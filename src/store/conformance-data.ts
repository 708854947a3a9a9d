/**
 * The store conformance suite, second part: what the store reports (history,
 * counts, statistics, pages, bodies, metadata) and what survives a reopen.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { StoreStateError } from '../errors/index.js';
import { md5Hex } from '../url/index.js';
import {
  addAndClaim,
  collect,
  page,
  type StoreFactory,
  storeTest,
  url,
  withStore,
} from './conformance-kit.js';
import type { Store } from './types.js';

/** A small crawl touching every table. */
async function scenario(store: Store): Promise<void> {
  await store.addSeeds([url('s0'), url('s1')]);
  await store.setKeywords({ 电网: 1, 'power grid': 0.8 });
  await store.setMeta('topic', { name: '电网', threshold: 0.1 });
  await store.claim(2);
  await store.commit([
    {
      url: url('s0'),
      state: 'complete',
      result: page({
        fetchedAt: 100,
        bytes: 300,
        title: 'zero',
        body: Buffer.from('<html>电网</html>'),
        links: [{ url: url('a'), anchor: 'A' }],
        newUrls: [
          { url: url('a'), depth: 1, priority: 0.7, anchor: 'A', value: 0.35, context: 'see A' },
          { url: url('b'), depth: 1, priority: 0.2, value: -4 },
        ],
      }),
    },
    {
      url: url('s1'),
      state: 'discard',
      result: page({ fetchedAt: 101, bytes: 50, relevance: 0.01 }),
    },
  ]);
  await store.claim(1); // url('a') stays processing
}

async function snapshot(store: Store) {
  return {
    counts: await store.counts(),
    stats: await store.stats(),
    history: await collect(store.history()),
    pages: await collect(store.pages()),
    urls: await collect(store.urls()),
    links: await collect(store.links()),
    seeds: await store.getSeeds(),
    keywords: await store.getKeywords(),
    topic: await store.getMeta('topic'),
    body: await store.readBody(url('s0')),
  };
}

export function dataConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('history lists fetches by fetchedAt, ties in the order recorded', async ({ store }) => {
    await addAndClaim(store, [url(1), url(2), url(3), url(4)]);
    await store.complete(url(1), page({ fetchedAt: 30 }));
    await store.fail(url(2), { fetchedAt: 10, error: 'e' });
    await store.commit([
      { url: url(3), state: 'discard', result: page({ fetchedAt: 20 }) },
      { url: url(4), state: 'complete', result: page({ fetchedAt: 20 }) },
    ]);
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.fetchedAt, h.state]),
      [
        [url(2), 10, 'error'],
        [url(3), 20, 'discard'],
        [url(4), 20, 'complete'],
        [url(1), 30, 'complete'],
      ],
    );
  });

  test('counts and statistics follow every transition', async ({ store }) => {
    await store.addSeeds([url(0), url(1), url(2)]);
    await store.addUrls([
      { url: url(3), depth: 1, priority: 0 },
      { url: 'http://other.test/', depth: 1, priority: 0 },
    ]);
    await store.claim(4);
    await store.commit([
      { url: url(0), state: 'complete', result: page({ fetchedAt: 500, bytes: 1000 }) },
      { url: url(1), state: 'discard', result: page({ fetchedAt: 200, bytes: 10 }) },
      { url: url(2), state: 'error', result: { fetchedAt: 900, error: 'dns' } },
    ]);
    await store.trimWaiting(0);
    const s = await store.stats();
    assert.deepEqual(s.counts, {
      waiting: 0,
      processing: 1,
      complete: 1,
      discard: 1,
      error: 1,
      redirect: 0,
    });
    assert.deepEqual(
      [
        s.discovered,
        s.dropped,
        s.fetched,
        s.failed,
        s.rejected,
        s.bytes,
        s.firstFetchAt,
        s.lastFetchAt,
      ],
      [5, 1, 3, 1, 1, 1010, 200, 900],
    );
    // Both pages are responses; the failure had none (no status).
    assert.deepEqual([s.responses, s.redirects, s.errors], [2, 0, [{ code: 'dns', count: 1 }]]);
    assert.deepEqual(s.topHosts, [
      {
        host: 'h0.test',
        discovered: 2,
        fetched: 1,
        complete: 1,
        discard: 0,
        error: 0,
        redirect: 0,
        bytes: 1000,
      },
      {
        host: 'h1.test',
        discovered: 1,
        fetched: 1,
        complete: 0,
        discard: 1,
        error: 0,
        redirect: 0,
        bytes: 10,
      },
      {
        host: 'h2.test',
        discovered: 1,
        fetched: 1,
        complete: 0,
        discard: 0,
        error: 1,
        redirect: 0,
        bytes: 0,
      },
      {
        host: 'other.test',
        discovered: 1,
        fetched: 0,
        complete: 0,
        discard: 0,
        error: 0,
        redirect: 0,
        bytes: 0,
      },
    ]);
    assert.deepEqual(
      (await store.stats({ topHosts: 1 })).topHosts.map((h) => h.host),
      ['h0.test'],
    );
    // The counts agree with the URLs themselves.
    const tally: Record<string, number> = {};
    for await (const r of store.urls()) tally[r.state] = (tally[r.state] ?? 0) + 1;
    assert.deepEqual(tally, { complete: 1, discard: 1, error: 1, processing: 1 });
    assert.deepEqual(
      (await collect(store.urls('processing'))).map((r) => r.url),
      [url(3)],
    );
  });

  test('bodies round-trip, gzip-compressed and named by the MD5 of the URL', async ({
    store,
    dir,
  }) => {
    const body = Buffer.concat([
      Buffer.from('<html><title>电网</title>'),
      Buffer.from([0, 255, 0xc4, 0xe3]),
    ]);
    await addAndClaim(store, [url(1), url(2)]);
    await store.complete(url(1), page({ body }));
    await store.discard(url(2), page());
    assert.deepEqual(await store.readBody(url(1)), body);
    assert.equal(await store.readBody(url(2)), null);
    assert.equal(await store.readBody(url(3)), null);
    const pages = await collect(store.pages());
    const name = `pages/${md5Hex(url(1))}.gz`;
    assert.deepEqual(
      pages.map((p) => p.bodyFile),
      [name, null],
    );
    // Without a given content hash, a stored body's MD5 is recorded.
    assert.deepEqual(
      pages.map((p) => p.contentHash),
      [createHash('md5').update(body).digest('hex'), null],
    );
    if (dir !== undefined) {
      const file = join(dir, name);
      assert.ok(existsSync(file), `${file} exists`);
      assert.deepEqual(gunzipSync(readFileSync(file)), body);
    }
  });

  test('page scores are stored, and only for fetched pages', async ({ store }) => {
    await addAndClaim(store, [url(1)]);
    await store.complete(url(1), page());
    await store.setPageScores([{ url: url(1), pageRank: 0.25, score: 0.6 }]);
    await store.setPageScores([{ url: url(1), score: 0.7 }]);
    const [p] = await collect(store.pages());
    assert.deepEqual([p?.pageRank, p?.score], [0.25, 0.7]);
    await assert.rejects(store.setPageScores([{ url: url(2), score: 1 }]), StoreStateError);
  });

  test('streams deliver every row when there are thousands', async ({ store }) => {
    const n = 2_345;
    const urls = Array.from({ length: n }, (_, i) => url(i));
    await store.addUrls(urls.map((u) => ({ url: u, depth: 1, priority: 0 })));
    await store.claim(n);
    await store.commit(
      urls.map((u, i) => ({
        url: u,
        state: 'complete' as const,
        result: page({ fetchedAt: i % 10, links: [{ url: `${u}/next` }] }),
      })),
    );
    const all = await collect(store.urls());
    assert.deepEqual(
      all.map((r) => r.url),
      urls,
    );
    assert.equal((await collect(store.pages())).length, n);
    assert.equal((await collect(store.links())).length, n);
    const h = await collect(store.history());
    assert.equal(h.length, n);
    assert.equal(new Set(h.map((x) => x.url)).size, n);
    for (let i = 1; i < n; i++) assert.ok((h[i]?.fetchedAt ?? 0) >= (h[i - 1]?.fetchedAt ?? 0));
  });

  it('everything survives closing and reopening', async (t) => {
    await withStore(factory, async (h) => {
      if (h.reopen === undefined) return t.skip('the store does not persist');
      await scenario(h.store);
      const before = await snapshot(h.store);
      await h.store.close();
      h.store = await h.reopen();
      assert.deepEqual(await snapshot(h.store), before);
      // Discovery order continues after the old ids.
      await h.store.addUrls([{ url: url('late'), depth: 1, priority: 0.2 }]);
      assert.deepEqual(
        (await h.store.claim(5)).map((c) => c.url),
        [url('b'), url('late')],
      );
    });
  });

  it('after a reopen, recover returns processing URLs to waiting and nothing is fetched twice', async (t) => {
    await withStore(factory, async (h) => {
      if (h.reopen === undefined) return t.skip('the store does not persist');
      await scenario(h.store);
      const pending = h.store.complete(
        url('a'),
        page({ fetchedAt: 300, body: Buffer.alloc(50_000, 1) }),
      );
      await h.store.close(); // lets the pending commit finish first
      await pending;
      h.store = await h.reopen();
      await h.store.addUrls([{ url: url('c'), depth: 1, priority: 0.9 }]);
      await h.store.claim(1);
      await h.store.close();
      h.store = await h.reopen();
      assert.equal((await h.store.counts()).processing, 1);
      assert.equal(await h.store.recover(), 1);
      const claimed = (await h.store.claim(10)).map((c) => c.url);
      assert.deepEqual(claimed, [url('c'), url('b')]);
      for (const u of claimed) await h.store.complete(u, page({ fetchedAt: 400 }));
      const completes = new Map<string, number>();
      for await (const r of h.store.history()) {
        if (r.state === 'complete') completes.set(r.url, (completes.get(r.url) ?? 0) + 1);
      }
      assert.deepEqual([...completes.values()], [1, 1, 1, 1]);
      assert.deepEqual(await h.store.counts(), {
        waiting: 0,
        processing: 0,
        complete: 4,
        discard: 1,
        error: 0,
        redirect: 0,
      });
    });
  });
}
