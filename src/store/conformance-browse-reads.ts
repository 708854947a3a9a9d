/**
 * The store conformance suite, browsing: the crawl every browsing test reads (`fill`),
 * a page's links in and out, a URL's history, the activity by time bucket.
 */
import assert from 'node:assert/strict';
import { isInvalid, page, type StoreFactory, storeTest } from './conformance-kit.js';
import type { Store } from './types.js';

export const A1 = 'http://a.test/1';
export const A2 = 'http://a.test/2';
export const B1 = 'http://b.test/1';
export const B2 = 'http://b.test:8080/2';
export const C1 = 'http://c.test/1';
export const C2 = 'http://c.test/2';
export const A3 = 'http://a.test/3';
export const C3 = 'http://c.test/3';
export const A4 = 'http://a.test/4';
export const B3 = 'http://b.test/3';
export const UNKNOWN = 'http://x.test/unknown';

/**
 * Discovered in this order: A1 A2 B1 B2 C1 C2 A3 (claimed together), C3 (C2's
 * redirect target, inserted by the commit), A4 B3 (added after).
 *
 * | url | state      | relevance | fetchedAt | rank | status |
 * | A1  | complete   | 0.9       | 1000      | 0.5  | 200    |
 * | A2  | complete   | 0.5       | 3000      | 0.7  | 200    |
 * | B1  | discard    | 0.1       | 2000      | —    | 200    |
 * | B2  | complete   | 0.5       | 2000      | 0.5  | 200    |
 * | C1  | error      | —         | (2500)    | —    | (404)  |
 * | C2  | redirect   | —         | (1500)    | —    | (301)  |
 * | A3  | processing | —         | —         | —    | —      |
 * | C3  | complete   | 0.7       | 1500      | —    | 200    |
 * | A4  | waiting    |
 * | B3  | waiting    |
 */
export async function fill(store: Store): Promise<void> {
  await store.addUrls([A1, A2, B1, B2, C1, C2, A3].map((url) => ({ url, depth: 1, priority: 1 })));
  assert.equal((await store.claim(100)).length, 7);
  await store.commit([
    {
      url: A1,
      state: 'complete',
      result: page({
        fetchedAt: 1000,
        relevance: 0.9,
        title: 'A1',
        links: [
          { url: A2, anchor: 'two' },
          { url: B1 },
          { url: UNKNOWN, anchor: 'x' },
          { url: A2, anchor: 'again' },
        ],
      }),
    },
    { url: A2, state: 'complete', result: page({ fetchedAt: 3000, relevance: 0.5, title: 'A2' }) },
    { url: B1, state: 'discard', result: page({ fetchedAt: 2000, relevance: 0.1 }) },
    {
      url: B2,
      state: 'complete',
      result: page({
        fetchedAt: 2000,
        relevance: 0.5,
        // An anchor that reads like a link to A3 in the stored JSON: not one.
        links: [
          { url: A2, anchor: 'from b2' },
          { url: B3, anchor: `["${A3}",` },
        ],
      }),
    },
    { url: C1, state: 'error', result: { fetchedAt: 2500, error: 'HTTP 404', status: 404 } },
    {
      url: C2,
      state: 'complete',
      result: page({
        fetchedAt: 1500,
        relevance: 0.7,
        title: 'C3',
        redirects: [{ url: C2, status: 301, location: C3 }],
        links: [{ url: A1, anchor: 'one' }],
      }),
    },
  ]);
  await store.setPageScores([
    { url: A1, score: 0.5 },
    { url: A2, score: 0.7 },
    { url: B2, score: 0.5 },
  ]);
  await store.addUrls([A4, B3].map((url) => ({ url, depth: 2, priority: 1 })));
}

