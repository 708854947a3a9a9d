/**
 * Rows of the stores' SQL tables (SQLite and PostgreSQL share the columns) and the
 * records the contract gives for them.
 */
import { DUPLICATE_KIND, STATE_CODE, STATE_NAME } from './schema.js';
import type { FinalState, HistoryRecord, PageRecord, UrlRecord, UrlState } from './types.js';

export interface HistoryRow {
  url: string;
  fetched_at: number;
  status: number | null;
  state: number;
  relevance: number | null;
  depth: number;
  error: string | null;
  location: string | null;
  attempt: number;
  retry_at: number | null;
  fetch_ms: number | null;
}

export interface PageRow {
  url: string;
  state: number;
  depth: number;
  fetched_at: number;
  status: number;
  content_type: string | null;
  bytes: number;
  title: string | null;
  relevance: number;
  content_hash: string | null;
  body_file: string | null;
  page_rank: number | null;
  score: number | null;
  simhash: string | null;
  text_hash: string | null;
  duplicate_of: string | null;
  duplicate_kind: number | null;
  duplicate_distance: number | null;
  etag: string | null;
  last_modified: string | null;
  modified_at: number | null;
}

export interface UrlRow {
  id: number;
  url: string;
  state: number;
  depth: number;
  priority: number;
  value: number;
  parent: string | null;
  anchor: string | null;
  context: string | null;
  discovered_at: number;
  redirect_to: string | null;
  attempts: number;
  retry_at: number | null;
}

export function historyRecord(r: HistoryRow): HistoryRecord {
  return {
    url: r.url,
    fetchedAt: r.fetched_at,
    status: r.status,
    state: STATE_NAME[r.state] as FinalState,
    relevance: r.relevance,
    depth: r.depth,
    error: r.error,
    location: r.location,
    attempt: r.attempt,
    retryAt: r.retry_at,
    fetchMs: r.fetch_ms,
  };
}

export function pageRecord(r: PageRow): PageRecord {
  return {
    url: r.url,
    state: STATE_NAME[r.state] as 'complete' | 'discard',
    depth: r.depth,
    fetchedAt: r.fetched_at,
    status: r.status,
    contentType: r.content_type,
    bytes: r.bytes,
    title: r.title,
    relevance: r.relevance,
    contentHash: r.content_hash,
    bodyFile: r.body_file,
    pageRank: r.page_rank,
    score: r.score,
    simhash: r.simhash,
    textHash: r.text_hash,
    duplicate:
      r.duplicate_of === null
        ? null
        : {
            of: r.duplicate_of,
            kind: DUPLICATE_KIND[r.duplicate_kind ?? 0] ?? 'near',
            distance: r.duplicate_distance ?? 0,
          },
    etag: r.etag,
    lastModified: r.last_modified,
    modifiedAt: r.modified_at,
  };
}

export function urlRecord(r: UrlRow): UrlRecord {
  return {
    id: r.id,
    url: r.url,
    state: STATE_NAME[r.state] as UrlState,
    depth: r.depth,
    priority: r.priority,
    value: r.value,
    parent: r.parent,
    anchor: r.anchor,
    context: r.context,
    discoveredAt: r.discovered_at,
    redirectTo: r.redirect_to,
    attempts: r.attempts,
    retryAt: r.state === STATE_CODE.waiting ? r.retry_at : null,
  };
}
