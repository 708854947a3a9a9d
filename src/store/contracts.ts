/**
 * The crawl store's contracts: small interfaces, each with its lifecycle and its
 * conformance suite (conformance.ts), which every implementation (memory, SQLite,
 * SQLite on its own thread, and later PostgreSQL) passes. `Store` is all of them.
 * Every method is async; once a returned promise resolves, its change is durable
 * against a crash of the process (see `docs/store.md` for power loss).
 */

import type { Browse } from './browse.js';
import type { FieldRecord, FieldStats, FieldsOptions, PageFields } from './field-types.js';
import type {
  ClaimDueOptions,
  DueRevisit,
  RecordVisitsResult,
  RevisitRecord,
  RevisitSchedule,
  RevisitTotals,
  VisitOutcome,
  VisitRecord,
} from './revisit-types.js';
import type { PageText, TextCoverage, UnindexedPage, UnindexedPagesOptions } from './text-types.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  CommitResult,
  ErrorFilter,
  FetchedPage,
  FetchFailure,
  HistoryRecord,
  Lease,
  LeaseOptions,
  LeaseOwner,
  LinkRecord,
  NewUrl,
  Outcome,
  PageRecord,
  PageScores,
  PriorityChange,
  RecoverOptions,
  RedirectResult,
  ScanWaitingOptions,
  StateCounts,
  StoreStats,
  TextHit,
  TextSearch,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';

/**
 * The waiting URLs: what the crawl has yet to fetch, best first. `addUrls` and
 * `addSeeds` queue unknown URLs (a known one is never queued twice; a waiting one
 * may be raised), `scanWaiting` and `reprioritize` rescore the whole frontier
 * without loading it, `trimWaiting` bounds it (trimmed URLs become unknown again).
 * Each URL carries a `value` beside its priority, state a crawl strategy keeps with
 * it (DESIGN 1.5), and may carry a `context`, the text around the link that led to
 * it; the store keeps both and orders by neither.
 *
 * Conformance: `frontierConformance` (conformance.ts).
 */
export interface Frontier {
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
  /**
   * Keeps the best `max` waiting URLs (priority, then discovery order) and deletes
   * the others, which become unknown: found again, they are queued anew. URLs put back
   * by a failed attempt (`FetchFailure.retryAt`) are always kept, and count against
   * `max`. Returns how many were deleted (`stats().dropped` adds them up).
   */
  trimWaiting(max: number): Promise<number>;
  counts(): Promise<StateCounts>;
}

/**
 * The lifecycle of a URL (DESIGN 1.1): every known URL is in exactly one state.
 *
 * ```
 *           addUrls / addSeeds                               ┌ complete ──────▶ complete
 *   (new) ─────────────────────▶ waiting ─claim─▶ processing ┼ discard ───────▶ discard
 *                                ▲ ▲ ▲ │                     ├ fail ──────────▶ error ─┐
 *                                │ │ │ │                     ├ redirect ────▶ redirect │
 *                                │ │ │ │                     ├ fail, retryAt ────┐     │
 *                                │ │ │ │                     └ reclaim, recover, │     │
 *                                │ │ │ │                       closeLease ─┐     │     │
 *                                │ │ └─┼───────────────────────────────────┘     │     │
 *                                │ └───┼── claimable again from retryAt ◀────────┘     │
 *                                └─────┼── requeueErrors (attempts reset) ◀────────────┘
 *                                      └ trimWaiting (removed: unknown again)
 * ```
 *
 * - `claim(n)` atomically moves up to `n` waiting URLs to processing and hands
 *   them to the caller, best first: highest `priority`, ties by discovery order;
 *   a URL put back by a failed attempt only once its `retryAt` is the claim's `now`.
 *   Concurrent claims, from one handle or several on the same database, never hand
 *   out the same URL twice. With `{ queue: { index, of } }` only the URLs with
 *   `id % of === index` are claimed (parallel workers each serving one queue,
 *   DESIGN 1.2); with `{ hosts }` the best URLs of distinct hosts; with `{ lease }`
 *   the claims are held under that lease (`Leases`).
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
 * - Failed attempts: a `fail` whose failure has a `retryAt` records its history row
 *   (error, with the attempt's number and `retryAt`) and puts the URL back to waiting
 *   with one more failed attempt, out of reach of `claim` until `retryAt` (the claim's
 *   `now`): a retry waits in the store, so a run that stops, or is killed, before it
 *   loses nothing, and whichever run claims after `retryAt` tries it. A failure
 *   without `retryAt` ends the URL in `error` (counting an attempt too). A URL keeps
 *   its attempts through claims, reclaims, recoveries and reopenings; `claim` hands
 *   them out (`ClaimedUrl.attempts`), and only `requeueErrors` resets them, putting
 *   URLs in error back to waiting. `nextRetryAt` says when the next one is due.
 * - `reclaim` puts claimed URLs back to waiting (graceful stop, retry later) with no
 *   history row. `recover` does the same for the claims nobody holds: made without
 *   a lease, or under a lease that is lost; call it after opening, before claiming.
 * - `complete`, `discard`, `error`, `redirect` are final: such URLs are never
 *   claimed again and re-adding them is ignored, so no URL is completed twice
 *   (`requeueErrors` alone brings URLs in error back).
 * - Without a lease, calling `complete`, `discard`, `fail`, `redirect` or `reclaim`
 *   for a URL that is not processing throws `StoreStateError` naming the URL and its
 *   state, and changes nothing. Under a lease, a commit or reclaim of a claim the
 *   lease no longer holds is refused: skipped and listed (`CommitResult.refused`).
 *
 * Conformance: `claimsConformance`.
 */
