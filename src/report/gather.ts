// Reads what the report shows from a store: one pass over each of history(),
// urls() and pages(), aggregated into small arrays (a few hundred points, the top
// N pages), so that memory does not grow with the crawl.
import {
  type CrawlRunRecord,
  readStoreSiteModel,
  type StopReason,
  type StoredTopic,
  sentRequest,
} from '../crawl/index.js';
import { readAdaptation } from '../export/index.js';
import {
  type RankedPage,
  type RankingSummary,
  rankedBefore,
  storedRanking,
} from '../ranking/index.js';
import type { ThresholdHistory, TopicChange } from '../relevance/history.js';
import { createRequestTally, type RequestsByPattern } from '../sitemodel/index.js';
import type { FieldStats, HostStats, StateCounts, Store } from '../store/index.js';
import { Decimator } from '../util/index.js';
import { gatherRevisits, type RevisitReport } from './revisits.js';
import {
  addToHistogram,
  EdgeCounter,
  emptyHistogram,
  type HarvestPoint,
  HarvestTracker,
  type Histogram,
  harvestWindow,
  TopN,
} from './series.js';

/** Most points per line chart (the decimator keeps between half and all of them). */
export const MAX_POINTS = 500;
/** Topic-vector changes listed in the report (the latest ones). */
export const MAX_TOPIC_CHANGES = 20;
/** A run whose record was updated this recently and has no stop reason is taken as running. */
const RUNNING_WITHIN_MS = 60_000;

export interface RunRow {
  startedAt: number;
  endedAt: number;
  durationMs: number;
  fetched: number;
  strategy: string | null;
  /** The stop reason, or `running` / `interrupted` when the record has none. */
  outcome: StopReason | 'running' | 'interrupted';
}

export interface ReportStats {
  fetched: number;
  failed: number;
  rejected: number;
  discovered: number;
  dropped: number;
  bytes: number;
  seeds: number;
  counts: StateCounts;
  /** complete / (complete + discard); null before the first page. */
  harvestRate: number | null;
  /** Where the times come from: the run records, else the first and last fetch. */
  timeSource: 'runs' | 'history' | null;
  startedAt: number | null;
  endedAt: number | null;
  totalTimeMs: number | null;
  crawlTimeMs: number | null;
  pagesPerSec: number | null;
  /** Pages recorded as duplicates of kept pages, by kind. */
  duplicates: { exact: number; near: number };
}

/** One point of the states-over-time chart. */
export interface TimelinePoint {
  /** Fetch outcomes recorded so far. */
  fetches: number;
  /** `fetchedAt` of the last of them. */
  at: number;
  complete: number;
  discard: number;
  error: number;
  /** URLs discovered by `at` minus fetches so far (see docs/report.md). */
  waiting: number;
}

export interface TopPage {
  url: string;
  title: string | null;
  state: 'complete' | 'discard';
  relevance: number;
  depth: number;
  fetchedAt: number;
}

export interface ReportData {
  generatedAt: number;
  storePath: string | null;
  topic: {
    name: string | null;
    threshold: number | null;
    /** Heaviest first. */
    keywords: [word: string, weight: number][];
  };
  stats: ReportStats;
  runs: RunRow[];
  harvest: { window: number; points: HarvestPoint[] };
  histogram: Histogram;
  timeline: {
    /** `time` when the fetches spread over the crawl; `fetches` when idle gaps would dominate. */
    axis: 'time' | 'fetches';
    firstFetchAt: number | null;
    points: TimelinePoint[];
  };
  topPages: TopPage[];
  /** The last ranking and the kept pages with the highest final score P, best first. */
  ranked: { ranking: RankingSummary | null; pages: RankedPage[] };
  hosts: HostStats[];
  /** The threshold as it adapted (`getMeta('threshold')`); null when none is recorded. */
  threshold: Omit<ThresholdHistory, 'state'> | null;
  /** Re-estimations of the topic vector (`getMeta('topicHistory')`); null when none is recorded. */
  topicVector: {
    /** Changes recorded. */
    total: number;
    /** Keywords in the vector now. */
    keywords: number;
    /** The latest `MAX_TOPIC_CHANGES` changes, oldest first. */
    changes: TopicChange[];
  } | null;
  /** The revisits of a watched store (visits over time, λ̂ by decade); null without any visit. */
  revisits: RevisitReport | null;
  /** The crawl's requests by the site model's URL patterns; null when the store has no model. */
  siteModel: SiteModelReport | null;
  /** Extracted fields per rule set (pages matched, fill rates); empty when none. */
  fields: FieldStats[];
}

