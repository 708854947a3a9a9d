/** Finding known URLs of a PostgreSQL store: by `url_key`, the MD5 of the URL as a uuid. */
import { md5Hex } from '../url/index.js';
import type { Sql } from './pg-db.js';

/** The `urls.url_key` of a URL: its MD5 in hex (PostgreSQL reads 32 hex digits as a uuid). */
export function urlKey(url: string): string {
  return md5Hex(url);
}

/** The columns of a known URL most calls need. */
export interface PgUrlRow {
  id: number;
  url: string;
  state: number;
  depth: number;
  priority: number;
  value: number;
  parent_id: number | null;
  anchor: string | null;
  context: string | null;
  lease_id: number | null;
  attempts: number;
  retry_at: number | null;
}

const COLUMNS =
  'id, url, state, depth, priority, value, parent_id, anchor, context, lease_id, attempts, retry_at';

/**
 * The known URLs among `urls`, by URL (unknown ones absent). `lock` takes their row
 * locks (FOR UPDATE) until the transaction ends; lock in a stable order (the rows
 * come sorted by id) to stay clear of deadlocks.
 */
export async function findUrls(
  q: Sql,
  urls: readonly string[],
  lock = false,
): Promise<Map<string, PgUrlRow>> {
  const out = new Map<string, PgUrlRow>();
  if (urls.length === 0) return out;
  const keys = [...new Set(urls)].map(urlKey);
  const rows = await q<PgUrlRow & Record<string, unknown>>(
    `SELECT ${COLUMNS} FROM urls WHERE url_key = ANY($1::uuid[]) ORDER BY id${lock ? ' FOR UPDATE' : ''}`,
    [keys],
  );
  for (const r of rows) out.set(r.url, r);
  return out;
}
