/**
 * The memory store's `Browse` reads (browse.ts): the reference for the SQL stores,
 * written plainly (every call looks at every URL, page or history row).
 */
import {
  type ActivityBucket,
  type Browse,
  checkActivityOptions,
  checkLinksOptions,
  checkPageQuery,
  comparePositions,
  type LinkRow,
  type PagePosition,
  type PageRow,
  pageOf,
  rowHost,
} from './browse.js';
import type { MemoryRecords } from './memory-records.js';
import type { HistoryRecord, PageRecord, UrlRecord } from './types.js';
import { checkUrl } from './validate.js';

export interface MemoryBrowseDeps {
  /** Throws once the store is closed. */
  open: (op: string) => void;
  /** Every known URL, in discovery order. */
  urls: ReadonlyMap<string, UrlRecord>;
  records: MemoryRecords;
}

const KEY = {
  relevance: (p: PageRecord | undefined) => p?.relevance ?? null,
  fetchedAt: (p: PageRecord | undefined) => p?.fetchedAt ?? null,
  rank: (p: PageRecord | undefined) => p?.score ?? null,
} as const;

/** The last history row of each URL (by `fetchedAt`, ties: the last recorded). */
function lastRows(history: readonly HistoryRecord[]): Map<string, HistoryRecord> {
  const last = new Map<string, HistoryRecord>();
  for (const h of history) last.set(h.url, h);
  return last;
}

/** A URL's row: its page's figures, else its last history row's. */
function rowOf(
  rec: UrlRecord,
  page: PageRecord | undefined,
  h: HistoryRecord | undefined,
): PageRow {
  return {
    url: rec.url,
    state: rec.state,
    host: rowHost(rec.url),
    depth: rec.depth,
    relevance: page?.relevance ?? null,
    rank: page?.score ?? null,
    title: page?.title ?? null,
    fetchedAt: page?.fetchedAt ?? h?.fetchedAt ?? null,
    status: page?.status ?? h?.status ?? null,
  };
}

export function memoryBrowseMethods(d: MemoryBrowseDeps): Browse {
  const { open, urls, records } = d;
  const stateOf = (url: string) => urls.get(url)?.state ?? null;
  const relevanceOf = (url: string) => records.pageOf(url)?.relevance ?? null;

  return {
    async listPages(query) {
      open('listPages');
      const q = checkPageQuery(query);
      const key = KEY[q.sort];
      const rows: { rec: UrlRecord; page: PageRecord | undefined; at: PagePosition }[] = [];
      for (const rec of urls.values()) {
        if (q.state !== undefined && rec.state !== q.state) continue;
        if (q.host !== undefined && rowHost(rec.url) !== q.host) continue;
        const page = records.pageOf(rec.url);
        if (q.minRelevance !== undefined && !(page && page.relevance >= q.minRelevance)) continue;
        if (q.maxRelevance !== undefined && !(page && page.relevance <= q.maxRelevance)) continue;
        const at = { key: key(page), id: rec.id };
        if (q.after !== undefined && comparePositions(q.order, at, q.after) <= 0) continue;
        rows.push({ rec, page, at });
      }
      rows.sort((a, b) => comparePositions(q.order, a.at, b.at));
      const { rows: got, next } = pageOf(q, rows.slice(0, q.limit + 1), (r) => r.at);
      const last = got.some((r) => r.page === undefined) ? lastRows(records.history()) : null;
      const items = got.map(({ rec, page }) =>
        rowOf(rec, page, page === undefined ? last?.get(rec.url) : undefined),
      );
      return { items, next };
    },

    async pageLinks(url, o) {
      open('pageLinks');
      const { direction, limit } = checkLinksOptions(url, o);
      const out: LinkRow[] = [];
      // In the discovery order of the linking pages, then page order.
      const all = records.links((u) => urls.get(u)?.id ?? 0);
      for (const l of all) {
        if (out.length === limit) break;
        if (direction === 'out' && l.from === url) {
          out.push({
            url: l.to,
            anchor: l.anchor,
            state: stateOf(l.to),
            relevance: relevanceOf(l.to),
          });
        } else if (direction === 'in' && l.to === url) {
          out.push({
            url: l.from,
            anchor: l.anchor,
            state: stateOf(l.from),
            relevance: relevanceOf(l.from),
          });
        }
      }
      return out;
    },

    async pageRow(url) {
      open('pageRow');
      checkUrl('pageRow(url)', url);
      const rec = urls.get(url);
      if (rec === undefined) return null;
      const page = records.pageOf(url);
      return rowOf(
        rec,
        page,
        page === undefined ? lastRows(records.history()).get(url) : undefined,
      );
    },

    async urlHistory(url) {
      open('urlHistory');
      checkUrl('urlHistory(url)', url);
      return records.history().filter((h) => h.url === url);
    },

    async activity(o) {
      open('activity');
      const { bucketMs, since } = checkActivityOptions(o);
      const buckets = new Map<number, ActivityBucket>();
      for (const h of records.history()) {
        if (h.fetchedAt < since || h.state === 'redirect') continue;
        const at = Math.trunc(h.fetchedAt / bucketMs) * bucketMs;
        let b = buckets.get(at);
        if (b === undefined) {
          b = { at, fetched: 0, kept: 0, discarded: 0, failed: 0 };
          buckets.set(at, b);
        }
        b.fetched++;
        if (h.state === 'complete') b.kept++;
        else if (h.state === 'discard') b.discarded++;
        else b.failed++;
      }
      return [...buckets.values()].sort((a, b) => a.at - b.at);
    },
  };
}
