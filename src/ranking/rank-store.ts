/**
 * Ranking the pages of a crawl store (DESIGN 1.1): the I/O edge of the ranking stage.
 *
 * {@link rankStore} reads the store once, computes a link score for every page and
 * writes back, for each fetched page, its normalised link score R and, for kept pages,
 * the final score P = w1 · relevance + w2 · R.
 *
 * 1. `pages()`: every fetched page (state complete or discard) becomes a node, ids
 *    0 .. pages − 1 in discovery order; its URL, relevance and state are kept in plain
 *    arrays.
 * 2. `links()`: every recorded link adds its source and target as nodes (interned in
 *    a Map from URL to id) and its two ids to two growable Uint32Arrays: no object per
 *    edge. {@link csrFromEdges} then builds the CSR graph, dropping self-links and
 *    counting a link from one page to the same target once.
 * 3. PageRank (DESIGN 1.1, damping 0.8 by default) or HITS, whose authority score plays
 *    R(u). R is the score divided by the largest score of the whole graph (as
 *    {@link normalizeRanks}; the largest may belong to a URL not fetched yet).
 * 4. `setPageScores` in batches of `batchSize` pages: `pageRank` = R for every fetched
 *    page; `score` = P for kept pages, null for discarded ones.
 * 5. `setMeta('ranking', summary)` records what was done, and the summary is returned.
 *
 * Pages read and written are those of step 1: a page a running crawl fetches meanwhile
 * is scored by the next ranking. Memory: the URL map (one entry per node, cleared once
 * the links are read), 8 bytes per link while reading, then the CSR graph (4 bytes per
 * edge and per node) and the arrays of pageRank (16 bytes per node) or hits (24).
 *
 * {@link topPagesByScore} reads `pages()` once and keeps the best n in a bounded heap.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { PageScores, Store } from '../store/index.js';
import { finalScore, finalWeights } from './final.js';
import { csrEdgeCount, csrFromEdges } from './graph.js';
import { hits, hitsSettings } from './hits.js';
import { maxRank, pageRank, pageRankSettings } from './pagerank.js';

/** The meta key under which {@link rankStore} records its {@link RankingSummary}. */
export const META_RANKING = 'ranking';
/** Link scores {@link rankStore} can compute. */
export const RANK_ALGORITHMS = ['pagerank', 'hits'] as const;
export type RankAlgorithm = (typeof RANK_ALGORITHMS)[number];
/** Default number of pages per `setPageScores` call. */
export const DEFAULT_RANK_BATCH = 5000;

export interface RankStoreOptions {
  /** `'pagerank'`, or `'hits'` whose authority score is R. @default 'pagerank' */
  algorithm?: RankAlgorithm;
  /** PageRank's d, in (0, 1); validated but unused by HITS. @default 0.8 */
  damping?: number;
  /** Stopping threshold of the iteration (> 0), as pageRank's and hits'. @default 1e-6 */
  tolerance?: number;
  /** Most sweeps (whole number ≥ 1). @default 100 */
  maxIterations?: number;
  /** Weight of the relevance in P (finite, ≥ 0). @default 0.6 */
  w1?: number;
  /** Weight of R in P (finite, ≥ 0). @default 0.4 */
  w2?: number;
  /** Pages per `setPageScores` call (whole number ≥ 1). @default 5000 */
  batchSize?: number;
}

/** Options with every default applied. */
export interface RankStoreSettings {
  algorithm: RankAlgorithm;
  damping: number;
  tolerance: number;
  maxIterations: number;
  w1: number;
  w2: number;
  batchSize: number;
}

