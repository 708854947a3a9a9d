/**
 * Cross-validation for the naive Bayes link classifier: deterministic, stratified k-fold
 * splits and the usual scores of binary predictions. Pure.
 *
 * Splits: the indices of each class are shuffled with a seeded generator (mulberry32,
 * Fisher–Yates) and dealt to the folds in turn, the negatives carrying on where the
 * positives stopped, so fold sizes differ by at most one and each fold's class
 * proportions are as close to the whole set's as whole numbers allow.
 */
import { seededRandom } from '../../util/index.js';

/** One fold: the indices held out for testing and the rest for training, both ascending. */
export interface Fold {
  readonly train: readonly number[];
  readonly test: readonly number[];
}

export { seededRandom };

function shuffle(items: number[], random: () => number): number[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = items[i] as number;
    items[i] = items[j] as number;
    items[j] = tmp;
  }
  return items;
}

/**
 * k stratified folds over examples labelled `labels` (true = positive). `k` must be an
 * integer from 2 to labels.length (a RangeError otherwise). The same labels, k and seed
 * always give the same folds; every index is in exactly one test set.
 */
export function stratifiedFolds(labels: readonly boolean[], k: number, seed = 0): Fold[] {
  if (!Number.isInteger(k) || k < 2 || k > labels.length) {
    throw new RangeError(`k-fold: k = ${k} must be an integer from 2 to ${labels.length}`);
  }
  const random = seededRandom(seed);
  const pos: number[] = [];
  const neg: number[] = [];
  labels.forEach((l, i) => {
    (l ? pos : neg).push(i);
  });
  const tests: number[][] = Array.from({ length: k }, () => []);
  let next = 0;
  for (const i of [...shuffle(pos, random), ...shuffle(neg, random)]) {
    (tests[next] as number[]).push(i);
    next = (next + 1) % k;
  }
  return tests.map((test) => {
    const held = new Set(test);
    return {
      test: [...test].sort((a, b) => a - b),
      train: labels.map((_, i) => i).filter((i) => !held.has(i)),
    };
  });
}

/** Counts and scores of binary predictions. Scores with a zero denominator are 0. */
export interface ClassificationMetrics {
  readonly truePositives: number;
  readonly falsePositives: number;
  readonly trueNegatives: number;
  readonly falseNegatives: number;
  readonly accuracy: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
}

/** Scores of `predicted` against `actual` (same length; a RangeError otherwise). */
export function classificationMetrics(
  predicted: readonly boolean[],
  actual: readonly boolean[],
): ClassificationMetrics {
  if (predicted.length !== actual.length) {
    throw new RangeError(`metrics: ${predicted.length} predictions for ${actual.length} labels`);
  }
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  predicted.forEach((p, i) => {
    const a = actual[i];
    if (p && a) tp++;
    else if (p) fp++;
    else if (a) fn++;
    else tn++;
  });
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return {
    truePositives: tp,
    falsePositives: fp,
    trueNegatives: tn,
    falseNegatives: fn,
    accuracy: ratio(tp + tn, predicted.length),
    precision,
    recall,
    f1: ratio(2 * precision * recall, precision + recall),
  };
}
