/**
 * The SQLite store's `Leases` and the lease side of `Claims` (`reclaim`, `recover`),
 * set on the store in its constructor (sqlite.ts): leases are rows of sqlite-leases.ts;
 * what a lease gives back returns to waiting in the same transaction, and the cache
 * of known URLs forgets what it held as processing.
 */
import type { BodyFiles } from './bodies.js';
import type { Claims, Leases } from './contracts.js';
import { checkLeaseId, checkLeaseOwner } from './lease.js';
import { STATE_CODE } from './schema.js';
import type { SqliteLeases } from './sqlite-leases.js';
import type { SqliteRevisits } from './sqlite-revisits.js';
import { stateError, type UrlIndex } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import * as v from './validate.js';

export interface LeaseContext {
  leases: SqliteLeases;
  rv: SqliteRevisits;
  bodies: BodyFiles;
  sync: <T>(op: string, fn: () => T) => T;
  tx: <T>(op: string, fn: (ix: UrlIndex, t: Tally) => T) => T;
}

export type LeaseMethods = Leases & Pick<Claims, 'reclaim' | 'recover'>;

export function leaseMethods(c: LeaseContext): LeaseMethods {
  /** Claims moved back to waiting by `release` (in a transaction); returns how many. */
  const release = (op: string, fn: () => number): number =>
    c.tx(op, (ix, t) => {
      const moved = fn();
      // The cache of known URLs holds them as processing.
      if (moved > 0) ix.cache.clear();
      t.move('processing', 'waiting', moved);
      return moved;
    });
  const leases = async () => c.sync('leases', () => c.leases.list());
  return {
    async reclaim(urls, options) {
      v.checkUrlList('reclaim', urls);
      v.checkPriorityOption('reclaim options', options, true);
      const priority = options?.priority;
      const lease = options?.lease;
      return c.tx('reclaim', (ix, t) => {
        let n = 0;
        for (const url of urls) {
          const row = ix.find(url);
          if (lease !== undefined && (row === undefined || !c.leases.holds(row.id, lease)))
            continue;
          if (row?.state !== STATE_CODE.processing) throw stateError('reclaim', url, row?.state);
          ix.w.requeue.run(priority ?? null, row.id);
          ix.cache.setState(url, STATE_CODE.waiting, priority ?? row.priority);
          n++;
        }
        t.move('processing', 'waiting', n);
        return n;
      });
    },

    async recover(options) {
      const now = v.checkRecoverOptions('recover options', options);
      const n =
        release('recover', () => c.leases.recover(now)) + c.tx('recover', () => c.rv.recover());
      // Staged bodies of commits cut short; a live lease's commit may be staging one.
      if ((await leases()).length === 0) await c.bodies.clearTmp();
      return n;
    },

    async openLease(owner, expiresAt) {
      checkLeaseOwner(owner, expiresAt);
      return c.tx('openLease', () => c.leases.open(owner, expiresAt));
    },

    async renewLease(id, expiresAt) {
      checkLeaseId('renewLease(id)', id);
      v.checkInt('renewLease expiresAt', expiresAt, 0);
      return c.tx('renewLease', () => c.leases.renew(id, expiresAt));
    },

    async closeLease(id) {
      checkLeaseId('closeLease(id)', id);
      return (
        release('closeLease', () => c.leases.close(id)) +
        c.tx('closeLease', () => c.rv.closeLease(id))
      );
    },

    leases,
  };
}
