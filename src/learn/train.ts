/**
 * Training a link model from example pages (`focuscrawl train`): the sources are read
 * and fetched as for topic learning (sources.ts), every page becomes the term counts
 * of its title, text and URL (`documentTermCounts`), and the naive Bayes link model is
 * trained on them (DESIGN 1.4) and scored by stratified k-fold cross-validation.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { FetcherOptionsInput } from '../fetch/index.js';
import {
  crossValidateLinkModel,
  documentTermCounts,
  type LinkModel,
  type LinkModelOptions,
  type TermCounts,
  type TrainingMetrics,
  trainLinkModel,
} from '../relevance/index.js';
import { type ExampleDocument, loadExamples, type SkippedSource } from './sources.js';

export interface TrainOptions extends LinkModelOptions {
  /** Sources of positive examples: URLs, URL lists, labels files, folders, .html files. */
  positive: readonly string[];
  /** Sources of negative examples. */
  negative: readonly string[];
  /** Folds of the cross-validation (at least 2; clamped to the examples). @default 5 */
  folds?: number;
  /** Seed of the folds' shuffle. @default 1 */
  seed?: number;
  /** Options of the fetcher for URL sources (`resolve`, timeouts, politeness…). */
  fetcher?: FetcherOptionsInput;
  onSkip?: (skipped: SkippedSource) => void;
}

export interface TrainResult {
  /** The model, trained on every example, with the cross-validation metrics. */
  model: LinkModel;
  metrics: TrainingMetrics;
  positive: ExampleDocument[];
  negative: ExampleDocument[];
  skipped: SkippedSource[];
}

const countsOf = (d: ExampleDocument): TermCounts =>
  documentTermCounts({
    title: d.title,
    text: d.text,
    ...(/^https?:\/\//.test(d.source) ? { url: d.source } : {}),
  });

/** Reads, fetches, trains and cross-validates. */
export async function trainFromSources(options: TrainOptions): Promise<TrainResult> {
  for (const side of ['positive', 'negative'] as const) {
    if (options[side].length === 0) {
      throw new InvalidOptionError(`train: ${side}: give at least one source of ${side} examples`);
    }
  }
  const folds = options.folds ?? 5;
  if (!Number.isInteger(folds) || folds < 2) {
    throw new InvalidOptionError(`train: folds: expected an integer ≥ 2, got ${folds}`);
  }
  const { positive, negative, skipped } = await loadExamples(
    options.positive,
    options.negative,
    options.fetcher,
    options.onSkip,
    ['positive', 'negative'],
  );
  const positives = positive.map(countsOf);
  const negatives = negative.map(countsOf);
  const modelOptions: LinkModelOptions = {
    ...(options.density !== undefined ? { density: options.density } : {}),
    ...(options.bandwidth !== undefined ? { bandwidth: options.bandwidth } : {}),
    ...(options.maxTerms !== undefined ? { maxTerms: options.maxTerms } : {}),
    ...(options.minDocs !== undefined ? { minDocs: options.minDocs } : {}),
    ...(options.contextChars !== undefined ? { contextChars: options.contextChars } : {}),
  };
  const metrics = crossValidateLinkModel(positives, negatives, modelOptions, {
    folds,
    seed: options.seed ?? 1,
  });
  const model = trainLinkModel(positives, negatives, modelOptions).withMetrics(metrics);
  return { model, metrics, positive, negative, skipped };
}
