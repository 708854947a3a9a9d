// How well a crawl did against ground-truth labels, computed from its fetch history
// in fetch order: harvest rate and target recall over the pages fetched, their
// values at fixed budgets, and precision / recall / F1 of the keep/discard decision.
// Pure and streaming: outcomes go in one at a time, memory stays bounded.
import type { FinalState } from '../store/index.js';
import { canonicalizeUrl } from '../url/index.js';
import { Decimator } from '../util/index.js';

/** Budgets (fetch outcomes) at which figures are reported, besides the end. */
export const DEFAULT_BUDGETS: readonly number[] = [1000, 5000, 20_000];
/** Most points per curve (the decimator keeps between half and all of them, plus the last). */
export const MAX_CURVE_POINTS = 500;

/** What the evaluation needs of a history row. */
export interface OutcomeInput {
  url: string;
  state: FinalState;
}

/** The figures after a number of fetches. */
export interface CurvePoint {
  /** Fetch outcomes so far, failed fetches included: the budget spent. */
  fetched: number;
  /** Labelled-relevant URLs fetched as pages (complete or discard) so far, each once. */
  relevant: number;
  /** relevant / fetched. */
  harvestRate: number;
  /** relevant / labelled relevant URLs: target recall. */
  recall: number;
}

/** The figures at one budget; `at` is null when the crawl stopped before the budget. */
export interface BudgetPoint {
  budget: number;
  /** True for the crawl's last fetch (the budget is then the number of fetches). */
  end: boolean;
  at: CurvePoint | null;
}

/**
 * The keep/discard decision against the labels, over fetched pages (complete or
 * discard; failed fetches have no page): kept = complete.
 */
export interface DecisionScore {
  /** Kept and labelled relevant. */
  truePositive: number;
  /** Kept but not labelled relevant. */
  falsePositive: number;
  /** Discarded but labelled relevant. */
  falseNegative: number;
  /** Discarded and not labelled relevant. */
  trueNegative: number;
  /** TP / (TP + FP); null when nothing was kept. */
  precision: number | null;
  /** TP / (TP + FN); null when no labelled-relevant page was fetched. */
  recall: number | null;
  /** Harmonic mean of precision and recall; null when either is null. */
  f1: number | null;
}

export interface Evaluation {
  /** Labelled relevant URLs. */
  labelled: number;
  /** Fetch outcomes (history rows). */
  fetched: number;
  /** Fetches that produced a page (complete or discard). */
  pages: number;
  /** Fetches that failed. */
  errors: number;
  /** Labelled-relevant URLs fetched as pages. */
  relevant: number;
  /** relevant / fetched; null before the first fetch. */
  harvestRate: number | null;
  /** relevant / labelled. */
  recall: number;
  /** The figures at each budget, ascending, the end last. */
  budgets: BudgetPoint[];
  /** Harvest rate and recall over the fetches, decimated (the last point is exact). */
  curve: CurvePoint[];
  decision: DecisionScore;
}

export interface EvaluationOptions {
  /** @default DEFAULT_BUDGETS */
  budgets?: readonly number[];
  /** @default MAX_CURVE_POINTS */
  maxPoints?: number;
  /**
   * Consider only the first `limit` outcomes (so that crawls that went on past a
   * common budget are compared on it). @default all
   */
  limit?: number;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** Precision, recall and F1 from the four counts of a confusion matrix. */
export function decisionScore(
  c: Pick<DecisionScore, 'truePositive' | 'falsePositive' | 'falseNegative' | 'trueNegative'>,
): DecisionScore {
  const precision = ratio(c.truePositive, c.truePositive + c.falsePositive);
  const recall = ratio(c.truePositive, c.truePositive + c.falseNegative);
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { ...c, precision, recall, f1 };
}

/** Sorted, distinct, positive whole budgets; anything else is a RangeError. */
export function normalizeBudgets(budgets: readonly number[]): number[] {
  for (const b of budgets) {
    if (!(Number.isInteger(b) && b >= 1))
      throw new RangeError(`a budget must be a whole number ≥ 1, got ${b}`);
  }
  return [...new Set(budgets)].sort((a, b) => a - b);
}

/**
 * Evaluates a stream of fetch outcomes in fetch order against the relevant URLs:
 * `push` each history row, then `result()`. A labelled URL counts as relevant once,
 * the first time it is fetched as a page; history URLs are canonicalised before
 * they are looked up.
 */
export class EvaluationTracker {
  readonly #relevant: ReadonlySet<string>;
  readonly #budgets: number[];
  readonly #curve: Decimator<CurvePoint>;
  readonly #found = new Set<string>();
  readonly #atBudget: (CurvePoint | null)[];
  readonly #limit: number;
  #next = 0;
  #fetched = 0;
  #pages = 0;
  #tp = 0;
  #fp = 0;
  #fn = 0;
  #tn = 0;

