/**
 * What a crawl records about its threshold and topic vector as they adapt
 * (DESIGN 1.2, 1.5): stored in the store's meta under `META_THRESHOLD` and
 * `META_TOPIC`, shown by `status` and the report.
 */

/** Meta key of the `ThresholdHistory`. */
export const META_THRESHOLD = 'threshold';
/** Meta key of the `TopicHistory`. */
export const META_TOPIC = 'topicHistory';

/** Changes kept in a history; older ones are dropped first (the first change is kept). */
export const MAX_HISTORY = 1000;

export type ThresholdKind = 'fixed' | 'iterative' | 'adaptive';

/** One move of the keep/discard threshold. */
export interface ThresholdChange {
  /** When (ms since the epoch). */
  at: number;
  /** Fetch outcomes stored at that moment (all runs). */
  fetched: number;
  from: number;
  to: number;
  /**
   * Which rule moved it: `iterative` (a step of DESIGN 1.2), `converged` (the
   * iterative threshold froze), `alpha`, `beta`, `gamma` (DESIGN 1.5 rules 1–3),
   * `manual` (set by hand through the control channel, docs/api.md).
   */
  rule: string;
  /**
   * The process that made the change, `host:pid`, when several processes share the
   * crawl (its coordinator, docs/scale-out.md); absent for a crawl of one process.
   */
  by?: string;
}

export interface ThresholdHistory {
  kind: ThresholdKind;
  /** The threshold the crawl started with. */
  initial: number;
  /** The threshold in force now. */
  value: number;
  /** True once an iterative threshold converged (it no longer moves). */
  frozen: boolean;
  changes: ThresholdChange[];
  /** Policy state needed to resume (opaque). */
  state?: unknown;
}

/** One re-estimation of the topic vector. */
export interface TopicChange {
  at: number;
  fetched: number;
  /** 1 − cos(original topic vector, new topic vector), in [0, 1]. */
  drift: number;
  /** True when the drift limit held the change back (the vector moved only part way). */
  limited: boolean;
  added: string[];
  removed: string[];
  /** The heaviest keywords after the change, heaviest first (at most 20). */
  top: [word: string, weight: number][];
  /** The process that made the change (as `ThresholdChange.by`). */
  by?: string;
  /** `manual` when the weights were set by hand (the control channel, docs/api.md); absent for a re-estimation. */
  rule?: string;
}

export interface TopicHistory {
  changes: TopicChange[];
  /** The topic vector in force now. */
  keywords: Record<string, number>;
}

/** Appends `item`, dropping the oldest items after the first beyond `MAX_HISTORY`. */
export function appendCapped<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > MAX_HISTORY) list.splice(1, list.length - MAX_HISTORY);
}