export interface Claims {
  /**
   * Moves up to `n` waiting URLs to processing and returns them: highest priority
   * first, ties in discovery order, URLs waiting for their retry time left out until
   * `options.now`. Atomic: concurrent claims never share a URL.
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
  commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult>;
  /**
   * Puts processing URLs back to waiting, keeping their discovery order, value and context.
   * @param options.priority a new priority for all of them @default unchanged
   */
  reclaim(urls: readonly string[], options?: { priority?: number } & LeaseOptions): Promise<number>;
  /**
   * The earliest time a waiting URL put back by a failed attempt (`FetchFailure.retryAt`)
   * may be claimed; a time past means it is claimable now. Null when no waiting URL
   * waits for a retry time.
   */
  nextRetryAt(): Promise<number | null>;
  /**
   * Puts URLs in state error back to waiting with their attempts reset to 0, in one
   * transaction: those whose last error matches `filter`, all of them when it lists
   * nothing; returns how many. A bad filter throws `InvalidOptionError` naming the field.
   */
  requeueErrors(filter?: ErrorFilter): Promise<number>;
  /**
   * Moves back to waiting the processing URLs whose claim is held by nobody: claimed
   * without a lease, or under a lease that is lost (expired at `now`, or its owner
   * provably gone: on this machine, its pid not running), and closes the lost
   * leases; returns how many URLs it moved. Claims of live leases stay.
   */
  recover(options?: RecoverOptions): Promise<number>;
}

/**
 * Who holds each claim (store/lease.ts). A run opens a lease with its owner (host,
 * pid, start) and an expiry, claims under it, renews it while it lives and closes
 * it when it ends (its remaining claims go back to waiting). A lease is lost when
 * it expires, or at once when its owner is provably gone (on this machine, its pid
 * not running: a `kill -9`); `recover` then takes its claims back, and the late
 * owner's commits for them are refused, never applied twice.
 *
 * Conformance: `leaseConformance`, with two handles on one database for stores
 * shared that way.
 */
export interface Leases {
  /**
   * Opens a lease for `owner`, held until `expiresAt` unless renewed. Claims made
   * under it (`ClaimOptions.lease`) stay with the owner until it commits, reclaims
   * or closes the lease, or the lease is lost.
   */
  openLease(owner: LeaseOwner, expiresAt: number): Promise<Lease>;
  /**
   * Extends an open lease to `expiresAt`; false when the lease is no longer open
   * (closed, or lost and taken back by `recover`): its claims are gone and a new
   * lease must be opened. A lease expired but not yet recovered is renewed.
   */
  renewLease(id: number, expiresAt: number): Promise<boolean>;
  /** Closes a lease and puts the URLs still claimed under it back to waiting; returns how many. */
  closeLease(id: number): Promise<number>;
  /** The open leases, in id order. */
  leases(): Promise<Lease[]>;
}

