/**
 * The SQLite store: a directory with `crawl.db` (WAL) and `pages/`. Every call is
 * synchronous inside better-sqlite3, so a transaction never interleaves with
 * another call of the same process; `BEGIN IMMEDIATE` serialises writers of other
 * processes. Only page bodies are written asynchronously, before the transaction
 * that refers to them. One process writes a store at a time; others may read.
 */

import type { Database } from 'better-sqlite3';
import { FocusCrawlError, InvalidOptionError, StoreError } from '../errors/index.js';
import type { BodyFiles } from './bodies.js';
import type { Browse } from './browse.js';
import type { ExtractedFields, Revisits, RunRecords, SearchIndex } from './contracts.js';
import { hash53 } from './hash.js';
import { KnownCache } from './known-cache.js';
import { checkCommitOptions, leaseLostError } from './lease.js';
import { STATE_CODE } from './schema.js';
import { OutcomeShortcuts } from './shortcuts.js';
import { sqliteBrowseMethods } from './sqlite-browse.js';
import { type CommitContext, commitOutcomes } from './sqlite-commit.js';
import { fieldMethods } from './sqlite-fields.js';
import { type LeaseMethods, leaseMethods } from './sqlite-lease-api.js';
import { SqliteLeases } from './sqlite-leases.js';
import { SqliteReader } from './sqlite-read.js';
import { type RetryMethods, retryMethods } from './sqlite-retries.js';
import { revisitMethods } from './sqlite-revisit-api.js';
import { SqliteRevisits } from './sqlite-revisits.js';
import { runRecordMethods } from './sqlite-runs.js';
import { SqliteSearch } from './sqlite-search.js';
import { searchMethods } from './sqlite-search-api.js';
import { type FoundUrl, prepareFind, prepareWrites, writeText } from './sqlite-statements.js';
import {
  claimRows,
  insertUrls,
  reprioritizeRows,
  trimRows,
  type UrlIndex,
  writeScores,
} from './sqlite-urls.js';
import { Tally } from './tally.js';
import { TextQueue } from './text-queue.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  CommitResult,
  HistoryRecord,
  LeaseOptions,
  LinkRecord,
  NewUrl,
  Outcome,
  PageRecord,
  PageScores,
  PriorityChange,
  ScanWaitingOptions,
  StateCounts,
  Store,
  StoreStats,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';
import { SEED_PRIORITY } from './types.js';
import * as v from './validate.js';
import { type EncodedOutcome, encodeOutcomes } from './wire.js';

/** URLs remembered per generation by the cache of known URLs. */
const CACHE_URLS = 20_000;

/**
 * The `Revisits`, `RunRecords`, `ExtractedFields`, `Browse`, `Leases` and `SearchIndex`
 * methods, and `Claims`' of failed attempts and leases, set in the constructor
 * (sqlite-revisit-api.ts, sqlite-runs.ts, sqlite-fields.ts, sqlite-browse.ts,
 * sqlite-retries.ts, sqlite-lease-api.ts, sqlite-search-api.ts).
 */
export interface SqliteStore
  extends Revisits,
    RunRecords,
    ExtractedFields,
    Browse,
    RetryMethods,
    LeaseMethods,
    SearchIndex {}

export class SqliteStore extends OutcomeShortcuts implements Store {
  readonly #db: Database;
  readonly #path: string;
  readonly #bodies: BodyFiles;
  readonly #ix: UrlIndex | null;
  readonly #find: (url: string) => FoundUrl | undefined;
  readonly #r: SqliteReader;
  readonly #search: SqliteSearch;
  readonly #leases: SqliteLeases;
  readonly #rv: SqliteRevisits;
  /** What `commit` needs of this store (sqlite-commit.ts). */
  readonly #commits: CommitContext;
  readonly #pending = new Set<Promise<unknown>>();
  /** Kept pages' texts waiting for the index (`deferTextIndex`); null: indexed in the commit. */
  #texts: TextQueue | null = null;
  /** Set by close(): new calls are refused while pending commits finish. */
  #closing = false;
  #closed = false;

