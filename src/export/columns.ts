// The fields of each export, in order. Times are ISO 8601 strings in UTC.
import type {
  HistoryRecord,
  LinkRecord,
  PageRecord,
  UrlRecord,
  VisitRecord,
} from '../store/index.js';
import type { Cell } from './csv.js';

export interface Column<R> {
  name: string;
  value: (row: R) => Cell;
}

/** A page row with its visible text (null when no body was stored or it is not text). */
export type PageRow = PageRecord & { text?: string | null };

const iso = (ms: number) => new Date(ms).toISOString();

export const HISTORY_COLUMNS: readonly Column<HistoryRecord>[] = [
  { name: 'url', value: (r) => r.url },
  { name: 'fetchedAt', value: (r) => iso(r.fetchedAt) },
  { name: 'status', value: (r) => r.status },
  { name: 'state', value: (r) => r.state },
  { name: 'relevance', value: (r) => r.relevance },
  { name: 'depth', value: (r) => r.depth },
  { name: 'error', value: (r) => r.error },
];

const PAGE_BASE_COLUMNS: readonly Column<PageRow>[] = [
  { name: 'url', value: (r) => r.url },
  { name: 'state', value: (r) => r.state },
  { name: 'depth', value: (r) => r.depth },
  { name: 'fetchedAt', value: (r) => iso(r.fetchedAt) },
  { name: 'status', value: (r) => r.status },
  { name: 'contentType', value: (r) => r.contentType },
  { name: 'bytes', value: (r) => r.bytes },
  { name: 'title', value: (r) => r.title },
  { name: 'relevance', value: (r) => r.relevance },
  { name: 'pageRank', value: (r) => r.pageRank },
  { name: 'score', value: (r) => r.score },
  { name: 'contentHash', value: (r) => r.contentHash },
  { name: 'bodyFile', value: (r) => r.bodyFile },
  { name: 'simhash', value: (r) => r.simhash },
  { name: 'textHash', value: (r) => r.textHash },
  { name: 'duplicateOf', value: (r) => r.duplicate?.of ?? null },
  { name: 'duplicateKind', value: (r) => r.duplicate?.kind ?? null },
  { name: 'duplicateDistance', value: (r) => r.duplicate?.distance ?? null },
];

/** The page fields, with `text` last when asked for. */
export function pageColumns(text: boolean): readonly Column<PageRow>[] {
  return text
    ? [...PAGE_BASE_COLUMNS, { name: 'text', value: (r) => r.text ?? null }]
    : PAGE_BASE_COLUMNS;
}

export const URL_COLUMNS: readonly Column<UrlRecord>[] = [
  { name: 'id', value: (r) => r.id },
  { name: 'url', value: (r) => r.url },
  { name: 'state', value: (r) => r.state },
  { name: 'depth', value: (r) => r.depth },
  { name: 'priority', value: (r) => r.priority },
  { name: 'value', value: (r) => r.value },
  { name: 'parent', value: (r) => r.parent },
  { name: 'anchor', value: (r) => r.anchor },
  { name: 'context', value: (r) => r.context },
  { name: 'discoveredAt', value: (r) => iso(r.discoveredAt) },
  { name: 'redirectTo', value: (r) => r.redirectTo },
];

export const LINK_COLUMNS: readonly Column<LinkRecord>[] = [
  { name: 'from', value: (r) => r.from },
  { name: 'to', value: (r) => r.to },
  { name: 'anchor', value: (r) => r.anchor },
];

/** One row per recorded revisit (`Revisits.visits()`), in the order recorded. */
export const CHANGE_COLUMNS: readonly Column<VisitRecord>[] = [
  { name: 'url', value: (r) => r.url },
  { name: 'at', value: (r) => iso(r.at) },
  { name: 'status', value: (r) => r.status },
  { name: 'change', value: (r) => r.change },
  { name: 'contentHash', value: (r) => r.contentHash },
  { name: 'textHash', value: (r) => r.textHash },
  {
    name: 'lastModified',
    value: (r) => (r.lastModifiedMs === null ? null : iso(r.lastModifiedMs)),
  },
  { name: 'error', value: (r) => r.error },
];
