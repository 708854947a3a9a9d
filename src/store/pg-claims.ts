/**
 * The PostgreSQL store's claims (contracts.ts, `Claims` but the outcomes, which are
 * pg-commit.ts'): claiming waiting URLs, putting claims back, failed attempts due
 * again, URLs in error requeued; and the leases (pg-leases.ts). Claims select with
 * `FOR UPDATE SKIP LOCKED`: concurrent claimers, in any number of processes, neither
 * wait on each other nor hand out one URL twice.
 */
import { hostOf } from '../url/index.js';
import type { Claims, Leases } from './contracts.js';
import { checkErrorFilter, errorMatches } from './error-filter.js';
import type { PgDb, Sql } from './pg-db.js';
import { findUrls } from './pg-find.js';
import { leaseMethods, lockLease } from './pg-leases.js';
import { STATE_CODE } from './schema.js';
import { stateError } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import type { ClaimedUrl } from './types.js';
import * as v from './validate.js';

type Queue = { index: number; of: number } | undefined;
type Hosts = { perHost: number; skip: ReadonlySet<string>; scan: number } | undefined;

/** The waiting URLs in reach of a claim, best first: walks urls_waiting. */
function waitingWhere(queue: Queue, first: number): { sql: string; params: unknown[] } {
  if (queue === undefined || queue.of === 1)
    return { sql: 'state = 0 AND retry_at IS NULL', params: [] };
  return {
    sql: `state = 0 AND retry_at IS NULL AND id % $${first} = $${first + 1}`,
    params: [queue.of, queue.index],
  };
}

/**
 * Moves the URLs chosen by `pick` (a query of ids, `FOR UPDATE SKIP LOCKED`) to
 * processing under `lease` and returns them.
 */
async function take(q: Sql, pick: string, params: unknown[], lease: number | null) {
  return q<ClaimedUrl & Record<string, unknown>>(
    `WITH c AS (${pick})
     UPDATE urls u SET state = 1, lease_id = $1 FROM c WHERE u.id = c.id
     RETURNING u.id, u.url, u.depth, u.priority, u.value,
       (SELECT p.url FROM urls p WHERE p.id = u.parent_id) AS parent, u.context, u.attempts`,
    [lease, ...params],
  );
}

/** The first chunk of a host-aware walk: most claims need no more. */
const WALK_FIRST = 64;

/**
 * The host-aware claim: walks the best `hosts.scan` URLs in reach (without locking
 * them), takes at most `perHost` per host and none of a skipped host, and claims
 * those it takes; one taken meanwhile by another claimer is passed over for the next
 * of the walk, as if it had not been there. The walk reads in chunks that double
 * (from max(64, 2n)), each after the last row of the one before, so that a claim
 * among many hosts reads tens of rows, not the whole scan.
 */