  /** Use `openStore`. `hashUrl` is replaceable to test hash collisions. */
  constructor(
    db: Database,
    path: string,
    bodies: BodyFiles,
    readonly: boolean,
    hashUrl: (url: string) => number = hash53,
  ) {
    super();
    this.#db = db;
    this.#path = path;
    this.#bodies = bodies;
    this.#find = prepareFind(db, hashUrl);
    this.#ix = readonly
      ? null
      : {
          w: prepareWrites(db),
          find: this.#find,
          hash: hashUrl,
          cache: new KnownCache(CACHE_URLS),
        };
    this.#r = new SqliteReader(db, bodies, this.#find, (op, fn) => this.#sync(op, fn));
    this.#search = new SqliteSearch(db);
    this.#leases = new SqliteLeases(db);
    this.#rv = new SqliteRevisits(db);
    const sync = <T>(op: string, fn: () => T) => this.#sync(op, fn);
    const tx = <T>(op: string, fn: (ix: UrlIndex) => T) => this.#tx(op, fn);
    const rv = revisitMethods({
      rv: this.#rv,
      bodies,
      sync,
      find: this.#find,
      tx: (op, fn) => this.#tx(op, fn, true),
      leaseOpen: (id) => this.#leases.isOpen(id),
    });
    const fields = fieldMethods({ db, sync, find: this.#find, tx });
    const retries = retryMethods({ db, sync, tx: (op, fn) => this.#tx(op, fn) });
    const browse = sqliteBrowseMethods(db, this.#find, sync);
    const leases = leaseMethods({
      leases: this.#leases,
      rv: this.#rv,
      bodies,
      sync,
      tx: (op, fn) => this.#tx(op, fn),
    });
    const search = searchMethods({
      search: this.#search,
      find: this.#find,
      sync,
      tx,
      flush: () => this.indexQueuedTexts(),
      readBody: (url, file) => bodies.read(url, file),
    });
    Object.assign(this, rv, runRecordMethods(tx, this.#r), fields, retries, browse, leases, search);
    this.#commits = {
      sync,
      index: (op) => this.#index(op),
      tx: (op, fn) => this.#tx(op, fn, true),
      bodies,
      leases: this.#leases,
    };
  }

  /** The SQLite file. */
  get path(): string {
    return this.#path;
  }

  /**
   * Runs `fn`, turning driver errors into `StoreError` naming the file and the call.
   * `pending` marks the second half of a call that started before close().
   */
  #sync<T>(op: string, fn: () => T, pending = false): T {
    if (this.#closed || (this.#closing && !pending)) {
      throw new StoreError(`${op}: the store ${this.#path} is closed`);
    }
    try {
      return fn();
    } catch (e) {
      if (e instanceof FocusCrawlError) throw e;
      // A full disk: nothing of the transaction was written; say how to go on.
      const full =
        (e as { code?: unknown }).code === 'SQLITE_FULL'
          ? ': free some space, then run the same command again (the crawl resumes)'
          : '';
      throw new StoreError(`${op} on ${this.#path} failed: ${(e as Error).message}${full}`, {
        cause: e,
      });
    }
  }

  #index(op: string): UrlIndex {
    if (this.#ix === null) throw new StoreError(`${op}: the store ${this.#path} is open read-only`);
    return this.#ix;
  }

  /** A write transaction (BEGIN IMMEDIATE) whose tally is written before it commits. */
  #tx<T>(op: string, fn: (ix: UrlIndex, t: Tally) => T, pending = false): T {
    return this.#sync(
      op,
      () => {
        const ix = this.#index(op);
        const { w } = ix;
        try {
          const out = this.#db
            .transaction(() => {
              const t = new Tally();
              const r = fn(ix, t);
              if (t.nextId !== undefined) w.setNextId.run(t.nextId);
              for (const [name, n] of t.counters()) w.counter.run(n, name);
              for (const [host, d] of t.hosts) w.host.run(host, ...d);
              return r;
            })
            .immediate();
          this.#texts?.commit();
          return out;
        } catch (e) {
          ix.cache.clear(); // it may hold rows of the rolled-back transaction
          this.#texts?.rollback();
          throw e;
        }
      },
      pending,
    );
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  async addUrls(items: readonly NewUrl[]): Promise<number> {
    v.checkNewUrls('addUrls', items);
    return this.#tx('addUrls', (ix, t) => insertUrls(ix, t, 'addUrls', items, null));
  }

  async addSeeds(urls: readonly string[], options?: { priority?: number }): Promise<number> {
    v.checkUrlList('addSeeds', urls);
    v.checkPriorityOption('addSeeds options', options);
    const priority = options?.priority ?? SEED_PRIORITY;
    const now = Date.now();
    return this.#tx('addSeeds', (ix, t) => {
      for (const u of urls) ix.w.seed.run(u, now);
      const items = urls.map((url) => ({ url, depth: 0, priority, discoveredAt: now }));
      return insertUrls(ix, t, 'addSeeds', items, null);
    });
  }

  async getSeeds(): Promise<string[]> {
    return this.#r.seeds();
  }

  async claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]> {
    v.checkInt('claim(n)', n, 1);
    const q = v.checkClaimOptions('claim options', options);
    const hosts = v.checkHostClaim('claim options', options, n);
    const lease = options?.lease ?? null;
    const now = options?.now ?? Date.now();
    return this.#tx('claim', (ix, t) => {
      if (lease !== null && !this.#leases.isOpen(lease)) throw leaseLostError('claim', lease);
      return claimRows(ix, t, n, q, hosts, lease, now);
    });
  }

