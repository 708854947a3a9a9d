// The figures of `focuscrawl status` (DESIGN 1.1's statistics table), read from a store.
import {
  type CrawlRunRecord,
  META_RUNS,
  META_TOPIC,
  REFUSED_CODES,
  type StopReason,
  type StoredTopic,
} from '../crawl/index.js';
import {
  type RankedPage,
  type RankingSummary,
  storedRanking,
  topPagesByScore,
} from '../ranking/index.js';
import type { ThresholdChange, ThresholdKind, TopicChange } from '../relevance/history.js';
import { type HostStats, leaseLost, type StateCounts, type Store } from '../store/index.js';
import { readAdaptation } from './adaptation.js';
import { gatherRevisitStatus, type RevisitMeta, type RevisitStatus } from './revisit-status.js';

/** Threshold changes listed by `status`. */
export const STATUS_LAST_CHANGES = 5;

/** One run of `crawl` on the store (`getMeta('runs')`). */
export interface RunInfo {
  startedAt: number;
  /** The last progress tick of a run that did not end cleanly. */
  endedAt: number;
  durationMs: number;
  fetched: number;
  /** HTTP requests sent; null in runs recorded before they were counted. */
  requests: number | null;
  /** null while the run is going on, or when its process died. */
  stopReason: StopReason | null;
  strategy: string | null;
}

