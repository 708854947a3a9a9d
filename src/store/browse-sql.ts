/**
 * The SQL of `listPages` (browse.ts), shared by the SQLite and PostgreSQL stores:
 * both keep the same `urls` and `pages` columns and state codes. A query reads at
 * most two parts of the order, each through an index, `limit + 1` rows at a time:
 * - the keyed rows, walked in order of the key on `pages` (indexes on `relevance`,
 *   `fetched_at` and `score`, each ending with the URL id), a cursor's position
 *   continued by a row-value comparison;
 * - then the keyless rows by id: URLs without a page (the primary key of `urls`), or
 *   for `rank` pages never ranked.
 * States are written as literals, so that SQLite can use its partial indexes; the
 * host filter compares the dialect's host expression (indexed for final states).
 */
import {
  type CheckedPageQuery,
  type PagePosition,
  type PageRow,
  type PageSort,
  rowHost,
} from './browse.js';
import { STATE_CODE, STATE_NAME } from './schema.js';
import type { UrlState } from './types.js';

/** How a store writes what differs between the SQL dialects. */
export interface BrowseDialect {
  /** The host of `u.url`, as the store's host index has it. */
  host: string;
  /**
   * The join that makes the planner walk `pages` in key order (SQLite: `CROSS JOIN`,
   * which keeps the tables in the order written); a planner that knows the tables'
   * sizes (PostgreSQL) chooses by itself: `JOIN`.
   */
  walkJoin: string;
  /**
   * Written before `u.state` in a query by host, to keep the planner to the host's
   * index rather than the (larger) state's (SQLite: `+`; PostgreSQL: '').
   */
  byHostOnly: string;
}

/** A statement and its parameters, in order. */
export interface BrowseSql {
  text: string;
  params: unknown[];
}

/** What a `listPages` statement returns per row. */
export interface BrowseRow {
  id: number;
  url: string;
  state: number;
  depth: number;
  relevance: number | null;
  score: number | null;
  title: string | null;
  fetched_at: number | null;
  status: number | null;
  /** 1 when the URL has a stored page. */
  has_page: number | boolean;
  /** The sort key; null for keyless rows. */
  k: number | null;
}

const KEY: Record<PageSort, string> = {
  relevance: 'p.relevance',
  fetchedAt: 'p.fetched_at',
  rank: 'p.score',
};

const COLUMNS = `u.id, u.url, u.state, u.depth, p.relevance, p.score, p.title, p.fetched_at,
  p.status, p.url_id IS NOT NULL AS has_page`;

/** Builds statements whose parameters are written by `placeholder(n)` (1-based). */
export class BrowseSqlBuilder {
  readonly #d: BrowseDialect;
  readonly #placeholder: (n: number) => string;

  constructor(dialect: BrowseDialect, placeholder: (n: number) => string) {
    this.#d = dialect;
    this.#placeholder = placeholder;
  }

