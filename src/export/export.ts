// Streams a store's history, pages, URLs, links, revisits or extracted records as
// JSON Lines, CSV, XML, HTML, SQL, or the pages as WARC.
import { InvalidOptionError } from '../errors/index.js';
import { visibleText } from '../parse/index.js';
import type { PageRecord, Store } from '../store/index.js';
import { ordered } from './ahead.js';
import {
  CHANGE_COLUMNS,
  type Column,
  HISTORY_COLUMNS,
  LINK_COLUMNS,
  type PageRow,
  pageColumns,
  URL_COLUMNS,
} from './columns.js';
import { BOM, csvRecord, type Json, jsonRecord } from './csv.js';
import { htmlLines, recordCell } from './html.js';
import {
  type ExportOptions,
  type ExportOptionsInput,
  parseExportOptions,
  type TextExportOptionsInput,
} from './options.js';
import {
  FIELD_COLUMN_PREFIX,
  fieldNames,
  fieldsJson,
  flatRecordColumns,
  RECORD_COLUMNS,
  type RecordRow,
  recordRows,
} from './records.js';
import { recordSqlLines, sqlLines } from './sql.js';
import { warcChunks } from './warc.js';
import { recordFieldsXml, xmlLines } from './xml.js';

export {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  type ExportOptions,
  type ExportOptionsInput,
  type ExportWhat,
  exportOptionsSchema,
  PAGE_STATES,
  parseExportOptions,
  type TextExportFormat,
  type TextExportOptionsInput,
} from './options.js';

/** The visible text of a stored page: HTML's visible text, or the decoded text of text/XML. */
export async function pageText(store: Store, page: PageRecord): Promise<string | null> {
  const body = await store.readBody(page.url);
  if (body === null) return null;
  return visibleText(body, page.contentType ?? undefined, page.url) ?? null;
}

/** Counts the rows read through it. */
interface Counter {
  rows: number;
}

async function* counted<R>(rows: AsyncIterable<R>, c: Counter): AsyncGenerator<R> {
  for await (const r of rows) {
    c.rows++;
    yield r;
  }
}

/** A table of the store, as the SQL export names it. */
interface Table<R> {
  name: string;
  columns: readonly Column<R>[];
  rows: AsyncIterable<R>;
  primaryKey?: readonly string[];
}

/** The text forms of a table; `json` adds keys to each JSON Lines record. */
async function* encode<R>(
  t: Table<R>,
  o: ExportOptions,
  json?: (r: R) => Record<string, Json>,
): AsyncGenerator<string> {
  switch (o.format) {
    case 'csv':
      yield (o.bom ? BOM : '') + csvRecord(t.columns.map((c) => c.name));
      for await (const r of t.rows) yield csvRecord(t.columns.map((c) => c.value(r)));
      return;
    case 'xml':
      yield* xmlLines(o.what, t.columns, t.rows);
      return;
    case 'html':
      yield* htmlLines(t.columns, t.rows, { what: o.what, source: o.source });
      return;
    case 'sql':
      yield* sqlLines(t, t.rows, o.dialect ?? 'sqlite');
      return;
    default:
      for await (const r of t.rows) {
        const obj: Record<string, Json> = {};
        for (const c of t.columns) obj[c.name] = c.value(r);
        yield jsonRecord(json ? { ...obj, ...json(r) } : obj);
      }
  }
}

/** Records: nested where the format nests (JSON Lines, XML, SQL), flat in CSV and HTML. */
async function* encodeRecords(
  store: Store,
  o: ExportOptions,
  rows: AsyncIterable<RecordRow>,
): AsyncGenerator<string> {
  switch (o.format) {
    case 'csv':
      yield* encode(
        { name: 'records', columns: flatRecordColumns(await fieldNames(store)), rows },
        o,
      );
      return;
    case 'html': {
      const columns = flatRecordColumns(await fieldNames(store));
      const cell = recordCell(FIELD_COLUMN_PREFIX);
      yield* htmlLines(columns, rows, { what: o.what, source: o.source, cell });
      return;
    }
    case 'xml':
      yield* xmlLines(o.what, RECORD_COLUMNS, rows, recordFieldsXml);
      return;
    case 'sql':
      yield* recordSqlLines(rows, o.dialect ?? 'sqlite');
      return;
    default:
      yield* encode({ name: 'records', columns: RECORD_COLUMNS, rows }, o, (r) => ({
        fields: fieldsJson(r),
      }));
  }
}

