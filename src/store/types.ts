/**
 * The data of the crawl store: what enters it (URLs, fetch outcomes, leases) and
 * what it gives back (claims, records, statistics, search hits). The contracts
 * that move them, and the lifecycle of a URL, are in `contracts.ts`.
 *
 * URLs are keys compared as strings: pass canonical URLs (`canonicalizeUrl`).
 * Times are milliseconds since the Unix epoch.
 */

import type { FieldValue } from './field-types.js';

export type {
  FieldRecord,
  FieldStats,
  FieldsOptions,
  FieldValue,
  PageFields,
} from './field-types.js';

/** The state of a known URL. */
export type UrlState = 'waiting' | 'processing' | 'complete' | 'discard' | 'error' | 'redirect';

/** The six states, in lifecycle order (`redirect` last). */
export const URL_STATES: readonly UrlState[] = [
  'waiting',
  'processing',
  'complete',
  'discard',
  'error',
  'redirect',
];

/** The final states, reached through a fetch outcome. */
export type FinalState = 'complete' | 'discard' | 'error' | 'redirect';

/**
 * The priority `addSeeds` gives by default: above any priority a strategy computes
 * (finite, so that it survives JSON).
 */
export const SEED_PRIORITY = Number.MAX_VALUE;

/** A URL to queue (`addUrls`, or `newUrls` of a fetched page). */
export interface NewUrl {
  /** Canonical absolute http(s) URL. */
  url: string;
  /** Link distance from a seed (seeds: 0). */
  depth: number;
  /** Higher is claimed sooner. Any finite number. */
  priority: number;
  /**
   * State a crawl strategy keeps with the URL (fish-search depth budget,
   * shark-search inherited score, tunnelling Val). Any finite number.
   * @default 0
   */
  value?: number;
  /** The known URL whose page linked here. Defaults to the fetched page for `newUrls`. */
  parent?: string;
  /** The anchor text of the link that led here. */
  anchor?: string;
  /**
   * The text around the link that led here, kept for a link classifier that
   * rescores the frontier later. Stored as null when not given.
   */
  context?: string;
  /** @default the time of the call */
  discoveredAt?: number;
}

/** A URL handed out by `claim`. */
export interface ClaimedUrl {
  /** The store's id of the URL; ids grow with discovery order and are never reused. */
  id: number;
  url: string;
  depth: number;
  priority: number;
  /** The strategy's value given with the URL (`NewUrl.value`); 0 when none was given. */
  value: number;
  /** The URL whose page linked here (null for seeds and parentless URLs). */
  parent: string | null;
  /** The link's context (`NewUrl.context`); null when none was given. */
  context: string | null;
  /**
   * Failed attempts recorded for the URL so far (`FetchFailure.retryAt`): 0 for a URL
   * never tried or whose tries were not recorded; this claim is attempt `attempts + 1`.
   */
  attempts: number;
}

/** Which waiting URLs `scanWaiting` returns. */
export interface ScanWaitingOptions {
  /** Only URLs with an id above this one (an integer ≥ 0). @default 0: from the first */
  afterId?: number;
  /** At most this many URLs (an integer ≥ 1). */
  limit: number;
}

/** A waiting URL as `scanWaiting` returns it. */
export interface WaitingUrl {
  id: number;
  url: string;
  depth: number;
  priority: number;
  value: number;
  anchor: string | null;
  context: string | null;
}

/** One item of `reprioritize`. */
export interface PriorityChange {
  /** The id of the URL (`ClaimedUrl.id`, `WaitingUrl.id`, `UrlRecord.id`). */
  id: number;
  /** The new priority: any finite number, higher or lower than the old one. */
  priority: number;
  /** A new value (any finite number). @default unchanged */
  value?: number;
}

/** Which of several queues `claim` serves. */
export interface ClaimOptions {
  /**
   * Claim only from queue `index` of `of`: the waiting URLs whose id % `of` is
   * `index`, best first within that queue. `of` is an integer ≥ 1 and
   * 0 ≤ `index` < `of`. @default every waiting URL
   */
  queue?: { index: number; of: number };
  /**
   * Claim with regard to hosts (URLs' hostnames): at most `perHost` URLs of any one
   * host, none of a host in `skip` (hosts whose fetches are queued already), looking
   * at no more than the `scan` best waiting URLs (default 32 × n): the best waiting
   * URLs of as many hosts as the top of the frontier holds, still best first. Fewer
   * than n may come back while more URLs wait. @default no regard to hosts
   */
  hosts?: HostClaim;
  /**
   * Claim under this lease (`openLease`): the URLs are held by its owner until it
   * commits or reclaims them, closes the lease, or the lease is lost (expired, or
   * its owner provably gone) and `recover` takes them back. A lease that is not
   * open throws `LeaseLostError`. @default no lease: `recover` takes the URLs back
   * whenever it runs
   */
  lease?: number;
  /**
   * The time of the claim, ms since the epoch: URLs put back by a failed attempt
   * (`FetchFailure.retryAt`) are claimed only once it has come. @default Date.now()
   */
  now?: number;
}

