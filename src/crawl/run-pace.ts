/**
 * Each run's pace, for `status`: at every renewal of its lease (lease.ts) a run
 * records the pages it has fetched so far; `status` shows its pages per second over
 * the last renewal interval.
 *
 * On a PostgreSQL store the figures are columns of the run's row in `leases`
 * (PgStore.reportPages), stamped on the database's clock: they go when the lease
 * goes, a run killed with SIGKILL included, with nothing to clean, and the
 * machines' clocks need not agree. A store directory has one run at a time (its run
 * lock): its figures are one meta key naming the lease they belong to, replaced by
 * the next run and shown only while that lease is open.
 */
import { PgStore, type Store } from '../store/index.js';

/** The meta key of the pace of a store directory's run. */
export const META_PACE = 'run.pace';

interface StoredPace {
  lease: number;
  pages: number;
  at: number;
  prevPages: number;
  prevAt: number;
}

/** A run's pages so far and its pages per second over its last renewal interval. */
export interface RunPace {
  pages: number;
  /** Null before its first renewal. */
  pagesPerSecond: number | null;
}

/** A run's last report, to count the next one's interval from. */
export interface PaceMark {
  pages: number;
  at: number;
}

/** Records that the run of `lease` has fetched `pages` so far; returns the new mark. */
export async function reportPace(
  store: Store,
  lease: number,
  pages: number,
  last: PaceMark,
): Promise<PaceMark> {
  const at = Date.now();
  if (store instanceof PgStore) await store.reportPages(lease, pages);
  else {
    await store.setMeta(META_PACE, {
      lease,
      pages,
      at,
      prevPages: last.pages,
      prevAt: last.at,
    } satisfies StoredPace);
  }
  return { pages, at };
}

/** The pace of the runs at work on `store`, by lease id (those that reported). */
export async function readPaces(store: Store): Promise<Map<number, RunPace>> {
  if (store instanceof PgStore) return store.runPaces();
  const p = await store.getMeta<StoredPace>(META_PACE);
  if (p === undefined) return new Map();
  const perSecond = p.at > p.prevAt ? ((p.pages - p.prevPages) * 1000) / (p.at - p.prevAt) : null;
  return new Map([[p.lease, { pages: p.pages, pagesPerSecond: perSecond }]]);
}
