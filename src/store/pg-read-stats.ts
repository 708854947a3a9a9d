/**
 * `stats()` of the PostgreSQL store, read in one snapshot: the counters and the
 * hosts' figures added up over their slots (pg-schema.ts), the error rows of the
 * history by code (through the partial index `history_errors`), and the first and
 * last fetch times (through `history_time`).
 */
import type { Sql } from './pg-db.js';
import { errorCounts } from './tally.js';
import type { HostStats, StateCounts, StoreStats } from './types.js';

/** The store's statistics with the `top` busiest hosts (fetches, then discoveries, then name). */
export async function statsOf(q: Sql, top: number): Promise<StoreStats> {
  const counters = await q<{ name: string; n: number }>(
    'SELECT name, sum(n)::bigint AS n FROM counters GROUP BY name',
  );
  const c = new Map(counters.map((r) => [r.name, r.n]));
  const n = (name: string) => c.get(name) ?? 0;
  const [range] = await q<{ first: number | null; last: number | null }>(
    'SELECT min(fetched_at) AS first, max(fetched_at) AS last FROM history',
  );
  const errors = await q<{ error: string; n: number }>(
    'SELECT error, count(*) AS n FROM history WHERE state = 4 AND error IS NOT NULL GROUP BY error',
  );
  const topHosts =
    top === 0
      ? []
      : await q<HostStats & Record<string, unknown>>(
          `SELECT host, sum(discovered)::bigint AS discovered,
             sum(complete + discard + error)::bigint AS fetched, sum(complete)::bigint AS complete,
             sum(discard)::bigint AS discard, sum(error)::bigint AS error,
             sum(redirect)::bigint AS redirect, sum(bytes)::bigint AS bytes
           FROM hosts GROUP BY host
           ORDER BY fetched DESC, discovered DESC, host COLLATE "C" LIMIT $1`,
          [top],
        );
  const counts: StateCounts = {
    waiting: n('waiting'),
    processing: n('processing'),
    complete: n('complete'),
    discard: n('discard'),
    error: n('error'),
    redirect: n('redirect'),
  };
  return {
    counts,
    discovered: n('discovered'),
    dropped: n('dropped'),
    fetched: n('fetched'),
    retries: n('retries'),
    responses: n('responses'),
    redirects: n('redirects'),
    errors: errorCounts(errors.map((r) => [r.error, r.n] as const)),
    failed: counts.error,
    rejected: counts.discard,
    bytes: n('bytes'),
    firstFetchAt: range?.first ?? null,
    lastFetchAt: range?.last ?? null,
    topHosts: topHosts.map((h) => ({
      host: h.host,
      discovered: h.discovered,
      fetched: h.fetched,
      complete: h.complete,
      discard: h.discard,
      error: h.error,
      redirect: h.redirect,
      bytes: h.bytes,
    })),
    duplicates: { exact: n('dup_exact'), near: n('dup_near') },
  };
}
