/**
 * The memory store's revisit path (`Revisits`): each kept page's revisit record,
 * the claims of revisits in flight and the visit history. The reference
 * implementation: plain scans, checked completely before anything changes.
 */
import { StoreStateError } from '../errors/index.js';
import { compressBody, decompressBody } from './bodies.js';
import type { Revisits } from './contracts.js';
import { checkCommitOptions } from './lease.js';
import type { MemoryRecords } from './memory-records.js';
import type {
  DueRevisit,
  RevisitRecord,
  RevisitSchedule,
  RevisitTotals,
  VisitChange,
  VisitOutcome,
  VisitPage,
  VisitRecord,
} from './revisit-types.js';
import type { NewUrl, PageRecord, UrlRecord, UrlState } from './types.js';
import { checkUrlList } from './validate.js';
import { checkClaimDue, checkSchedules, checkVisits } from './validate-revisits.js';

interface Row extends RevisitRecord {
  id: number;
  depth: number;
  /** The lease of the claim in flight; null: claimed without one; undefined: not claimed. */
  lease: number | null | undefined;
}

/** Earliest due first, ties in discovery order. */
const byDue = (a: Row, b: Row): number => (a.dueAt as number) - (b.dueAt as number) || a.id - b.id;

export class RevisitBook {
  readonly #rows = new Map<string, Row>();
  readonly #visits: VisitRecord[] = [];
  /** Kept version bodies (gzipped), by `url@at`. */
  readonly #versions = new Map<string, Buffer>();

  schedule(
    items: readonly RevisitSchedule[],
    urlOf: (url: string) => UrlRecord | undefined,
    pageOf: (url: string) => PageRecord | undefined,
  ): number {
    let n = 0;
    for (const it of items) {
      const rec = urlOf(it.url);
      const page = pageOf(it.url);
      if (rec?.state !== 'complete' || page === undefined) continue;
      let row = this.#rows.get(it.url);
      if (row === undefined) {
        row = {
          id: rec.id,
          depth: rec.depth,
          url: it.url,
          visits: 0,
          changes: 0,
          lastVisitAt: page.fetchedAt,
          lastChangeAt: null,
          etag: null,
          lastModified: null,
          rate: null,
          dueAt: null,
          goneAt: null,
          claimed: false,
          lease: undefined,
        };
        this.#rows.set(it.url, row);
      }
      row.dueAt = it.dueAt;
      if (it.rate !== undefined) row.rate = it.rate;
      n++;
    }
    return n;
  }

  claim(
    n: number,
    now: number,
    lease: number | undefined,
    pageOf: (url: string) => PageRecord | undefined,
  ): DueRevisit[] {
    const due = [...this.#rows.values()].filter(
      (r) => r.lease === undefined && r.dueAt !== null && r.dueAt <= now,
    );
    due.sort(byDue);
    return due.slice(0, n).map((r) => {
      r.lease = lease ?? null;
      const p = pageOf(r.url);
      return {
        id: r.id,
        url: r.url,
        depth: r.depth,
        dueAt: r.dueAt as number,
        // The first fetch's validators until a revisit records its own.
        etag: r.etag ?? p?.etag ?? null,
        lastModified: r.lastModified ?? p?.lastModified ?? null,
        contentHash: p?.contentHash ?? null,
        textHash: p?.textHash ?? null,
        visits: r.visits,
        changes: r.changes,
        lastVisitAt: r.lastVisitAt,
        rate: r.rate,
      };
    });
  }

  /** The visits whose claims `lease` holds (all claimed ones without a lease: others throw). */
  held(
    visits: readonly { url: string }[],
    lease: number | undefined,
    refused: string[],
  ): Set<string> {
    const ok = new Set<string>();
    for (const v of visits) {
      const r = this.#rows.get(v.url);
      const claimed = r !== undefined && r.lease !== undefined;
      if (lease === undefined) {
        if (!claimed)
          throw new StoreStateError(
            `cannot record a visit of ${v.url}: it is not claimed for a revisit`,
            {
              url: v.url,
            },
          );
        ok.add(v.url);
      } else if (claimed && r.lease === lease) ok.add(v.url);
      else refused.push(v.url);
    }
    return ok;
  }

