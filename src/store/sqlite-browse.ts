/**
 * The SQLite store's `Browse` reads (browse.ts): pages of URLs through the indexes of
 * schema version 11 (browse-sql.ts), links, a URL's history, activity by time bucket.
 * Statements are prepared once per shape of query and kept.
 */
import type { Database, Statement } from 'better-sqlite3';
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
  type PageRow,
  pageOf,
  planPages,
} from './browse.js';
import { type BrowseRow, BrowseSqlBuilder, type LastFetch, pageRow } from './browse-sql.js';
import { type HistoryRow, historyRecord } from './rows.js';
import { STATE_CODE, STATE_NAME } from './schema.js';
import type { FoundUrl } from './sqlite-statements.js';
import type { HistoryRecord, UrlState } from './types.js';
import { checkUrl } from './validate.js';

type Guard = <T>(op: string, fn: () => T) => T;

/** Pages whose links `pageLinks` reads at a time looking for links in. */
const LINK_PAGES = 200;

function prepare(db: Database) {
  return {
    hostPages: db
      .prepare<[string], number>('SELECT complete + discard FROM hosts WHERE host = ?')
      .pluck(),
    pageCount: db
      .prepare<[], number>("SELECT sum(n) FROM counters WHERE name IN ('complete', 'discard')")
      .pluck(),
    lastFetch: db.prepare<[number], LastFetch>(
      'SELECT fetched_at, status FROM history WHERE url_id = ? ORDER BY fetched_at DESC, id DESC LIMIT 1',
    ),
    linksOf: db.prepare<[number], string>('SELECT links FROM page_links WHERE url_id = ?').pluck(),
    // One URL's row, as listPages reads it.
    row: db.prepare<[number], BrowseRow>(
      `SELECT u.id, u.url, u.state, u.depth, p.relevance, p.score, p.title, p.fetched_at,
         p.status, p.url_id IS NOT NULL AS has_page, NULL AS k
       FROM urls u LEFT JOIN pages p ON p.url_id = u.id WHERE u.id = ?`,
    ),
    relevanceOf: db
      .prepare<[number], number>('SELECT relevance FROM pages WHERE url_id = ?')
      .pluck(),
    // Through the primary key of page_links; instr() skips the pages without the
    // target's text before any JSON is parsed.
    linksIn: db.prepare<[number, string, number], InLinkRow>(
      `SELECT l.url_id, u.url, u.state, p.relevance, l.links
       FROM page_links l JOIN urls u ON u.id = l.url_id LEFT JOIN pages p ON p.url_id = l.url_id
       WHERE l.url_id > ? AND instr(l.links, ?) > 0 ORDER BY l.url_id LIMIT ?`,
    ),
    history: db.prepare<[number], HistoryRow>(
      `SELECT u.url, h.fetched_at, h.status, h.state, h.relevance, h.depth, h.error, h.location,
         h.attempt, h.retry_at, h.fetch_ms
       FROM history h JOIN urls u ON u.id = h.url_id WHERE h.url_id = ? ORDER BY h.fetched_at, h.id`,
    ),
    // Walks history_time from `since`.
    activity: db.prepare<[{ bucket: number; since: number }], ActivityBucket>(
      `SELECT CAST(fetched_at / @bucket AS INTEGER) * @bucket AS at, count(*) AS fetched,
         sum(state = ${STATE_CODE.complete}) AS kept, sum(state = ${STATE_CODE.discard}) AS discarded,
         sum(state = ${STATE_CODE.error}) AS failed
       FROM history WHERE fetched_at >= @since
         AND state IN (${STATE_CODE.complete}, ${STATE_CODE.discard}, ${STATE_CODE.error})
       GROUP BY 1 ORDER BY 1`,
    ),
  };
}