/** The site model of the store and the requests of its history by the model's patterns. */
export interface SiteModelReport {
  hosts: string[];
  learnedAt: string;
  requests: RequestsByPattern;
}

export interface GatherOptions {
  topPages: number;
  topHosts: number;
  now: number;
  storePath: string | null;
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Run records as stored (free JSON), malformed entries skipped, oldest first. */
export function readRuns(raw: unknown, now: number): RunRow[] {
  if (!Array.isArray(raw)) return [];
  const runs: (RunRow & { stopReason: StopReason | null })[] = [];
  for (const r of raw as Partial<CrawlRunRecord>[]) {
    if (r === null || typeof r !== 'object' || !isNum(r.startedAt)) continue;
    const endedAt = isNum(r.endedAt) ? Math.max(r.endedAt, r.startedAt) : r.startedAt;
    const stopReason = typeof r.stopReason === 'string' ? r.stopReason : null;
    runs.push({
      startedAt: r.startedAt,
      endedAt,
      durationMs: endedAt - r.startedAt,
      fetched: isNum(r.fetched) ? r.fetched : 0,
      strategy: typeof r.strategy === 'string' ? r.strategy : null,
      stopReason,
      outcome: stopReason ?? 'interrupted',
    });
  }
  runs.sort((a, b) => a.startedAt - b.startedAt);
  // Without a stop reason, the last run is still going if its record was updated lately.
  return runs.map(({ stopReason, ...run }, i) =>
    stopReason === null && i === runs.length - 1 && now - run.endedAt < RUNNING_WITHIN_MS
      ? { ...run, outcome: 'running' }
      : run,
  );
}

/** The topic as stored (`getMeta('topic')`), falling back to the store's keyword table. */
async function readTopic(store: Store): Promise<ReportData['topic']> {
  const raw = (await store.getMeta<Partial<StoredTopic>>('topic')) ?? null;
  const t = raw !== null && typeof raw === 'object' ? raw : {};
  let keywords: [string, number][] = [];
  if (t.keywords !== null && typeof t.keywords === 'object') {
    keywords = Object.entries(t.keywords).filter((e): e is [string, number] => isNum(e[1]));
  }
  if (keywords.length === 0) keywords = [...(await store.getKeywords())];
  keywords.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    name: typeof t.name === 'string' && t.name !== '' ? t.name : null,
    threshold: isNum(t.threshold) ? t.threshold : null,
    keywords,
  };
}

function crawlTimes(
  runs: RunRow[],
  firstFetchAt: number | null,
  lastFetchAt: number | null,
): Pick<ReportStats, 'timeSource' | 'startedAt' | 'endedAt' | 'totalTimeMs' | 'crawlTimeMs'> {
  if (runs.length > 0) {
    const startedAt = Math.min(...runs.map((r) => r.startedAt));
    const endedAt = Math.max(...runs.map((r) => r.endedAt));
    return {
      timeSource: 'runs',
      startedAt,
      endedAt,
      totalTimeMs: endedAt - startedAt,
      crawlTimeMs: runs.reduce((sum, r) => sum + r.durationMs, 0),
    };
  }
  if (firstFetchAt !== null && lastFetchAt !== null) {
    const totalTimeMs = lastFetchAt - firstFetchAt;
    return {
      timeSource: 'history',
      startedAt: firstFetchAt,
      endedAt: lastFetchAt,
      totalTimeMs,
      crawlTimeMs: totalTimeMs,
    };
  }
  return { timeSource: null, startedAt: null, endedAt: null, totalTimeMs: null, crawlTimeMs: null };
}

