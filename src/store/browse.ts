/**
 * The `Browse` contract's data and the checks every implementation shares: a page of
 * known URLs filtered and sorted (`listPages`, keyset pagination by an opaque
 * cursor), a page's links in and out, a URL's fetch history, and the fetch activity
 * bucketed by time. What the REST API and the dashboard read.
 *
 * Order of `listPages`: the sort key (`relevance`: the page's relevance, `fetchedAt`:
 * its fetch time, `rank`: the final score P of `setPageScores`), ties by URL id, both
 * in the direction asked; URLs without the key (no stored page, or a page never
 * ranked) come after all the others, in id order in the same direction. A cursor
 * encodes the last row's key and id (base64url JSON, with the sort and order it was
 * made for): the next page starts after that position, so URLs added or fetched
 * between pages never shift it (a URL whose key changes between pages may be seen
 * again, or missed, at its new place).
 */
import { hostOf } from '../url/index.js';
import { STATE_NAME } from './schema.js';
import { type HistoryRecord, URL_STATES, type UrlState } from './types.js';
import { checkInt, checkUrl, fail, show } from './validate-basics.js';

export type PageSort = 'relevance' | 'fetchedAt' | 'rank';

/** Which known URLs `listPages` returns, in which order, how many. */
export interface PageQuery {
  state?: UrlState;
  /** Inclusive; leaves out URLs without a page. */
  minRelevance?: number;
  /** Inclusive; leaves out URLs without a page. */
  maxRelevance?: number;
  /** Exact host name, lower case (`hostOf`: no port; IPv6 in brackets). */
  host?: string;
  /** @default 'fetchedAt' */
  sort?: PageSort;
  /** @default 'desc' */
  order?: 'asc' | 'desc';
  /** An integer 1 … 500. @default 50 */
  limit?: number;
  /** Opaque, from a previous answer's `next` (made with the same sort and order). */
  cursor?: string;
}

/** A known URL as `listPages` lists it. */
export interface PageRow {
  url: string;
  state: UrlState;
  host: string;
  depth: number;
  /** The stored page's relevance; null without a page. */
  relevance: number | null;
  /** The final rank score P (`setPageScores`' `score`); null until ranked. */
  rank: number | null;
  /** The stored page's title. */
  title: string | null;
  /**
   * ms since the epoch: the stored page's fetch time; for a URL without a page, its
   * last history row's (an error, a redirect, a failed attempt), null if none.
   */
  fetchedAt: number | null;
  /** HTTP status of the last fetch, as `fetchedAt`; null without a response. */
  status: number | null;
}

/** One link of `pageLinks`: the other end (`url`), and that URL's state and relevance. */
export interface LinkRow {
  url: string;
  anchor: string | null;
  /** Null when the other end is not a known URL. */
  state: UrlState | null;
  /** The other end's page's relevance; null without a page. */
  relevance: number | null;
}

/** Fetch outcomes recorded in one time bucket [at, at + bucketMs). */
export interface ActivityBucket {
  at: number;
  /** kept + discarded + failed. */
  fetched: number;
  /** History rows of complete pages. */
  kept: number;
  /** Of discarded pages. */
  discarded: number;
  /** Error rows: failures that ended a URL and failed attempts put back alike. */
  failed: number;
}

/**
 * Reads for browsing a crawl (the REST API, the dashboard).
 *
 * Conformance: `browseConformance`.
 */
export interface Browse {
  /** A page of known URLs (see the module's comment for the order and the cursor). */
  listPages(q?: PageQuery): Promise<{ items: PageRow[]; next: string | null }>;
  /**
   * `out`: the links of `url`'s stored page, in page order; `in`: the links to `url`
   * from stored pages, in the discovery order of those pages, then page order. At most
   * `limit` (an integer 1 … 1000, default 100); none for an unknown URL or one without
   * links. `in` reads the link records (they have no index by target).
   */
  pageLinks(url: string, o: { direction: 'in' | 'out'; limit?: number }): Promise<LinkRow[]>;
  /** The row of `url` as `listPages` lists it (any state), or null for an unknown URL. */
  pageRow(url: string): Promise<PageRow | null>;
  /** The history rows of `url`, by `fetchedAt`, ties in the order recorded; [] when none. */
  urlHistory(url: string): Promise<HistoryRecord[]>;
  /**
   * History rows of fetch outcomes (complete, discard, error; redirect rows apart)
   * counted per bucket of `bucketMs` (an integer ≥ 1; buckets start at multiples of
   * it since the epoch), from `since` (ms, inclusive; default: the first row). Buckets
   * without a row are left out; ascending by `at`.
   */
  activity(o: { bucketMs: number; since?: number }): Promise<ActivityBucket[]>;
}

export const PAGE_SORTS: readonly PageSort[] = ['relevance', 'fetchedAt', 'rank'];
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 500;
export const DEFAULT_LINK_LIMIT = 100;
export const MAX_LINK_LIMIT = 1000;

