// rankStore and topPagesByScore on the memory and SQLite stores, against PageRank and
// HITS solved by hand (see ./testing.ts for the crawl and its solution).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { createMemoryStore, openStore, type PageScores, type Store } from '../store/index.js';
import { tempDir } from '../util/testing.js';
import {
  META_RANKING,
  type RankingSummary,
  type RankStoreOptions,
  rankStore,
  topPagesByScore,
} from './index.js';
import { CRAWL, crawlRound1, crawlRound2, EXPECTED, near } from './testing.js';

type Key = keyof typeof CRAWL;
const keyOf = (url: string) => (Object.keys(CRAWL) as Key[]).find((k) => CRAWL[k] === url) ?? url;

/** pageRank and score of every fetched page, by short name. */
async function scores(store: Store) {
  const out: Record<string, { pageRank: number | null; score: number | null; state: string }> = {};
  for await (const p of store.pages()) {
    out[keyOf(p.url)] = { pageRank: p.pageRank, score: p.score, state: p.state };
  }
  return out;
}

interface Kind {
  name: string;
  open: () => Promise<Store>;
  /** The same crawl, as a later process sees it. */
  reopen: (store: Store) => Promise<Store>;
}

const kinds: Kind[] = [
  {
    name: 'memory',
    open: async () => createMemoryStore(),
    reopen: async (store) => store,
  },
  {
    name: 'sqlite',
    open: async () => {
      const dir = join(tempDir('rank'), 'store');
      const store = await openStore(dir, { create: true });
      dirs.set(store, dir);
      return store;
    },
    reopen: async (store) => {
      const dir = dirs.get(store)!;
      await store.close();
      const again = await openStore(dir);
      dirs.set(again, dir);
      return again;
    },
  },
];
const dirs = new WeakMap<Store, string>();

function checkRound(
  got: Awaited<ReturnType<typeof scores>>,
  expected: (typeof EXPECTED)['round1' | 'round2'],
): void {
  for (const [k, r] of Object.entries(expected.pageRank))
    near(got[k]?.pageRank, r, 1e-9, `R(${k})`);
  for (const [k, p] of Object.entries(expected.score)) near(got[k]?.score, p, 1e-9, `P(${k})`);
  assert.equal(got['c']?.state, 'discard');
  assert.equal(got['c']?.score, null, 'a discarded page has no final score');
  assert.equal(got['e'], undefined, 'a failed fetch is not a page');
  assert.equal(Object.keys(got).length, expected.pages);
}

