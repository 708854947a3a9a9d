/**
 * The store conformance suite, browsing (`Browse`, browse.ts): pages of URLs filtered
 * and sorted, walked by cursor (also while URLs are added), bad queries refused
 * naming the field; a page's links in and out; a URL's history; activity by bucket.
 */
import assert from 'node:assert/strict';
import type { PageQuery, PageRow, PageSort } from './browse.js';
import {
  A1,
  A2,
  A3,
  A4,
  B1,
  B2,
  B3,
  browseReadsConformance,
  C1,
  C2,
  C3,
  fill,
} from './conformance-browse-reads.js';
import { isInvalid, type StoreFactory, storeTest } from './conformance-kit.js';
import type { Store } from './types.js';

/** Every URL of the query's answer, page after page (`limit` each), checking each `next`. */
async function walk(store: Store, q: PageQuery, between?: (i: number) => Promise<void>) {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; ; i++) {
    const { items, next } = await store.listPages({ ...q, ...(cursor ? { cursor } : {}) });
    assert.ok(items.length <= (q.limit ?? 50));
    out.push(...items.map((r) => r.url));
    if (next === null) return out;
    assert.equal(items.length, q.limit ?? 50, 'a page before the last is full');
    cursor = next;
    await between?.(i);
    assert.ok(i < 100, 'the walk ends');
  }
}

const urlsOf = async (store: Store, q: PageQuery) =>
  (await store.listPages(q)).items.map((r) => r.url);

/** The order of every sort, both ways. */
const ORDERS: [PageSort, 'asc' | 'desc', string[]][] = [
  ['relevance', 'desc', [A1, C3, B2, A2, B1, B3, A4, A3, C2, C1]],
  ['relevance', 'asc', [B1, A2, B2, C3, A1, C1, C2, A3, A4, B3]],
  ['fetchedAt', 'desc', [A2, B2, B1, C3, A1, B3, A4, A3, C2, C1]],
  ['fetchedAt', 'asc', [A1, C3, B1, B2, A2, C1, C2, A3, A4, B3]],
  ['rank', 'desc', [A2, B2, A1, B3, A4, C3, A3, C2, C1, B1]],
  ['rank', 'asc', [A1, B2, A2, B1, C1, C2, A3, C3, A4, B3]],
];

/** Filters alone and combined (default order: fetchedAt desc, then the rest by id desc). */
const FILTERS: [PageQuery, string[]][] = [
  [{ state: 'complete' }, [A2, B2, C3, A1]],
  [{ state: 'discard' }, [B1]],
  [{ state: 'error' }, [C1]],
  [{ state: 'redirect' }, [C2]],
  [{ state: 'processing' }, [A3]],
  [{ state: 'waiting' }, [B3, A4]],
  [{ host: 'a.test' }, [A2, A1, A4, A3]],
  [{ host: 'b.test' }, [B2, B1, B3]],
  [{ host: 'c.test' }, [C3, C2, C1]],
  [{ host: 'B.TEST' }, [B2, B1, B3]],
  [{ host: 'nowhere.test' }, []],
  [{ minRelevance: 0.5 }, [A2, B2, C3, A1]],
  [{ maxRelevance: 0.5 }, [A2, B2, B1]],
  [{ minRelevance: 0.5, maxRelevance: 0.7 }, [A2, B2, C3]],
  [{ minRelevance: 0.95 }, []],
  [{ state: 'complete', host: 'a.test', minRelevance: 0.6 }, [A1]],
  [{ state: 'waiting', host: 'b.test' }, [B3]],
  [{ state: 'error', host: 'c.test' }, [C1]],
  [{ state: 'waiting', minRelevance: 0 }, []],
  [{ state: 'discard', sort: 'rank' }, [B1]],
  [{ state: 'complete', sort: 'rank', order: 'asc' }, [A1, B2, A2, C3]],
  [{ host: 'a.test', sort: 'rank' }, [A2, A1, A4, A3]],
  [{ host: 'c.test', sort: 'relevance', order: 'asc' }, [C3, C1, C2]],
  [{ maxRelevance: 0.5, sort: 'relevance' }, [B2, A2, B1]],
];