  override commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
    return this.#track(
      (async () => {
        v.checkOutcomes('commit', outcomes);
        const lease = checkCommitOptions('commit options', options);
        return this.#commit(encodeOutcomes(outcomes), lease);
      })(),
    );
  }

  /**
   * `commit` of outcomes already checked (`checkOutcomes`) and encoded
   * (`encodeOutcomes`) by the caller: the threaded store's path.
   */
  commitEncoded(outcomes: readonly EncodedOutcome[], lease?: number): Promise<CommitResult> {
    return this.#track(this.#commit(outcomes, lease));
  }

  #commit(all: readonly EncodedOutcome[], lease?: number): Promise<CommitResult> {
    const done = commitOutcomes(this.#commits, all, lease);
    if (this.#texts === null) return done;
    return done.then((r) => {
      if (this.#texts?.full) this.indexQueuedTexts();
      return r;
    });
  }

  /**
   * Kept pages' texts go to a queue instead of the commit's transaction, to be indexed
   * by `indexQueuedTexts` (text-queue.ts): the threaded store's thread does this. No
   * effect on a read-only store.
   */
  deferTextIndex(): void {
    const ix = this.#ix;
    if (ix === null) return;
    const q = new TextQueue();
    this.#texts = q;
    ix.text = (id, title, text, body) => q.stage(id, title, text, body);
  }

  /** Texts queued for the index. */
  get queuedTexts(): number {
    return this.#texts?.size ?? 0;
  }

  /** Indexes up to `max` queued texts, the oldest first, in one transaction; returns how many. */
  indexQueuedTexts(max = Number.POSITIVE_INFINITY, pending = false): number {
    const q = this.#texts;
    if (q === null || q.size === 0) return 0;
    const items = q.take(max);
    this.#tx(
      'index texts',
      (ix) => {
        for (const [id, title, text, body] of items) writeText(ix.w, id, title, text, body);
      },
      pending,
    );
    return items.length;
  }

  async trimWaiting(max: number): Promise<number> {
    v.checkInt('trimWaiting(max)', max, 0);
    return this.#tx('trimWaiting', (ix, t) => trimRows(ix, t, max));
  }

  async scanWaiting(options: ScanWaitingOptions): Promise<WaitingUrl[]> {
    const { afterId, limit } = v.checkScanOptions('scanWaiting options', options);
    return this.#r.scanWaiting(afterId, limit);
  }

  async reprioritize(items: readonly PriorityChange[]): Promise<number> {
    const changes = v.checkPriorityChanges('reprioritize', items);
    return this.#tx('reprioritize', (ix) => reprioritizeRows(ix, changes.values()));
  }

  async counts(): Promise<StateCounts> {
    return this.#r.counts();
  }

  async stats(options?: { topHosts?: number }): Promise<StoreStats> {
    return this.#r.stats(v.checkTopHosts('stats options', options));
  }

  async setPageScores(items: readonly PageScores[]): Promise<void> {
    v.checkScores('setPageScores', items);
    this.#tx('setPageScores', (ix) => writeScores(ix, items));
  }

  history(): AsyncIterable<HistoryRecord> {
    return this.#r.history();
  }

  pages(): AsyncIterable<PageRecord> {
    return this.#r.pages();
  }

  urls(state?: UrlState): AsyncIterable<UrlRecord> {
    if (state !== undefined && !(state in STATE_CODE)) {
      throw new InvalidOptionError(`urls(state): unknown state ${JSON.stringify(state)}`);
    }
    return this.#r.urls(state);
  }

  links(): AsyncIterable<LinkRecord> {
    return this.#r.links();
  }

  readBody(url: string): Promise<Buffer | null> {
    v.checkUrl('readBody', url);
    return this.#r.readBody(url);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await Promise.allSettled([...this.#pending]);
    try {
      // What waits for the index is indexed before the store closes.
      this.indexQueuedTexts(Number.POSITIVE_INFINITY, true);
    } finally {
      this.#closed = true;
      this.#db.close();
      await this.#bodies.close();
    }
  }
}