for (const kind of kinds) {
  describe(`rankStore on the ${kind.name} store`, () => {
    it('stores R and P as solved by hand, then re-ranks the resumed crawl', async () => {
      let store = await kind.open();
      try {
        await crawlRound1(store);
        const t0 = Date.now();
        const first = await rankStore(store, { tolerance: 1e-13, maxIterations: 500 });
        assert.deepEqual(
          { nodes: first.nodes, edges: first.edges, pages: first.pages },
          { nodes: 5, edges: 5, pages: 3 },
        );
        assert.equal(first.algorithm, 'pagerank');
        assert.equal(first.damping, 0.8);
        assert.equal(first.w1, 0.6);
        assert.equal(first.w2, 0.4);
        assert.ok(first.converged && first.iterations > 1);
        assert.ok(first.at >= t0 && first.at <= Date.now());
        assert.ok(first.ms >= 0);
        assert.deepEqual(await store.getMeta<RankingSummary>(META_RANKING), first);
        checkRound(await scores(store), EXPECTED.round1);

        store = await kind.reopen(store);
        checkRound(await scores(store), EXPECTED.round1);
        await crawlRound2(store);
        const second = await rankStore(store, { tolerance: 1e-13, maxIterations: 500 });
        assert.deepEqual(
          { nodes: second.nodes, edges: second.edges, pages: second.pages },
          { nodes: 5, edges: 7, pages: 4 },
        );
        assert.deepEqual(await store.getMeta(META_RANKING), second);
        checkRound(await scores(store), EXPECTED.round2);

        const top = await topPagesByScore(store, 2);
        assert.deepEqual(
          top.map((p) => [keyOf(p.url), p.title, p.relevance]),
          [
            ['a', 'Alpha', 0.9],
            ['b', 'Beta', 0.5],
          ],
        );
        near(top[0]?.score, EXPECTED.round2.score.a);
        near(top[1]?.pageRank, EXPECTED.round2.pageRank.b);
        const all = await topPagesByScore(store, 10);
        assert.deepEqual(
          all.map((p) => keyOf(p.url)),
          ['a', 'b', 'x'],
          'kept pages only',
        );
      } finally {
        await store.close();
      }
    });

    it('with HITS the authority score plays R', async () => {
      const store = await kind.open();
      try {
        await crawlRound1(store);
        // a → b, c, x and b → a, e: A·Aᵀ on the hubs (a, b) is diag(3, 2), so h = (1, 0)
        // and the authorities are 1 for b, c, x and 0 for a and e.
        const s = await rankStore(store, { algorithm: 'hits', tolerance: 1e-12 });
        assert.equal(s.algorithm, 'hits');
        assert.equal(s.damping, null);
        assert.ok(s.converged);
        const got = await scores(store);
        near(got['a']?.pageRank, 0, 1e-9, 'R(a)');
        near(got['a']?.score, 0.6 * 0.9, 1e-9, 'P(a)');
        near(got['b']?.pageRank, 1, 1e-9, 'R(b)');
        near(got['b']?.score, 0.6 * 0.5 + 0.4, 1e-9, 'P(b)');
        near(got['c']?.pageRank, 1, 1e-9, 'R(c)');
        assert.equal(got['c']?.score, null);
        assert.deepEqual(
          (await topPagesByScore(store, 5)).map((p) => keyOf(p.url)),
          ['b', 'a'],
        );
      } finally {
        await store.close();
      }
    });

    it('uses the weights given, and writes in batches of batchSize pages', async () => {
      const store = await kind.open();
      try {
        await crawlRound1(store);
        const batches: number[] = [];
        const counting = new Proxy(store, {
          get(target, prop, receiver) {
            if (prop === 'setPageScores') {
              return (items: readonly PageScores[]) => {
                batches.push(items.length);
                return target.setPageScores(items);
              };
            }
            const v = Reflect.get(target, prop, receiver) as unknown;
            return typeof v === 'function' ? v.bind(target) : v;
          },
        });
        const s = await rankStore(counting, {
          w1: 1,
          w2: 0,
          batchSize: 2,
          tolerance: 1e-13,
          maxIterations: 500,
        });
        assert.deepEqual(batches, [2, 1]);
        assert.deepEqual([s.w1, s.w2], [1, 0]);
        const got = await scores(store);
        near(got['a']?.score, 0.9, 1e-9, 'P(a) = relevance');
        near(got['b']?.score, 0.5, 1e-9, 'P(b) = relevance');
        near(got['b']?.pageRank, 19 / 21, 1e-9, 'R(b) still stored');
      } finally {
        await store.close();
      }
    });

    it('an empty store ranks nothing and records it', async () => {
      const store = await kind.open();
      try {
        const s = await rankStore(store);
        assert.deepEqual(
          [s.nodes, s.edges, s.pages, s.iterations, s.converged],
          [0, 0, 0, 0, true],
        );
        assert.deepEqual(await store.getMeta(META_RANKING), s);
        assert.deepEqual(await topPagesByScore(store, 3), []);
      } finally {
        await store.close();
      }
    });
  });
}

