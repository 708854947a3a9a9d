/**
 * The link model: DESIGN 1.4's naive Bayes over the improved TF-IDF of link contexts,
 * with what it needs to score a link on its own: the vocabulary (selected by
 * information gain, vocabulary.ts), each term's document frequency over the training
 * examples E and |E| (for the weights of features.ts), and the class statistics of
 * classifier.ts. Links are ordered by Pr(+ | context); the frontier stores its log odds
 * ln(Pr(+)/Pr(−)), which orders links exactly as Pr does but does not round to 0 or 1
 * for links far from the decision boundary (a page-trained model gives most links a
 * Pr within 1e−16 of 0 or 1).
 *
 * Training takes term counts (link-features.ts turns links and example pages into
 * counts), so the same code trains offline from pages (`focuscrawl train`) and online
 * from the contexts of links whose targets the crawl has judged. Cross-validation
 * (`crossValidateLinkModel`) repeats the whole training, vocabulary included, on each
 * fold's training part. Pure.
 */
import {
  type DensityKind,
  logistic,
  type NaiveBayesJson,
  naiveBayesFromJSON,
  trainNaiveBayes,
} from './classifier.js';
import type { BandwidthRule } from './density.js';
import { contextWeights } from './features.js';
import { classificationMetrics, stratifiedFolds } from './folds.js';
import { DEFAULT_MAX_TERMS, DEFAULT_MIN_DOCS, selectVocabulary } from './vocabulary.js';

export const LINK_MODEL_FORMAT = 'focuscrawl-link-model';
export const LINK_MODEL_VERSION = 1;
/** Characters of text taken on each side of a link by default (the parse stage's default). */
export const DEFAULT_CONTEXT_CHARS = 80;

/** Term counts of one example or link. */
export type TermCounts = ReadonlyMap<string, number>;

export interface LinkModelOptions {
  /** Density estimate (kernel scored better on the test web, docs/bayes.md). @default 'kernel' */
  readonly density?: DensityKind;
  /** Kernel bandwidth rule. @default 'inverse-sqrt-n' */
  readonly bandwidth?: BandwidthRule;
  /** Vocabulary size at most. @default 100 */
  readonly maxTerms?: number;
  /** Examples a term must occur in. @default 2 */
  readonly minDocs?: number;
  /** Characters of context on each side of a link the model is meant for. @default 80 */
  readonly contextChars?: number;
}

/** Scores of the predictions Pr(+|x) ≥ ½ against the labels. */
export interface TrainingMetrics {
  /** How they were measured: k-fold cross-validation, or on examples seen after training. */
  readonly method: 'cross-validation' | 'next-examples';
  /** k of the cross-validation; 0 otherwise. */
  readonly folds: number;
  readonly examples: number;
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** The file form of a link model (docs/bayes.md). */
export interface LinkModelJson {
  readonly format: typeof LINK_MODEL_FORMAT;
  readonly version: typeof LINK_MODEL_VERSION;
  readonly createdAt: string;
  readonly features: { readonly contextChars: number };
  readonly training: {
    readonly positive: number;
    readonly negative: number;
    readonly maxTerms: number;
    readonly minDocs: number;
  };
  /** Per vocabulary term (classifier.vocabulary order): training examples containing it. */
  readonly documentFrequencies: readonly number[];
  readonly classifier: NaiveBayesJson;
  readonly metrics: TrainingMetrics | null;
}

export class LinkModel {
  readonly json: LinkModelJson;
  readonly #nb;
  readonly #df: Map<string, number>;
  readonly #examples: number;

  /** A model from its validated file form (`parseLinkModel` validates). */
  constructor(json: LinkModelJson) {
    this.json = json;
    this.#nb = naiveBayesFromJSON(json.classifier);
    const vocabulary = json.classifier.vocabulary;
    this.#df = new Map(vocabulary.map((t, i) => [t, json.documentFrequencies[i] ?? 0]));
    this.#examples = json.training.positive + json.training.negative;
  }

  get vocabularySize(): number {
    return this.json.classifier.vocabulary.length;
  }