/** Everything the report shows, read from `store` (a read-only one will do). */
export async function gatherReport(store: Store, o: GatherOptions): Promise<ReportData> {
  const s = await store.stats({ topHosts: o.topHosts });
  const topic = await readTopic(store);
  const runs = readRuns(await store.getMeta('runs'), o.now);
  const seeds = (await store.getSeeds()).length;
  const { complete, discard } = s.counts;
  const times = crawlTimes(runs, s.firstFetchAt, s.lastFetchAt);
  const stats: ReportStats = {
    fetched: s.fetched,
    failed: s.failed,
    rejected: s.rejected,
    discovered: s.discovered,
    dropped: s.dropped,
    bytes: s.bytes,
    seeds,
    counts: s.counts,
    harvestRate: complete + discard > 0 ? complete / (complete + discard) : null,
    ...times,
    pagesPerSec: times.crawlTimeMs ? s.fetched / (times.crawlTimeMs / 1000) : null,
    duplicates: s.duplicates,
  };

  // history(): harvest rate per page, cumulative states per fetch, requests by pattern.
  const model = await readStoreSiteModel(store, o.storePath);
  const requests = model === null ? null : createRequestTally(model);
  const window = harvestWindow(complete + discard);
  const tracker = new HarvestTracker(window);
  const harvest = new Decimator<HarvestPoint>(MAX_POINTS);
  const timeline = new Decimator<Omit<TimelinePoint, 'waiting'>>(MAX_POINTS);
  const done = { complete: 0, discard: 0, error: 0 };
  let fetches = 0;
  let first: number | null = null;
  let prev = 0;
  let maxGap = 0;
  for await (const h of store.history()) {
    fetches++;
    if (h.state !== 'redirect') done[h.state]++;
    if (first === null) first = h.fetchedAt;
    else maxGap = Math.max(maxGap, h.fetchedAt - prev);
    prev = h.fetchedAt;
    if (h.state === 'complete' || h.state === 'discard') harvest.push(tracker.push(h.state));
    timeline.push({ fetches, at: h.fetchedAt, ...done });
    if (requests !== null && sentRequest(h)) requests.add(h.url);
  }
  const span = first === null ? 0 : prev - first;
  const axis = span > 0 && !(fetches >= 10 && maxGap > span / 2) ? 'time' : 'fetches';

  // urls(): discovered by each timeline point, for the waiting approximation.
  // The chart starts before the first fetch, from the URLs known then (the seeds).
  const tl = timeline.points();
  if (first !== null) tl.unshift({ fetches: 0, at: first, complete: 0, discard: 0, error: 0 });
  const discovered = new EdgeCounter(tl.map((p, i) => (i === 0 ? p.at - 1 : p.at)));
  if (tl.length > 0) for await (const u of store.urls()) discovered.add(u.discoveredAt);
  const known = discovered.prefixSums();
  const points = tl.map((p, i) => ({ ...p, waiting: Math.max(0, (known[i] ?? 0) - p.fetches) }));

  // pages(): relevance histogram and the best pages.
  const histogram = emptyHistogram();
  const top = new TopN<TopPage>(o.topPages, (a, b) => a.relevance > b.relevance);
  const byScore = new TopN<RankedPage>(o.topPages, rankedBefore);
  for await (const p of store.pages()) {
    if (p.state === 'complete' && p.score !== null) {
      const { url, title, score, relevance, pageRank } = p;
      byScore.push({ url, title, score, relevance, pageRank });
    }
    addToHistogram(histogram, p.state, p.relevance);
    top.push({
      url: p.url,
      title: p.title,
      state: p.state,
      relevance: p.relevance,
      depth: p.depth,
      fetchedAt: p.fetchedAt,
    });
  }

  const adaptation = await readAdaptation(store);
  const tv = adaptation.topic;

  return {
    generatedAt: o.now,
    storePath: o.storePath,
    topic,
    stats,
    runs,
    harvest: { window, points: harvest.points() },
    histogram,
    timeline: { axis, firstFetchAt: first, points },
    topPages: top.items(),
    ranked: { ranking: await storedRanking(store), pages: byScore.items() },
    hosts: s.topHosts,
    threshold: adaptation.threshold,
    topicVector:
      tv === null
        ? null
        : {
            total: tv.changes.length,
            keywords: Object.keys(tv.keywords).length,
            changes: tv.changes.slice(-MAX_TOPIC_CHANGES),
          },
    revisits: await gatherRevisits(store),
    siteModel:
      model === null || requests === null
        ? null
        : { hosts: model.hosts, learnedAt: model.learnedAt, requests: requests.result() },
    fields: await store.fieldStats(),
  };
}