const FINAL_PAGE_STATES: readonly UrlState[] = ['complete', 'discard'];
const QUERY_KEYS = new Set([
  'state',
  'minRelevance',
  'maxRelevance',
  'host',
  'sort',
  'order',
  'limit',
  'cursor',
]);

/** A position in a `listPages` order: a row's key (null: the keyless rows) and id. */
export interface PagePosition {
  key: number | null;
  id: number;
}

/** A checked `PageQuery`, defaults applied, the cursor decoded. */
export interface CheckedPageQuery {
  state: UrlState | undefined;
  minRelevance: number | undefined;
  maxRelevance: number | undefined;
  host: string | undefined;
  sort: PageSort;
  order: 'asc' | 'desc';
  limit: number;
  after: PagePosition | undefined;
}

/**
 * Which parts of the order a query can have rows in: `keyed` (rows with the key,
 * read from the pages) and `keyless` (`none`; `pages`: stored pages never ranked;
 * `urls`: any URL without the key). Only complete and discarded URLs have pages.
 */
export interface PagePlan {
  keyed: boolean;
  keyless: 'none' | 'pages' | 'urls';
}

export function planPages(q: CheckedPageQuery): PagePlan {
  const pagesOnly =
    (q.state !== undefined && FINAL_PAGE_STATES.includes(q.state)) ||
    q.minRelevance !== undefined ||
    q.maxRelevance !== undefined;
  const noPages = q.state !== undefined && !FINAL_PAGE_STATES.includes(q.state);
  let keyless: PagePlan['keyless'] = 'urls';
  if (pagesOnly) keyless = q.sort === 'rank' && !noPages ? 'pages' : 'none';
  return { keyed: !noPages, keyless };
}

const where = 'listPages';

/** Checks `listPages`' query (an `InvalidOptionError` names the field); applies the defaults. */
export function checkPageQuery(q: unknown): CheckedPageQuery {
  if (q === undefined) q = {};
  if (typeof q !== 'object' || q === null || Array.isArray(q)) {
    fail(where, `expected a query object, got ${show(q)}`);
  }
  for (const k of Object.keys(q)) if (!QUERY_KEYS.has(k)) fail(where, `unknown option "${k}"`);
  const o = q as Record<string, unknown>;
  const state = o['state'];
  if (state !== undefined && !URL_STATES.includes(state as UrlState)) {
    fail(
      `${where} state`,
      `unknown state ${show(state)} (expected one of ${URL_STATES.join(', ')})`,
    );
  }
  const relevance = (k: 'minRelevance' | 'maxRelevance'): number | undefined => {
    const v = o[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      fail(`${where} ${k}`, `expected a finite number, got ${show(v)}`);
    }
    return v;
  };
  const host = o['host'];
  if (host !== undefined && (typeof host !== 'string' || host === '')) {
    fail(`${where} host`, `expected a host name, got ${show(host)}`);
  }
  const sort = o['sort'] ?? 'fetchedAt';
  if (!PAGE_SORTS.includes(sort as PageSort)) {
    fail(`${where} sort`, `expected one of ${PAGE_SORTS.join(', ')}, got ${show(sort)}`);
  }
  const order = o['order'] ?? 'desc';
  if (order !== 'asc' && order !== 'desc') {
    fail(`${where} order`, `expected asc or desc, got ${show(order)}`);
  }
  const limit = o['limit'] ?? DEFAULT_PAGE_LIMIT;
  checkLimit(`${where} limit`, limit, MAX_PAGE_LIMIT);
  const cursor = o['cursor'];
  if (cursor !== undefined && typeof cursor !== 'string') {
    fail(`${where} cursor`, `expected a string, got ${show(cursor)}`);
  }
  return {
    state: state as UrlState | undefined,
    minRelevance: relevance('minRelevance'),
    maxRelevance: relevance('maxRelevance'),
    host: host === undefined ? undefined : (host as string).toLowerCase(),
    sort: sort as PageSort,
    order,
    limit,
    after: cursor === undefined ? undefined : parseCursor(cursor, sort as PageSort, order),
  };
}

function checkLimit(field: string, v: unknown, max: number): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) {
    fail(field, `expected an integer 1 … ${max}, got ${show(v)}`);
  }
}

/** The cursor of the position after `row` in the order (sort, order). */
export function formatCursor(sort: PageSort, order: 'asc' | 'desc', at: PagePosition): string {
  return Buffer.from(JSON.stringify({ s: sort, o: order, k: at.key, i: at.id })).toString(
    'base64url',
  );
}

const CURSOR_RE = /^[A-Za-z0-9_-]+$/;

