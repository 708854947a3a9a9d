/**
 * The crawl store: every URL the crawl knows, what became of each fetch, and the
 * crawl's metadata. One interface, several implementations (SQLite, memory, and
 * later PostgreSQL), all held to the same contract by `conformance.ts`.
 *
 * ## Lifecycle of a URL (DESIGN 1.1)
 *
 * Every known URL is in exactly one state at a time:
 *
 * ```
 *            addUrls / addSeeds                  complete ─▶ complete
 *   (new) ──────────────────────▶ waiting ─claim─▶ processing ─ discard ─▶ discard
 *                                  ▲   │           │          ├ fail ─────▶ error
 *                                  │   │           │          └ redirect ─▶ redirect
 *                                  │   └ trimWaiting (removed: unknown again)
 *                                  └──── reclaim / recover ◀┘
 * ```
 *
 * - `claim(n)` atomically moves up to `n` waiting URLs to processing and hands
 *   them to the caller, best first: highest `priority`, ties by discovery order.
 *   Concurrent claims never hand out the same URL twice. With
 *   `claim(n, { queue: { index, of } })` the waiting URLs are split into `of`
 *   queues by id (`id % of`) and only queue `index` is claimed from, still best
 *   first: parallel workers each serving one queue (DESIGN 1.2) never compete for
 *   a URL, and together they claim every waiting URL exactly once.
 * - Each URL carries a `value` beside its priority: state a crawl strategy keeps
 *   with the URL (fish-search depth budget, shark-search inherited score,
 *   tunnelling Val; DESIGN 1.5). The store only keeps it; it never orders by it.
 *   It may also carry a `context`: the text around the link that led to it, kept
 *   for a link classifier that rescores the frontier later.
 * - `scanWaiting` walks the waiting URLs in id order, a page at a time, and
 *   `reprioritize` sets new priorities (higher or lower) on waiting URLs: together
 *   they let a caller rescore the whole frontier without loading it into memory.
 * - A claimed URL is finished with exactly one of `complete`, `discard`, `fail`,
 *   `redirect` (or the batch form `commit`), which records the outcome, the page,
 *   its links, the newly discovered URLs and the history rows in one transaction:
 *   either all of it is stored or none of it.
 * - Redirects: the target of an HTTP redirect is the page. An outcome may carry the
 *   redirect hops from the claimed URL to the page (`redirects`); every hop's URL
 *   (the claimed one first) becomes state `redirect`, remembers its target and gets
 *   a history row, and the page (or the HTTP error) is recorded under the final URL
 *   F, the last hop's `Location`: F unknown is inserted straight in the outcome's
 *   state, F waiting is moved to it, F processing or already final is left alone
 *   and the page is dropped. A `redirect` outcome says the crawler stopped
 *   following because F is known already (or being fetched): F unknown is queued as
 *   waiting, F known is left alone. Hops after the first that are unknown are
 *   inserted, waiting ones taken; processing or final ones are left as they are.
 *   A URL inserted this way (hop or F) takes the claimed URL's depth, priority,
 *   value, parent, anchor and context, and is discovered at the outcome's
 *   `fetchedAt`; a waiting one keeps its own.
 * - `reclaim` puts claimed URLs back to waiting (graceful stop, retry later) with no
 *   history row. `recover` does the same for every processing URL: call it once
 *   after opening, before claiming, when no other crawler works on the store, so
 *   that URLs held by a crawl that died are fetched again.
 * - `complete`, `discard`, `error`, `redirect` are final: such URLs are never
 *   claimed again and re-adding them is ignored, so no URL is completed twice.
 * - Calling `complete`, `discard`, `fail`, `redirect` or `reclaim` for a URL that is
 *   not processing throws `StoreStateError` naming the URL and its state, and
 *   changes nothing.
 *
 * URLs are keys compared as strings: pass canonical URLs (`canonicalizeUrl`).
 * Times are milliseconds since the Unix epoch. Every method is async; once a
 * returned promise resolves, its change is durable against a crash of the
 * process (see `docs/store.md` for power loss).
 */

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
  /** Fetch outcomes recorded: history rows of complete, discard and error (redirect rows apart). */
  fetched: number;
  /**
   * History rows that record a response which ended a URL: complete, discard, and
   * error with a status. Redirect rows and failures without a response do not
   * count. The crawl's page budget starts from it on resume.
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

export interface Store {
  /**
   * Queues the unknown URLs as waiting and returns how many were new. A URL that
   * is already waiting takes the higher of its old and new priority (never lowered)
   * and keeps its depth, parent, anchor and place in discovery order; when the new
   * priority is higher, the new `value` (0 when not given) replaces the old one
   * along with it, and so does the new `context` when one is given; otherwise the
   * old value and context stay. URLs in other states are left alone. An explicit
   * `parent` must be a known URL (`InvalidOptionError`).
   */
  addUrls(items: readonly NewUrl[]): Promise<number>;
  /**
   * Records `urls` as seeds and queues the unknown ones at depth 0.
   * @param options.priority @default SEED_PRIORITY
   */
  addSeeds(urls: readonly string[], options?: { priority?: number }): Promise<number>;
  getSeeds(): Promise<string[]>;

  /**
   * Moves up to `n` waiting URLs to processing and returns them: highest priority
   * first, ties in discovery order. Atomic: concurrent claims never share a URL.
   * With `options.queue`, only URLs of that queue (id % of === index) are claimed;
   * an invalid `queue` throws `InvalidOptionError` naming the field.
   */
  claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]>;
  complete(url: string, result: FetchedPage): Promise<void>;
  discard(url: string, result: FetchedPage): Promise<void>;
  fail(url: string, failure: FetchFailure): Promise<void>;
  /** Records that `url` redirects to a known target (`RedirectResult`). */
  redirect(url: string, result: RedirectResult): Promise<void>;
  /**
   * Applies many outcomes in one transaction: all of them or, on any error (a URL
   * not processing or given twice, an invalid field), none, and the URLs stay processing.
   */
  commit(outcomes: readonly Outcome[]): Promise<void>;
  /**
   * Puts processing URLs back to waiting, keeping their discovery order, value and context.
   * @param options.priority a new priority for all of them @default unchanged
   */
  reclaim(urls: readonly string[], options?: { priority?: number }): Promise<number>;
  /** Moves every processing URL back to waiting; returns how many. */
  recover(): Promise<number>;
  /**
   * Keeps the best `max` waiting URLs (priority, then discovery order) and deletes
   * the others, which become unknown: found again, they are queued anew. Returns
   * how many were deleted (`stats().dropped` adds them up).
   */
  trimWaiting(max: number): Promise<number>;
  /**
   * The waiting URLs with an id above `afterId` (default: all), in ascending id
   * order, at most `limit` of them. Passing the last id of one page as `afterId`
   * of the next walks the whole frontier in pages (keyset pagination) without
   * loading it: each page is a plain read, not a snapshot shared by the pages, so
   * a URL claimed, added or trimmed between pages shows accordingly. An invalid
   * `limit` or `afterId` throws `InvalidOptionError` naming the field.
   */
  scanWaiting(options: ScanWaitingOptions): Promise<WaitingUrl[]>;
  /**
   * Sets the priority, and the value when one is given, of the listed URLs that
   * are waiting, in one transaction, and returns how many it set. Unlike `addUrls`
   * it may lower a priority. Ids of URLs that are not waiting (processing,
   * fetched, trimmed, unknown) are skipped; an id listed twice takes its last
   * item and counts once. Later claims follow the new priorities (ties still in
   * discovery order), in every queue. An invalid item (an id that is not an
   * integer ≥ 1, a priority or value that is not a finite number) throws
   * `InvalidOptionError` naming its index and field, and nothing changes.
   */
  reprioritize(items: readonly PriorityChange[]): Promise<number>;

  counts(): Promise<StateCounts>;
  /** @param options.topHosts hosts listed @default 10 */
  stats(options?: { topHosts?: number }): Promise<StoreStats>;

  setKeywords(
    keywords: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  ): Promise<void>;
  getKeywords(): Promise<Map<string, number>>;
  /** Stores a JSON value; `undefined` deletes the key. */
  setMeta(key: string, value: unknown): Promise<void>;
  getMeta<T = unknown>(key: string): Promise<T | undefined>;
  setPageScores(items: readonly PageScores[]): Promise<void>;
  /**
   * The kept pages whose indexed text (`FetchedPage.text`) or title contains every
   * word of the query, ordered by the blend of BM25 and P (see `TextSearch`). A query
   * without a word (only punctuation) throws `InvalidOptionError`, as do a bad
   * `limit` or `scoreWeight`.
   */
  search(options: TextSearch): Promise<TextHit[]>;

  /** Fetch outcomes by `fetchedAt`, ties in the order they were recorded. */
  history(): AsyncIterable<HistoryRecord>;
  /** Fetched pages in discovery order. */
  pages(): AsyncIterable<PageRecord>;
  /** Known URLs (of one state) in discovery order. */
  urls(state?: UrlState): AsyncIterable<UrlRecord>;
  /** Links in the order they were recorded. */
  links(): AsyncIterable<LinkRecord>;
  /** The stored body of a page, decompressed; null when none was stored. */
  readBody(url: string): Promise<Buffer | null>;

  /** Waits for pending writes, then releases the store. Later calls throw `StoreError`. */
  close(): Promise<void>;
}
