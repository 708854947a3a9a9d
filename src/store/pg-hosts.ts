/**
 * Politeness across the workers of one PostgreSQL store, as host leases: one row per
 * host in `host_slots` holds when the host's next request may start and how many
 * requests to it are under way, on the database's clock (the machines' clocks need
 * not agree). A worker takes the host when its time has come and fewer than the
 * limit are under way (one statement: the row's lock orders the takers; the others
 * are told how long to wait), and gives it back when its request is over, which puts
 * the next start a delay after that moment: as a single crawler does, the delay runs
 * from the end of one request to the start of the next, whichever workers send them.
 * A worker that dies holding the host holds it no longer than `holdMs`.
 */
import type { PgDb } from './pg-db.js';

const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/** How a store's workers share a host: its limit of requests at once, and the longest a request holds it. */
export interface HostLeaseLimits {
  /** Requests to one host under way at once, all workers together. */
  perHost: number;
  /** The longest one request holds the host (its timeouts); past it a holder counts as gone. */
  holdMs: number;
}

/**
 * Takes `host` for one request when its next start has come and fewer than
 * `limits.perHost` are under way: resolves to 0, else to the ms to wait before asking again.
 */
export async function acquireHost(
  db: PgDb,
  host: string,
  delayMs: number,
  limits: HostLeaseLimits,
): Promise<number> {
  const delay = Math.max(0, Math.round(delayMs));
  const hold = Math.max(1, Math.round(limits.holdMs));
  const taken = await db.quick<{ n: number }>(
    'acquireHost',
    `INSERT INTO host_slots AS s (host, next_at, active, active_until)
       VALUES ($1, ${NOW_MS} + $2, 1, ${NOW_MS} + $4)
     ON CONFLICT (host) DO UPDATE SET
       next_at = ${NOW_MS} + $2,
       active = CASE WHEN s.active_until <= ${NOW_MS} THEN 1 ELSE s.active + 1 END,
       active_until = ${NOW_MS} + $4
     WHERE s.next_at <= ${NOW_MS} AND (s.active < $3 OR s.active_until <= ${NOW_MS})
     RETURNING 1 AS n`,
    [host, delay, limits.perHost, hold],
  );
  if (taken.length > 0) return 0;
  // Held by requests under way: their end is not known, so ask again soon.
  const poll = Math.min(250, Math.max(10, Math.round(delay / 4)));
  const rows = await db.quick<{ wait_ms: number }>(
    'acquireHost',
    `SELECT greatest(1, next_at - ${NOW_MS},
       CASE WHEN active >= $2 AND active_until > ${NOW_MS} THEN $3 ELSE 0 END) AS wait_ms
     FROM host_slots WHERE host = $1`,
    [host, limits.perHost, poll],
  );
  return rows[0]?.wait_ms ?? 1;
}

/** A request taken with `acquireHost` is over: one fewer under way, the next start `delayMs` from now at the earliest. */
export async function releaseHost(db: PgDb, host: string, delayMs: number): Promise<void> {
  await db.quick(
    'releaseHost',
    `UPDATE host_slots SET active = greatest(active - 1, 0),
       next_at = greatest(next_at, ${NOW_MS} + $2)
     WHERE host = $1`,
    [host, Math.max(0, Math.round(delayMs))],
  );
}

/** What `status` shows of the database behind a store. */
export interface PgHealth {
  /** The server's version, e.g. "15.8". */
  server: string;
  /** Bytes of the store's schema: tables with their indexes and TOAST. */
  schemaBytes: number;
  /** Connections to the database open now, every client's. */
  connections: number;
  /** Rows deleted or updated but not yet vacuumed in the store's tables (autovacuum's work). */
  deadRows: number;
}

export async function pgHealth(db: PgDb): Promise<PgHealth> {
  const rows = await db.query<{
    server: string;
    schema_bytes: number;
    connections: number;
    dead_rows: number;
  }>(
    'health',
    `SELECT current_setting('server_version') AS server,
       (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
         WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r') AS schema_bytes,
       (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS connections,
       (SELECT coalesce(sum(n_dead_tup), 0)::bigint FROM pg_stat_user_tables WHERE schemaname = $2) AS dead_rows`,
    [`"${db.schema}"`, db.schema],
  );
  const r = rows[0] as (typeof rows)[number];
  return {
    server: r.server,
    schemaBytes: r.schema_bytes,
    connections: r.connections,
    deadRows: r.dead_rows,
  };
}