/** Decodes a cursor made for (sort, order); anything else throws `InvalidOptionError`. */
export function parseCursor(text: string, sort: PageSort, order: 'asc' | 'desc'): PagePosition {
  const field = `${where} cursor`;
  let c: unknown;
  try {
    if (!CURSOR_RE.test(text)) throw new Error('not base64url');
    c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    fail(field, 'malformed');
  }
  if (typeof c !== 'object' || c === null) fail(field, 'malformed');
  const { s, o, k, i } = c as Record<string, unknown>;
  if (
    !PAGE_SORTS.includes(s as PageSort) ||
    (o !== 'asc' && o !== 'desc') ||
    !(k === null || (typeof k === 'number' && Number.isFinite(k))) ||
    typeof i !== 'number' ||
    !Number.isSafeInteger(i) ||
    i < 1
  ) {
    fail(field, 'malformed');
  }
  if (s !== sort || o !== order) {
    fail(field, `made for sort ${s} ${o}, not ${sort} ${order}`);
  }
  return { key: k as number | null, id: i };
}

/**
 * Whether position `a` comes before `b` in the order: keyed rows first (by key, then
 * id), keyless ones last (by id), each in the direction `order`. Zero when equal.
 */
export function comparePositions(order: 'asc' | 'desc', a: PagePosition, b: PagePosition): number {
  const dir = order === 'asc' ? 1 : -1;
  if (a.key === null || b.key === null) {
    if (a.key !== b.key) return a.key === null ? 1 : -1;
    return dir * (a.id - b.id);
  }
  return dir * (a.key - b.key || a.id - b.id);
}

/**
 * A page of rows from up to `limit + 1` candidates in order: the first `limit`, and
 * the cursor after the last of them when there were more.
 */
export function pageOf<T>(
  q: CheckedPageQuery,
  rows: readonly T[],
  position: (r: T) => PagePosition,
): { rows: T[]; next: string | null } {
  if (rows.length <= q.limit) return { rows: [...rows], next: null };
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1] as T;
  return { rows: page, next: formatCursor(q.sort, q.order, position(last)) };
}

/** The host of a `PageRow` (`hostOf`; '' for a URL without one). */
export function rowHost(url: string): string {
  return hostOf(url) ?? '';
}

/** Checks `pageLinks`' arguments; returns the limit. */
export function checkLinksOptions(
  url: string,
  o: { direction: 'in' | 'out'; limit?: number },
): { direction: 'in' | 'out'; limit: number } {
  checkUrl('pageLinks(url)', url);
  if (typeof o !== 'object' || o === null) {
    fail('pageLinks options', `expected { direction, limit? }, got ${show(o)}`);
  }
  if (o.direction !== 'in' && o.direction !== 'out') {
    fail('pageLinks direction', `expected in or out, got ${show(o.direction)}`);
  }
  const limit = o['limit'] ?? DEFAULT_LINK_LIMIT;
  checkLimit('pageLinks limit', limit, MAX_LINK_LIMIT);
  return { direction: o.direction, limit };
}

/** Checks `activity`'s options; `since` defaults to 0 (every row). */
export function checkActivityOptions(o: { bucketMs: number; since?: number }): {
  bucketMs: number;
  since: number;
} {
  if (typeof o !== 'object' || o === null) {
    fail('activity options', `expected { bucketMs, since? }, got ${show(o)}`);
  }
  checkInt('activity bucketMs', o.bucketMs, 1);
  if (!Number.isSafeInteger(o.bucketMs)) fail('activity bucketMs', 'too large');
  const since = o.since ?? 0;
  if (typeof since !== 'number' || !Number.isFinite(since)) {
    fail('activity since', `expected a finite number of ms, got ${show(since)}`);
  }
  return { bucketMs: o.bucketMs, since };
}

/**
 * The needle that finds `url` as a link target in a page's links as stored (wire.ts:
 * a JSON array of `[to, anchor]` pairs): each match is confirmed by parsing.
 */
export function linkNeedle(url: string): string {
  return `[${JSON.stringify(url)},`;
}

/** A stored page whose links may point at a URL (`pageLinks` in), as the SQL stores read it. */
export interface InLinkRow {
  url_id: number;
  url: string;
  state: number;
  relevance: number | null;
  links: string;
}

/**
 * Adds to `out` the links to `url` of a batch of `rows` (read `batch` at a time, by
 * url_id), up to `limit`; returns the url_id to read on after, or null when done.
 */
export function addLinksIn(
  out: LinkRow[],
  rows: readonly InLinkRow[],
  url: string,
  limit: number,
  batch: number,
): number | null {
  for (const r of rows) {
    for (const anchor of linksTo(r.links, url)) {
      out.push({
        url: r.url,
        anchor,
        state: STATE_NAME[r.state] as UrlState,
        relevance: r.relevance,
      });
      if (out.length === limit) return null;
    }
  }
  return rows.length < batch ? null : (rows[rows.length - 1] as InLinkRow).url_id;
}

/** The links of `json` (wire.ts) to `url`, with their anchors, in page order. */
export function linksTo(json: string, url: string): (string | null)[] {
  const out: (string | null)[] = [];
  for (const [to, anchor] of JSON.parse(json) as [string, string | null][]) {
    if (to === url) out.push(anchor);
  }
  return out;
}
