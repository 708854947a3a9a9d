/**
 * Per-term class-conditional densities of the naive Bayes link classifier (DESIGN 1.4),
 * all in log space.
 *
 * (a) Normal: mean and variance by maximum likelihood (variance = Σ(x − mean)² / n).
 *     The variance is floored at {@link VARIANCE_FLOOR} so that a feature that is
 *     constant in a class (often 0: the term never occurs there) gives a very peaked
 *     but finite density instead of an infinite one.
 * (b) Gaussian kernel: p(x) = (1/n) Σ_i N(x; μ = x_i, σ), σ the bandwidth. The paper
 *     writes σ = 1/n, John & Langley (1995) σ = 1/sqrt(n): both are named rules in
 *     {@link BANDWIDTH_RULES}. The sum is taken with log-sum-exp, so it never underflows.
 */

/** Smallest variance a normal density is given (see the module comment). */
export const VARIANCE_FLOOR = 1e-6;

/** ln sqrt(2π) = 0.9189385…, the constant of the normal log-density. */
export const LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

/** Mean and (floored) variance of a normal density. */
export interface NormalStats {
  readonly mean: number;
  readonly variance: number;
}

/** Maximum-likelihood mean and variance of `values` (variance floored). Empty → 0, floor. */
export function fitNormal(values: readonly number[]): NormalStats {
  const n = values.length;
  if (n === 0) return { mean: 0, variance: VARIANCE_FLOOR };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return { mean, variance: Math.max(ss / n, VARIANCE_FLOOR) };
}

/**
 * ln N(x; mean, variance) = −ln sqrt(2π) − ½ ln variance − (x − mean)² / (2 · variance).
 * `variance` must be positive (fitNormal floors it; a kernel's σ² is positive).
 */
export function normalLogDensity(x: number, mean: number, variance: number): number {
  const d = x - mean;
  return -LOG_SQRT_2PI - 0.5 * Math.log(variance) - (d * d) / (2 * variance);
}

/** ln Σ exp(a_i), computed stably; −Infinity for an empty list or all −Infinity. */
export function logSumExp(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  if (max === Number.NEGATIVE_INFINITY) return max;
  if (max === Number.POSITIVE_INFINITY) return max;
  let s = 0;
  for (const v of values) s += Math.exp(v - max);
  return max + Math.log(s);
}

/** Named kernel bandwidth rules: σ as a function of the class's sample size n. */
export const BANDWIDTH_RULES = Object.freeze({
  /** σ = 1/n, as the paper writes it. */
  'inverse-n': (n: number): number => 1 / Math.max(n, 1),
  /** σ = 1/sqrt(n), as John & Langley (1995). */
  'inverse-sqrt-n': (n: number): number => 1 / Math.sqrt(Math.max(n, 1)),
});

/** Name of a bandwidth rule. */
export type BandwidthRule = keyof typeof BANDWIDTH_RULES;

/** σ for a sample of `n` under `rule`. */
export function kernelBandwidth(rule: BandwidthRule, n: number): number {
  return BANDWIDTH_RULES[rule](n);
}

/**
 * ln p(x) for the Gaussian kernel density p(x) = (1/n) Σ_i N(x; x_i, σ²) over `sample`.
 * −Infinity for an empty sample.
 */
export function kernelLogDensity(x: number, sample: readonly number[], sigma: number): number {
  const n = sample.length;
  if (n === 0) return Number.NEGATIVE_INFINITY;
  const variance = sigma * sigma;
  return logSumExp(sample.map((xi) => normalLogDensity(x, xi, variance))) - Math.log(n);
}

/**
 * The kernel density over a sample given as distinct `values` with their `counts`
 * (n = Σ counts): ln p(x) = ln Σ_i c_i · N(x; v_i, σ²) − ln n, the same as
 * {@link kernelLogDensity} over the expanded sample at a fraction of the cost when values
 * repeat (improved TF-IDF weights take few distinct values per term). −Infinity when n = 0.
 */
export function weightedKernelLogDensity(
  x: number,
  values: readonly number[],
  counts: readonly number[],
  sigma: number,
): number {
  const variance = sigma * sigma;
  const lnNorm = -LOG_SQRT_2PI - 0.5 * Math.log(variance);
  // Two passes (the largest term, then the sum relative to it): no array per call.
  let n = 0;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const c = counts[i] ?? 0;
    if (c <= 0) continue;
    n += c;
    const d = x - (values[i] as number);
    const t = Math.log(c) - (d * d) / (2 * variance);
    if (t > max) max = t;
  }
  if (n === 0 || max === Number.NEGATIVE_INFINITY) return Number.NEGATIVE_INFINITY;
  let s = 0;
  for (let i = 0; i < values.length; i++) {
    const c = counts[i] ?? 0;
    if (c <= 0) continue;
    const d = x - (values[i] as number);
    s += Math.exp(Math.log(c) - (d * d) / (2 * variance) - max);
  }
  return lnNorm + max + Math.log(s) - Math.log(n);
}

/**
 * The distinct values of `sample` (plus `zeros` more values 0), ascending, with how
 * often each occurs.
 */
export function compactSample(
  sample: readonly number[],
  zeros = 0,
): { values: number[]; counts: number[] } {
  const m = new Map<number, number>();
  if (zeros > 0) m.set(0, zeros);
  for (const v of sample) m.set(v, (m.get(v) ?? 0) + 1);
  const values = [...m.keys()].sort((a, b) => a - b);
  return { values, counts: values.map((v) => m.get(v) as number) };
}
