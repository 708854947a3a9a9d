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
 * Models are plain data ({@link NaiveBayesJson}) so they can be written to a file.
 */
import {
  BANDWIDTH_RULES,
  type BandwidthRule,
  fitNormal,
  kernelBandwidth,
  kernelLogDensity,
  type NormalStats,
  normalLogDensity,
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

/** Per-class statistics of one term. */
export interface TermClassStats {
  /** Normal density: mean and (floored) variance. */
  readonly normal?: NormalStats;
  /** Kernel density: the training values (one per example of the class). */
  readonly sample?: readonly number[];
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

function featureValue(x: FeatureVector, term: string): number {
  const v = x.get(term) ?? 0;
  return Number.isNaN(v) ? 0 : v;
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
  const stats = (vectors: readonly FeatureVector[], term: string): TermClassStats => {
    const values = vectors.map((v) => featureValue(v, term));
    return density === 'normal' ? { normal: fitNormal(values) } : { sample: values };
  };
  const np = positives.length;
  const nn = negatives.length;
  return naiveBayesFromJSON({
    version: 1,
    density,
    bandwidth,
    vocabulary: [...vocabulary],
    priors: { positive: np / (np + nn), negative: nn / (np + nn) },
    counts: { positive: np, negative: nn },
    sigma: { positive: kernelBandwidth(bandwidth, np), negative: kernelBandwidth(bandwidth, nn) },
    terms: vocabulary.map((t) => ({
      positive: stats(positives, t),
      negative: stats(negatives, t),
    })),
  });
}

function classLogDensity(x: number, s: TermClassStats, sigma: number): number {
  if (s.normal !== undefined) return normalLogDensity(x, s.normal.mean, s.normal.variance);
  return kernelLogDensity(x, s.sample ?? [], sigma);
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

  const logOdds = (x: FeatureVector): number => {
    let evidence = 0;
    for (let j = 0; j < vocabulary.length; j++) {
      const term = vocabulary[j] as string;
      const s = terms[j];
      if (s === undefined) continue;
      const v = featureValue(x, term);
      const d =
        classLogDensity(v, s.positive, sigma.positive) -
        classLogDensity(v, s.negative, sigma.negative);
      if (!Number.isNaN(d)) evidence += d;
    }
    if (Number.isNaN(evidence)) evidence = 0;
    const z = logPrior + evidence;
    return Number.isNaN(z) ? 0 : z;
  };

  return {
    logOdds,
    posterior: (x) => logistic(logOdds(x)),
    toJSON: () => json,
  };
}
