/**
 * The naive Bayes link classifier of DESIGN 1.4:
 *
 *     Pr(+|x) ∝ Pr(+) Π_j p(x_j|+),   Pr(−|x) ∝ Pr(−) Π_j p(x_j|−)
 *
 * over a fixed vocabulary (a term missing from a vector has value 0). p(x_j|class) is a
 * normal density (mean, variance by maximum likelihood) or a Gaussian kernel density
 * over the class's training values (see ./density.ts). Priors are the class shares of
 * the training examples. Everything is summed in log space,
 *
 *     z = ln Pr(+) − ln Pr(−) + Σ_j (ln p(x_j|+) − ln p(x_j|−)),   Pr(+|x) = 1 / (1 + e^−z)
 *
 * with a logistic that never overflows. A term whose two log-densities are both −∞
 * (a value so large that both underflow) says nothing and is skipped; if the terms
 * disagree infinitely (+∞ and −∞) the evidence is void and the posterior is the prior.
 * A NaN feature value counts as 0. So the posterior is never NaN and lies in [0, 1].
 *
 * Evaluation is sparse: the evidence of the all-zero vector is summed once, and a
 * vector's non-zero terms only correct it, so scoring costs time in the terms a vector
 * holds, not in the vocabulary. Kernel samples are kept as distinct values with counts.
 *
 * Models are plain data ({@link NaiveBayesJson}) so they can be written to a file.
 */
import {
  BANDWIDTH_RULES,
  type BandwidthRule,
  compactSample,
  kernelBandwidth,
  type NormalStats,
  normalLogDensity,
  VARIANCE_FLOOR,
  weightedKernelLogDensity,
} from './density.js';

/** Which estimate of p(x_j|class) a model uses. */
export type DensityKind = 'normal' | 'kernel';

/** A feature vector: term → weight; a term of the vocabulary missing from it is 0. */
export type FeatureVector = ReadonlyMap<string, number>;

/** Training options. */
export interface NaiveBayesOptions {
  /** Density estimate; default `'normal'`. */
  readonly density?: DensityKind;
  /** Kernel bandwidth rule; default `'inverse-sqrt-n'`. Ignored by the normal density. */
  readonly bandwidth?: BandwidthRule;
  /** The vocabulary; default the sorted union of the training vectors' terms. */
  readonly vocabulary?: readonly string[];
}

/** A kernel sample: its distinct values (ascending) and how often each occurs. */
export interface KernelSample {
  readonly values: readonly number[];
  readonly counts: readonly number[];
}

/** Per-class statistics of one term. */
export interface TermClassStats {
  /** Normal density: mean and (floored) variance. */
  readonly normal?: NormalStats;
  /** Kernel density: the training values (one per example of the class), compacted. */
  readonly sample?: KernelSample;
}

/** Plain-data form of a model. */
export interface NaiveBayesJson {
  readonly version: 1;
  readonly density: DensityKind;
  readonly bandwidth: BandwidthRule;
  readonly vocabulary: readonly string[];
  /** Class priors Pr(+) and Pr(−), and the class example counts. */
  readonly priors: { readonly positive: number; readonly negative: number };
  readonly counts: { readonly positive: number; readonly negative: number };
  /** Kernel σ per class (from `bandwidth` and the counts). */
  readonly sigma: { readonly positive: number; readonly negative: number };
  /** Per term (in vocabulary order): statistics for the positive and negative class. */
  readonly terms: readonly {
    readonly positive: TermClassStats;
    readonly negative: TermClassStats;
  }[];
}

/** A trained classifier. */
export interface NaiveBayesModel {
  /** z = ln Pr(+|x) − ln Pr(−|x) (module comment); finite or ±Infinity, never NaN. */
  logOdds(x: FeatureVector): number;
  /** Pr(+|x), in [0, 1], never NaN. */
  posterior(x: FeatureVector): number;
  toJSON(): NaiveBayesJson;
}

