/**
 * The final score of a kept page (DESIGN 1.1):
 *
 *   P = w1 · relevance + w2 · R,      w1 = 0.6, w2 = 0.4 by default,
 *
 * relevance the page's topic relevance (cos(a, b) of DESIGN 1.1, in [0, 1]) and R its
 * link score normalised to [0, 1]: the PageRank (or HITS authority) divided by the
 * largest one of the graph, as {@link normalizeRanks} does. With relevance and R in
 * [0, 1], P lies in [0, w1 + w2]; the weights are not required to sum to 1.
 *
 * Pure: numbers in, numbers out. Options are validated once by {@link finalWeights}.
 */
import { InvalidOptionError } from '../errors/index.js';
import { maxRank } from './pagerank.js';

/** Default weight of the relevance (DESIGN 1.1). */
export const DEFAULT_W1 = 0.6;
/** Default weight of the normalised link score (DESIGN 1.1). */
export const DEFAULT_W2 = 0.4;

export interface FinalScoreOptions {
  /** Weight of the relevance: a finite number ≥ 0. @default 0.6 */
  w1?: number;
  /** Weight of the normalised link score R: a finite number ≥ 0. @default 0.4 */
  w2?: number;
}

/** Validated weights. */
export interface FinalWeights {
  readonly w1: number;
  readonly w2: number;
}

/** The default weights, w1 = 0.6 and w2 = 0.4. */
export const DEFAULT_WEIGHTS: FinalWeights = Object.freeze({ w1: DEFAULT_W1, w2: DEFAULT_W2 });

function weight(where: string, name: string, value: unknown, fallback: number): number {
  const w = value ?? fallback;
  if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
    throw new InvalidOptionError(`${where}: ${name} must be a finite number ≥ 0, got ${w}`);
  }
  return w;
}

/** Validates and defaults the weights; `where` prefixes error messages. */
export function finalWeights(options: FinalScoreOptions = {}, where = 'finalScore'): FinalWeights {
  return {
    w1: weight(where, 'w1', options.w1, DEFAULT_W1),
    w2: weight(where, 'w2', options.w2, DEFAULT_W2),
  };
}

/**
 * P = w1 · relevance + w2 · rank, for a `rank` already normalised to [0, 1]. Throws
 * InvalidOptionError when relevance or rank is not a finite number.
 */
export function finalScore(
  relevance: number,
  rank: number,
  weights: FinalWeights = DEFAULT_WEIGHTS,
): number {
  if (!Number.isFinite(relevance)) {
    throw new InvalidOptionError(`finalScore: relevance must be a finite number, got ${relevance}`);
  }
  if (!Number.isFinite(rank)) {
    throw new InvalidOptionError(`finalScore: rank must be a finite number, got ${rank}`);
  }
  return weights.w1 * relevance + weights.w2 * rank;
}

/**
 * P for every node: `linkScores` (raw PageRank ranks, HITS authorities, …, ≥ 0) are
 * divided by their largest value (all-zero scores stay 0), then mixed with
 * `relevance[i]` as {@link finalScore} does. The two arrays must have the same length.
 */
export function finalScores(
  relevance: ArrayLike<number>,
  linkScores: ArrayLike<number>,
  options: FinalScoreOptions = {},
): Float64Array {
  const { w1, w2 } = finalWeights(options, 'finalScores');
  const n = relevance.length;
  if (linkScores.length !== n) {
    throw new InvalidOptionError(
      `finalScores: relevance and linkScores must have the same length, got ${n} and ${linkScores.length}`,
    );
  }
  const max = maxRank(linkScores);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const rel = relevance[i]!;
    const r = linkScores[i]!;
    if (!Number.isFinite(rel)) {
      throw new InvalidOptionError(`finalScores: relevance[${i}] = ${rel} is not a finite number`);
    }
    if (!Number.isFinite(r) || r < 0) {
      throw new InvalidOptionError(
        `finalScores: linkScores[${i}] = ${r} is not a finite score ≥ 0`,
      );
    }
    out[i] = w1 * rel + w2 * (max > 0 ? r / max : r);
  }
  return out;
}
