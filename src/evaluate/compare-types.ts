// What `compare` produces: the runs, each with its evaluation. Types only.
import type { StoreEvaluation } from './store.js';

/** One crawl of a comparison, evaluated. */
export interface ComparedRun {
  name: string;
  /** The run spec as written. */
  spec: string;
  /** The crawl options the spec set. */
  options: Record<string, unknown>;
  /** The run's store directory. */
  store: string;
  /** `crawled` this time (new, or resumed), or `skipped`: the store had finished its budget. */
  action: 'crawled' | 'skipped';
  evaluation: StoreEvaluation;
}

export interface Comparison {
  generatedAt: number;
  outDir: string;
  /** The topic as given (a file name, or `(inline)`). */
  topic: string;
  /** Seeds given (the topic's own seeds come on top). */
  seeds: number;
  labels: StoreEvaluation['labels'];
  /** Labelled relevant URLs. */
  labelled: number;
  /** The budget of every run, in fetch outcomes. */
  maxPages: number;
  /** Budgets below `maxPages` at which the runs are compared (the end comes on top). */
  budgets: number[];
  runs: ComparedRun[];
}
