/** Public types of the crawl stage: events, progress and the summary of a run. */
import type { RankingSummary } from '../ranking/index.js';
import type { FinalState, StateCounts } from '../store/index.js';

/** Why a run stopped. */
export type StopReason =
  /** No URL is waiting and none is in flight: the crawl is finished. */
  | 'exhausted'
  /** `maxPages` pages have been fetched (counted over the whole store). */
  | 'max-pages'
  /** `durationMs` of this run elapsed. */
  | 'duration'
  /** `stop()` was called or the signal aborted (Ctrl-C). */
  | 'stopped'
  /**
   * Every fetch failed: for `failingStopMs` (the circuit breaker), or, when nothing was
   * left to fetch but URLs of unreachable hosts or retries, every fetch of the run. The
   * URLs involved stay to be tried again; `message` names the commonest cause.
   */
  | 'failing';

/** A snapshot of a running crawl, emitted every `progressIntervalMs`. */
export interface CrawlProgress {
  /** Milliseconds since this run started. */
  elapsedMs: number;
  /** URLs per state in the store (this process's view, exact at each commit). */
  counts: StateCounts;
  /** Fetch outcomes recorded in this run. */
  fetched: number;
  /** Pages fetched over all runs (responses that ended a URL: what `maxPages` counts). */
  fetchedTotal: number;
  /** Pages per second in this run, over the last interval. */
  pagesPerSec: number;
  /** Pages per second in this run, since it started. */
  averagePagesPerSec: number;
  /** complete / (complete + discard) over all runs; 0 before the first page. */
  harvestRate: number;
  /** Requests in flight or queued at the fetcher. */
  inFlight: number;
  /** Waiting URLs (the frontier). */
  frontier: number;
  /** Body bytes received in this run. */
  bytes: number;
}

/** One fetch outcome, as it is committed. */
export interface PageEvent {
  /** The claimed URL. */
  url: string;
  /** The URL the page (or failure) was stored under when `url` redirected to it. */
  finalUrl?: string;
  state: FinalState;
  depth: number;
  /** HTTP status; null when no response was received. */
  status: number | null;
  /** Relevance to the topic; null for errors. */
  relevance: number | null;
  title: string | null;
  /** URLs this page added to the frontier (0 for discarded pages: their links are not followed). */
  newUrls: number;
  /** The error, for state `error`. */
  error: string | null;
  /** Which attempt at the URL this was (1 for the first); set for errors. */
  attempt?: number;
  /**
   * Set when the failed attempt put the URL back to waiting (state `error` all the
   * same): when it will be tried again, ms since the epoch.
   */
  retryAt?: number;
  /** How long the fetch took, from the request to the end of the body (when a response came). */
  fetchMs?: number;
}

/** What `crawl` resolves to. */
export interface CrawlSummary {
  stopReason: StopReason;
  /** A sentence for people, e.g. why the frontier ran dry. */
  message: string;
  /** The run resumed a store that already held URLs. */
  resumed: boolean;
  /** URLs a crashed earlier run left in processing, returned to waiting at start. */
  recovered: number;
  /**
   * Fetch outcomes of this run the store refused because their claim was lost: the
   * run stalled past its lease (60 s without renewal) and another run took the URL
   * back. 0 in any healthy run.
   */
  lostClaims: number;
  /**
   * Failed attempts of this run put back to be tried again (`maxAttempts`): counted
   * here, not in `run` (their URLs are waiting again).
   */
  retries: number;
  /** URLs in error put back to waiting at the start of the run (`retryErrors`). */
  requeued: number;
  /** Fetch outcomes recorded in this run, by state. */
  run: {
    fetched: number;
    complete: number;
    discard: number;
    error: number;
    redirect: number;
    bytes: number;
  };
  /** HTTP requests sent in this run: pages, redirect hops, retries, robots.txt and sitemaps. */
  requests: number;
  /**
   * Of those, requests that waited in the fetcher for their host's delay or connection
   * before being sent. The crawl starts a URL only once its host is ready, so only
   * redirect hops, retries and sitemap requests to a host in use wait.
   */
  waitedForHost: number;
  /**
   * URLs of this run failed before any request was sent for them, by error code:
   * `FC_ERR_ROBOTS_DISALLOWED`, `FC_ERR_OUT_OF_SCOPE`, `FC_ERR_BLOCKED_ADDRESS`,
   * `FC_ERR_HOST_UNREACHABLE`, `FC_ERR_INVALID_URL`.
   */
  refused: Record<string, number>;
  /** URLs per state in the store at the end. */
  counts: StateCounts;
  /**
   * Pages fetched over all runs: responses that ended a URL (kept, discarded, or an
   * HTTP error status), what `maxPages` counts. Redirect hops and failures without
   * a response are not counted.
   */
  fetchedTotal: number;
  /** complete / (complete + discard) over all runs. */
  harvestRate: number;
  elapsedMs: number;
  /** This run's pages per second. */
  pagesPerSec: number;
  /** Seeds whose fetch failed in this run, with the reason. */
  seedErrors: { url: string; error: string }[];
  /** What the run cost the process (all its threads). */
  resources: {
    /** CPU time (user + system) of the process during this run, in milliseconds. */
    cpuMs: number;
    /** The process's peak resident memory so far, in bytes. */
    peakRssBytes: number;
  };
}