/** The pages of `pages` in `state` (all of them without one). */
async function* inState<T extends { state: string }>(
  pages: AsyncIterable<T>,
  state: string | undefined,
): AsyncGenerator<T> {
  for await (const p of pages) if (state === undefined || p.state === state) yield p;
}

/** The export, a piece at a time: strings, or Buffers for WARC. */
async function* pieces(
  store: Store,
  o: ExportOptions,
  c: Counter,
): AsyncGenerator<string | Buffer> {
  switch (o.what) {
    case 'history':
      yield* encode(
        { name: 'history', columns: HISTORY_COLUMNS, rows: counted(store.history(), c) },
        o,
      );
      return;
    case 'pages': {
      const stored = inState(store.pages(), o.state);
      if (o.format === 'warc') {
        const warc = { source: o.source, concurrency: o.bodyConcurrency };
        yield* warcChunks(store, stored, warc, () => c.rows++);
        return;
      }
      const pages: AsyncIterable<PageRow> = o.text
        ? ordered(
            stored,
            async (p) => ({ ...p, text: await pageText(store, p) }),
            o.bodyConcurrency,
          )
        : stored;
      const columns = pageColumns(o.text);
      yield* encode({ name: 'pages', columns, rows: counted(pages, c), primaryKey: ['url'] }, o);
      return;
    }
    case 'urls': {
      const rows = counted(store.urls(o.state), c);
      yield* encode({ name: 'urls', columns: URL_COLUMNS, rows, primaryKey: ['id'] }, o);
      return;
    }
    case 'links':
      yield* encode({ name: 'links', columns: LINK_COLUMNS, rows: counted(store.links(), c) }, o);
      return;
    case 'changes':
      yield* encode(
        { name: 'changes', columns: CHANGE_COLUMNS, rows: counted(store.visits(), c) },
        o,
      );
      return;
    case 'records':
      yield* encodeRecords(store, o, counted(recordRows(store), c));
      return;
  }
}

/**
 * The export of a text format (every one but `warc`) in pieces, each ending with a line
 * end: for CSV the header first, for XML, HTML and SQL their opening and closing parts
 * around the rows. Streams: the store is read 1000 rows at a time, never loaded whole.
 */
export async function* exportLines(
  store: Store,
  input: TextExportOptionsInput,
): AsyncGenerator<string> {
  const o = parseExportOptions(input);
  if (o.format === 'warc') {
    throw new InvalidOptionError('format "warc" is binary: use exportChunks or exportStore');
  }
  for await (const p of pieces(store, o, { rows: 0 })) yield p as string;
}

/** The export in pieces: strings for the text formats, Buffers for `warc`. */
export async function* exportChunks(
  store: Store,
  input: ExportOptionsInput,
): AsyncGenerator<string | Buffer> {
  yield* pieces(store, parseExportOptions(input), { rows: 0 });
}

/** Characters (or bytes) gathered before each call of `write`. */
const CHUNK_SIZE = 64 * 1024;

/**
 * Writes the export through `write` in chunks of about 64 K characters (bytes for
 * `warc`, whose chunks are Buffers), awaiting each call (return a promise from
 * `write` to apply backpressure). Resolves to the number of rows written: records
 * of the table (the CSV header not counted), pages for `warc`.
 */
export function exportStore(
  store: Store,
  input: TextExportOptionsInput,
  write: (chunk: string) => void | Promise<void>,
): Promise<{ rows: number }>;
export function exportStore(
  store: Store,
  input: ExportOptionsInput,
  write: (chunk: string | Buffer) => void | Promise<void>,
): Promise<{ rows: number }>;
export async function exportStore(
  store: Store,
  input: ExportOptionsInput,
  write:
    | ((chunk: string) => void | Promise<void>)
    | ((chunk: string | Buffer) => void | Promise<void>),
): Promise<{ rows: number }> {
  // A text format gives strings only, which either writer takes.
  const put = write as (chunk: string | Buffer) => void | Promise<void>;
  const o = parseExportOptions(input);
  const counter: Counter = { rows: 0 };
  let parts: (string | Buffer)[] = [];
  let size = 0;
  const flush = async () => {
    const chunk = typeof parts[0] === 'string' ? parts.join('') : Buffer.concat(parts as Buffer[]);
    parts = [];
    size = 0;
    await put(chunk);
  };
  for await (const p of pieces(store, o, counter)) {
    parts.push(p);
    size += p.length;
    if (size >= CHUNK_SIZE) await flush();
  }
  if (parts.length > 0) await flush();
  return { rows: counter.rows };
}
