/**
 * Leases in the PostgreSQL store (contracts.ts, `Leases`, and `Claims.recover`): who
 * holds each claim. A claim under a lease holds the lease's row (FOR KEY SHARE)
 * until it commits, so that closing or recovering the lease, which deletes the row
 * first, waits for the claim and then sees its URLs; a claim that comes after the
 * delete finds the lease gone.
 */
import type { Leases } from './contracts.js';
import { checkLeaseId, checkLeaseOwner, leaseLost, leaseLostError } from './lease.js';
import type { PgDb, Sql } from './pg-db.js';
import type { Tally } from './tally.js';
import type { Lease, RecoverOptions } from './types.js';
import * as v from './validate.js';

const LEASE = 'id, host, pid, started_at AS "startedAt", expires_at AS "expiresAt"';

/** Holds lease `id` open until the transaction ends; `LeaseLostError` when it is not open. */
export async function lockLease(q: Sql, op: string, id: number): Promise<void> {
  const rows = await q('SELECT 1 FROM leases WHERE id = $1 FOR KEY SHARE', [id]);
  if (rows.length === 0) throw leaseLostError(op, id);
}

/** Puts the claims (URLs and revisits) held by nobody back; returns how many. */
async function releaseUnheld(q: Sql, t: Tally): Promise<number> {
  const urls = await q(
    `UPDATE urls u SET state = 0, lease_id = NULL
     WHERE state = 1 AND (lease_id IS NULL
       OR NOT EXISTS (SELECT 1 FROM leases l WHERE l.id = u.lease_id))
     RETURNING id`,
  );
  t.move('processing', 'waiting', urls.length);
  const revisits = await q(
    `UPDATE revisits r SET claimed = 0, lease_id = NULL
     WHERE claimed = 1 AND (lease_id IS NULL
       OR NOT EXISTS (SELECT 1 FROM leases l WHERE l.id = r.lease_id))
     RETURNING url_id`,
  );
  return urls.length + revisits.length;
}

export function leaseMethods(db: PgDb): Pick<Leases, keyof Leases> & {
  recover(options?: RecoverOptions): Promise<number>;
} {
  return {
    async recover(options) {
      const now = v.checkRecoverOptions('recover options', options);
      return db.tx('recover', async (q, t) => {
        const all = await q<Lease & Record<string, unknown>>(
          `SELECT ${LEASE} FROM leases ORDER BY id`,
        );
        const lost = all.filter((l) => leaseLost(l, now));
        if (lost.length > 0) {
          // A lease lost by expiry alone and renewed since it was read is live again.
          const gone = lost.filter((l) => l.expiresAt >= now).map((l) => l.id);
          await q(
            `DELETE FROM leases WHERE id = ANY($1::bigint[])
             AND (expires_at < $2 OR id = ANY($3::bigint[]))`,
            [lost.map((l) => l.id), now, gone],
          );
        }
        return releaseUnheld(q, t);
      });
    },

    async openLease(owner, expiresAt) {
      checkLeaseOwner(owner, expiresAt);
      const [r] = await db.query<{ id: number }>(
        'openLease',
        'INSERT INTO leases (host, pid, started_at, expires_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [owner.host, owner.pid, owner.startedAt, expiresAt],
      );
      const id = (r as { id: number }).id;
      return { id, host: owner.host, pid: owner.pid, startedAt: owner.startedAt, expiresAt };
    },

    async renewLease(id, expiresAt) {
      checkLeaseId('renewLease(id)', id);
      v.checkInt('renewLease expiresAt', expiresAt, 0);
      const rows = await db.query(
        'renewLease',
        'UPDATE leases SET expires_at = $2 WHERE id = $1 RETURNING id',
        [id, expiresAt],
      );
      return rows.length > 0;
    },

    async closeLease(id) {
      checkLeaseId('closeLease(id)', id);
      return db.tx('closeLease', async (q, t) => {
        await q('DELETE FROM leases WHERE id = $1', [id]);
        const urls = await q(
          'UPDATE urls SET state = 0, lease_id = NULL WHERE state = 1 AND lease_id = $1 RETURNING id',
          [id],
        );
        t.move('processing', 'waiting', urls.length);
        const revisits = await q(
          `UPDATE revisits SET claimed = 0, lease_id = NULL WHERE claimed = 1 AND lease_id = $1
           RETURNING url_id`,
          [id],
        );
        return urls.length + revisits.length;
      });
    },

    async leases() {
      return db.query<Lease & Record<string, unknown>>(
        'leases',
        `SELECT ${LEASE} FROM leases ORDER BY id`,
      );
    },
  };
}