/** Who holds a lease: one crawl run (a process on a machine). */
export interface LeaseOwner {
  /** The machine's host name (`os.hostname()`). */
  host: string;
  pid: number;
  /** When the run started, ms since the epoch. */
  startedAt: number;
}

/** An open lease (`openLease`). */
export interface Lease extends LeaseOwner {
  /** The store's id of the lease; ids are never reused. */
  id: number;
  /** Until when it holds unless renewed, ms since the epoch. */
  expiresAt: number;
}

/** Options of `commit` and `reclaim`. */
export interface LeaseOptions {
  /**
   * The lease the URLs were claimed under. An outcome (or URL to reclaim) whose
   * claim that lease no longer holds (taken back by `recover`, claimed again under
   * another lease) is refused: skipped, listed in the result, never thrown.
   * @default none: a URL that is not processing throws `StoreStateError`
   */
  lease?: number;
}

/** What `commit` did. */
export interface CommitResult {
  /** URLs of outcomes refused because their claim was lost (`LeaseOptions.lease`). */
  refused: string[];
}

/** Options of `recover`. */
export interface RecoverOptions {
  /** The time leases are judged at, ms since the epoch. @default Date.now() */
  now?: number;
}

/** `ClaimOptions.hosts`. */
export interface HostClaim {
  perHost: number;
  skip?: readonly string[];
  scan?: number;
}

/** An outgoing link of a fetched page. */
export interface PageLink {
  url: string;
  anchor?: string | null;
}

/**
 * One hop of an HTTP redirect: `url` answered `status` (301, 302, 303, 307, 308)
 * with `Location` = `location`. Both are canonical absolute URLs.
 */
export interface RedirectStep {
  url: string;
  status: number;
  location: string;
}

/** What `complete` and `discard` record about a fetched page. */
export interface FetchedPage {
  fetchedAt: number;
  /** How long the fetch took, ms (request to end of body), for its history row. @default unknown */
  fetchMs?: number;
  /**
   * The redirect hops from the claimed URL to the page, in order: `redirects[0].url`
   * is the outcome's URL, each next step's `url` is the previous `location`, and
   * the page belongs to the last `location` (the final URL F): it is stored under F
   * (body file `MD5(F)`, `newUrls` defaulting to parent F), and every hop's URL is
   * recorded as a redirect. Absent or empty: the page is the claimed URL's.
   */
  redirects?: readonly RedirectStep[];
  /** HTTP status of the final response. */
  status: number;
  contentType?: string | null;
  /** Bytes of the body as received (after decompression). */
  bytes: number;
  /** The response's ETag header, verbatim; kept to make the first revisit conditional. */
  etag?: string | null;
  /** The response's Last-Modified header, verbatim (even when not a valid HTTP date). */
  lastModified?: string | null;
  /**
   * Last-Modified as ms since the epoch on the crawler's clock (`validatorsOf`), for
   * the change-rate estimate. Any finite number.
   */
  modifiedAt?: number | null;
  title?: string | null;
  /** Relevance to the topic (DESIGN 1.1). */
  relevance: number;
  /**
   * A digest of the content, to detect changes and duplicates.
   * @default the MD5 (hex) of `body` when a body is given, else null
   */
  contentHash?: string | null;
  /** The body, stored gzip-compressed as `pages/<MD5(url) hex>.gz` (DESIGN 1.4). */
  body?: Uint8Array;
  /** Outgoing links, recorded in `links` (replacing any earlier ones of this page). */
  links?: readonly PageLink[];
  /** URLs to queue, as for `addUrls`; `parent` defaults to this page. */
  newUrls?: readonly NewUrl[];
  /**
   * The page's text (title apart), for full-text search (`search`): indexed when the
   * page is complete (its first 100,000 characters), ignored for a
   * discarded page. Not searchable when absent.
   */
  text?: string | null;
  /** The SimHash fingerprint of the text, 16 hex digits, kept for near-duplicate detection. */
  simhash?: string | null;
  /** A hash of the text's words, 16 hex digits: pages with the same are exact duplicates. */
  textHash?: string | null;
  /**
   * The page duplicates a page the crawl kept (a known URL): recorded as such. The
   * crawl gives such a page as `discard`, without body, links or new URLs.
   */
  duplicate?: PageDuplicate | null;
  /**
   * Fields extracted from the page (docs/extract.md), every rule set's: stored with a
   * complete page in the outcome's transaction, replacing any the page had (read
   * with `fields`); ignored for a discarded page. Absent or null: none written.
   */
  fields?: readonly FieldValue[] | null;
}