async function claimByHost(
  q: Sql,
  n: number,
  queue: Queue,
  hosts: NonNullable<Hosts>,
  lease: number | null,
): Promise<ClaimedUrl[]> {
  const w1 = waitingWhere(queue, 2);
  const wn = waitingWhere(queue, 4);
  const taken = new Map<string, number>();
  const out: ClaimedUrl[] = [];
  let walked = 0;
  let chunk = Math.max(WALK_FIRST, 2 * n);
  let after: { priority: number; id: number } | undefined;
  while (out.length < n && walked < hosts.scan) {
    const limit = Math.min(chunk, hosts.scan - walked);
    chunk *= 2;
    // After the last row read, in the index's order (priority DESC, id).
    const walk = await q<{ id: number; url: string; priority: number }>(
      after === undefined
        ? `SELECT id, url, priority FROM urls WHERE ${w1.sql}
           ORDER BY priority DESC, id LIMIT $1`
        : `SELECT id, url, priority FROM urls WHERE ${wn.sql}
             AND priority <= $2 AND (priority < $2 OR id > $3)
           ORDER BY priority DESC, id LIMIT $1`,
      after === undefined ? [limit, ...w1.params] : [limit, after.priority, after.id, ...wn.params],
    );
    walked += walk.length;
    const last = walk.at(-1);
    if (last !== undefined) after = { priority: last.priority, id: last.id };
    let i = 0;
    while (out.length < n && i < walk.length) {
      const picks: number[] = [];
      const pending = new Map<number, string>();
      for (; i < walk.length && out.length + picks.length < n; i++) {
        const r = walk[i] as { id: number; url: string };
        const host = hostOf(r.url) ?? '';
        if (hosts.skip.has(host) || (taken.get(host) ?? 0) >= hosts.perHost) continue;
        taken.set(host, (taken.get(host) ?? 0) + 1);
        picks.push(r.id);
        pending.set(r.id, host);
      }
      if (picks.length === 0) break;
      const got = await take(
        q,
        `SELECT id FROM urls WHERE id = ANY($2::bigint[]) AND state = 0 AND retry_at IS NULL
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [picks],
        lease,
      );
      for (const r of got) pending.delete(r.id);
      // The ones another claimer took first: their hosts may take the next ones.
      for (const host of pending.values()) taken.set(host, (taken.get(host) ?? 1) - 1);
      out.push(...got);
    }
    if (walk.length < limit) break;
  }
  return out;
}

/**
 * Moves up to `n` waiting URLs to processing under `lease` (null: none) and returns
 * them, best first. URLs put back by a failed attempt come in reach once their retry
 * time is `now`: their retry time is cleared, which puts them back in urls_waiting.
 */
async function claimRows(
  q: Sql,
  t: Tally,
  n: number,
  queue: Queue,
  hosts: Hosts,
  lease: number | null,
  now: number,
): Promise<ClaimedUrl[]> {
  // Rows another claimer is releasing are skipped: that one releases them.
  await q(
    `UPDATE urls SET retry_at = NULL WHERE id IN (
       SELECT id FROM urls WHERE state = 0 AND retry_at <= $1 ORDER BY id FOR UPDATE SKIP LOCKED)`,
    [now],
  );
  let rows: ClaimedUrl[];
  if (hosts === undefined) {
    const w = waitingWhere(queue, 3);
    rows = await take(
      q,
      `SELECT id FROM urls WHERE ${w.sql} ORDER BY priority DESC, id LIMIT $2
       FOR UPDATE SKIP LOCKED`,
      [n, ...w.params],
      lease,
    );
  } else {
    rows = await claimByHost(q, n, queue, hosts, lease);
  }
  t.move('waiting', 'processing', rows.length);
  // RETURNING keeps no order.
  return rows.sort((a, b) => b.priority - a.priority || a.id - b.id);
}

interface ErrorRow {
  id: number;
  status: number | null;
  error: string | null;
}

export function claimMethods(
  db: PgDb,
): Pick<
  Claims & Leases,
  'claim' | 'reclaim' | 'recover' | 'nextRetryAt' | 'requeueErrors' | keyof Leases
> {
  return {
    async claim(n, options) {
      v.checkInt('claim(n)', n, 1);
      const queue = v.checkClaimOptions('claim options', options);
      const hosts = v.checkHostClaim('claim options', options, n);
      const lease = options?.lease ?? null;
      const now = options?.now ?? Date.now();
      return db.tx('claim', async (q, t) => {
        if (lease !== null) await lockLease(q, 'claim', lease);
        return claimRows(q, t, n, queue, hosts, lease, now);
      });
    },

    async reclaim(urls, options) {
      v.checkUrlList('reclaim', urls);
      v.checkPriorityOption('reclaim options', options, true);
      const priority = options?.priority ?? null;
      const lease = options?.lease;
      return db.tx('reclaim', async (q, t) => {
        const rows = await findUrls(q, urls, true);
        // Applied in order, as one call per URL would: a URL given twice is no longer
        // processing the second time.
        const ids: number[] = [];
        const requeued = new Set<number>();
        for (const url of urls) {
          const row = rows.get(url);
          const state = row === undefined || requeued.has(row.id) ? STATE_CODE.waiting : row.state;
          if (
            lease !== undefined &&
            (row === undefined || state !== STATE_CODE.processing || row.lease_id !== lease)
          ) {
            continue;
          }
          if (row === undefined || state !== STATE_CODE.processing) {
            throw stateError('reclaim', url, row === undefined ? undefined : state);
          }
          requeued.add(row.id);
          ids.push(row.id);
        }
        if (ids.length > 0) {
          await q(
            `UPDATE urls SET state = 0, lease_id = NULL, priority = coalesce($2, priority)
             WHERE id = ANY($1::bigint[])`,
            [ids, priority],
          );
        }
        t.move('processing', 'waiting', ids.length);
        return ids.length;
      });
    },

    async nextRetryAt() {
      // The first entry of urls_retry.
      const [r] = await db.query<{ at: number | null }>(
        'nextRetryAt',
        'SELECT min(retry_at) AS at FROM urls WHERE state = 0 AND retry_at IS NOT NULL',
      );
      return r?.at ?? null;
    },

    async requeueErrors(filter) {
      const f = checkErrorFilter('requeueErrors filter', filter);
      return db.tx('requeueErrors', async (q, t) => {
        // Each URL in error with its last history row (its error), locked in id order.
        const rows = await q<ErrorRow & Record<string, unknown>>(
          `SELECT u.id, h.status, h.error FROM urls u
           JOIN LATERAL (SELECT status, error FROM history WHERE url_id = u.id
             ORDER BY id DESC LIMIT 1) h ON true
           WHERE u.state = ${STATE_CODE.error} ORDER BY u.id FOR UPDATE OF u`,
        );
        const ids = rows.filter((r) => errorMatches(f, r.error, r.status)).map((r) => r.id);
        if (ids.length > 0) {
          await q(
            `UPDATE urls SET state = 0, attempts = 0, retry_at = NULL, lease_id = NULL
             WHERE id = ANY($1::bigint[])`,
            [ids],
          );
        }
        t.move('error', 'waiting', ids.length);
        return ids.length;
      });
    },

    ...leaseMethods(db),
  };
}
