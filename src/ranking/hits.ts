/**
 * HITS (Kleinberg's hubs and authorities) over a {@link CsrGraph}, the alternative
 * link score to PageRank (DESIGN 2, `ranking/`):
 *
 *   a(u) = Σ_{v → u} h(v)      a page linked from good hubs is a good authority,
 *   h(v) = Σ_{v → u} a(u)      a page linking to good authorities is a good hub.
 *
 * Power iteration from h = a = 1 everywhere. Each sweep computes the authorities from
 * the hubs (pushed along the CSR out-edges), scales them, then the hubs from the new
 * authorities (pulled along the same out-edges), and scales them: no transposed graph
 * is built. The hubs thus follow the power method on A·Aᵀ and the authorities on Aᵀ·A,
 * both symmetric and positive semi-definite, so the iteration does not oscillate.
 *
 * - **Normalisation**: each vector is divided by its largest entry after every sweep
 *   (max-normalisation, the L∞ norm), so both lie in [0, 1] with a largest entry of 1
 *   as soon as the graph has an edge. This is the scaling {@link normalizeRanks} gives
 *   PageRank, so an authority can be mixed with a relevance as it is.
 * - **Convergence**: the sweep's change is the larger of Σ|Δa|/N and Σ|Δh|/N (mean
 *   absolute change per node, the measure {@link pageRank} uses); iteration stops when
 *   it falls below `tolerance` or after `maxIterations` sweeps. The error shrinks by the
 *   ratio λ₂/λ₁ of the two largest eigenvalues of Aᵀ·A per sweep.
 * - Pages without out-links (dangling) have hub score 0; pages without in-links have
 *   authority 0; an isolated page has 0 for both. A graph without edges has all scores
 *   0 (no sweep is run); an empty graph gives empty arrays.
 * - When the largest eigenvalue is shared (e.g. two disjoint, identical sub-graphs), the
 *   scores are the projection of the all-ones start, which is deterministic.
 *
 * Time O(iterations · (nodes + edges)); memory three Float64Arrays of N (hubs,
 * authorities and one scratch array reused by both halves of a sweep). The graph is
 * used as given: build it with csrFromEdges or LinkGraph to drop self-links and
 * duplicate links.
 */
import { InvalidOptionError } from '../errors/index.js';
import { type CsrGraph, checkCsrGraph } from './graph.js';
import { DEFAULT_MAX_ITERATIONS, DEFAULT_TOLERANCE } from './pagerank.js';

export interface HitsOptions {
  /** Stop when max(Σ|Δa|/N, Σ|Δh|/N) is below this (> 0). @default 1e-6 */
  tolerance?: number;
  /** Most sweeps (whole number ≥ 1). @default 100 */
  maxIterations?: number;
}

export interface HitsResult {
  /** Hub score per node id, in [0, 1] (largest 1 when the graph has an edge). */
  hubs: Float64Array;
  /** Authority score per node id, in [0, 1] (largest 1 when the graph has an edge). */
  authorities: Float64Array;
  /** Sweeps performed (0 for a graph without edges). */
  iterations: number;
  /** max(Σ|Δa|/N, Σ|Δh|/N) of the last sweep (0 when there was none). */
  delta: number;
  /** Whether delta fell below the tolerance within maxIterations. */
  converged: boolean;
}

/** Resolved tolerance and maxIterations. */
export interface HitsSettings {
  tolerance: number;
  maxIterations: number;
}

/** Validates and defaults the options; `where` prefixes error messages. */
export function hitsSettings(options: HitsOptions, where = 'hits'): HitsSettings {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance <= 0) {
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
  return { tolerance, maxIterations };
}

/**
 * Divides `next` by its largest entry (when positive), then returns Σ|next − prev| and
 * leaves `prev` free for reuse.
 */
function scaleAndCompare(next: Float64Array, prev: Float64Array): number {
  let max = 0;
  for (let i = 0; i < next.length; i++) if (next[i]! > max) max = next[i]!;
  const inv = max > 0 ? 1 / max : 1;
  let change = 0;
  for (let i = 0; i < next.length; i++) {
    const x = next[i]! * inv;
    next[i] = x;
    change += Math.abs(x - prev[i]!);
  }
  return change;
}

/** Hub and authority scores of every node of `graph` (see the module comment). */
export function hits(graph: CsrGraph, options: HitsOptions = {}): HitsResult {
  const { tolerance, maxIterations } = hitsSettings(options);
  const m = checkCsrGraph(graph, 'hits');
  const { nodeCount: n, offsets, targets } = graph;
  if (m === 0) {
    return {
      hubs: new Float64Array(n),
      authorities: new Float64Array(n),
      iterations: 0,
      delta: 0,
      converged: true,
    };
  }
  let hubs = new Float64Array(n).fill(1);
  let auth = new Float64Array(n).fill(1);
  let scratch = new Float64Array(n);
  let iterations = 0;
  let delta = 0;
  let converged = false;
  while (iterations < maxIterations) {
    // a(u) = Σ_{v → u} h(v): push each hub score along its out-edges.
    scratch.fill(0);
    let start = 0;
    for (let v = 0; v < n; v++) {
      const end = offsets[v + 1]!;
      const h = hubs[v]!;
      if (h !== 0) for (let k = start; k < end; k++) scratch[targets[k]!]! += h;
      start = end;
    }
    const authChange = scaleAndCompare(scratch, auth);
    let swap = auth;
    auth = scratch;
    scratch = swap;
    // h(v) = Σ_{v → u} a(u): pull the new authorities along the same out-edges.
    start = 0;
    for (let v = 0; v < n; v++) {
      const end = offsets[v + 1]!;
      let s = 0;
      for (let k = start; k < end; k++) s += auth[targets[k]!]!;
      scratch[v] = s;
      start = end;
    }
    const hubChange = scaleAndCompare(scratch, hubs);
    swap = hubs;
    hubs = scratch;
    scratch = swap;
    iterations++;
    delta = Math.max(authChange, hubChange) / n;
    if (delta < tolerance) {
      converged = true;
      break;
    }
  }
  return { hubs, authorities: auth, iterations, delta, converged };
}