/** What a page duplicates (`FetchedPage.duplicate`, `PageRecord.duplicate`). */
export interface PageDuplicate {
  /** The kept page it duplicates. */
  of: string;
  /** `exact`: the same content hash; `near`: SimHash fingerprints within a few bits. */
  kind: 'exact' | 'near';
  /** Bits by which the fingerprints differ (0 for exact duplicates). */
  distance: number;
}

/** What `fail` records about a fetch that did not produce a page. */
export interface FetchFailure {
  fetchedAt: number;
  /** The reason, e.g. `FC_ERR_CONNECT_TIMEOUT: no connection within 10000 ms`. */
  error: string;
  /** HTTP status, when a response was received. */
  status?: number | null;
  /**
   * The redirect hops before the failure, as `FetchedPage.redirects`: the error
   * (e.g. a 404 at the end of the chain) belongs to the last `location`.
   */
  redirects?: readonly RedirectStep[];
  /**
   * The failure is an attempt to be tried again: the URL goes back to waiting, to be
   * claimed no sooner than this time (ms since the epoch; any time, a past one
   * included), with one more failed attempt (`ClaimedUrl.attempts`); its history row
   * records the attempt and this time. Absent or null: the URL ends in `error`. Not
   * with `redirects` (`InvalidOptionError`).
   */
  retryAt?: number | null;
  /** How long the fetch took, ms (request to end of body), for its history row. @default unknown */
  fetchMs?: number;
}

/**
 * Which URLs in state error `requeueErrors` puts back to waiting: those whose last
 * error matches any of the lists given; all of them when none is given.
 */
export interface ErrorFilter {
  /** Error codes: `FC_ERR_DNS`, … (the text before the error's first `:`), or `HTTP 404`. */
  codes?: readonly string[];
  /** HTTP statuses of the error's response: 404, 503, … */
  statuses?: readonly number[];
  /** Classes of HTTP statuses, by their first digit: 4 (4xx), 5 (5xx). */
  statusClasses?: readonly number[];
}

/**
 * What `redirect` records: the crawler stopped following redirects because the
 * target (the last `location`) is known already or being fetched; nothing was
 * fetched at the target.
 */
export interface RedirectResult {
  fetchedAt: number;
  /** The hops from the claimed URL on, as `FetchedPage.redirects`; never empty. */
  redirects: readonly RedirectStep[];
}

/** One item of `commit`. */
export type Outcome =
  | { url: string; state: 'complete' | 'discard'; result: FetchedPage }
  | { url: string; state: 'error'; result: FetchFailure }
  | { url: string; state: 'redirect'; result: RedirectResult };

/** URLs per state. */
export type StateCounts = Record<UrlState, number>;

/** Fetch figures of one host (host name without port). */
export interface HostStats {
  host: string;
  /** URLs of the host added as new (trimmed ones included). */
  discovered: number;
  /** Fetch outcomes recorded: complete + discard + error (redirects apart). */
  fetched: number;
  complete: number;
  discard: number;
  error: number;
  /** Redirect history rows (hops whose URL became state redirect). */
  redirect: number;
  bytes: number;
}

/** DESIGN 1.1's crawl statistics. */
export interface StoreStats {
  counts: StateCounts;
  /** URLs added as new since the store was created (seeds included, trimmed ones too). */
  discovered: number;
  /** Waiting URLs removed by `trimWaiting`. */
  dropped: number;
  /**
   * Fetch outcomes recorded: history rows of complete, discard and error (redirect rows
   * apart), failed attempts put back to be tried again included.
   */
  fetched: number;
  /** Of those, the error rows of failed attempts put back to be tried again (`retryAt`). */
  retries: number;
  /**
   * History rows that record a response which ended a URL: complete, discard, and
   * error with a status. Redirect rows, failures without a response and failed
   * attempts put back to be tried again do not count. The crawl's page budget
   * starts from it on resume.
   */
  responses: number;
  /** Redirect history rows. */
  redirects: number;
  /**
   * Error history rows by the error's code: the text before the first `:` when it
   * looks like `FC_ERR_…` or `HTTP 404`, otherwise the whole text (its first 40
   * characters). Most first, ties by code.
   */
  errors: { code: string; count: number }[];
  /** Fetches that failed (state error). */
  failed: number;
  /** Pages fetched and found irrelevant (state discard). */
  rejected: number;
  /** Bytes of all fetched pages. */
  bytes: number;
  /** Earliest and latest `fetchedAt` in the history; null before the first fetch. */
  firstFetchAt: number | null;
  lastFetchAt: number | null;
  /** Hosts with the most fetches first (ties by name). */
  topHosts: HostStats[];
  /** Pages recorded as duplicates of kept pages (`FetchedPage.duplicate`), by kind. */
  duplicates: { exact: number; near: number };
}