/**
 * Error codes of URLs failed before any request was sent for them (robots.txt
 * refusals, out of scope, blocked addresses, dead hosts, invalid URLs).
 */
export const REFUSED_CODES: ReadonlySet<string> = new Set([
  'FC_ERR_ROBOTS_DISALLOWED',
  'FC_ERR_OUT_OF_SCOPE',
  'FC_ERR_BLOCKED_ADDRESS',
  'FC_ERR_HOST_UNREACHABLE',
  'FC_ERR_INVALID_URL',
]);

/** Metadata `crawl` keeps in the store (`store.getMeta(key)`). */
export const META_TOPIC = 'topic';
export const META_CRAWL = 'crawl';
export const META_RUNS = 'runs';
/**
 * The settings the crawl was last run with (`CrawlOptions.settings`, recorded once the
 * run has started): the CLI records its flags and topic here (`StoredSettings`).
 */
export const META_SETTINGS = 'crawl.settings';

/** `store.getMeta('topic')`: the topic the crawl scores pages with. */
export interface StoredTopic {
  name: string | null;
  keywords: Record<string, number>;
  threshold: number;
}

/** One entry of `store.getMeta('runs')`: a run of `crawl` on the store. */
export interface CrawlRunRecord {
  startedAt: number;
  /** Updated at every progress tick, so a killed run still has an end. */
  endedAt: number;
  fetched: number;
  /** HTTP requests sent (absent in runs recorded before it was counted). */
  requests?: number;
  /** URLs failed before a request was sent, by error code (`CrawlSummary.refused`). */
  refused?: Record<string, number>;
  /** Failed attempts put back to be tried again (`CrawlSummary.retries`; absent in older runs). */
  retries?: number;
  /** null while running or when the process died. */
  stopReason: StopReason | null;
  strategy: string;
  /** The model that scored links (`vsm`, `tfidf`, `bayes`); absent in runs recorded before models were selectable. */
  model?: string;
  /** The model that judged pages, when it was not `model`. */
  pageModel?: string;
  /** Whether the run indexed kept pages' text for search (`fullText`); absent in older runs. */
  fullText?: 'kept' | 'none';
}

import type { ThresholdChange, TopicChange } from '../relevance/index.js';
import type { LinkModelSnapshot } from './learner.js';

/** Events of a running crawl (`run.on(name, listener)`). */
export interface CrawlEvents {
  /** After the store is opened, recovered and seeded, before the first fetch. */
  start: [info: { resumed: boolean; recovered: number; seedsAdded: number; counts: StateCounts }];
  /** Each fetch outcome, once committed to the store. */
  page: [event: PageEvent];
  progress: [progress: CrawlProgress];
  /** Something the user should know that does not stop the crawl. */
  warning: [message: string];
  /** The keep/discard threshold moved (iterative or adaptive thresholds). */
  threshold: [change: ThresholdChange];
  /** The topic vector was re-estimated (`adaptTopic`). */
  topic: [change: TopicChange];
  /** The link model was retrained during the crawl (`learnEvery`). */
  linkModel: [snapshot: LinkModelSnapshot];
  end: [summary: CrawlSummary];
  /** After `end`: PageRank and P were computed and stored (`rankOnFinish`). */
  ranked: [summary: RankingSummary];
}