  /**
   * Filters on `u` and `p` of the query, appended to `where` (values to `params`).
   * `final`: every row read is in a final state (it has a page).
   */
  #filters(q: CheckedPageQuery, final: boolean, where: string[], params: unknown[]): void {
    const p = (v: unknown) => {
      params.push(v);
      return this.#placeholder(params.length);
    };
    if (q.state !== undefined) {
      const state = q.host === undefined ? 'u.state' : `${this.#d.byHostOnly}u.state`;
      where.push(`${state} = ${STATE_CODE[q.state]}`);
    }
    if (q.host !== undefined) where.push(`${this.#d.host} = ${p(q.host)}`);
    // SQLite's indexes by state and by host hold the final states only (partial
    // indexes): said in so many words, for SQLite to see they apply.
    const finalRows =
      final || (q.state !== undefined && STATE_CODE[q.state] >= STATE_CODE.complete);
    if (finalRows && (q.state !== undefined || q.host !== undefined)) {
      where.push(`u.state >= ${STATE_CODE.complete}`);
    }
    if (q.minRelevance !== undefined) where.push(`p.relevance >= ${p(q.minRelevance)}`);
    if (q.maxRelevance !== undefined) where.push(`p.relevance <= ${p(q.maxRelevance)}`);
  }

  /**
   * The keyed rows after `after` (a keyed position, or from the first), `n` of them.
   * `walk`: through the key's index, filtering as it goes (the dialect's `walkJoin`);
   * otherwise the planner may start from the host's URLs and sort them, the better
   * way for a host with few pages.
   */
  keyed(q: CheckedPageQuery, after: PagePosition | undefined, n: number, walk = true): BrowseSql {
    const key = KEY[q.sort];
    const params: unknown[] = [];
    const where: string[] = [];
    if (q.sort === 'rank') where.push(`${key} IS NOT NULL`);
    this.#filters(q, true, where, params);
    const op = q.order === 'asc' ? '>' : '<';
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    if (after !== undefined && after.key !== null) {
      params.push(after.key, after.id);
      where.push(
        `(${key}, p.url_id) ${op} (${this.#placeholder(params.length - 1)}, ${this.#placeholder(params.length)})`,
      );
    }
    params.push(n);
    return {
      text: `SELECT ${COLUMNS}, ${key} AS k
        FROM pages p ${walk ? this.#d.walkJoin : 'JOIN'} urls u ON u.id = p.url_id
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${key} ${dir}, p.url_id ${dir} LIMIT ${this.#placeholder(params.length)}`,
      params,
    };
  }

  /**
   * The keyless rows after id `afterId` (undefined: from the first), `n` of them: from
   * `pages` (pages never ranked) or `urls` (URLs without the key).
   */
  keyless(
    q: CheckedPageQuery,
    from: 'pages' | 'urls',
    afterId: number | undefined,
    n: number,
  ): BrowseSql {
    const params: unknown[] = [];
    const where: string[] = [];
    const id = from === 'pages' ? 'p.url_id' : 'u.id';
    if (from === 'pages') where.push('p.score IS NULL');
    else where.push(q.sort === 'rank' ? 'p.score IS NULL' : 'p.url_id IS NULL');
    this.#filters(q, from === 'pages', where, params);
    const op = q.order === 'asc' ? '>' : '<';
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    if (afterId !== undefined) {
      params.push(afterId);
      where.push(`${id} ${op} ${this.#placeholder(params.length)}`);
    }
    params.push(n);
    const tables =
      from === 'pages'
        ? `pages p ${this.#d.walkJoin} urls u ON u.id = p.url_id`
        : 'urls u LEFT JOIN pages p ON p.url_id = u.id';
    return {
      text: `SELECT ${COLUMNS}, NULL AS k FROM ${tables} WHERE ${where.join(' AND ')}
        ORDER BY ${id} ${dir} LIMIT ${this.#placeholder(params.length)}`,
      params,
    };
  }
}

/**
 * Reads up to `limit + 1` rows of `q` in order, from the part its cursor is in
 * onwards (`read` runs a statement).
 */
export async function browseRows(
  b: BrowseSqlBuilder,
  q: CheckedPageQuery,
  plan: { keyed: boolean; keyless: 'none' | 'pages' | 'urls' },
  read: (s: BrowseSql) => Promise<BrowseRow[]> | BrowseRow[],
  walk = true,
): Promise<BrowseRow[]> {
  const want = q.limit + 1;
  const rows: BrowseRow[] = [];
  const inKeyless = q.after !== undefined && q.after.key === null;
  if (plan.keyed && !inKeyless) rows.push(...(await read(b.keyed(q, q.after, want, walk))));
  if (rows.length < want && plan.keyless !== 'none') {
    const afterId = inKeyless ? q.after?.id : undefined;
    rows.push(...(await read(b.keyless(q, plan.keyless, afterId, want - rows.length))));
  }
  return rows;
}

/** What a URL without a page shows: its last history row's time and status. */
export interface LastFetch {
  fetched_at: number;
  status: number | null;
}

/** A `PageRow` of a statement's row (`last`: the last fetch of a URL without a page). */
export function pageRow(r: BrowseRow, last: LastFetch | undefined): PageRow {
  const hasPage = r.has_page === true || r.has_page === 1;
  return {
    url: r.url,
    state: STATE_NAME[r.state] as UrlState,
    host: rowHost(r.url),
    depth: r.depth,
    relevance: r.relevance,
    rank: r.score,
    title: r.title,
    fetchedAt: hasPage ? r.fetched_at : (last?.fetched_at ?? null),
    status: hasPage ? r.status : (last?.status ?? null),
  };
}
