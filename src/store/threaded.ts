/**
 * The SQLite store on a worker thread of its own: every call is sent to a thread
 * that owns the connection and writes the page files (gzip, file, rename), so that
 * the caller's thread only fetches, parses and scores. Same contract as the
 * SQLite store (it passes the same conformance suite); calls are answered in the
 * order they were made, and a call's promise resolves once its change is committed.
 *
 * With `transferBodies`, the memory of the bodies given to `commit`/`complete`/
 * `discard` moves to the store's thread instead of being copied: the caller must
 * not touch those buffers afterwards (the crawl engine does not).
 */
import type { Worker } from 'node:worker_threads';
import { type ErrorData, errorFromData, InvalidOptionError, StoreError } from '../errors/index.js';
import { type HeapLimits, startWorker } from '../thread/index.js';
import type { ActivityBucket, LinkRow, PageQuery, PageRow } from './browse.js';
import type { FieldRecord, FieldStats, FieldsOptions, PageFields } from './field-types.js';
import { checkCommitOptions } from './lease.js';
import type { StoreOptionsInput } from './options.js';
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
import { OutcomeShortcuts } from './shortcuts.js';
import type { PageText, TextCoverage, UnindexedPage, UnindexedPagesOptions } from './text-types.js';
import type { ThreadInit, ThreadReply } from './thread-worker.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  CommitResult,
  ErrorFilter,
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
  ScanWaitingOptions,
  StateCounts,
  Store,
  StoreStats,
  TextHit,
  TextSearch,
  UrlRecord,
  UrlState,
  WaitingUrl,
} from './types.js';
import { URL_STATES } from './types.js';
import { checkOutcomes } from './validate.js';
import { checkFieldsOptions } from './validate-fields.js';
import { encodeOutcomes } from './wire.js';

/** Items fetched from the thread per round trip of an iteration. */
const CHUNK = 500;

export interface ThreadedStoreOptions extends NonNullable<StoreOptionsInput> {
  /** Move (rather than copy) the memory of committed bodies to the store's thread. @default false */
  transferBodies?: boolean;
  /** Heap limits of the store's thread. @default Node's defaults */
  heap?: HeapLimits;
}

interface Waiter {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Opens the SQLite store in `dir` on a thread of its own (options as `openStore`). */
export async function openThreadedStore(
  dir: string,
  options?: ThreadedStoreOptions,
): Promise<ThreadedStore> {
  const { transferBodies = false, heap, ...storeOptions } = options ?? {};
  const s = new ThreadedStore(dir, storeOptions, transferBodies, heap);
  await s.ready;
  return s;
}

export class ThreadedStore extends OutcomeShortcuts implements Store {
  readonly #worker: Worker;
  readonly #waiters = new Map<number, Waiter>();
  readonly #transfer: boolean;
  readonly #dir: string;
  #nextId = 1;
  #failure: Error | null = null;
  #closed = false;
  #path = '';
  /** Resolves once the store is open in its thread. */
  readonly ready: Promise<void>;