/** 1 / (1 + e^−z) without overflow; NaN → 0.5. */
export function logistic(z: number): number {
  if (Number.isNaN(z)) return 0.5;
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

function clean(v: number | undefined): number {
  return v === undefined || Number.isNaN(v) ? 0 : v;
}

/** Per-term statistics of one class, accumulated sparsely over its vectors. */
function classStats(
  vectors: readonly FeatureVector[],
  vocabulary: readonly string[],
  density: DensityKind,
): TermClassStats[] {
  const index = new Map(vocabulary.map((t, i) => [t, i]));
  const n = vectors.length;
  const nonZero: number[][] = vocabulary.map(() => []);
  for (const v of vectors) {
    for (const [t, raw] of v) {
      const j = index.get(t);
      const x = clean(raw);
      if (j !== undefined && x !== 0) (nonZero[j] as number[]).push(x);
    }
  }
  return nonZero.map((xs): TermClassStats => {
    const zeros = n - xs.length;
    if (density === 'kernel') return { sample: compactSample(xs, zeros) };
    let sum = 0;
    for (const x of xs) sum += x;
    const mean = sum / n;
    let ss = zeros * mean * mean;
    for (const x of xs) ss += (x - mean) * (x - mean);
    return { normal: { mean, variance: Math.max(ss / n, VARIANCE_FLOOR) } };
  });
}

/**
 * Trains a model from positive and negative feature vectors. Both classes need at
 * least one example (a RangeError otherwise).
 */
export function trainNaiveBayes(
  positives: readonly FeatureVector[],
  negatives: readonly FeatureVector[],
  options: NaiveBayesOptions = {},
): NaiveBayesModel {
  if (positives.length === 0 || negatives.length === 0) {
    throw new RangeError(
      `naive Bayes needs positive and negative examples (got ${positives.length} and ${negatives.length})`,
    );
  }
  const density = options.density ?? 'normal';
  const bandwidth = options.bandwidth ?? 'inverse-sqrt-n';
  let vocabulary = options.vocabulary;
  if (vocabulary === undefined) {
    const all = new Set<string>();
    for (const v of [...positives, ...negatives]) for (const t of v.keys()) all.add(t);
    vocabulary = [...all].sort();
  }
  const np = positives.length;
  const nn = negatives.length;
  const pos = classStats(positives, vocabulary, density);
  const neg = classStats(negatives, vocabulary, density);
  return naiveBayesFromJSON({
    version: 1,
    density,
    bandwidth,
    vocabulary: [...vocabulary],
    priors: { positive: np / (np + nn), negative: nn / (np + nn) },
    counts: { positive: np, negative: nn },
    sigma: { positive: kernelBandwidth(bandwidth, np), negative: kernelBandwidth(bandwidth, nn) },
    terms: vocabulary.map((_, j) => ({
      positive: pos[j] as TermClassStats,
      negative: neg[j] as TermClassStats,
    })),
  });
}

function classLogDensity(x: number, s: TermClassStats, sigma: number): number {
  if (s.normal !== undefined) return normalLogDensity(x, s.normal.mean, s.normal.variance);
  const k = s.sample;
  return k === undefined
    ? Number.NEGATIVE_INFINITY
    : weightedKernelLogDensity(x, k.values, k.counts, sigma);
}

/** Rebuilds a model from its plain-data form; throws a RangeError naming a malformed field. */
export function naiveBayesFromJSON(json: NaiveBayesJson): NaiveBayesModel {
  if (json.version !== 1)
    throw new RangeError(`naive Bayes model version ${String(json.version)} is not supported`);
  if (json.density !== 'normal' && json.density !== 'kernel') {
    throw new RangeError(`naive Bayes model: unknown density ${String(json.density)}`);
  }
  if (!Object.hasOwn(BANDWIDTH_RULES, json.bandwidth)) {
    throw new RangeError(`naive Bayes model: unknown bandwidth rule ${String(json.bandwidth)}`);
  }
  if (json.terms.length !== json.vocabulary.length) {
    throw new RangeError(
      `naive Bayes model: ${json.terms.length} term statistics for ${json.vocabulary.length} vocabulary terms`,
    );
  }
  const { positive: pp, negative: pn } = json.priors;
  if (!(pp >= 0 && pn >= 0 && pp + pn > 0)) {
    throw new RangeError(`naive Bayes model: bad priors ${pp}, ${pn}`);
  }
  const logPrior = Math.log(pp) - Math.log(pn);
  const { vocabulary, terms, sigma } = json;
  const index = new Map(vocabulary.map((t, j) => [t, j]));
  const termEvidence = (j: number, v: number): number => {
    const s = terms[j];
    if (s === undefined) return 0;
    const d =
      classLogDensity(v, s.positive, sigma.positive) -
      classLogDensity(v, s.negative, sigma.negative);
    return Number.isNaN(d) ? 0 : d;
  };
  // The evidence of the all-zero vector, term by term and summed.
  const atZero = vocabulary.map((_, j) => termEvidence(j, 0));
  let zeroEvidence = 0;
  for (const d of atZero) zeroEvidence += d;
  const sparse = Number.isFinite(zeroEvidence);

  const finish = (evidence: number): number => {
    const z = logPrior + (Number.isNaN(evidence) ? 0 : evidence);
    return Number.isNaN(z) ? 0 : z;
  };
  const logOdds = (x: FeatureVector): number => {
    if (sparse) {
      let evidence = zeroEvidence;
      for (const [t, raw] of x) {
        const j = index.get(t);
        const v = clean(raw);
        if (j === undefined || v === 0) continue;
        evidence += termEvidence(j, v) - (atZero[j] as number);
      }
      if (Number.isFinite(evidence)) return finish(evidence);
    }
    // Infinite evidence somewhere: the plain sum, so that ±Infinity combine as the module says.
    let evidence = 0;
    for (let j = 0; j < vocabulary.length; j++) {
      evidence += termEvidence(j, clean(x.get(vocabulary[j] as string)));
    }
    return finish(evidence);
  };

  return {
    logOdds,
    posterior: (x) => logistic(logOdds(x)),
    toJSON: () => json,
  };
}
