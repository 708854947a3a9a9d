/**
 * The SQLite store's side of failed attempts (contracts.ts, `Claims`): when the next
 * retry is due, and URLs in error put back to waiting. Claims and commits of failed
 * attempts are sqlite-urls.ts'.
 */
import type { Database, Statement } from 'better-sqlite3';
import { type CheckedFilter, checkErrorFilter, errorMatches } from './error-filter.js';
import { STATE_CODE } from './schema.js';
import type { UrlIndex } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import type { ErrorFilter } from './types.js';

/** What the methods need of the store. */
export interface RetryContext {
  db: Database;
  sync<T>(op: string, fn: () => T): T;
  tx<T>(op: string, fn: (ix: UrlIndex, t: Tally) => T): T;
}

/** The `nextRetryAt` and `requeueErrors` methods of a SQLite store. */
export interface RetryMethods {
  nextRetryAt(): Promise<number | null>;
  requeueErrors(filter?: ErrorFilter): Promise<number>;
}

interface ErrorRow {
  id: number;
  url: string;
  status: number | null;
  error: string | null;
}

export function retryMethods(c: RetryContext): RetryMethods {
  // The first entry of urls_retry.
  const next = c.db
    .prepare<[], number | null>(
      'SELECT min(retry_at) FROM urls WHERE state = 0 AND retry_at IS NOT NULL',
    )
    .pluck();
  // Each URL in error with its last history row (its error).
  const errors = c.db.prepare<[], ErrorRow>(
    `SELECT u.id, u.url, h.status, h.error FROM urls u
     JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
     WHERE u.state = ${STATE_CODE.error}`,
  );
  // Prepared on first use: a store open read-only writes nothing.
  let requeue: Statement<[number]> | undefined;

  const requeueRows = (ix: UrlIndex, t: Tally, f: CheckedFilter): number => {
    requeue ??= c.db.prepare<[number]>(
      'UPDATE urls SET state = 0, attempts = 0, retry_at = NULL WHERE id = ?',
    );
    let n = 0;
    for (const r of errors.all()) {
      if (!errorMatches(f, r.error, r.status)) continue;
      requeue.run(r.id);
      ix.cache.setState(r.url, STATE_CODE.waiting);
      n++;
    }
    t.move('error', 'waiting', n);
    return n;
  };

  return {
    async nextRetryAt() {
      return c.sync('nextRetryAt', () => next.get() ?? null);
    },
    async requeueErrors(filter?: ErrorFilter) {
      const f = checkErrorFilter('requeueErrors filter', filter);
      return c.tx('requeueErrors', (ix, t) => requeueRows(ix, t, f));
    },
  };
}