  /** Use `openThreadedStore`. */
  constructor(dir: string, options: StoreOptionsInput, transferBodies: boolean, heap?: HeapLimits) {
    super();
    this.#dir = dir;
    this.#transfer = transferBodies;
    const init: ThreadInit = { dir, options };
    this.#worker = startWorker(import.meta.url, 'thread-worker', {
      workerData: init,
      ...(heap ? { resourceLimits: heap } : {}),
    });
    this.ready = new Promise<void>((resolve, reject) => {
      this.#waiters.set(0, {
        resolve: (path) => {
          this.#path = path as string;
          resolve();
        },
        reject,
      });
    });
    this.#worker.on('message', (m: ThreadReply) => {
      const w = this.#waiters.get(m.id);
      this.#waiters.delete(m.id);
      if (this.#waiters.size === 0) this.#worker.unref();
      if ('error' in m) w?.reject(errorFromData(m.error as ErrorData));
      else w?.resolve(m.ok);
    });
    this.#worker.on('error', (e) => this.#fail(e));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fail(new Error(`the store thread exited (code ${code})`));
    });
  }

  /** The SQLite file. */
  get path(): string {
    return this.#path;
  }

  #fail(cause: Error): void {
    this.#failure ??= new StoreError(`the store ${this.#dir} failed: ${cause.message}`, { cause });
    for (const w of this.#waiters.values()) w.reject(this.#failure);
    this.#waiters.clear();
  }

  #call<T>(op: string, args: unknown[], transfer?: ArrayBuffer[]): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closed)
      return Promise.reject(new StoreError(`${op}: the store ${this.#dir} is closed`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#waiters.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.ref(); // a pending call keeps the process alive
      this.#worker.postMessage({ id, op, args }, transfer ?? []);
    });
  }

  addUrls(items: readonly NewUrl[]): Promise<number> {
    return this.#call('addUrls', [items]);
  }

  addSeeds(urls: readonly string[], options?: { priority?: number }): Promise<number> {
    return this.#call('addSeeds', [urls, options]);
  }

  getSeeds(): Promise<string[]> {
    return this.#call('getSeeds', []);
  }

  claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]> {
    return this.#call('claim', options === undefined ? [n] : [n, options]);
  }

  commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
    // Checked and encoded here: the store's thread gets one string of links per page.
    let lease: number | undefined;
    try {
      checkOutcomes('commit', outcomes);
      lease = checkCommitOptions('commit options', options);
    } catch (e) {
      return Promise.reject(e);
    }
    const transfer: ArrayBuffer[] = [];
    const items = encodeOutcomes(outcomes, true).map((o) => {
      if (o.state === 'error' || o.state === 'redirect' || o.result.body === undefined) return o;
      const b = o.result.body;
      // A view of part of a larger buffer would take the whole buffer along: send its bytes only.
      const own = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
      const body = own ? b : b.slice();
      if ((this.#transfer || !own) && body.buffer instanceof ArrayBuffer)
        transfer.push(body.buffer);
      return own ? o : { ...o, result: { ...o.result, body } };
    });
    return this.#call('commitEncoded', lease === undefined ? [items] : [items, lease], transfer);
  }

  reclaim(
    urls: readonly string[],
    options?: { priority?: number } & LeaseOptions,
  ): Promise<number> {
    return this.#call('reclaim', [urls, options]);
  }

  recover(options?: RecoverOptions): Promise<number> {
    return this.#call('recover', [options]);
  }

  nextRetryAt(): Promise<number | null> {
    return this.#call('nextRetryAt', []);
  }

  requeueErrors(filter?: ErrorFilter): Promise<number> {
    return this.#call('requeueErrors', filter === undefined ? [] : [filter]);
  }

  openLease(owner: LeaseOwner, expiresAt: number): Promise<Lease> {
    return this.#call('openLease', [owner, expiresAt]);
  }

  renewLease(id: number, expiresAt: number): Promise<boolean> {
    return this.#call('renewLease', [id, expiresAt]);
  }

  closeLease(id: number): Promise<number> {
    return this.#call('closeLease', [id]);
  }

  leases(): Promise<Lease[]> {
    return this.#call('leases', []);
  }

  trimWaiting(max: number): Promise<number> {
    return this.#call('trimWaiting', [max]);
  }

  scanWaiting(options: ScanWaitingOptions): Promise<WaitingUrl[]> {
    return this.#call('scanWaiting', [options]);
  }

  reprioritize(items: readonly PriorityChange[]): Promise<number> {
    return this.#call('reprioritize', [items]);
  }

  counts(): Promise<StateCounts> {
    return this.#call('counts', []);
  }

  stats(options?: { topHosts?: number }): Promise<StoreStats> {
    return this.#call('stats', [options]);
  }

  setKeywords(
    keywords: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  ): Promise<void> {
    return this.#call('setKeywords', [keywords]);
  }

  getKeywords(): Promise<Map<string, number>> {
    return this.#call('getKeywords', []);
  }

  setMeta(key: string, value: unknown): Promise<void> {
    return this.#call('setMeta', [key, value]);
  }

  getMeta<T = unknown>(key: string): Promise<T | undefined> {
    return this.#call('getMeta', [key]);
  }

  setPageScores(items: readonly PageScores[]): Promise<void> {
    return this.#call('setPageScores', [items]);
  }

  search(options: TextSearch): Promise<TextHit[]> {
    return this.#call('search', [options]);
  }

  textCoverage(): Promise<TextCoverage> {
    return this.#call('textCoverage', []);
  }

  unindexedPages(options: UnindexedPagesOptions): Promise<UnindexedPage[]> {
    return this.#call('unindexedPages', [options]);
  }

  indexTexts(items: readonly PageText[]): Promise<number> {
    return this.#call('indexTexts', [items]);
  }

  async *#iterate<T>(op: string, args: unknown[]): AsyncGenerator<T> {
    const cursor = await this.#call<number>(op, args);
    let done = false;
    try {
      while (!done) {
        const r = await this.#call<{ items: T[]; done: boolean }>('next', [cursor, CHUNK]);
        done = r.done;
        yield* r.items;
      }
    } finally {
      if (!done && !this.#closed) await this.#call('end', [cursor]);
    }
  }

  history(): AsyncIterable<HistoryRecord> {
    return this.#iterate('history', []);
  }

  pages(): AsyncIterable<PageRecord> {
    return this.#iterate('pages', []);
  }

  urls(state?: UrlState): AsyncIterable<UrlRecord> {
    if (state !== undefined && !URL_STATES.includes(state)) {
      throw new InvalidOptionError(`urls(state): unknown state ${JSON.stringify(state)}`);
    }
    return this.#iterate('urls', state === undefined ? [] : [state]);
  }

  links(): AsyncIterable<LinkRecord> {
    return this.#iterate('links', []);
  }

  replaceFields(items: readonly PageFields[]): Promise<number> {
    return this.#call('replaceFields', [items]);
  }

  fields(options?: FieldsOptions): AsyncIterable<FieldRecord> {
    const url = checkFieldsOptions('fields options', options);
    return this.#iterate('fields', url === undefined ? [] : [{ url }]);
  }

  fieldStats(): Promise<FieldStats[]> {
    return this.#call('fieldStats', []);
  }

  scheduleRevisits(items: readonly RevisitSchedule[]): Promise<number> {
    return this.#call('scheduleRevisits', [items]);
  }

  claimDue(n: number, options?: ClaimDueOptions): Promise<DueRevisit[]> {
    return this.#call('claimDue', options === undefined ? [n] : [n, options]);
  }

  recordVisits(
    visits: readonly VisitOutcome[],
    options?: LeaseOptions,
  ): Promise<RecordVisitsResult> {
    return this.#call('recordVisits', options === undefined ? [visits] : [visits, options]);
  }

  releaseDue(urls: readonly string[], options?: LeaseOptions): Promise<number> {
    return this.#call('releaseDue', options === undefined ? [urls] : [urls, options]);
  }

  revisits(): AsyncIterable<RevisitRecord> {
    return this.#iterate('revisits', []);
  }

  visits(url?: string): AsyncIterable<VisitRecord> {
    return this.#iterate('visits', url === undefined ? [] : [url]);
  }

  async readVersion(url: string, at: number): Promise<Buffer | null> {
    const b = await this.#call<Uint8Array | null>('readVersion', [url, at]);
    return b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  revisitTotals(now?: number): Promise<RevisitTotals> {
    return this.#call('revisitTotals', now === undefined ? [] : [now]);
  }

  listPages(q?: PageQuery): Promise<{ items: PageRow[]; next: string | null }> {
    return this.#call('listPages', q === undefined ? [] : [q]);
  }

  pageLinks(url: string, o: { direction: 'in' | 'out'; limit?: number }): Promise<LinkRow[]> {
    return this.#call('pageLinks', [url, o]);
  }

  pageRow(url: string): Promise<PageRow | null> {
    return this.#call('pageRow', [url]);
  }

  urlHistory(url: string): Promise<HistoryRecord[]> {
    return this.#call('urlHistory', [url]);
  }

  activity(o: { bucketMs: number; since?: number }): Promise<ActivityBucket[]> {
    return this.#call('activity', [o]);
  }

  async readBody(url: string): Promise<Buffer | null> {
    const b = await this.#call<Uint8Array | null>('readBody', [url]);
    return b === null ? null : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  /** Waits for the calls made so far, closes the store and ends its thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const closing = this.#failure ? Promise.resolve() : this.#call<void>('close', []);
    this.#closed = true;
    try {
      await closing;
    } finally {
      await this.#worker.terminate();
    }
  }
}
