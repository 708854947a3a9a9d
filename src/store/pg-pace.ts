/**
 * Paces shared by the processes of a PostgreSQL store, each one statement on the
 * database's clock (so that the machines' clocks need not agree):
 * - request budgets (`budget`): a token bucket per name, holding at most one token,
 *   refilled at one token per interval; a take always succeeds and says how long to
 *   wait, tokens below zero being starts other processes reserved before;
 * - each run's pages so far, reported at its lease's renewals (`leases`), from which
 *   `status` shows its pages per second.
 */
import { StoreError } from '../errors/index.js';
import type { PgDb } from './pg-db.js';

const NOW_MS = 'extract(epoch FROM clock_timestamp()) * 1000';

/**
 * Takes `count` requests from the budget `name`, which refills one request per
 * `intervalMs`; resolves to the ms to wait before the first may start (0: now).
 */
export async function takeBudget(
  db: PgDb,
  name: string,
  count: number,
  intervalMs: number,
): Promise<number> {
  if (!(count > 0) || !(intervalMs > 0)) {
    throw new StoreError(
      `takeBudget: count and intervalMs must be above 0, got ${count}, ${intervalMs}`,
    );
  }
  const [r] = await db.query<{ tokens: number }>(
    'takeBudget',
    `INSERT INTO budget AS b (name, tokens, refilled_at) VALUES ($1, 1 - $2::float8, ${NOW_MS})
     ON CONFLICT (name) DO UPDATE SET
       tokens = least(1, b.tokens + greatest(0, excluded.refilled_at - b.refilled_at) / $3::float8)
         - $2::float8,
       refilled_at = greatest(b.refilled_at, excluded.refilled_at)
     RETURNING tokens`,
    [name, count, intervalMs],
  );
  const tokens = r?.tokens ?? 0;
  return tokens >= 0 ? 0 : Math.ceil(-tokens * intervalMs);
}

/** Records that the run of lease `id` has fetched `pages` so far; false when the lease is gone. */
export async function reportPages(db: PgDb, id: number, pages: number): Promise<boolean> {
  const rows = await db.query(
    'reportPages',
    `UPDATE leases SET prev_pages = pages, prev_at = pages_at, pages = $2,
       pages_at = (${NOW_MS})::bigint
     WHERE id = $1 RETURNING id`,
    [id, pages],
  );
  return rows.length > 0;
}

/** A run's pages so far and its pace over its last renewal interval. */
export interface RunPace {
  pages: number;
  /** Pages per second between its last two reports; null before its second. */
  pagesPerSecond: number | null;
}

/** The pace of every open lease's run, by lease id. */
export async function runPaces(db: PgDb): Promise<Map<number, RunPace>> {
  const rows = await db.query<{ id: number; pages: number; per_s: number | null }>(
    'runPaces',
    `SELECT id, pages, CASE WHEN prev_at IS NOT NULL AND pages_at > prev_at
       THEN ((pages - prev_pages) * 1000.0 / (pages_at - prev_at))::float8 END AS per_s
     FROM leases ORDER BY id`,
  );
  return new Map(rows.map((r) => [r.id, { pages: r.pages, pagesPerSecond: r.per_s }]));
}
