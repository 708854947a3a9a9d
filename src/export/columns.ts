// The fields of each export, in order. Times are ISO 8601 strings in UTC.
import type {
  HistoryRecord,
  LinkRecord,
  PageRecord,
  UrlRecord,
  VisitRecord,
} from '../store/index.js';
import type { Cell } from './csv.js';

/**
 * What a column holds: `text`; `url`, an absolute URL (a link in HTML); `integer`;
 * `real`; `time`, an ISO 8601 string in UTC (the SQL export types it).
 */
export type ColumnType = 'text' | 'url' | 'integer' | 'real' | 'time';

export interface Column<R> {
  name: string;
  type: ColumnType;
  value: (row: R) => Cell;
}

/** A page row with its visible text (null when no body was stored or it is not text). */
export type PageRow = PageRecord & { text?: string | null };

const iso = (ms: number) => new Date(ms).toISOString();

export const HISTORY_COLUMNS: readonly Column<HistoryRecord>[] = [
  { name: 'url', type: 'url', value: (r) => r.url },
  { name: 'fetchedAt', type: 'time', value: (r) => iso(r.fetchedAt) },
  { name: 'status', type: 'integer', value: (r) => r.status },
  { name: 'state', type: 'text', value: (r) => r.state },
  { name: 'relevance', type: 'real', value: (r) => r.relevance },
  { name: 'depth', type: 'integer', value: (r) => r.depth },
  { name: 'error', type: 'text', value: (r) => r.error },
];

const PAGE_BASE_COLUMNS: readonly Column<PageRow>[] = [
  { name: 'url', type: 'url', value: (r) => r.url },
  { name: 'state', type: 'text', value: (r) => r.state },
  { name: 'depth', type: 'integer', value: (r) => r.depth },
  { name: 'fetchedAt', type: 'time', value: (r) => iso(r.fetchedAt) },
  { name: 'status', type: 'integer', value: (r) => r.status },
  { name: 'contentType', type: 'text', value: (r) => r.contentType },
  { name: 'bytes', type: 'integer', value: (r) => r.bytes },
  { name: 'title', type: 'text', value: (r) => r.title },
  { name: 'relevance', type: 'real', value: (r) => r.relevance },
  { name: 'pageRank', type: 'real', value: (r) => r.pageRank },
  { name: 'score', type: 'real', value: (r) => r.score },
  { name: 'contentHash', type: 'text', value: (r) => r.contentHash },
  { name: 'bodyFile', type: 'text', value: (r) => r.bodyFile },
  { name: 'simhash', type: 'text', value: (r) => r.simhash },
  { name: 'textHash', type: 'text', value: (r) => r.textHash },
  { name: 'duplicateOf', type: 'url', value: (r) => r.duplicate?.of ?? null },
  { name: 'duplicateKind', type: 'text', value: (r) => r.duplicate?.kind ?? null },
  { name: 'duplicateDistance', type: 'integer', value: (r) => r.duplicate?.distance ?? null },
];

/** The page fields, with `text` last when asked for. */
export function pageColumns(text: boolean): readonly Column<PageRow>[] {
  return text
    ? [...PAGE_BASE_COLUMNS, { name: 'text', type: 'text', value: (r) => r.text ?? null }]
    : PAGE_BASE_COLUMNS;
}

export const URL_COLUMNS: readonly Column<UrlRecord>[] = [
  { name: 'id', type: 'integer', value: (r) => r.id },
  { name: 'url', type: 'url', value: (r) => r.url },
  { name: 'state', type: 'text', value: (r) => r.state },
  { name: 'depth', type: 'integer', value: (r) => r.depth },
  { name: 'priority', type: 'real', value: (r) => r.priority },
  { name: 'value', type: 'real', value: (r) => r.value },
  { name: 'parent', type: 'url', value: (r) => r.parent },
  { name: 'anchor', type: 'text', value: (r) => r.anchor },
  { name: 'context', type: 'text', value: (r) => r.context },
  { name: 'discoveredAt', type: 'time', value: (r) => iso(r.discoveredAt) },
  { name: 'redirectTo', type: 'url', value: (r) => r.redirectTo },
];

export const LINK_COLUMNS: readonly Column<LinkRecord>[] = [
  { name: 'from', type: 'url', value: (r) => r.from },
  { name: 'to', type: 'url', value: (r) => r.to },
  { name: 'anchor', type: 'text', value: (r) => r.anchor },
];

/** One row per recorded revisit (`Revisits.visits()`), in the order recorded. */
export const CHANGE_COLUMNS: readonly Column<VisitRecord>[] = [
  { name: 'url', type: 'url', value: (r) => r.url },
  { name: 'at', type: 'time', value: (r) => iso(r.at) },
  { name: 'status', type: 'integer', value: (r) => r.status },
  { name: 'change', type: 'text', value: (r) => r.change },
  { name: 'contentHash', type: 'text', value: (r) => r.contentHash },
  { name: 'textHash', type: 'text', value: (r) => r.textHash },
  {
    name: 'lastModified',
    type: 'time',
    value: (r) => (r.lastModifiedMs === null ? null : iso(r.lastModifiedMs)),
  },
  { name: 'error', type: 'text', value: (r) => r.error },
];