/** What {@link rankStore} did, as stored under the meta key `ranking`. */
export interface RankingSummary {
  /** When the ranking finished (ms since the epoch). */
  at: number;
  algorithm: RankAlgorithm;
  /** The damping used; null for HITS. */
  damping: number | null;
  w1: number;
  w2: number;
  /** Sweeps of the iteration, and whether it converged within maxIterations. */
  iterations: number;
  converged: boolean;
  /** Nodes and edges (distinct links between different pages) of the graph ranked. */
  nodes: number;
  edges: number;
  /** Fetched pages scored (complete and discard). */
  pages: number;
  /** Wall time of the whole ranking, reads and writes included, in milliseconds. */
  ms: number;
}

const KNOWN_OPTIONS = new Set<string>([
  'algorithm',
  'damping',
  'tolerance',
  'maxIterations',
  'w1',
  'w2',
  'batchSize',
]);

/** Validates and defaults {@link rankStore}'s options; errors name the field. */
export function rankStoreSettings(options: RankStoreOptions = {}): RankStoreSettings {
  const where = 'rankStore';
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError(`${where}: options must be an object, got ${options}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN_OPTIONS.has(key)) {
      throw new InvalidOptionError(`${where}: unknown option ${JSON.stringify(key)}`);
    }
  }
  const algorithm = options.algorithm ?? 'pagerank';
  if (!(RANK_ALGORITHMS as readonly unknown[]).includes(algorithm)) {
    throw new InvalidOptionError(
      `${where}: algorithm must be one of ${RANK_ALGORITHMS.join(', ')}, got ${JSON.stringify(algorithm)}`,
    );
  }
  const pr = pageRankSettings(options, where);
  hitsSettings(options, where);
  const { w1, w2 } = finalWeights(options, where);
  const batchSize = options.batchSize ?? DEFAULT_RANK_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new InvalidOptionError(
      `${where}: batchSize must be a whole number ≥ 1, got ${batchSize}`,
    );
  }
  return { algorithm, ...pr, w1, w2, batchSize };
}

/** A growable Uint32Array. */
class IdList {
  data = new Uint32Array(1024);
  length = 0;

  push(x: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = x;
  }

  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * Ranks every fetched page of `store` and stores `pageRank` (R in [0, 1]) and, for kept
 * pages, `score` (P); records and returns a {@link RankingSummary}. Throws
 * InvalidOptionError naming the field for a bad option, before reading the store.
 */
export async function rankStore(
  store: Store,
  options: RankStoreOptions = {},
): Promise<RankingSummary> {
  const s = rankStoreSettings(options);
  const t0 = performance.now();
  const ids = new Map<string, number>();
  const pageUrls: string[] = [];
  const relevance: number[] = [];
  const kept: boolean[] = [];
  for await (const p of store.pages()) {
    if (ids.has(p.url)) continue;
    ids.set(p.url, pageUrls.length);
    pageUrls.push(p.url);
    relevance.push(p.relevance);
    kept.push(p.state === 'complete');
  }
  const intern = (url: string): number => {
    let id = ids.get(url);
    if (id === undefined) {
      id = ids.size;
      ids.set(url, id);
    }
    return id;
  };
  const from = new IdList();
  const to = new IdList();
  for await (const l of store.links()) {
    from.push(intern(l.from));
    to.push(intern(l.to));
  }
  const nodes = ids.size;
  ids.clear();
  const graph = csrFromEdges(nodes, from.view(), to.view());
  from.data = to.data = new Uint32Array(0);

  let scores: Float64Array;
  let iterations: number;
  let converged: boolean;
  if (s.algorithm === 'hits') {
    const r = hits(graph, { tolerance: s.tolerance, maxIterations: s.maxIterations });
    ({ authorities: scores, iterations, converged } = r);
  } else {
    const r = pageRank(graph, {
      damping: s.damping,
      tolerance: s.tolerance,
      maxIterations: s.maxIterations,
    });
    ({ ranks: scores, iterations, converged } = r);
  }
  const max = maxRank(scores);
  const weights = { w1: s.w1, w2: s.w2 };
  for (let start = 0; start < pageUrls.length; start += s.batchSize) {
    const end = Math.min(pageUrls.length, start + s.batchSize);
    const batch: PageScores[] = [];
    for (let id = start; id < end; id++) {
      const r = max > 0 ? scores[id]! / max : scores[id]!;
      batch.push({
        url: pageUrls[id]!,
        pageRank: r,
        score: kept[id] ? finalScore(relevance[id]!, r, weights) : null,
      });
    }
    await store.setPageScores(batch);
  }
  const summary: RankingSummary = {
    at: Date.now(),
    algorithm: s.algorithm,
    damping: s.algorithm === 'pagerank' ? s.damping : null,
    w1: s.w1,
    w2: s.w2,
    iterations,
    converged,
    nodes,
    edges: csrEdgeCount(graph),
    pages: pageUrls.length,
    ms: Math.round((performance.now() - t0) * 1000) / 1000,
  };
  await store.setMeta(META_RANKING, summary);
  return summary;
}

/** The last ranking stored in meta `ranking`; null before the first, or when malformed. */
export async function storedRanking(store: Store): Promise<RankingSummary | null> {
  const raw = await store.getMeta<Partial<RankingSummary>>(META_RANKING);
  if (raw === null || typeof raw !== 'object') return null;
  const ok = typeof raw.at === 'number' && typeof raw.pages === 'number';
  return ok ? (raw as RankingSummary) : null;
}

/** A kept page as {@link topPagesByScore} lists it. */
export interface RankedPage {
  url: string;
  title: string | null;
  /** The final score P. */
  score: number;
  relevance: number;
  /** R, the normalised link score; null when it was not set. */
  pageRank: number | null;
}

/** Whether `a` ranks before `b`: higher score, then higher relevance, then URL. */
export function rankedBefore(a: RankedPage, b: RankedPage): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.relevance !== b.relevance) return a.relevance > b.relevance;
  return a.url < b.url;
}

/** Restores the heap below `i`: the page ranked last is at the root. */
function siftDown(heap: RankedPage[], i: number): void {
  const n = heap.length;
  let at = i;
  for (;;) {
    const l = 2 * at + 1;
    const r = l + 1;
    let worst = at;
    if (l < n && rankedBefore(heap[worst]!, heap[l]!)) worst = l;
    if (r < n && rankedBefore(heap[worst]!, heap[r]!)) worst = r;
    if (worst === at) return;
    [heap[at], heap[worst]] = [heap[worst]!, heap[at]!];
    at = worst;
  }
}

function siftUp(heap: RankedPage[], i: number): void {
  let at = i;
  while (at > 0) {
    const up = (at - 1) >> 1;
    if (!rankedBefore(heap[up]!, heap[at]!)) return;
    [heap[at], heap[up]] = [heap[up]!, heap[at]!];
    at = up;
  }
}

/**
 * The `n` kept pages (state complete) with the highest final score, best first; ties
 * by higher relevance, then by URL. Pages without a score (not ranked yet) are left
 * out. Reads `pages()` once and holds at most `n` pages (a heap whose root is the worst
 * of them): O(pages · log n) time, O(n) memory. `n` is a whole number ≥ 0.
 */
export async function topPagesByScore(store: Store, n: number): Promise<RankedPage[]> {
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidOptionError(`topPagesByScore: n must be a whole number ≥ 0, got ${n}`);
  }
  const heap: RankedPage[] = [];
  if (n === 0) return heap;
  for await (const p of store.pages()) {
    if (p.state !== 'complete' || p.score === null) continue;
    const page: RankedPage = {
      url: p.url,
      title: p.title,
      score: p.score,
      relevance: p.relevance,
      pageRank: p.pageRank,
    };
    if (heap.length < n) {
      heap.push(page);
      siftUp(heap, heap.length - 1);
    } else if (rankedBefore(page, heap[0]!)) {
      heap[0] = page;
      siftDown(heap, 0);
    }
  }
  return heap.sort((a, b) => (rankedBefore(a, b) ? -1 : 1));
}
