/**
 * A store held in memory, for tests, short crawls and as the reference
 * implementation of the contract. Nothing survives the process. Calls that can
 * fail are checked completely before anything changes, which is how a batch is
 * all-or-nothing here.
 */

import { InvalidOptionError, StoreError } from '../errors/index.js';
import { compressBody } from './bodies.js';
import type { Browse } from './browse.js';
import type { ExtractedFields, Revisits, RunRecords } from './contracts.js';
import { HostPicker } from './host-claim.js';
import { checkCommitOptions, checkLeaseId, checkLeaseOwner } from './lease.js';
import { memoryBrowseMethods } from './memory-browse.js';
import { type Planned, planCommit, stateError } from './memory-commit.js';
import { FieldBook, memoryFieldMethods } from './memory-fields.js';
import { MemoryFrontier } from './memory-frontier.js';
import { LeaseBook } from './memory-leases.js';
import { MemoryRecords } from './memory-records.js';
import { type MemoryRetryMethods, memoryRetryMethods } from './memory-retries.js';
import { memoryRevisitMethods, RevisitBook } from './memory-revisits.js';
import { memoryRunRecords } from './memory-runs.js';
import { MemoryTotals } from './memory-totals.js';
import { OutcomeShortcuts } from './shortcuts.js';
import { Tally } from './tally.js';
import {
  checkPageTexts,
  checkUnindexedOptions,
  type PageText,
  type TextCoverage,
  type UnindexedPage,
  type UnindexedPagesOptions,
} from './text-types.js';
import type {
  ClaimedUrl,
  ClaimOptions,
  CommitResult,
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
import { SEED_PRIORITY, URL_STATES } from './types.js';
import * as v from './validate.js';

/**
 * The `Revisits`, `RunRecords`, `ExtractedFields` and `Browse` methods, and `Claims`'
 * of failed attempts, set in the constructor (memory-revisits.ts, memory-runs.ts,
 * memory-fields.ts, memory-browse.ts, memory-retries.ts).
 */
export interface MemoryStore
  extends Revisits,
    RunRecords,
    ExtractedFields,
    Browse,
    MemoryRetryMethods {}

export class MemoryStore extends OutcomeShortcuts implements Store {
  readonly #f = new MemoryFrontier();
  readonly #urls = this.#f.urls;
  readonly #t = new MemoryTotals();
  readonly #r = new MemoryRecords();
  readonly #leases = new LeaseBook();
  readonly #rv = new RevisitBook();
  readonly #fields = new FieldBook();

  constructor() {
    super();
    const rv = memoryRevisitMethods({
      book: this.#rv,
      open: (op) => this.#open(op),
      urlOf: (u) => this.#urls.get(u),
      records: this.#r,
      checkLease: (op, id) => this.#leases.check(op, id),
      checkParents: (where, items, pending) => this.#f.checkParents(where, items, pending),
      addUrls: (items, parent) => this.#add(items, parent),
    });
    const open = (op: string) => this.#open(op);
    const fields = memoryFieldMethods({
      book: this.#fields,
      open,
      urlOf: (u) => this.#urls.get(u),
      pageOf: (u) => this.#r.pageOf(u),
    });
    const retries = memoryRetryMethods({
      open,
      frontier: this.#f,
      records: this.#r,
      totals: this.#t,
    });
    const browse = memoryBrowseMethods({ open, urls: this.#urls, records: this.#r });
    Object.assign(this, rv, memoryRunRecords(open), fields, retries, browse);
  }
  readonly #seeds = new Set<string>();
  readonly #pending = new Set<Promise<unknown>>();
  #closing = false;

  #open(op: string): void {
    if (this.#closing) throw new StoreError(`${op}: the memory store is closed`);
  }

  async addUrls(items: readonly NewUrl[]): Promise<number> {
    this.#open('addUrls');
    v.checkNewUrls('addUrls', items);
    this.#f.checkParents('addUrls', items, new Map());
    return this.#add(items, null);
  }

  /** Queues checked `items` (`parent` defaulting to `parent`); returns how many were new. */
  #add(items: readonly NewUrl[], parent: string | null): number {
    const t = new Tally();
    const n = this.#f.add(items, parent, t);
    this.#t.apply(t);
    return n;
  }

  async addSeeds(urls: readonly string[], options?: { priority?: number }): Promise<number> {
    this.#open('addSeeds');
    v.checkUrlList('addSeeds', urls);
    v.checkPriorityOption('addSeeds options', options);
    const priority = options?.priority ?? SEED_PRIORITY;
    for (const u of urls) this.#seeds.add(u);
    const t = new Tally();
    const n = this.#f.add(
      urls.map((url) => ({ url, depth: 0, priority })),
      null,
      t,
    );
    this.#t.apply(t);
    return n;
  }

  async getSeeds(): Promise<string[]> {
    this.#open('getSeeds');
    return [...this.#seeds];
  }

  async claim(n: number, options?: ClaimOptions): Promise<ClaimedUrl[]> {
    this.#open('claim');
    v.checkInt('claim(n)', n, 1);
    const queue = v.checkClaimOptions('claim options', options);
    const hosts = v.checkHostClaim('claim options', options, n);
    const lease = options?.lease;
    if (lease !== undefined) this.#leases.check('claim', lease);
    const now = options?.now ?? Date.now();
    const out = this.#f.claim(n, queue, hosts && new HostPicker(hosts), now);
    if (lease !== undefined) for (const c of out) this.#leases.claimed(c.url, lease);
    this.#t.move('waiting', 'processing', out.length);
    return out;
  }

  override commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
    const p = this.#commit(outcomes, options);
    this.#pending.add(p);
    const done = () => this.#pending.delete(p);
    p.then(done, done);
    return p;
  }

  async #commit(all: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
    this.#open('commit');
    v.checkOutcomes('commit', all);
    const lease = checkCommitOptions('commit options', options);
    const refused: string[] = [];
    const held = (list: readonly Outcome[]): readonly Outcome[] =>
      lease === undefined
        ? list
        : list.filter((o) => {
            if (this.#holds(o.url, lease)) return true;
            refused.push(o.url);
            return false;
          });
    const outcomes = held(all);
    planCommit(this.#f, outcomes);
    const zipped = new Map<Outcome, Buffer>();
    await Promise.all(
      outcomes.map(async (o) => {
        if ((o.state === 'complete' || o.state === 'discard') && o.result.body !== undefined) {
          zipped.set(o, await compressBody(o.result.body));
        }
      }),
    );
    // States may have moved while compressing: a lost claim is refused still.
    const plans = planCommit(this.#f, held(outcomes));
    const t = new Tally();
    for (const p of plans) {
      this.#leases.released(p.outcome.url);
      this.#carryOut(p, zipped.get(p.outcome), t);
    }
    this.#t.apply(t);
    return { refused };
  }

  /** Whether `url` is processing, claimed under `lease`. */
  #holds(url: string, lease: number): boolean {
    return this.#urls.get(url)?.state === 'processing' && this.#leases.holds(url, lease);
  }

  /** Records one planned outcome. */
  #carryOut(p: Planned, body: Buffer | undefined, t: Tally): void {
    const { outcome: o, claimed } = p;
    const at = o.result.fetchedAt;
    for (const { step, from } of p.hops) {
      let rec = this.#urls.get(step.url) as UrlRecord;
      if (from === null) {
        rec = this.#f.insert(step.url, claimed, 'redirect', at);
        t.added(step.url, 'redirect');
      }
      rec.state = 'redirect';
      rec.redirectTo = step.location;
      this.#r.redirect(rec, step, at);
      t.fetchedOne(step.url, 'redirect', 0, false, from);
    }
    if (p.fate === 'none') return;
    let rec = this.#urls.get(p.target) as UrlRecord;
    const state: UrlState = p.fate === 'queue' ? 'waiting' : o.state;
    if (p.from === null) {
      rec = this.#f.insert(p.target, claimed, state, at);
      t.added(p.target, state);
    }
    if (o.state === 'redirect') return;
    if (o.state === 'error') {
      const retryAt = o.result.retryAt ?? null;
      if (retryAt !== null) this.#f.retry(rec, retryAt);
      else {
        rec.state = 'error';
        rec.attempts++;
      }
      this.#r.failure(rec, o.result);
      if (retryAt !== null) t.retried(rec.url);
      else t.fetchedOne(rec.url, 'error', 0, o.result.status != null, p.from);
      return;
    }
    rec.state = o.state;
    this.#r.page(rec, o.state, o.result, body);
    if (o.state === 'complete' && o.result.fields != null) this.#fields.write(rec, o.result.fields);
    if (o.result.newUrls !== undefined) this.#f.add(o.result.newUrls, rec.url, t);
    t.fetchedOne(rec.url, o.state, o.result.bytes, true, p.from);
  }

  async reclaim(
    all: readonly string[],
    options?: { priority?: number } & LeaseOptions,
  ): Promise<number> {
    this.#open('reclaim');
    v.checkUrlList('reclaim', all);
    v.checkPriorityOption('reclaim options', options, true);
    const lease = options?.lease;
    const urls = lease === undefined ? all : all.filter((u) => this.#holds(u, lease));
    const seen = new Set<string>();
    for (const u of urls) {
      const rec = this.#urls.get(u);
      if (rec?.state !== 'processing' || seen.has(u)) {
        throw stateError('reclaim', u, seen.has(u) ? 'waiting' : rec?.state);
      }
      seen.add(u);
    }
    for (const u of urls) this.#requeue(this.#urls.get(u) as UrlRecord, options?.priority);
    return urls.length;
  }

  #requeue(rec: UrlRecord, priority: number | undefined): void {
    this.#leases.released(rec.url);
    this.#f.requeue(rec, priority);
    this.#t.move('processing', 'waiting');
  }

  async recover(options?: RecoverOptions): Promise<number> {
    this.#open('recover');
    const unheld = this.#leases.sweep(v.checkRecoverOptions('recover options', options));
    let n = 0;
    for (const rec of this.#urls.values()) {
      if (rec.state === 'processing' && unheld(rec.url)) {
        this.#requeue(rec, undefined);
        n++;
      }
    }
    const open = new Set(this.#leases.list().map((l) => l.id));
    return n + this.#rv.recover((id) => open.has(id));
  }

  async openLease(owner: LeaseOwner, expiresAt: number): Promise<Lease> {
    this.#open('openLease');
    checkLeaseOwner(owner, expiresAt);
    return this.#leases.open(owner, expiresAt);
  }

  async renewLease(id: number, expiresAt: number): Promise<boolean> {
    this.#open('renewLease');
    checkLeaseId('renewLease(id)', id);
    v.checkInt('renewLease expiresAt', expiresAt, 0);
    return this.#leases.renew(id, expiresAt);
  }

  async closeLease(id: number): Promise<number> {
    this.#open('closeLease');
    checkLeaseId('closeLease(id)', id);
    const urls = this.#leases.close(id);
    for (const u of urls) this.#requeue(this.#urls.get(u) as UrlRecord, undefined);
    return urls.length + this.#rv.closeLease(id);
  }

  async leases(): Promise<Lease[]> {
    this.#open('leases');
    return this.#leases.list();
  }

  async trimWaiting(max: number): Promise<number> {
    this.#open('trimWaiting');
    v.checkInt('trimWaiting(max)', max, 0);
    if (this.#t.counts.waiting <= max) return 0;
    const dropped = this.#f.trim(max);
    this.#t.counts.waiting -= dropped;
    this.#t.dropped += dropped;
    return dropped;
  }

  async scanWaiting(options: ScanWaitingOptions): Promise<WaitingUrl[]> {
    this.#open('scanWaiting');
    const { afterId, limit } = v.checkScanOptions('scanWaiting options', options);
    return this.#f.scanWaiting(afterId, limit);
  }

  async reprioritize(items: readonly PriorityChange[]): Promise<number> {
    this.#open('reprioritize');
    return this.#f.reprioritize(v.checkPriorityChanges('reprioritize', items).values());
  }

  async counts(): Promise<StateCounts> {
    this.#open('counts');
    return { ...this.#t.counts };
  }

  async stats(options?: { topHosts?: number }): Promise<StoreStats> {
    this.#open('stats');
    const top = v.checkTopHosts('stats options', options);
    const t = this.#t;
    return {
      counts: { ...t.counts },
      discovered: t.discovered,
      dropped: t.dropped,
      fetched: t.fetched,
      retries: t.retries,
      responses: t.responses,
      redirects: t.redirects,
      errors: this.#r.errors(),
      failed: t.counts.error,
      rejected: t.counts.discard,
      bytes: t.bytes,
      firstFetchAt: this.#r.firstFetchAt,
      lastFetchAt: this.#r.lastFetchAt,
      topHosts: t.topHosts(top),
      duplicates: { ...this.#r.duplicates },
    };
  }

  async setPageScores(items: readonly PageScores[]): Promise<void> {
    this.#open('setPageScores');
    v.checkScores('setPageScores', items);
    this.#r.setScores(items);
  }

  async *history(): AsyncGenerator<HistoryRecord> {
    this.#open('history');
    yield* this.#r.history();
  }

  async search(options: TextSearch): Promise<TextHit[]> {
    this.#open('search');
    return this.#r.search(options);
  }

  async textCoverage(): Promise<TextCoverage> {
    this.#open('textCoverage');
    return this.#r.textCoverage();
  }

  async unindexedPages(options: UnindexedPagesOptions): Promise<UnindexedPage[]> {
    this.#open('unindexedPages');
    return this.#r.unindexedPages(checkUnindexedOptions('unindexedPages options', options));
  }

  async indexTexts(items: readonly PageText[]): Promise<number> {
    this.#open('indexTexts');
    checkPageTexts('indexTexts', items);
    return this.#r.indexTexts(items);
  }

  async *pages(): AsyncGenerator<PageRecord> {
    this.#open('pages');
    yield* this.#r.pages();
  }

  urls(state?: UrlState): AsyncIterable<UrlRecord> {
    if (state !== undefined && !URL_STATES.includes(state)) {
      throw new InvalidOptionError(`urls(state): unknown state ${JSON.stringify(state)}`);
    }
    return this.#iterUrls(state);
  }

  async *#iterUrls(state: UrlState | undefined): AsyncGenerator<UrlRecord> {
    this.#open('urls');
    for (const r of [...this.#urls.values()]) {
      if (state === undefined || r.state === state) yield { ...r };
    }
  }

  async *links(): AsyncGenerator<LinkRecord> {
    this.#open('links');
    yield* this.#r.links((from) => this.#urls.get(from)?.id ?? 0);
  }

  async readBody(url: string): Promise<Buffer | null> {
    this.#open('readBody');
    v.checkUrl('readBody', url);
    return this.#r.readBody(url);
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await Promise.allSettled([...this.#pending]);
  }
}

/** A new, empty store in memory. */
export function createMemoryStore(): MemoryStore {
  return new MemoryStore();
}
