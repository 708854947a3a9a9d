/**
 * The keyword vector-space relevance of DESIGN 1.1 (pure).
 *
 * Topic vector a = (w_1..w_n). A page's keyword frequencies f_i become
 * x_i = f_i / f_max, and its vector b = (x_1·w_1 .. x_n·w_n). Relevance is
 * cos(a, b) = Σ w_i·x_i·w_i / (sqrt(Σ w_i²) · sqrt(Σ x_i²·w_i²)), and 0 when no
 * keyword occurs. With positive weights it lies in [0, 1].
 */
import { InvalidOptionError } from '../errors/index.js';

/** The paper's threshold r: relevance ≥ r keeps a page and follows its links. */
export const DEFAULT_THRESHOLD = 0.1;

/** Cosine of DESIGN 1.1 between the topic weights and the page's keyword frequencies. */
export function vsmRelevance(weights: readonly number[], freqs: readonly number[]): number {
  const n = weights.length;
  if (freqs.length !== n) {
    throw new InvalidOptionError(
      `vsmRelevance: ${n} weights but ${freqs.length} frequencies; they must pair up`,
    );
  }
  let fMax = 0;
  for (let i = 0; i < n; i++) {
    const f = freqs[i] ?? 0;
    if (f > fMax) fMax = f;
  }
  if (fMax <= 0) return 0;
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i] ?? 0;
    const x = (freqs[i] ?? 0) / fMax;
    dot += w * x * w;
    aa += w * w;
    bb += x * x * w * w;
  }
  if (aa === 0 || bb === 0) return 0;
  const cos = dot / (Math.sqrt(aa) * Math.sqrt(bb));
  return Math.min(cos, 1); // rounding can overshoot by one ulp
}

/** The keep/discard decision: `relevance >= threshold`. */
export function passesThreshold(relevance: number, threshold: number = DEFAULT_THRESHOLD): boolean {
  return relevance >= threshold;
}