/** One row of the history: a fetch outcome. */
export interface HistoryRecord {
  url: string;
  fetchedAt: number;
  /** HTTP status; null when the fetch failed before a response. */
  status: number | null;
  state: FinalState;
  /** Null for errors. */
  relevance: number | null;
  depth: number;
  /** Null unless the state is error. */
  error: string | null;
  /** The target (`Location`) of a redirect row; null for the other states. */
  location: string | null;
  /**
   * Which attempt at the URL this row records: 1 for the first, 2 after one failed
   * attempt put back (`FetchFailure.retryAt`), …
   */
  attempt: number;
  /**
   * For an error row of a failed attempt put back to waiting: when the URL may be
   * claimed again. Null for a row that ended the URL (or a redirect row).
   */
  retryAt: number | null;
  /**
   * How long the fetch took, ms (request to end of body), as the crawler gave it
   * (`FetchedPage.fetchMs`, `FetchFailure.fetchMs`); null when not given, and for
   * redirect hops.
   */
  fetchMs: number | null;
}

/** A fetched page (complete or discard). */
export interface PageRecord {
  url: string;
  state: 'complete' | 'discard';
  depth: number;
  fetchedAt: number;
  status: number;
  contentType: string | null;
  bytes: number;
  title: string | null;
  relevance: number;
  contentHash: string | null;
  /** The body's name relative to the store, `pages/<md5>.gz`; null without a body. */
  bodyFile: string | null;
  /** Set by `setPageScores`; null until then. */
  pageRank: number | null;
  /** The final score P (DESIGN 1.1); null until set. */
  score: number | null;
  /** `FetchedPage.simhash`. */
  simhash: string | null;
  /** `FetchedPage.textHash`. */
  textHash: string | null;
  /** `FetchedPage.duplicate`; null for a page that duplicates none. */
  duplicate: PageDuplicate | null;
  /**
   * `FetchedPage.etag`: the first fetch's; null when absent. Revisits keep theirs in
   * `RevisitRecord.etag` and leave this one.
   */
  etag: string | null;
  /** `FetchedPage.lastModified`: the first fetch's; null when absent. */
  lastModified: string | null;
  /** `FetchedPage.modifiedAt`: the first fetch's; null when absent. */
  modifiedAt: number | null;
}

/** A known URL. */
export interface UrlRecord {
  id: number;
  url: string;
  state: UrlState;
  depth: number;
  priority: number;
  /** The strategy's value (`NewUrl.value`). */
  value: number;
  parent: string | null;
  anchor: string | null;
  /** The link's context (`NewUrl.context`); null when none was given. */
  context: string | null;
  discoveredAt: number;
  /** The target URL of a URL in state redirect (its `Location`); null for the others. */
  redirectTo: string | null;
  /** Failed attempts recorded (`ClaimedUrl.attempts`). */
  attempts: number;
  /**
   * A waiting URL put back by a failed attempt: when it may be claimed again (a time
   * past means claimable now; the next claim clears it). Null for the others.
   */
  retryAt: number | null;
}

/** A recorded link. */
export interface LinkRecord {
  from: string;
  to: string;
  anchor: string | null;
}

/** Scores of a page computed after the crawl (ranking stage). */
export interface PageScores {
  url: string;
  pageRank?: number | null;
  score?: number | null;
}

/** A full-text search of the kept pages (`search`). */
export interface TextSearch {
  /**
   * Words, Chinese or English, as typed: a page matches when it contains every word
   * (in its title or text). Words are the tokeniser's; stop words are left out
   * unless the query has nothing else.
   */
  query: string;
  /** Hits returned, best first (an integer 1 … 1000). @default 10 */
  limit?: number;
  /** Weight w of the page score P in the order `(1 − w)·bm25/maxBm25 + w·P`, in [0, 1]. @default 0.3 */
  scoreWeight?: number;
}

/** A kept page found by `search`. */
export interface TextHit {
  url: string;
  title: string | null;
  relevance: number;
  pageRank: number | null;
  score: number | null;
  /** BM25 of the match, higher is better (title words count twice). */
  bm25: number;
  /** The blend the hits are ordered by (highest first, ties by discovery order). */
  rank: number;
  /** About 32 words (or Chinese characters) of the text around a match, each matched word between U+E000 and U+E001. */
  snippet: string;
}

export type { Store } from './contracts.js';