/** Everything `status` shows; `status --json` prints it as it is. Times in ms since the epoch. */
export interface StatusData {
  /** Fetch outcomes recorded (history rows): "docs fetched". */
  fetched: number;
  /** Pages fetched: responses that ended a URL (what `--max-pages` counts). */
  responses: number;
  /** Redirect hops recorded. */
  redirects: number;
  /** HTTP requests sent over the runs that counted them; null when none did. */
  requests: number | null;
  /** URLs failed before any request was sent, by error code, most first. */
  refused: { code: string; count: number }[];
  /** Failures by error code (or `HTTP 404`), most first. */
  errors: { code: string; count: number }[];
  /** Fetches that failed (state error). */
  failed: number;
  /** Pages fetched and found irrelevant (state discard). */
  rejected: number;
  /** URLs added as new, seeds and trimmed URLs included. */
  discovered: number;
  /** Waiting URLs removed to bound the frontier. */
  dropped: number;
  /** Body bytes of all fetched pages. */
  bytes: number;
  seeds: number;
  /** URLs per state now. */
  counts: StateCounts;
  /** complete / (complete + discard); null before the first page. */
  harvestRate: number | null;
  /** Where the times come from: run records, else the history's first and last fetch. */
  timeSource: 'runs' | 'history' | null;
  /** Start of the first run (else the first fetch). */
  startedAt: number | null;
  /** End of the last run (else the last fetch). */
  endedAt: number | null;
  /** endedAt − startedAt. */
  totalTimeMs: number | null;
  /** Sum of the runs' durations (without run records: totalTimeMs). */
  crawlTimeMs: number | null;
  /** fetched / crawl time in seconds; null without a crawl time. */
  pagesPerSec: number | null;
  firstFetchAt: number | null;
  lastFetchAt: number | null;
  /** The topic the crawl scored pages with (`getMeta('topic')`); null when none is recorded. */
  topic: { name: string | null; threshold: number | null; keywords: number } | null;
  runs: { count: number; lastStopReason: StopReason | null; list: RunInfo[] };
  /**
   * The keep/discard threshold as the crawl adapted it (DESIGN 1.2, 1.5); null when
   * the crawl recorded no threshold history.
   */
  threshold: {
    kind: ThresholdKind;
    initial: number;
    /** The threshold in force now. */
    value: number;
    /** True once an iterative threshold converged. */
    frozen: boolean;
    /** Changes recorded (the oldest beyond 1,000 are dropped, the first kept). */
    changes: number;
    /** The last few changes, oldest first. */
    last: ThresholdChange[];
  } | null;
  /** Re-estimations of the topic vector (DESIGN 1.5); null when none is recorded. */
  topicVector: {
    changes: number;
    /** Drift of the last change: 1 − cos(original vector, new vector). */
    lastDrift: number | null;
    last: TopicChange | null;
    /** Keywords in the vector now. */
    keywords: number;
  } | null;
  /**
   * The runs holding claims now (the store's open leases), oldest first: one per
   * crawl at work. `lost`: it stopped renewing (gone, or stalled past its lease);
   * the next run takes its claims back.
   */
  running: { host: string; pid: number; startedAt: number; expiresAt: number; lost: boolean }[];
  /** Hosts with the most fetches first. */
  topHosts: HostStats[];
  /** Pages recorded as duplicates of kept pages, not stored twice. */
  duplicates: { exact: number; near: number };
  /** The last ranking (`rank`, or the end of a crawl run); null before the first. */
  ranking: RankingSummary | null;
  /** Kept pages with the highest final score P, best first (none before a ranking). */
  topPages: RankedPage[];
  /**
   * Revisits (DESIGN 1.3), when the store has revisit records or a watch recorded;
   * absent otherwise.
   */
  revisits?: RevisitStatus;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Run records as stored, ignoring malformed entries (the meta value is free JSON). */
function readRuns(raw: unknown): RunInfo[] {
  if (!Array.isArray(raw)) return [];
  const runs: RunInfo[] = [];
  for (const r of raw as Partial<CrawlRunRecord>[]) {
    if (r === null || typeof r !== 'object' || !isNum(r.startedAt)) continue;
    const endedAt = isNum(r.endedAt) ? Math.max(r.endedAt, r.startedAt) : r.startedAt;
    runs.push({
      startedAt: r.startedAt,
      endedAt,
      durationMs: endedAt - r.startedAt,
      fetched: isNum(r.fetched) ? r.fetched : 0,
      requests: isNum(r.requests) ? r.requests : null,
      stopReason: typeof r.stopReason === 'string' ? r.stopReason : null,
      strategy: typeof r.strategy === 'string' ? r.strategy : null,
    });
  }
  return runs.sort((a, b) => a.startedAt - b.startedAt);
}

function readTopic(raw: unknown): StatusData['topic'] {
  if (raw === null || typeof raw !== 'object') return null;
  const t = raw as Partial<StoredTopic>;
  return {
    name: typeof t.name === 'string' ? t.name : null,
    threshold: isNum(t.threshold) ? t.threshold : null,
    keywords:
      t.keywords !== null && typeof t.keywords === 'object' ? Object.keys(t.keywords).length : 0,
  };
}

/**
 * Reads the figures of `status` from a store (a read-only one will do).
 * @param options.topHosts hosts listed @default 10
 * @param options.topPages pages listed by P @default 10
 * @param options.revisitMeta the stored watch and revisit plan (`getMeta(META_WATCH)`,
 *   `getMeta(META_PLAN)` of src/watch) for the revisits section @default none: the
 *   section then shows the store's own revisit figures only
 * @param options.now the status's time (what is due now, live leases) @default Date.now()
 */
export async function gatherStatus(
  store: Store,
  options: { topHosts?: number; topPages?: number; revisitMeta?: RevisitMeta; now?: number } = {},
): Promise<StatusData> {
  const stats = await store.stats({ topHosts: options.topHosts ?? 10 });
  const runs = readRuns(await store.getMeta(META_RUNS));
  const topic = readTopic(await store.getMeta(META_TOPIC));
  const seeds = (await store.getSeeds()).length;
  const adaptation = await readAdaptation(store);
  const { complete, discard } = stats.counts;
  const now = options.now ?? Date.now();
  const running = (await store.leases()).map((l) => ({
    host: l.host,
    pid: l.pid,
    startedAt: l.startedAt,
    expiresAt: l.expiresAt,
    lost: leaseLost(l, now),
  }));

  let timeSource: StatusData['timeSource'] = null;
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  let crawlTimeMs: number | null = null;
  if (runs.length > 0) {
    timeSource = 'runs';
    startedAt = Math.min(...runs.map((r) => r.startedAt));
    endedAt = Math.max(...runs.map((r) => r.endedAt));
    crawlTimeMs = runs.reduce((sum, r) => sum + r.durationMs, 0);
  } else if (stats.firstFetchAt !== null && stats.lastFetchAt !== null) {
    timeSource = 'history';
    startedAt = stats.firstFetchAt;
    endedAt = stats.lastFetchAt;
    crawlTimeMs = endedAt - startedAt;
  }
  const totalTimeMs = startedAt !== null && endedAt !== null ? endedAt - startedAt : null;

  const counted = runs.filter((r) => r.requests !== null);
  const revisits = await gatherRevisitStatus(store, options.revisitMeta ?? {}, now);
  return {
    fetched: stats.fetched,
    responses: stats.responses,
    redirects: stats.redirects,
    requests: counted.length > 0 ? counted.reduce((t, r) => t + (r.requests ?? 0), 0) : null,
    refused: stats.errors.filter((e) => REFUSED_CODES.has(e.code)),
    errors: stats.errors,
    failed: stats.failed,
    rejected: stats.rejected,
    discovered: stats.discovered,
    dropped: stats.dropped,
    bytes: stats.bytes,
    seeds,
    counts: stats.counts,
    harvestRate: complete + discard > 0 ? complete / (complete + discard) : null,
    timeSource,
    startedAt,
    endedAt,
    totalTimeMs,
    crawlTimeMs,
    pagesPerSec: crawlTimeMs ? stats.fetched / (crawlTimeMs / 1000) : null,
    firstFetchAt: stats.firstFetchAt,
    lastFetchAt: stats.lastFetchAt,
    topic,
    runs: {
      count: runs.length,
      lastStopReason: runs.at(-1)?.stopReason ?? null,
      list: runs,
    },
    running,
    threshold: thresholdStatus(adaptation.threshold),
    topicVector: topicStatus(adaptation.topic),
    topHosts: stats.topHosts,
    duplicates: stats.duplicates,
    ranking: await storedRanking(store),
    topPages:
      (options.topPages ?? 10) > 0 ? await topPagesByScore(store, options.topPages ?? 10) : [],
    ...(revisits !== null ? { revisits } : {}),
  };
}

function thresholdStatus(
  h: Awaited<ReturnType<typeof readAdaptation>>['threshold'],
): StatusData['threshold'] {
  if (h === null) return null;
  return {
    kind: h.kind,
    initial: h.initial,
    value: h.value,
    frozen: h.frozen,
    changes: h.changes.length,
    last: h.changes.slice(-STATUS_LAST_CHANGES),
  };
}

function topicStatus(
  h: Awaited<ReturnType<typeof readAdaptation>>['topic'],
): StatusData['topicVector'] {
  if (h === null) return null;
  const last = h.changes.at(-1) ?? null;
  return {
    changes: h.changes.length,
    lastDrift: last?.drift ?? null,
    last,
    keywords: Object.keys(h.keywords).length,
  };
}
