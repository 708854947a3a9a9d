// Test helpers of the ranking stage: assertions, and a small crawl with hand-solved
// PageRank for the tests of rankStore and `focuscrawl rank`.
import assert from 'node:assert/strict';
import { InvalidOptionError } from '../errors/index.js';
import type { FetchedPage, Store } from '../store/index.js';

/** 2024-05-01T12:00:00Z */
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

export const CRAWL = {
  /** The seed: complete, relevance 0.9, links to b, c, x (and b again). */
  a: 'http://a.test/',
  /** Complete, relevance 0.5, links to a and e. */
  b: 'http://a.test/b',
  /** Discarded (relevance 0.05), no links. */
  c: 'http://a.test/c',
  /** Fetch failed: a link target only. */
  e: 'http://e.test/',
  /** Waiting after round 1; complete in round 2 (relevance 0.4), links to a, c (and itself). */
  x: 'http://x.test/',
  /** Waiting, linked from nowhere: not a node of the graph. */
  s: 'http://s.test/',
} as const;

function page(relevance: number, title: string, links: string[]): FetchedPage {
  return {
    fetchedAt: T0,
    status: 200,
    contentType: 'text/html',
    bytes: 1000,
    title,
    relevance,
    links: links.map((url) => ({ url, anchor: null })),
  };
}

async function claim(store: Store, n: number, expected: string[]): Promise<void> {
  const got = (await store.claim(n)).map((c) => c.url);
  if (got.join(' ') !== expected.join(' ')) {
    throw new Error(`test crawl: claimed ${got.join(' ')}, expected ${expected.join(' ')}`);
  }
}

/**
 * Round 1. Graph: a → b, c, x; b → a, e; c, x, e dangling. PageRank (d = 0.8), with
 * D = R_c + R_x + R_e and base = 0.2 + 0.8·D/5: R_b = R_c = R_x = base + 0.8·R_a/3,
 * R_a = R_e = base + 0.4·R_b; with Σ R = 5 this gives R_a = R_e = 35/33 and
 * R_b = R_c = R_x = 95/99. Normalised: a = e = 1, b = c = x = 19/21.
 */
export async function crawlRound1(store: Store): Promise<void> {
  const { a, b, c, e, x, s } = CRAWL;
  await store.addSeeds([a]);
  await store.addUrls([{ url: s, depth: 0, priority: -1 }]);
  await claim(store, 1, [a]);
  await store.complete(a, {
    ...page(0.9, 'Alpha', [b, c, x, b]),
    newUrls: [
      { url: b, depth: 1, priority: 0.9 },
      { url: c, depth: 1, priority: 0.5 },
      { url: x, depth: 1, priority: 0.1 },
    ],
  });
  await claim(store, 2, [b, c]);
  await store.complete(b, {
    ...page(0.5, 'Beta', [a, e]),
    newUrls: [{ url: e, depth: 2, priority: 0.95 }],
  });
  await store.discard(c, page(0.05, 'Gamma', []));
  await claim(store, 1, [e]);
  await store.fail(e, { fetchedAt: T0, error: 'HTTP 503', status: 503 });
}

/**
 * Round 2 (resumed): x fetched, linking to a, c (a twice, and itself). Graph: round 1's
 * plus x → a, c; c and e dangling. With base = 0.2 + 0.8·(R_c + R_e)/5:
 * R_b = R_x = base + 0.8·R_a/3, R_c = R_b + 0.4·R_x, R_e = base + 0.4·R_b,
 * R_a = base + 0.4·R_b + 0.4·R_x. Solved: R_a = 45/37, R_b = R_x = 95/111,
 * R_c = 133/111, R_e = 97/111. Normalised: a = 1, b = x = 19/27, c = 133/135, e = 97/135.
 */
export async function crawlRound2(store: Store): Promise<void> {
  const { a, c, x } = CRAWL;
  await claim(store, 1, [x]);
  await store.complete(x, page(0.4, 'Xi', [a, c, a, x]));
}

/** Normalised PageRank R and final score P (w1 = 0.6, w2 = 0.4) after each round. */
export const EXPECTED = {
  round1: {
    nodes: 5,
    edges: 5,
    pages: 3,
    pageRank: { a: 1, b: 19 / 21, c: 19 / 21 },
    score: { a: 0.6 * 0.9 + 0.4, b: 0.6 * 0.5 + (0.4 * 19) / 21 },
  },
  round2: {
    nodes: 5,
    edges: 7,
    pages: 4,
    pageRank: { a: 1, b: 19 / 27, c: 133 / 135, x: 19 / 27 },
    score: {
      a: 0.6 * 0.9 + 0.4,
      b: 0.6 * 0.5 + (0.4 * 19) / 27,
      x: 0.6 * 0.4 + (0.4 * 19) / 27,
    },
  },
} as const;

/** Asserts that `fn` throws an `InvalidOptionError` whose message matches `re`. */
export function refuses(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InvalidOptionError, String(e));
    assert.match(e.message, re);
    return true;
  });
}

/** Asserts that `actual` is a number within `eps` of `expected`. */
export function near(
  actual: number | null | undefined,
  expected: number,
  eps = 1e-9,
  what = '',
): void {
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) < eps,
    `${what} ${actual} ≈ ${expected}`,
  );
}