  /** Records checked visits; `replace` stores a changed visit's new copy. */
  record(
    visits: readonly VisitOutcome[],
    replace: (v: VisitOutcome) => void,
    version: (url: string) => Buffer | undefined = () => undefined,
  ): void {
    for (const v of visits) {
      const r = this.#rows.get(v.url) as Row;
      r.lease = undefined;
      this.#visits.push({
        url: v.url,
        at: v.at,
        status: v.status,
        change: v.change,
        contentHash: v.contentHash ?? null,
        textHash: v.textHash ?? null,
        lastModifiedMs: v.lastModifiedMs ?? null,
        error: v.change === 'failed' ? (v.error ?? 'failed') : null,
        bodyFile: null,
      });
      const kept = version(v.url);
      if (kept !== undefined) {
        this.#versions.set(`${v.url}@${v.at}`, kept);
        (this.#visits.at(-1) as VisitRecord).bodyFile = `memory:${v.url}@${v.at}`;
      }
      if (v.rate !== undefined) r.rate = v.rate;
      r.dueAt = v.dueAt;
      if (v.change === 'failed') continue;
      r.visits++;
      r.lastVisitAt = v.at;
      if (v.etag !== undefined) r.etag = v.etag;
      if (v.lastModified !== undefined) r.lastModified = v.lastModified;
      if (v.change === 'changed') {
        r.changes++;
        r.lastChangeAt = v.at;
        if (v.page !== undefined) replace(v);
      } else if (v.change === 'gone') {
        r.goneAt = v.at;
        r.dueAt = null;
      }
    }
  }

  /** Gives back the claims of `urls` that `lease` holds (all claimed ones without a lease). */
  release(urls: readonly string[], lease: number | undefined): number {
    let n = 0;
    for (const u of urls) {
      const r = this.#rows.get(u);
      if (r === undefined || r.lease === undefined) continue;
      if (lease !== undefined && r.lease !== lease) continue;
      r.lease = undefined;
      n++;
    }
    return n;
  }

  /** Gives back the claims held by nobody: without a lease, or under one not open. */
  recover(isOpen: (lease: number) => boolean): number {
    let n = 0;
    for (const r of this.#rows.values()) {
      if (r.lease === undefined) continue;
      if (r.lease === null || !isOpen(r.lease)) {
        r.lease = undefined;
        n++;
      }
    }
    return n;
  }

  closeLease(id: number): number {
    let n = 0;
    for (const r of this.#rows.values()) {
      if (r.lease === id) {
        r.lease = undefined;
        n++;
      }
    }
    return n;
  }

  version(url: string, at: number): Buffer | undefined {
    return this.#versions.get(`${url}@${at}`);
  }

  records(): RevisitRecord[] {
    return [...this.#rows.values()]
      .sort((a, b) => a.id - b.id)
      .map(({ id: _i, depth: _d, lease, ...r }) => ({ ...r, claimed: lease !== undefined }));
  }

  visits(url?: string): VisitRecord[] {
    return this.#visits.filter((v) => url === undefined || v.url === url).map((v) => ({ ...v }));
  }

  totals(now: number): RevisitTotals {
    const visits: Record<VisitChange, number> = { unchanged: 0, changed: 0, gone: 0, failed: 0 };
    for (const v of this.#visits) visits[v.change]++;
    let scheduled = 0;
    let due = 0;
    let gone = 0;
    let nextDueAt: number | null = null;
    for (const r of this.#rows.values()) {
      if (r.goneAt !== null) gone++;
      if (r.dueAt === null) continue;
      scheduled++;
      if (r.dueAt <= now) due++;
      if (nextDueAt === null || r.dueAt < nextDueAt) nextDueAt = r.dueAt;
    }
    return { tracked: this.#rows.size, scheduled, due, nextDueAt, visits, gone };
  }
}

/** What the memory store's revisit methods need of it. */
export interface MemoryRevisitContext {
  book: RevisitBook;
  /** Throws when the store is closed. */
  open(op: string): void;
  urlOf(url: string): UrlRecord | undefined;
  records: MemoryRecords;
  /** Throws `LeaseLostError` when lease `id` is not open. */
  checkLease(op: string, id: number): void;
  /**
   * Throws unless every explicit parent of `items` is known or queued earlier by the
   * same call (`pending`, which gets the unknown items).
   */
  checkParents(where: string, items: readonly NewUrl[], pending: Map<string, UrlState>): void;
  /** Queues `items` as `addUrls` does, parent `parent` by default; returns how many were new. */
  addUrls(items: readonly NewUrl[], parent: string): number;
}

/** The memory store's `Revisits` methods. */
export function memoryRevisitMethods(c: MemoryRevisitContext): Revisits {
  const { book, records } = c;
  const pageOf = (u: string) => records.pageOf(u);
  return {
    async scheduleRevisits(items) {
      c.open('scheduleRevisits');
      checkSchedules('scheduleRevisits', items);
      return book.schedule(items, c.urlOf, pageOf);
    },
    async claimDue(n, options) {
      c.open('claimDue');
      const { now, lease } = checkClaimDue(n, options);
      if (lease !== undefined) c.checkLease('claimDue', lease);
      return book.claim(n, now, lease, pageOf);
    },
    async recordVisits(all, options) {
      c.open('recordVisits');
      checkVisits('recordVisits', all);
      const lease = checkCommitOptions('recordVisits options', options);
      const refused: string[] = [];
      const held = book.held(all, lease, refused);
      const visits = all.filter((x) => held.has(x.url));
      const zipped = new Map<string, Buffer>();
      for (const x of visits)
        if (x.page?.body !== undefined) zipped.set(x.url, await compressBody(x.page.body));
      // Claims may have moved while compressing: a lost one is refused still.
      const still = book.held(visits, lease, refused);
      const recorded = visits.filter((x) => still.has(x.url));
      const pending = new Map<string, UrlState>();
      for (const x of recorded)
        if (x.newUrls !== undefined)
          c.checkParents(`recordVisits[${all.indexOf(x)}].newUrls`, x.newUrls, pending);
      book.record(
        recorded,
        (x) =>
          records.replacePage(x.url, x as VisitOutcome & { page: VisitPage }, zipped.get(x.url)),
        (u) => (visits.find((x) => x.url === u)?.page?.keepVersion ? zipped.get(u) : undefined),
      );
      let added = 0;
      for (const x of recorded) if (x.newUrls !== undefined) added += c.addUrls(x.newUrls, x.url);
      return { refused, added };
    },
    async releaseDue(urls, options) {
      c.open('releaseDue');
      checkUrlList('releaseDue', urls);
      return book.release(urls, checkCommitOptions('releaseDue options', options));
    },
    async *revisits() {
      c.open('revisits');
      yield* book.records();
    },
    async *visits(url) {
      c.open('visits');
      yield* book.visits(url);
    },
    async readVersion(url, at) {
      c.open('readVersion');
      const data = book.version(url, at);
      return data === undefined ? null : decompressBody(data, `memory version of ${url}`);
    },
    async revisitTotals(now = Date.now()) {
      c.open('revisitTotals');
      return book.totals(now);
    },
  };
}