/**
 * What the crawl recorded: the fetch history, the pages (and their bodies), every
 * known URL, and the statistics of DESIGN 1.1. Iterations stream: they never load
 * a whole table. Scores computed after the crawl (ranking) are written back here.
 *
 * Conformance: `recordsConformance`.
 */
export interface Records {
  /** Fetch outcomes by `fetchedAt`, ties in the order they were recorded. */
  history(): AsyncIterable<HistoryRecord>;
  /** Fetched pages in discovery order. */
  pages(): AsyncIterable<PageRecord>;
  /** Known URLs (of one state) in discovery order. */
  urls(state?: UrlState): AsyncIterable<UrlRecord>;
  /** The stored body of a page, decompressed; null when none was stored. */
  readBody(url: string): Promise<Buffer | null>;
  setPageScores(items: readonly PageScores[]): Promise<void>;
  /** @param options.topHosts hosts listed @default 10 */
  stats(options?: { topHosts?: number }): Promise<StoreStats>;
}

/**
 * The link graph: every link of every fetched page, as recorded (ranking's input).
 *
 * Conformance: `linkGraphConformance`.
 */
export interface LinkGraph {
  /** Links page by page, pages in discovery order, each page's links in their order on the page. */
  links(): AsyncIterable<LinkRecord>;
}

/**
 * Full-text search of the kept pages, Chinese and English (BM25 blended with the
 * page score P).
 *
 * Conformance: `searchConformance`.
 */
export interface SearchIndex {
  /**
   * The kept pages whose indexed text (`FetchedPage.text`) or title contains every
   * word of the query, ordered by the blend of BM25 and P (see `TextSearch`). A query
   * without a word (only punctuation) throws `InvalidOptionError`, as do a bad
   * `limit` or `scoreWeight`.
   */
  search(options: TextSearch): Promise<TextHit[]>;
  /**
   * The kept pages, and how many of them the index holds: pages kept while full text
   * was off (committed without `FetchedPage.text`) are not found by `search`.
   */
  textCoverage(): Promise<TextCoverage>;
  /**
   * Kept pages the index does not hold, in discovery order: up to `limit` of them
   * after the page `after` (a URL returned before; from the first without it), each
   * with its content type and whether its body is stored.
   */
  unindexedPages(options: UnindexedPagesOptions): Promise<UnindexedPage[]>;
  /**
   * Puts the titles and texts of kept pages the index does not hold yet into it, in
   * one transaction; an item whose URL is not a kept page, or is indexed already, is
   * skipped. Returns how many were indexed.
   */
  indexTexts(items: readonly PageText[]): Promise<number>;
}

/**
 * The crawl's own records: the topic's keywords and named JSON values (options,
 * thresholds, runs, learned models), which a resumed crawl reads back.
 *
 * Conformance: `runRecordsConformance`.
 */
export interface RunRecords {
  setKeywords(
    keywords: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  ): Promise<void>;
  getKeywords(): Promise<Map<string, number>>;
  /** Stores a JSON value; `undefined` deletes the key. */
  setMeta(key: string, value: unknown): Promise<void>;
  getMeta<T = unknown>(key: string): Promise<T | undefined>;
}