export class SqliteBrowse implements Browse {
  readonly #db: Database;
  readonly #q: ReturnType<typeof prepare>;
  readonly #find: (url: string) => FoundUrl | undefined;
  readonly #guard: Guard;
  readonly #sql = new BrowseSqlBuilder(
    { host: 'u.host', walkJoin: 'CROSS JOIN', byHostOnly: '+' },
    () => '?',
  );
  readonly #statements = new Map<string, Statement<unknown[], BrowseRow>>();

  constructor(db: Database, find: (url: string) => FoundUrl | undefined, guard: Guard) {
    this.#db = db;
    this.#q = prepare(db);
    this.#find = find;
    this.#guard = guard;
  }

  #statement(text: string): Statement<unknown[], BrowseRow> {
    let s = this.#statements.get(text);
    if (s === undefined) {
      s = this.#db.prepare<unknown[], BrowseRow>(text);
      this.#statements.set(text, s);
    }
    return s;
  }

  async listPages(query?: Parameters<Browse['listPages']>[0]) {
    const q = checkPageQuery(query);
    const plan = planPages(q);
    return this.#guard('listPages', () => {
      // Synchronous underneath: the statements run one after the other, read is sync.
      let rows: BrowseRow[] = [];
      const want = q.limit + 1;
      const inKeyless = q.after !== undefined && q.after.key === null;
      if (plan.keyed && !inKeyless) {
        rows = this.#run(this.#sql.keyed(q, q.after, want, this.#walk(q.host, want)));
      }
      if (rows.length < want && plan.keyless !== 'none') {
        const afterId = inKeyless ? q.after?.id : undefined;
        rows.push(...this.#run(this.#sql.keyless(q, plan.keyless, afterId, want - rows.length)));
      }
      const page = pageOf(q, rows, (r) => ({ key: r.k, id: r.id }));
      const items = page.rows.map((r) =>
        pageRow(r, r.has_page ? undefined : this.#q.lastFetch.get(r.id)),
      );
      return { items, next: page.next };
    });
  }

  /**
   * Whether to walk the pages in key order for `host` (true without one) rather than
   * sort the host's pages: walking reads about want × pages / host's pages rows
   * (when its pages are spread over the order), sorting the host's pages.
   */
  #walk(host: string | undefined, want: number): boolean {
    if (host === undefined) return true;
    const mine = this.#q.hostPages.get(host) ?? 0;
    return want * (this.#q.pageCount.get() ?? 0) < mine * mine;
  }

  #run(s: { text: string; params: unknown[] }): BrowseRow[] {
    return this.#statement(s.text).all(...s.params);
  }

  async pageLinks(url: string, o: { direction: 'in' | 'out'; limit?: number }) {
    const { direction, limit } = checkLinksOptions(url, o);
    return this.#guard('pageLinks', () =>
      direction === 'out' ? this.#linksOut(url, limit) : this.#linksIn(url, limit),
    );
  }

  #linksOut(url: string, limit: number): LinkRow[] {
    const id = this.#find(url)?.id;
    const json = id === undefined ? undefined : this.#q.linksOf.get(id);
    if (json === undefined) return [];
    const links = (JSON.parse(json) as [string, string | null][]).slice(0, limit);
    return links.map(([to, anchor]) => {
      const t = this.#find(to);
      return {
        url: to,
        anchor,
        state: t === undefined ? null : (STATE_NAME[t.state] as UrlState),
        relevance: t === undefined ? null : (this.#q.relevanceOf.get(t.id) ?? null),
      };
    });
  }

  #linksIn(url: string, limit: number): LinkRow[] {
    const needle = linkNeedle(url);
    const out: LinkRow[] = [];
    let after = 0;
    for (;;) {
      const rows = this.#q.linksIn.all(after, needle, LINK_PAGES);
      const next = addLinksIn(out, rows, url, limit, LINK_PAGES);
      if (next === null) return out;
      after = next;
    }
  }

  async pageRow(url: string): Promise<PageRow | null> {
    checkUrl('pageRow(url)', url);
    return this.#guard('pageRow', () => {
      const id = this.#find(url)?.id;
      const r = id === undefined ? undefined : this.#q.row.get(id);
      if (r === undefined) return null;
      return pageRow(r, r.has_page ? undefined : this.#q.lastFetch.get(r.id));
    });
  }

  async urlHistory(url: string): Promise<HistoryRecord[]> {
    checkUrl('urlHistory(url)', url);
    return this.#guard('urlHistory', () => {
      const id = this.#find(url)?.id;
      return id === undefined ? [] : this.#q.history.all(id).map(historyRecord);
    });
  }

  async activity(o: { bucketMs: number; since?: number }): Promise<ActivityBucket[]> {
    const { bucketMs, since } = checkActivityOptions(o);
    return this.#guard('activity', () => this.#q.activity.all({ bucket: bucketMs, since }));
  }
}

/** The `Browse` methods of a SQLite store, bound to it (set on the store by its constructor). */
export function sqliteBrowseMethods(
  db: Database,
  find: (url: string) => FoundUrl | undefined,
  guard: Guard,
): Browse {
  const b = new SqliteBrowse(db, find, guard);
  return {
    listPages: (q) => b.listPages(q),
    pageLinks: (url, o) => b.pageLinks(url, o),
    pageRow: (url) => b.pageRow(url),
    urlHistory: (url) => b.urlHistory(url),
    activity: (o) => b.activity(o),
  };
}
