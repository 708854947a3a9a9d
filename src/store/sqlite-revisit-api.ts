/**
 * The SQLite store's `Revisits` methods: input checked, bodies of changed pages
 * written before the transaction that records the visits (placed by name, as a
 * page's body is), claims checked, and the visits' new URLs queued, in that
 * transaction.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { BodyFiles } from './bodies.js';
import type { Revisits } from './contracts.js';
import { checkCommitOptions, leaseLostError } from './lease.js';
import type { VisitOutcome } from './revisit-types.js';
import type { SqliteRevisits } from './sqlite-revisits.js';
import type { FoundUrl } from './sqlite-statements.js';
import { insertUrls, type UrlIndex } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import { checkUrlList } from './validate.js';
import { checkClaimDue, checkSchedules, checkVisits } from './validate-revisits.js';

/** Rows read per statement while iterating. */
const PAGE_ROWS = 500;

/** The key a kept version's body is filed under: its URL and the visit's time. */
export const versionKey = (url: string, at: number): string => `${url}#version-${at}`;

export interface RevisitContext {
  rv: SqliteRevisits;
  bodies: BodyFiles;
  sync<T>(op: string, fn: () => T): T;
  /** Looks a URL up (outside a transaction: a plain read). */
  find(url: string): FoundUrl | undefined;
  /** A write transaction, with the URL index and the tally of the URLs it adds. */
  tx<T>(op: string, fn: (ix: UrlIndex, t: Tally) => T): T;
  /** Whether lease `id` is open (a claim under a closed one throws). */
  leaseOpen(id: number): boolean;
}

/**
 * Throws unless every explicit parent of the visits' new URLs is known or queued by
 * an earlier one; `where` names a visit's list.
 */
function checkParents(
  visits: readonly VisitOutcome[],
  where: (v: VisitOutcome) => string,
  find: (url: string) => FoundUrl | undefined,
): void {
  const queued = new Set<string>();
  for (const v of visits) {
    v.newUrls?.forEach((n, j) => {
      if (n.parent !== undefined && !queued.has(n.parent) && find(n.parent) === undefined)
        throw new InvalidOptionError(`${where(v)}[${j}].parent: ${n.parent} is not a known URL`);
      queued.add(n.url);
    });
  }
}

export function revisitMethods(c: RevisitContext): Revisits {
  return {
    async scheduleRevisits(items) {
      checkSchedules('scheduleRevisits', items);
      return c.tx('scheduleRevisits', (ix) => c.rv.schedule(items, (u) => ix.find(u)?.id));
    },
    async claimDue(n, options) {
      const { now, lease } = checkClaimDue(n, options);
      return c.tx('claimDue', () => {
        if (lease !== undefined && !c.leaseOpen(lease)) throw leaseLostError('claimDue', lease);
        return c.rv.claim(n, now, lease);
      });
    },
    async recordVisits(all, options) {
      checkVisits('recordVisits', all);
      const lease = checkCommitOptions('recordVisits options', options);
      const refused: string[] = [];
      const where = (v: VisitOutcome) => `recordVisits[${all.indexOf(v)}].newUrls`;
      // Refuse a bad parent before writing any body; the transaction checks again.
      const visits = c.sync('recordVisits', () => {
        const held = c.rv.held(all, lease, refused);
        checkParents(held, where, c.find);
        return held;
      });
      const files = new Map<string, string>();
      const versions = new Map<string, string>();
      for (const v of visits) {
        const body = v.page?.body;
        if (body === undefined) continue;
        files.set(v.url, (await c.bodies.write(v.url, body)).name);
        if (v.page?.keepVersion)
          versions.set(v.url, (await c.bodies.write(versionKey(v.url, v.at), body)).name);
      }
      // Another handle may have taken a claim back meanwhile: refused too.
      const added = c.tx('recordVisits', (ix, t) =>
        c.rv.record(
          c.rv.held(visits, lease, refused),
          (u) => files.get(u),
          (u) => versions.get(u),
          (v, id) => insertUrls(ix, t, where(v), v.newUrls ?? [], id),
        ),
      );
      return { refused, added };
    },
    async releaseDue(urls, options) {
      checkUrlList('releaseDue', urls);
      const lease = checkCommitOptions('releaseDue options', options);
      return c.tx('releaseDue', () => c.rv.release(c.rv.claimedIds(urls, lease)));
    },
    async *revisits() {
      for (let after = 0; ; ) {
        const rows = c.sync('revisits', () => c.rv.records(after, PAGE_ROWS));
        for (const { id: _id, ...r } of rows) yield r;
        if (rows.length < PAGE_ROWS) return;
        after = (rows.at(-1) as { id: number }).id;
      }
    },
    async *visits(url) {
      for (let after = 0; ; ) {
        const rows = c.sync('visits', () => c.rv.visits(after, url, PAGE_ROWS));
        for (const { id: _id, ...r } of rows) yield r;
        if (rows.length < PAGE_ROWS) return;
        after = (rows.at(-1) as { id: number }).id;
      }
    },
    async readVersion(url, at) {
      const name = c.sync('readVersion', () => c.rv.versionFile(url, at));
      return name === undefined ? null : c.bodies.read(url, name);
    },
    async revisitTotals(now = Date.now()) {
      return c.sync('revisitTotals', () => c.rv.totals(now));
    },
  };
}