export function browseReadsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('pageLinks: out in page order, in by linking page, with anchors and states', async ({
    store,
  }) => {
    await fill(store);
    const out = await store.pageLinks(A1, { direction: 'out' });
    assert.deepEqual(out, [
      { url: A2, anchor: 'two', state: 'complete', relevance: 0.5 },
      { url: B1, anchor: null, state: 'discard', relevance: 0.1 },
      { url: UNKNOWN, anchor: 'x', state: null, relevance: null },
      { url: A2, anchor: 'again', state: 'complete', relevance: 0.5 },
    ]);
    assert.deepEqual(await store.pageLinks(A1, { direction: 'out', limit: 2 }), out.slice(0, 2));
    assert.deepEqual(await store.pageLinks(B2, { direction: 'out' }), [
      { url: A2, anchor: 'from b2', state: 'complete', relevance: 0.5 },
      { url: B3, anchor: `["${A3}",`, state: 'waiting', relevance: null },
    ]);
    const into = await store.pageLinks(A2, { direction: 'in' });
    assert.deepEqual(into, [
      { url: A1, anchor: 'two', state: 'complete', relevance: 0.9 },
      { url: A1, anchor: 'again', state: 'complete', relevance: 0.9 },
      { url: B2, anchor: 'from b2', state: 'complete', relevance: 0.5 },
    ]);
    assert.deepEqual(await store.pageLinks(A2, { direction: 'in', limit: 2 }), into.slice(0, 2));
    // C3's page was reached through C2's redirect: its links are C3's.
    assert.deepEqual(await store.pageLinks(A1, { direction: 'in' }), [
      { url: C3, anchor: 'one', state: 'complete', relevance: 0.7 },
    ]);
    assert.deepEqual(await store.pageLinks(C3, { direction: 'out' }), [
      { url: A1, anchor: 'one', state: 'complete', relevance: 0.9 },
    ]);
    assert.deepEqual(await store.pageLinks(UNKNOWN, { direction: 'in' }), [
      { url: A1, anchor: 'x', state: 'complete', relevance: 0.9 },
    ]);
    assert.deepEqual(await store.pageLinks(A3, { direction: 'in' }), []);
    assert.deepEqual(await store.pageLinks(A4, { direction: 'out' }), []);
    assert.deepEqual(await store.pageLinks('http://nobody.test/', { direction: 'out' }), []);
    const bad: [string, unknown, RegExp][] = [
      ['ftp://a.test/', { direction: 'out' }, /pageLinks\(url\)/],
      [A1, { direction: 'up' }, /pageLinks direction/],
      [A1, { direction: 'in', limit: 0 }, /pageLinks limit/],
      [A1, { direction: 'in', limit: 1001 }, /pageLinks limit/],
    ];
    for (const [url, o, re] of bad) {
      await assert.rejects(
        store.pageLinks(url, o as { direction: 'in' }),
        isInvalid(re),
        JSON.stringify(o),
      );
    }
  });

  test('pageRow: each URL’s row as listPages lists it, in any state; null when unknown', async ({
    store,
  }) => {
    await fill(store);
    const { items } = await store.listPages({ limit: 500 });
    assert.equal(items.length, 10);
    for (const row of items) assert.deepEqual(await store.pageRow(row.url), row, row.url);
    assert.equal((await store.pageRow(A4))?.state, 'waiting');
    assert.equal((await store.pageRow(C1))?.status, 404);
    assert.equal(await store.pageRow(UNKNOWN), null);
    await assert.rejects(store.pageRow('not a url'), isInvalid(/pageRow\(url\)/));
  });

  test('urlHistory: a URL’s rows by fetchedAt, ties in the order recorded', async ({ store }) => {
    await fill(store);
    const r = 'http://r.test/1';
    await store.addUrls([{ url: r, depth: 0, priority: 9 }]);
    assert.deepEqual(
      (await store.claim(1)).map((c) => c.url),
      [r],
    );
    // A failed attempt recorded first, but fetched after the page that follows it.
    await store.fail(r, { fetchedAt: 7000, error: 'FC_ERR_CONNECT_TIMEOUT: slow', retryAt: 0 });
    assert.deepEqual(
      (await store.claim(1, { now: 1 })).map((c) => c.url),
      [r],
    );
    await store.complete(r, page({ fetchedAt: 6000, relevance: 0.3 }));
    const rows = await store.urlHistory(r);
    assert.deepEqual(
      rows.map((h) => [h.fetchedAt, h.state, h.attempt, h.error]),
      [
        [6000, 'complete', 2, null],
        [7000, 'error', 1, 'FC_ERR_CONNECT_TIMEOUT: slow'],
      ],
    );
    assert.deepEqual(
      (await store.urlHistory(C2)).map((h) => [h.url, h.state, h.status, h.location, h.fetchedAt]),
      [[C2, 'redirect', 301, C3, 1500]],
    );
    assert.deepEqual(
      (await store.urlHistory(C1)).map((h) => [h.state, h.status, h.error]),
      [['error', 404, 'HTTP 404']],
    );
    assert.deepEqual(await store.urlHistory(A4), []);
    assert.deepEqual(await store.urlHistory('http://nobody.test/'), []);
    await assert.rejects(store.urlHistory('nope'), isInvalid(/urlHistory\(url\)/));
  });

  test('activity: fetch outcomes per bucket, redirect rows apart', async ({ store }) => {
    assert.deepEqual(await store.activity({ bucketMs: 1000 }), []);
    await fill(store);
    const b = (at: number, kept: number, discarded: number, failed: number) => ({
      at,
      fetched: kept + discarded + failed,
      kept,
      discarded,
      failed,
    });
    const cases: [{ bucketMs: number; since?: number }, ReturnType<typeof b>[]][] = [
      [{ bucketMs: 1000 }, [b(1000, 2, 0, 0), b(2000, 1, 1, 1), b(3000, 1, 0, 0)]],
      [{ bucketMs: 1000, since: 2000 }, [b(2000, 1, 1, 1), b(3000, 1, 0, 0)]],
      [{ bucketMs: 1000, since: 2000.5 }, [b(2000, 0, 0, 1), b(3000, 1, 0, 0)]],
      [{ bucketMs: 1000, since: 3001 }, []],
      [{ bucketMs: 10_000 }, [b(0, 4, 1, 1)]],
      // 1000 → 700; 1500 (C3), 2000 (B1, B2) → 1400; 2500 → 2100; 3000 → 2800.
      [{ bucketMs: 700 }, [b(700, 1, 0, 0), b(1400, 2, 1, 0), b(2100, 0, 0, 1), b(2800, 1, 0, 0)]],
    ];
    for (const [o, want] of cases) {
      assert.deepEqual(await store.activity(o), want, JSON.stringify(o));
    }
    // A failed attempt put back counts as failed.
    await store.addUrls([{ url: 'http://r.test/2', depth: 0, priority: 9 }]);
    await store.claim(1);
    await store.fail('http://r.test/2', { fetchedAt: 3500, error: 'FC_ERR_DNS: x', retryAt: 0 });
    assert.deepEqual(await store.activity({ bucketMs: 1000, since: 3000 }), [b(3000, 1, 0, 1)]);
    const bad: [unknown, RegExp][] = [
      [{ bucketMs: 0 }, /activity bucketMs/],
      [{ bucketMs: 1.5 }, /activity bucketMs/],
      [{}, /activity bucketMs/],
      [{ bucketMs: 1000, since: Number.NaN }, /activity since/],
    ];
    for (const [o, re] of bad) {
      await assert.rejects(
        store.activity(o as { bucketMs: number }),
        isInvalid(re),
        JSON.stringify(o),
      );
    }
  });
}