/**
 * The revisit path (DESIGN 1.3): a kept page becomes due again at a time, is
 * claimed for a revisit, and the revisit is recorded.
 *
 * ```
 *   complete ─scheduleRevisits(dueAt)─▶ due at t ─claimDue(now ≥ t)─▶ claimed
 *      ▲                                   ▲                            │
 *      │                                   └── recordVisits(next dueAt) ┘
 *      └─ (the page stays complete throughout: stored, searchable, exported)
 * ```
 *
 * - `scheduleRevisits` sets the due time (and λ̂) of complete URLs; other URLs are
 *   skipped. The first schedule starts the page's record: no revisit yet, last
 *   visited when it was fetched.
 * - `claimDue(n, { now })` claims up to `n` scheduled pages due at or before `now`,
 *   earliest first, ties in discovery order, under a lease or none; a claimed page
 *   is not claimed again until its visit is recorded or the claim is given back.
 * - `recordVisits` records each claimed page's revisit in one transaction: a visit
 *   row (time, status, what it found, hashes), the counts (visits; changes when
 *   `changed`), validators, λ̂ and the next due time, and clears the claim. A
 *   `changed` visit with a `page` replaces the stored copy's fetch fields (time,
 *   status, type, size, title, relevance, hashes) and its body; with `keepVersion`
 *   its body is kept as well under the visit (`readVersion`). `gone` (404, 410)
 *   marks the page gone and unschedules it (it stays complete: the last copy is
 *   kept); `failed` counts no visit and keeps the old validators.
 * - A visit's `newUrls` (the links of a changed page, a moved page's new place) are
 *   queued in the same transaction, as `addUrls` queues them, `parent` defaulting
 *   to the visited page; the result's `added` counts those that were new. An
 *   explicit `parent` that is not known throws `InvalidOptionError` and nothing is
 *   recorded.
 * - Claims follow the lease rules of `Claims`: `closeLease` gives back the lease's
 *   revisit claims, `recover` the claims held by nobody; without a lease, recording
 *   a page that is not claimed throws `StoreStateError`; under a lease, a visit the
 *   lease no longer holds is refused (the result's `refused`): nothing of it is
 *   recorded and its new URLs are not queued.
 *
 * Conformance: `revisitConformance`.
 */
export interface Revisits {
  /** Sets when complete pages are revisited next; returns how many it set. */
  scheduleRevisits(items: readonly RevisitSchedule[]): Promise<number>;
  /** Claims up to `n` pages due at `options.now`, earliest due first. */
  claimDue(n: number, options?: ClaimDueOptions): Promise<DueRevisit[]>;
  /** Records revisits of claimed pages, new URLs queued, all or none (refused ones apart). */
  recordVisits(
    visits: readonly VisitOutcome[],
    options?: LeaseOptions,
  ): Promise<RecordVisitsResult>;
  /** Gives claimed revisits back, due as before; returns how many. */
  releaseDue(urls: readonly string[], options?: LeaseOptions): Promise<number>;
  /** The pages with a revisit record, in discovery order. */
  revisits(): AsyncIterable<RevisitRecord>;
  /** Recorded revisits in the order recorded (of one URL when given). */
  visits(url?: string): AsyncIterable<VisitRecord>;
  /** The body a changed visit of `url` at `at` kept (`VisitPage.keepVersion`); null when none. */
  readVersion(url: string, at: number): Promise<Buffer | null>;
  /** Totals of the revisit path at `now` (@default Date.now()). */
  revisitTotals(now?: number): Promise<RevisitTotals>;
}

/**
 * Fields extracted from pages (docs/extract.md): rows of (rule set, field, position,
 * value) kept with a stored page. `complete` and `commit` write a complete page's
 * `FetchedPage.fields` in the outcome's transaction (under the final URL of a page
 * reached through redirects), replacing any it had; `replaceFields` rewrites them
 * later, e.g. after extracting again from the stored bodies. Revisits leave them.
 *
 * Conformance: `fieldsConformance`.
 */
export interface ExtractedFields {
  /**
   * Replaces the fields of stored pages (all rule sets) in one transaction and
   * returns how many pages it wrote; a URL listed twice takes its last item and
   * counts once. A URL that is not known or has no stored page, or an invalid
   * entry, throws `InvalidOptionError` naming it, and nothing changes.
   */
  replaceFields(items: readonly PageFields[]): Promise<number>;
  /**
   * Every field row (of `options.url`'s page only, when given), in the discovery
   * order of the pages, then by rule set, field and position (names compared by
   * code point). Streams, as the other iterations do.
   */
  fields(options?: FieldsOptions): AsyncIterable<FieldRecord>;
  /** Per rule set (sorted by name): its pages, and per field (sorted) the pages it filled. */
  fieldStats(): Promise<FieldStats[]>;
}

export type { Browse } from './browse.js';

/** The whole store: every contract, and `close`. */
export interface Store
  extends Frontier,
    Claims,
    Leases,
    Records,
    LinkGraph,
    SearchIndex,
    RunRecords,
    Revisits,
    ExtractedFields,
    Browse {
  /** Waits for pending writes, then releases the store. Later calls throw `StoreError`. */
  close(): Promise<void>;
}