export function browseConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('listPages on an empty store: no rows, no next', async ({ store }) => {
    assert.deepEqual(await store.listPages(), { items: [], next: null });
    assert.deepEqual(await store.listPages({ state: 'complete', sort: 'rank' }), {
      items: [],
      next: null,
    });
  });

  test('listPages rows: the page, or the last history row of a URL without one', async ({
    store,
  }) => {
    await fill(store);
    const { items, next } = await store.listPages();
    assert.equal(next, null);
    const row = (url: string) => items.find((r) => r.url === url);
    const none = { relevance: null, rank: null, title: null };
    const want: PageRow[] = [
      {
        url: A1,
        state: 'complete',
        host: 'a.test',
        depth: 1,
        relevance: 0.9,
        rank: 0.5,
        title: 'A1',
        fetchedAt: 1000,
        status: 200,
      },
      {
        url: B1,
        state: 'discard',
        host: 'b.test',
        depth: 1,
        relevance: 0.1,
        rank: null,
        title: null,
        fetchedAt: 2000,
        status: 200,
      },
      {
        url: B2,
        state: 'complete',
        host: 'b.test',
        depth: 1,
        relevance: 0.5,
        rank: 0.5,
        title: null,
        fetchedAt: 2000,
        status: 200,
      },
      { url: C1, state: 'error', host: 'c.test', depth: 1, ...none, fetchedAt: 2500, status: 404 },
      {
        url: C2,
        state: 'redirect',
        host: 'c.test',
        depth: 1,
        ...none,
        fetchedAt: 1500,
        status: 301,
      },
      {
        url: A3,
        state: 'processing',
        host: 'a.test',
        depth: 1,
        ...none,
        fetchedAt: null,
        status: null,
      },
      {
        url: C3,
        state: 'complete',
        host: 'c.test',
        depth: 1,
        relevance: 0.7,
        rank: null,
        title: 'C3',
        fetchedAt: 1500,
        status: 200,
      },
      {
        url: A4,
        state: 'waiting',
        host: 'a.test',
        depth: 2,
        ...none,
        fetchedAt: null,
        status: null,
      },
    ];
    for (const w of want) assert.deepEqual(row(w.url), w);
  });

  test('listPages sorts: every sort both ways, ties by id, rows without the key last', async ({
    store,
  }) => {
    await fill(store);
    for (const [sort, order, want] of ORDERS) {
      assert.deepEqual(await urlsOf(store, { sort, order }), want, `${sort} ${order}`);
    }
    assert.deepEqual(await urlsOf(store, {}), ORDERS[2]?.[2], 'default: fetchedAt desc');
  });

  test('listPages filters, alone and combined', async ({ store }) => {
    await fill(store);
    for (const [q, want] of FILTERS) {
      assert.deepEqual(await urlsOf(store, q), want, JSON.stringify(q));
    }
  });

  test('listPages pages: walking by cursor gives every row once, in order', async ({ store }) => {
    await fill(store);
    for (const [sort, order, want] of ORDERS) {
      for (const limit of [1, 3, 5, 10]) {
        assert.deepEqual(
          await walk(store, { sort, order, limit }),
          want,
          `${sort} ${order} ${limit}`,
        );
      }
    }
    for (const [q, want] of FILTERS) {
      assert.deepEqual(await walk(store, { ...q, limit: 2 }), want, JSON.stringify(q));
    }
    // A full last page: its `next` is null, no empty page follows.
    const first = await store.listPages({ limit: 5 });
    assert.notEqual(first.next, null);
    const last = await store.listPages({ limit: 5, cursor: first.next as string });
    assert.equal(last.items.length, 5);
    assert.equal(last.next, null);
  });

  test('listPages pages: URLs added between pages neither repeat nor hide a row', async ({
    store,
  }) => {
    await fill(store);
    let n = 0;
    for (const [sort, order, want] of ORDERS) {
      const added = new Set<string>();
      const got = await walk(store, { sort, order, limit: 2 }, async (i) => {
        if (i >= 4) return;
        const url = `http://new.test/${++n}`;
        added.add(url);
        await store.addUrls([{ url, depth: 3, priority: 1 }]);
      });
      assert.equal(new Set(got).size, got.length, `${sort} ${order}: no row twice`);
      const old = got.filter((u) => !added.has(u) && !u.startsWith('http://new.test/'));
      assert.deepEqual(old, want, `${sort} ${order}`);
      // Ascending, a new URL (the highest id, no page) comes after every cursor: all seen.
      if (order === 'asc') assert.ok([...added].every((u) => got.includes(u)));
    }
  });

  test('listPages refuses bad queries, naming the field', async ({ store }) => {
    await fill(store);
    const relevance = (await store.listPages({ sort: 'relevance', limit: 1 })).next as string;
    const junk = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const bad: [unknown, RegExp][] = [
      [{ limit: 0 }, /listPages limit/],
      [{ limit: 501 }, /listPages limit/],
      [{ limit: 1.5 }, /listPages limit/],
      [{ limit: '5' }, /listPages limit/],
      [{ cursor: 'xx' }, /listPages cursor: malformed/],
      [{ cursor: '!!' }, /listPages cursor: malformed/],
      [{ cursor: junk({ s: 'fetchedAt', o: 'desc', k: 1, i: 0 }) }, /listPages cursor: malformed/],
      [
        { cursor: junk({ s: 'fetchedAt', o: 'desc', k: 'x', i: 1 }) },
        /listPages cursor: malformed/,
      ],
      [{ cursor: junk([1, 2]) }, /listPages cursor: malformed/],
      [{ cursor: relevance }, /listPages cursor: made for sort relevance desc, not fetchedAt desc/],
      [{ cursor: relevance, sort: 'relevance', order: 'asc' }, /listPages cursor/],
      [{ minRelevance: Number.NaN }, /listPages minRelevance/],
      [{ maxRelevance: Number.POSITIVE_INFINITY }, /listPages maxRelevance/],
      [{ state: 'unknown' }, /listPages state: unknown state "unknown"/],
      [{ sort: 'title' }, /listPages sort/],
      [{ order: 'up' }, /listPages order/],
      [{ host: '' }, /listPages host/],
      [{ q: 'words' }, /listPages: unknown option "q"/],
      ['complete', /listPages/],
    ];
    for (const [q, re] of bad) {
      await assert.rejects(store.listPages(q as PageQuery), isInvalid(re), JSON.stringify(q));
    }
    // The cursor continues in its own sort.
    assert.deepEqual(await urlsOf(store, { sort: 'relevance', cursor: relevance, limit: 2 }), [
      C3,
      B2,
    ]);
  });

  browseReadsConformance(factory);
}
