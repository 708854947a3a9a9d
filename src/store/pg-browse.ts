/**
 * The PostgreSQL store's `Browse` reads (browse.ts): pages of URLs through the
 * indexes of schema version 2 (browse-sql.ts), in one snapshot; links, a URL's
 * history, activity by time bucket.
 */
import {
  type ActivityBucket,
  addLinksIn,
  type Browse,
  checkActivityOptions,
  checkLinksOptions,
  checkPageQuery,
  type InLinkRow,
  type LinkRow,
  linkNeedle,
  pageOf,
  planPages,
} from './browse.js';
import {
  type BrowseRow,
  BrowseSqlBuilder,
  browseRows,
  type LastFetch,
  pageRow,
} from './browse-sql.js';
import type { PgDb, Row, Sql } from './pg-db.js';
import { urlKey } from './pg-find.js';
import { PG_HOST_SQL } from './pg-schema.js';
import { type HistoryRow, historyRecord } from './rows.js';
import { STATE_CODE, STATE_NAME } from './schema.js';
import type { UrlState } from './types.js';
import { checkUrl } from './validate.js';
import { fail } from './validate-basics.js';

/** Pages whose links `pageLinks` reads at a time looking for links in. */
const LINK_PAGES = 200;

const builder = new BrowseSqlBuilder(
  { host: PG_HOST_SQL, walkJoin: 'JOIN', byHostOnly: '' },
  (n) => `$${n}`,
);

/** The last history row (time, status) of each of `ids`. */
async function lastFetches(q: Sql, ids: number[]): Promise<Map<number, LastFetch>> {
  if (ids.length === 0) return new Map();
  const rows = await q<LastFetch & { url_id: number } & Row>(
    `SELECT DISTINCT ON (url_id) url_id, fetched_at, status FROM history
     WHERE url_id = ANY($1::bigint[]) ORDER BY url_id, fetched_at DESC, id DESC`,
    [ids],
  );
  return new Map(rows.map((r) => [r.url_id, r]));
}

async function linksOut(db: PgDb, url: string, limit: number): Promise<LinkRow[]> {
  const [row] = await db.query<{ links: string }>(
    'pageLinks',
    `SELECT l.links FROM urls u JOIN page_links l ON l.url_id = u.id
     WHERE u.url_key = $1 AND u.url = $2`,
    [urlKey(url), url],
  );
  if (row === undefined) return [];
  const links = (JSON.parse(row.links) as [string, string | null][]).slice(0, limit);
  const targets = await db.query<{ url: string; state: number; relevance: number | null }>(
    'pageLinks',
    `SELECT u.url, u.state, p.relevance FROM urls u LEFT JOIN pages p ON p.url_id = u.id
     WHERE u.url_key = ANY($1::uuid[])`,
    [[...new Set(links.map(([to]) => urlKey(to)))]],
  );
  const known = new Map(targets.map((t) => [t.url, t]));
  return links.map(([to, anchor]) => {
    const t = known.get(to);
    return {
      url: to,
      anchor,
      state: t === undefined ? null : (STATE_NAME[t.state] as UrlState),
      relevance: t?.relevance ?? null,
    };
  });
}

async function linksIn(db: PgDb, url: string, limit: number): Promise<LinkRow[]> {
  const needle = linkNeedle(url);
  const out: LinkRow[] = [];
  let after = 0;
  for (;;) {
    // Through the primary key of page_links; strpos() skips the pages without the
    // target's text before any JSON is parsed.
    const rows = await db.query<InLinkRow & Row>(
      'pageLinks',
      `SELECT l.url_id, u.url, u.state, p.relevance, l.links
       FROM page_links l JOIN urls u ON u.id = l.url_id LEFT JOIN pages p ON p.url_id = l.url_id
       WHERE l.url_id > $1 AND strpos(l.links, $2) > 0 ORDER BY l.url_id LIMIT $3`,
      [after, needle, LINK_PAGES],
    );
    const next = addLinksIn(out, rows, url, limit, LINK_PAGES);
    if (next === null) return out;
    after = next;
  }
}

export function browseMethods(db: PgDb): Browse {
  return {
    async listPages(query) {
      const q = checkPageQuery(query);
      // fetched_at is a bigint here: a cursor with another key was not made by this store.
      if (q.sort === 'fetchedAt' && q.after?.key != null && !Number.isSafeInteger(q.after.key)) {
        fail('listPages cursor', 'malformed');
      }
      const plan = planPages(q);
      return db.read('listPages', async (sql) => {
        const rows = await browseRows(builder, q, plan, (s) =>
          sql<BrowseRow & Row>(s.text, s.params),
        );
        const page = pageOf(q, rows, (r) => ({ key: r.k, id: r.id }));
        const last = await lastFetches(
          sql,
          page.rows.filter((r) => !r.has_page).map((r) => r.id),
        );
        return { items: page.rows.map((r) => pageRow(r, last.get(r.id))), next: page.next };
      });
    },

    async pageLinks(url, o) {
      const { direction, limit } = checkLinksOptions(url, o);
      return direction === 'out' ? linksOut(db, url, limit) : linksIn(db, url, limit);
    },

    async pageRow(url) {
      checkUrl('pageRow(url)', url);
      return db.read('pageRow', async (sql) => {
        const [r] = await sql<BrowseRow & Row>(
          `SELECT u.id, u.url, u.state, u.depth, p.relevance, p.score, p.title, p.fetched_at,
             p.status, p.url_id IS NOT NULL AS has_page, NULL::double precision AS k
           FROM urls u LEFT JOIN pages p ON p.url_id = u.id
           WHERE u.url_key = $1 AND u.url = $2`,
          [urlKey(url), url],
        );
        if (r === undefined) return null;
        const last = r.has_page ? new Map<number, LastFetch>() : await lastFetches(sql, [r.id]);
        return pageRow(r, last.get(r.id));
      });
    },

    async urlHistory(url) {
      checkUrl('urlHistory(url)', url);
      const rows = await db.query<HistoryRow & Row>(
        'urlHistory',
        `SELECT u.url, h.fetched_at, h.status, h.state, h.relevance, h.depth, h.error, h.location,
           h.attempt, h.retry_at, h.fetch_ms
         FROM urls u JOIN history h ON h.url_id = u.id
         WHERE u.url_key = $1 AND u.url = $2 ORDER BY h.fetched_at, h.id`,
        [urlKey(url), url],
      );
      return rows.map(historyRecord);
    },

    async activity(o) {
      const { bucketMs, since } = checkActivityOptions(o);
      // fetched_at is a bigint: `>= since` is `>= ceil(since)`, which keeps history_time usable.
      return db.query<ActivityBucket & Row>(
        'activity',
        `SELECT (fetched_at / $1::bigint) * $1::bigint AS at, count(*) AS fetched,
           count(*) FILTER (WHERE state = ${STATE_CODE.complete}) AS kept,
           count(*) FILTER (WHERE state = ${STATE_CODE.discard}) AS discarded,
           count(*) FILTER (WHERE state = ${STATE_CODE.error}) AS failed
         FROM history WHERE fetched_at >= $2::bigint
           AND state IN (${STATE_CODE.complete}, ${STATE_CODE.discard}, ${STATE_CODE.error})
         GROUP BY 1 ORDER BY 1`,
        [
          bucketMs,
          Math.min(Math.max(Math.ceil(since), Number.MIN_SAFE_INTEGER), Number.MAX_SAFE_INTEGER),
        ],
      );
    },
  };
}
