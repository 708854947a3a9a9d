/**
 * PageRank in the form of DESIGN 1.1 (Wang & Fan, 2004):
 *
 *   R(u) = (1 − d) + d · Σ_{v ∈ B(u)} R(v) / N(v),   d = 0.8 by default,
 *
 * B(u) the pages linking to u, N(v) the number of out-links of v. This is the
 * unnormalised form: the ranks have mean 1 and sum to the node count N (not to 1).
 *
 * Dangling pages (no out-links, e.g. pages found but not fetched yet) would otherwise
 * leak their rank; here each spreads d·R(v) evenly over all N nodes, so every node
 * receives (1 − d) + d·D/N with D = Σ_{dangling v} R(v), and the ranks still sum to N.
 *
 * Power iteration from R = 1 (or a warm start), pushing each page's share d·R(v)/N(v)
 * along its CSR out-edges into a second Float64Array; the two arrays are swapped after
 * each sweep, so nothing is allocated per iteration. The map is a contraction by d in
 * the L1 norm, so the error shrinks at least by d per sweep. Iteration stops when the
 * mean absolute change Σ|ΔR|/N falls below `tolerance`, or after `maxIterations` sweeps.
 * Time O(iterations · (nodes + edges)); memory two Float64Arrays of N. The graph is used
 * as given: build it with csrFromEdges or LinkGraph to drop self-links and duplicates.
 *
 * {@link normalizeRanks} divides by the largest rank, giving values in [0, 1] as DESIGN
 * 1.1 asks before the rank is mixed with relevance.
 */
import { InvalidOptionError } from '../errors/index.js';
import { type CsrGraph, checkCsrGraph } from './graph.js';

/** Default damping factor d (DESIGN 1.1). */
export const DEFAULT_DAMPING = 0.8;
/** Default stopping threshold on Σ|ΔR|/N. */
export const DEFAULT_TOLERANCE = 1e-6;
/** Default cap on power-iteration sweeps. */
export const DEFAULT_MAX_ITERATIONS = 100;

export interface PageRankOptions {
  /** d in (0, 1). Default 0.8. */
  damping?: number;
  /** Stop when Σ|ΔR|/N is below this (> 0). Default 1e-6. */
  tolerance?: number;
  /** Most sweeps (whole number ≥ 1). Default 100. */
  maxIterations?: number;
  /**
   * Warm start: ranks of a previous run, finite and ≥ 0, at most one per node; nodes
   * beyond its length start at 1 (the mean of the fixed point).
   */
  initial?: Float64Array;
}

export interface PageRankResult {
  /** R(u) per node id, summing to the node count once converged. */
  ranks: Float64Array;
  /** Sweeps performed. */
  iterations: number;
  /** Σ|ΔR|/N of the last sweep (0 when there was none). */
  delta: number;
  /** Whether delta fell below the tolerance within maxIterations. */
  converged: boolean;
}

/** Resolved damping, tolerance and maxIterations. */
export interface PageRankSettings {
  damping: number;
  tolerance: number;
  maxIterations: number;
}

function isNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/** Validates and defaults the numeric options; `where` prefixes error messages. */
export function pageRankSettings(
  options: Omit<PageRankOptions, 'initial'>,
  where = 'pageRank',
): PageRankSettings {
  const damping = options.damping ?? DEFAULT_DAMPING;
  if (!isNumber(damping) || damping <= 0 || damping >= 1) {
    throw new InvalidOptionError(`${where}: damping must be a number in (0, 1), got ${damping}`);
  }
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (!isNumber(tolerance) || tolerance <= 0) {
    throw new InvalidOptionError(
      `${where}: tolerance must be a finite number > 0, got ${tolerance}`,
    );
  }
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new InvalidOptionError(
      `${where}: maxIterations must be a whole number ≥ 1, got ${maxIterations}`,
    );
  }
  return { damping, tolerance, maxIterations };
}

/** PageRank of every node of `graph` (see the module comment for the formula). */
export function pageRank(graph: CsrGraph, options: PageRankOptions = {}): PageRankResult {
  const { damping: d, tolerance, maxIterations } = pageRankSettings(options);
  checkCsrGraph(graph, 'pageRank');
  const { nodeCount: n, offsets, targets } = graph;
  let cur = new Float64Array(n).fill(1);
  const initial = options.initial;
  if (initial !== undefined) {
    if (!(initial instanceof Float64Array) || initial.length > n) {
      throw new InvalidOptionError(
        `pageRank: initial must be a Float64Array of at most ${n} ranks, got ${
          initial instanceof Float64Array ? `${initial.length}` : typeof initial
        }`,
      );
    }
    for (let v = 0; v < initial.length; v++) {
      const r = initial[v]!;
      if (!Number.isFinite(r) || r < 0) {
        throw new InvalidOptionError(`pageRank: initial[${v}] = ${r} is not a finite rank ≥ 0`);
      }
    }
    cur.set(initial);
  }
  if (n === 0) return { ranks: cur, iterations: 0, delta: 0, converged: true };

  let next = new Float64Array(n);
  let iterations = 0;
  let delta = 0;
  let converged = false;
  // `next` is all zeros at the top of each sweep: new, then zeroed as it is read below.
  while (iterations < maxIterations) {
    let dangling = 0;
    let start = offsets[0]!;
    for (let v = 0; v < n; v++) {
      const end = offsets[v + 1]!;
      const r = cur[v]!;
      if (end === start) {
        dangling += r;
      } else {
        const share = (d * r) / (end - start);
        for (let k = start; k < end; k++) next[targets[k]!]! += share;
      }
      start = end;
    }
    const base = 1 - d + (d * dangling) / n;
    let change = 0;
    for (let u = 0; u < n; u++) {
      const r = next[u]! + base;
      next[u] = r;
      change += Math.abs(r - cur[u]!);
      cur[u] = 0;
    }
    const swap = cur;
    cur = next;
    next = swap;
    iterations++;
    delta = change / n;
    if (delta < tolerance) {
      converged = true;
      break;
    }
  }
  return { ranks: cur, iterations, delta, converged };
}

/** The largest value of `ranks` (0 when empty). */
export function maxRank(ranks: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i]!;
    if (r > max) max = r;
  }
  return max;
}

/**
 * A new array of `ranks` divided by their maximum, so in [0, 1] for ranks ≥ 0. An empty
 * or all-zero array is copied unchanged.
 */
export function normalizeRanks(ranks: Float64Array): Float64Array {
  const out = new Float64Array(ranks);
  const max = maxRank(ranks);
  if (max > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / max;
  return out;
}
