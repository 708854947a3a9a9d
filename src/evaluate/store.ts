// Evaluation of a crawl store: its history against the labels, plus the crawl's own
// figures (speed, keep share, strategy) from the same store. Reads only.

import type { StopReason } from '../crawl/index.js';
import { gatherStatus } from '../export/index.js';
import type { LabelSet } from '../labels/index.js';
import type { Store } from '../store/index.js';
import { type Evaluation, type EvaluationOptions, evaluateStream } from './metrics.js';

/** What the store says about the crawl itself. */
export interface CrawlFacts {
  /** complete / (complete + discard), by the crawl's own relevance; null before a page. */
  keptShare: number | null;
  kept: number;
  /** Fetch outcomes per second of crawl time (the runs' durations added up). */
  pagesPerSec: number | null;
  crawlTimeMs: number | null;
  /** The strategy of the last run. */
  strategy: string | null;
  /** The last run's stop reason (null while it runs or when its process died). */
  stopReason: StopReason | null;
  runs: number;
  topic: { name: string | null; threshold: number | null } | null;
}

export interface StoreEvaluation extends Evaluation {
  /** What the labels were (file, topic). */
  labels: {
    source: string;
    format: 'json' | 'urls';
    topic: string | null;
    topicName: string | null;
  };
  crawl: CrawlFacts;
}

/** Evaluates the crawl in `store` (a read-only one will do) against `labels`. */
export async function evaluateStore(
  store: Store,
  labels: LabelSet,
  options: EvaluationOptions = {},
): Promise<StoreEvaluation> {
  const evaluation = await evaluateStream(store.history(), labels.relevant, options);
  const s = await gatherStatus(store, { topHosts: 0 });
  return {
    labels: {
      source: labels.source,
      format: labels.format,
      topic: labels.topic,
      topicName: labels.topicName,
    },
    ...evaluation,
    crawl: {
      keptShare: s.harvestRate,
      kept: s.counts.complete,
      pagesPerSec: s.pagesPerSec,
      crawlTimeMs: s.crawlTimeMs,
      strategy: s.runs.list.at(-1)?.strategy ?? null,
      stopReason: s.runs.lastStopReason,
      runs: s.runs.count,
      topic: s.topic === null ? null : { name: s.topic.name, threshold: s.topic.threshold },
    },
  };
}