  constructor(relevant: ReadonlySet<string>, options: EvaluationOptions = {}) {
    this.#relevant = relevant;
    this.#budgets = normalizeBudgets(options.budgets ?? DEFAULT_BUDGETS);
    this.#atBudget = this.#budgets.map(() => null);
    this.#curve = new Decimator<CurvePoint>(options.maxPoints ?? MAX_CURVE_POINTS);
    this.#limit = options.limit ?? Number.POSITIVE_INFINITY;
  }

  /** True once `limit` outcomes were taken: later ones are ignored. */
  get full(): boolean {
    return this.#fetched >= this.#limit;
  }

  #isRelevant(url: string): boolean {
    if (this.#relevant.has(url)) return true;
    const c = canonicalizeUrl(url);
    return c !== null && c !== url && this.#relevant.has(c);
  }

  #point(): CurvePoint {
    const relevant = this.#found.size;
    return {
      fetched: this.#fetched,
      relevant,
      harvestRate: relevant / this.#fetched,
      recall: this.#relevant.size > 0 ? relevant / this.#relevant.size : 0,
    };
  }

  push(o: OutcomeInput): void {
    if (this.full) return;
    this.#fetched++;
    if (o.state !== 'error') {
      this.#pages++;
      const relevant = this.#isRelevant(o.url);
      if (relevant) this.#found.add(canonicalizeUrl(o.url) ?? o.url);
      if (o.state === 'complete') {
        if (relevant) this.#tp++;
        else this.#fp++;
      } else if (relevant) this.#fn++;
      else this.#tn++;
    }
    const p = this.#point();
    this.#curve.push(p);
    while (this.#next < this.#budgets.length && this.#budgets[this.#next] === this.#fetched) {
      this.#atBudget[this.#next] = p;
      this.#next++;
    }
  }

  result(): Evaluation {
    const end = this.#fetched > 0 ? this.#point() : null;
    const budgets: BudgetPoint[] = this.#budgets
      .filter((b) => b !== this.#fetched)
      .map((budget) => ({
        budget,
        end: false,
        at: this.#atBudget[this.#budgets.indexOf(budget)] ?? null,
      }));
    // The end goes after the budgets it reached and before those it did not.
    const endRow: BudgetPoint = { budget: this.#fetched, end: true, at: end };
    const reached = budgets.filter((b) => b.budget < this.#fetched);
    const beyond = budgets.filter((b) => b.budget > this.#fetched);
    return {
      labelled: this.#relevant.size,
      fetched: this.#fetched,
      pages: this.#pages,
      errors: this.#fetched - this.#pages,
      relevant: this.#found.size,
      harvestRate: end?.harvestRate ?? null,
      recall: end?.recall ?? 0,
      budgets: [...reached, endRow, ...beyond],
      curve: this.#curve.points(),
      decision: decisionScore({
        truePositive: this.#tp,
        falsePositive: this.#fp,
        falseNegative: this.#fn,
        trueNegative: this.#tn,
      }),
    };
  }
}

/** Evaluates a known sequence of outcomes (the tracker applied). */
export function evaluateOutcomes(
  outcomes: Iterable<OutcomeInput>,
  relevant: ReadonlySet<string>,
  options: EvaluationOptions = {},
): Evaluation {
  const t = new EvaluationTracker(relevant, options);
  for (const o of outcomes) t.push(o);
  return t.result();
}

/** Evaluates a stream of outcomes, e.g. `store.history()`. */
export async function evaluateStream(
  outcomes: AsyncIterable<OutcomeInput>,
  relevant: ReadonlySet<string>,
  options: EvaluationOptions = {},
): Promise<Evaluation> {
  const t = new EvaluationTracker(relevant, options);
  for await (const o of outcomes) {
    if (t.full) break;
    t.push(o);
  }
  return t.result();
}