  /** The improved TF-IDF weights of term counts over this model's vocabulary. */
  weights(counts: TermCounts): Map<string, number> {
    return contextWeights(counts, this.#df, this.#examples);
  }

  logOdds(counts: TermCounts): number {
    return this.#nb.logOdds(this.weights(counts));
  }

  /** Pr(+ | counts), in [0, 1]. */
  probability(counts: TermCounts): number {
    return logistic(this.logOdds(counts));
  }

  withMetrics(metrics: TrainingMetrics | null): LinkModel {
    return new LinkModel({ ...this.json, metrics });
  }
}

/**
 * Trains a link model. Both classes need an example (`RangeError` otherwise); terms of
 * fewer than `minDocs` examples are left out, so a model may have an empty vocabulary
 * and answer with the prior alone.
 */
export function trainLinkModel(
  positives: readonly TermCounts[],
  negatives: readonly TermCounts[],
  options: LinkModelOptions = {},
  createdAt: Date = new Date(),
): LinkModel {
  const maxTerms = options.maxTerms ?? DEFAULT_MAX_TERMS;
  const minDocs = options.minDocs ?? DEFAULT_MIN_DOCS;
  const vocabulary = selectVocabulary(positives, negatives, { maxTerms, minDocs });
  const inVocabulary = new Set(vocabulary);
  const df = new Map<string, number>();
  for (const e of [...positives, ...negatives]) {
    for (const [t, n] of e) if (n > 0 && inVocabulary.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const examples = positives.length + negatives.length;
  const vectors = (xs: readonly TermCounts[]) => xs.map((c) => contextWeights(c, df, examples));
  const nbOptions = {
    vocabulary,
    density: options.density ?? 'kernel',
    ...(options.bandwidth === undefined ? {} : { bandwidth: options.bandwidth }),
  };
  const nb = trainNaiveBayes(vectors(positives), vectors(negatives), nbOptions);
  return new LinkModel({
    format: LINK_MODEL_FORMAT,
    version: LINK_MODEL_VERSION,
    createdAt: createdAt.toISOString(),
    features: { contextChars: options.contextChars ?? DEFAULT_CONTEXT_CHARS },
    training: { positive: positives.length, negative: negatives.length, maxTerms, minDocs },
    documentFrequencies: vocabulary.map((t) => df.get(t) ?? 0),
    classifier: nb.toJSON(),
    metrics: null,
  });
}

/** Scores of `model`'s predictions (Pr ≥ ½) on labelled examples. */
export function evaluateLinkModel(
  model: LinkModel,
  positives: readonly TermCounts[],
  negatives: readonly TermCounts[],
): TrainingMetrics {
  const predicted = [...positives, ...negatives].map((c) => model.logOdds(c) >= 0);
  const actual = [...positives.map(() => true), ...negatives.map(() => false)];
  const m = classificationMetrics(predicted, actual);
  return {
    method: 'next-examples',
    folds: 0,
    examples: actual.length,
    accuracy: m.accuracy,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
  };
}

/**
 * k-fold stratified cross-validation (folds.ts) of the whole training: each fold's
 * model is trained on the other folds and predicts the held-out examples; the scores
 * are over all predictions together (`examples`: how many were predicted; a fold whose
 * training part lacks a class predicts nothing). `folds` is clamped to the number of
 * examples.
 */
export function crossValidateLinkModel(
  positives: readonly TermCounts[],
  negatives: readonly TermCounts[],
  options: LinkModelOptions = {},
  { folds = 5, seed = 1 }: { folds?: number; seed?: number } = {},
): TrainingMetrics {
  const all = [...positives, ...negatives];
  const labels = [...positives.map(() => true), ...negatives.map(() => false)];
  const k = Math.max(2, Math.min(folds, all.length));
  const predicted: boolean[] = [];
  const actual: boolean[] = [];
  for (const f of stratifiedFolds(labels, k, seed)) {
    const pos = f.train.filter((i) => labels[i]).map((i) => all[i] as TermCounts);
    const neg = f.train.filter((i) => !labels[i]).map((i) => all[i] as TermCounts);
    // A fold whose training part lacks a class trains nothing; its examples are not scored.
    if (pos.length === 0 || neg.length === 0) continue;
    const m = trainLinkModel(pos, neg, options);
    for (const i of f.test) {
      predicted.push(m.logOdds(all[i] as TermCounts) >= 0);
      actual.push(labels[i] as boolean);
    }
  }
  const m = classificationMetrics(predicted, actual);
  return {
    method: 'cross-validation',
    folds: k,
    examples: actual.length,
    accuracy: m.accuracy,
    precision: m.precision,
    recall: m.recall,
    f1: m.f1,
  };
}
