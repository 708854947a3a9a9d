// Streams a store's history, pages, URLs, links or revisits as JSON Lines or CSV.
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { analyzeBody, type ParseOptions } from '../parse/index.js';
import type { PageRecord, Store } from '../store/index.js';
import {
  CHANGE_COLUMNS,
  type Column,
  HISTORY_COLUMNS,
  LINK_COLUMNS,
  type PageRow,
  pageColumns,
  URL_COLUMNS,
} from './columns.js';
import { BOM, type Cell, csvRecord, jsonRecord } from './csv.js';

export const EXPORT_WHATS = ['history', 'pages', 'urls', 'links', 'changes'] as const;
export type ExportWhat = (typeof EXPORT_WHATS)[number];
export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const exportOptionsSchema = z
  .strictObject({
    /** The table: fetch history, fetched pages, known URLs, links, or recorded revisits. */
    what: z.enum(EXPORT_WHATS),
    /** @default 'jsonl' */
    format: z.enum(EXPORT_FORMATS).default('jsonl'),
    /** Only URLs in this state (`what: 'urls'` only). @default every state */
    state: z.enum(['waiting', 'processing', 'complete', 'discard', 'error', 'redirect']).optional(),
    /**
     * Pages: add a `text` field with the visible text, extracted from the stored body
     * (null when no body was stored or it is not text).
     * @default true
     */
    text: z.boolean().default(true),
    /** CSV: begin with a UTF-8 byte-order mark (for Excel). @default false */
    bom: z.boolean().default(false),
    /** Page bodies read and parsed at a time for `text`. @default 8 */
    bodyConcurrency: z.number().int().min(1).max(256).default(8),
  })
  .refine((o) => o.state === undefined || o.what === 'urls', {
    message: 'state applies to what "urls" only',
    path: ['state'],
  })
  .refine((o) => !o.bom || o.format === 'csv', {
    message: 'bom applies to format "csv" only',
    path: ['bom'],
  });

export type ExportOptionsInput = z.input<typeof exportOptionsSchema>;
export type ExportOptions = z.output<typeof exportOptionsSchema>;

export function parseExportOptions(input: ExportOptionsInput): ExportOptions {
  const r = exportOptionsSchema.safeParse(input);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid export options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}

/** Only the text is wanted: links are not collected. */
const TEXT_ONLY: ParseOptions = { maxLinks: 0 };

/** The visible text of a stored page: HTML's visible text, or the decoded text of text/XML. */
export async function pageText(store: Store, page: PageRecord): Promise<string | null> {
  const body = await store.readBody(page.url);
  if (body === null) return null;
  const a = analyzeBody(body, page.contentType ?? undefined, page.url, TEXT_ONLY);
  return a.page?.text ?? a.text ?? null;
}

/** Pages with their text, in order, reading up to `concurrency` bodies ahead. */
async function* withText(
  store: Store,
  pages: AsyncIterable<PageRecord>,
  concurrency: number,
): AsyncGenerator<PageRow> {
  const ahead: Promise<PageRow>[] = [];
  const enqueue = (p: PageRecord) => {
    const row = pageText(store, p).then((text) => ({ ...p, text }));
    // Awaited in turn below; this only keeps a failure that comes early from being unhandled.
    row.catch(() => {});
    ahead.push(row);
  };
  for await (const p of pages) {
    enqueue(p);
    if (ahead.length >= concurrency) yield await (ahead.shift() as Promise<PageRow>);
  }
  while (ahead.length > 0) yield await (ahead.shift() as Promise<PageRow>);
}

async function* encode<R>(
  rows: AsyncIterable<R>,
  columns: readonly Column<R>[],
  o: ExportOptions,
): AsyncGenerator<string> {
  if (o.format === 'csv') {
    yield (o.bom ? BOM : '') + csvRecord(columns.map((c) => c.name));
    for await (const r of rows) yield csvRecord(columns.map((c) => c.value(r)));
    return;
  }
  for await (const r of rows) {
    const obj: Record<string, Cell> = {};
    for (const c of columns) obj[c.name] = c.value(r);
    yield jsonRecord(obj);
  }
}

/**
 * The export as lines, each with its line end; for CSV the header comes first.
 * Streams: the store is read 1000 rows at a time, never loaded whole.
 */
export async function* exportLines(
  store: Store,
  input: ExportOptionsInput,
): AsyncGenerator<string> {
  const o = parseExportOptions(input);
  switch (o.what) {
    case 'history':
      yield* encode(store.history(), HISTORY_COLUMNS, o);
      return;
    case 'pages': {
      const pages = o.text ? withText(store, store.pages(), o.bodyConcurrency) : store.pages();
      yield* encode<PageRow>(pages, pageColumns(o.text), o);
      return;
    }
    case 'urls':
      yield* encode(store.urls(o.state), URL_COLUMNS, o);
      return;
    case 'links':
      yield* encode(store.links(), LINK_COLUMNS, o);
      return;
    case 'changes':
      yield* encode(store.visits(), CHANGE_COLUMNS, o);
      return;
  }
}

/** Characters gathered before each call of `write`. */
const CHUNK_CHARS = 64 * 1024;

/**
 * Writes the export through `write` in chunks of about 64 K characters, awaiting
 * each call (return a promise from `write` to apply backpressure). Resolves to
 * the number of records written (the CSV header not counted).
 */
export async function exportStore(
  store: Store,
  input: ExportOptionsInput,
  write: (chunk: string) => void | Promise<void>,
): Promise<{ rows: number }> {
  const csv = parseExportOptions(input).format === 'csv';
  let lines = 0;
  let buf = '';
  for await (const line of exportLines(store, input)) {
    lines++;
    buf += line;
    if (buf.length >= CHUNK_CHARS) {
      await write(buf);
      buf = '';
    }
  }
  if (buf.length > 0) await write(buf);
  return { rows: csv ? lines - 1 : lines };
}