describe('rankStore options are validated before the store is touched', () => {
  const table: [RankStoreOptions, RegExp][] = [
    [{ algorithm: 'hitz' as 'hits' }, /rankStore: algorithm must be one of pagerank, hits/],
    [{ damping: 1 }, /rankStore: damping/],
    [{ damping: 0 }, /damping/],
    [{ tolerance: 0 }, /rankStore: tolerance/],
    [{ maxIterations: 0 }, /rankStore: maxIterations/],
    [{ maxIterations: 1.5 }, /maxIterations/],
    [{ w1: -1 }, /rankStore: w1/],
    [{ w2: Number.NaN }, /rankStore: w2/],
    [{ batchSize: 0 }, /rankStore: batchSize/],
    [{ dampng: 0.5 } as RankStoreOptions, /rankStore: unknown option "dampng"/],
  ];
  for (const [options, re] of table) {
    it(JSON.stringify(options), async () => {
      const store = createMemoryStore();
      await crawlRound1(store);
      await assert.rejects(rankStore(store, options), (e: unknown) => {
        assert.ok(e instanceof InvalidOptionError, String(e));
        assert.match(e.message, re);
        return true;
      });
      assert.equal(await store.getMeta(META_RANKING), undefined);
      for await (const p of store.pages()) assert.equal(p.pageRank, null);
      await store.close();
    });
  }
});

describe('topPagesByScore', () => {
  /** A memory store with the given kept pages [url, relevance, score]. */
  async function withPages(pages: [string, number, number | null][], discarded = 0) {
    const store = createMemoryStore();
    const all = [
      ...pages.map(([url, rel, score]) => ({ url, rel, score, kept: true })),
      ...Array.from({ length: discarded }, (_, i) => ({
        url: `http://d.test/${i}`,
        rel: 0,
        score: 99,
        kept: false,
      })),
    ];
    await store.addUrls(all.map((p) => ({ url: p.url, depth: 0, priority: 0 })));
    await store.claim(all.length);
    await store.commit(
      all.map((p) => ({
        url: p.url,
        state: p.kept ? ('complete' as const) : ('discard' as const),
        result: { fetchedAt: 1, status: 200, bytes: 1, title: p.url, relevance: p.rel },
      })),
    );
    await store.setPageScores(all.map((p) => ({ url: p.url, score: p.score, pageRank: 0.5 })));
    return store;
  }

  it('best first; ties by relevance, then URL; unscored and discarded pages left out', async () => {
    const store = await withPages(
      [
        ['http://t.test/c', 0.2, 0.5],
        ['http://t.test/b', 0.3, 0.5],
        ['http://t.test/a', 0.2, 0.5],
        ['http://t.test/top', 0.1, 0.9],
        ['http://t.test/none', 1, null],
        ['http://t.test/low', 0.9, 0.1],
      ],
      2,
    );
    const urls = async (n: number) =>
      (await topPagesByScore(store, n)).map((p) => p.url.slice('http://t.test/'.length));
    assert.deepEqual(await urls(10), ['top', 'b', 'a', 'c', 'low']);
    assert.deepEqual(await urls(3), ['top', 'b', 'a']);
    assert.deepEqual(await urls(1), ['top']);
    assert.deepEqual(await urls(0), []);
    const [best] = await topPagesByScore(store, 1);
    assert.deepEqual(best, {
      url: 'http://t.test/top',
      title: 'http://t.test/top',
      score: 0.9,
      relevance: 0.1,
      pageRank: 0.5,
    });
  });

  it('keeps the same pages a full sort would', async () => {
    let seed = 17;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const pages: [string, number, number][] = Array.from({ length: 300 }, (_, i) => [
      `http://r.test/${i}`,
      rnd(5) / 4,
      rnd(20) / 19,
    ]);
    const store = await withPages(pages);
    const sorted = [...pages]
      .sort((x, y) => y[2] - x[2] || y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .map((p) => p[0]);
    for (const n of [1, 7, 50, 300, 400]) {
      const got = (await topPagesByScore(store, n)).map((p) => p.url);
      assert.deepEqual(got, sorted.slice(0, n), `n = ${n}`);
    }
  });

  it('refuses a count that is not a whole number ≥ 0', async () => {
    const store = createMemoryStore();
    for (const n of [-1, 1.5, Number.NaN]) {
      await assert.rejects(topPagesByScore(store, n), (e: unknown) => {
        assert.ok(e instanceof InvalidOptionError);
        assert.match(e.message, /topPagesByScore: n must be a whole number/);
        return true;
      });
    }
  });
});
