// Records (`what: 'records'`): one per page and rule set that extracted fields from
// it, joining `store.pages()` and `store.fields()` in one streaming pass (both come
// in the discovery order of the pages).
import { StoreError } from '../errors/index.js';
import type { FieldRecord, PageRecord, Store } from '../store/index.js';
import type { Column } from './columns.js';
import type { Json } from './csv.js';

/** One field of a record: its values in position order. */
export interface RecordField {
  name: string;
  /** Null where the rule set matched the page but the field got nothing. */
  values: (string | null)[];
  /** Several positions (or one above 0): a list, an array in JSON. */
  list: boolean;
}

/** One page as one rule set saw it. */
export interface RecordRow {
  url: string;
  title: string | null;
  relevance: number;
  fetchedAt: number;
  ruleSet: string;
  /** In name order (code points), as the store keeps them. */
  fields: RecordField[];
}

export const RECORD_COLUMNS: readonly Column<RecordRow>[] = [
  { name: 'url', type: 'url', value: (r) => r.url },
  { name: 'title', type: 'text', value: (r) => r.title },
  { name: 'relevance', type: 'real', value: (r) => r.relevance },
  { name: 'fetchedAt', type: 'time', value: (r) => new Date(r.fetchedAt).toISOString() },
  { name: 'ruleSet', type: 'text', value: (r) => r.ruleSet },
];

/** What separates the values of a list field in a CSV or HTML cell. */
export const LIST_SEPARATOR = ' | ';

/** The prefix of the field columns of CSV and HTML (`fields.price`). */
export const FIELD_COLUMN_PREFIX = 'fields.';

/** A field's value in JSON: its value, or an array of them for a list. */
export function fieldJson(f: RecordField): Json {
  return f.list ? f.values : (f.values[0] ?? null);
}

/** The `fields` object of a JSON record (own keys only, `__proto__` included). */
export function fieldsJson(r: RecordRow): Record<string, Json> {
  return Object.fromEntries(r.fields.map((f) => [f.name, fieldJson(f)]));
}

/**
 * The flat form of records (CSV, HTML): the record columns, then one column per field
 * name of `names` (`fields.NAME`), empty where the record has no such field, list
 * values joined with `LIST_SEPARATOR` (a null value of a list as an empty string).
 */
export function flatRecordColumns(names: readonly string[]): Column<RecordRow>[] {
  return [
    ...RECORD_COLUMNS,
    ...names.map(
      (name): Column<RecordRow> => ({
        name: FIELD_COLUMN_PREFIX + name,
        type: 'text',
        value: (r) => {
          const f = r.fields.find((x) => x.name === name);
          if (f === undefined) return null;
          if (!f.list) return f.values[0] ?? null;
          return f.values.map((v) => v ?? '').join(LIST_SEPARATOR);
        },
      }),
    ),
  ];
}

/** The union of the field names of every rule set, by code point. */
export async function fieldNames(store: Store): Promise<string[]> {
  const names = new Set<string>();
  for (const s of await store.fieldStats()) for (const f of s.fields) names.add(f.field);
  return [...names].sort(byCodePoint);
}

function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

interface PageGroup {
  url: string;
  rows: FieldRecord[];
}

/** The field rows of one page at a time. */
async function* byPage(rows: AsyncIterable<FieldRecord>): AsyncGenerator<PageGroup> {
  let group: PageGroup | undefined;
  for await (const r of rows) {
    if (group?.url !== r.url) {
      if (group !== undefined) yield group;
      group = { url: r.url, rows: [] };
    }
    group.rows.push(r);
  }
  if (group !== undefined) yield group;
}

/** The records of one page: one per rule set, rows in (rule set, field, position) order. */
function* toRecords(page: PageRecord, rows: readonly FieldRecord[]): Generator<RecordRow> {
  let rec: RecordRow | undefined;
  let field: RecordField | undefined;
  for (const r of rows) {
    if (rec?.ruleSet !== r.ruleSet) {
      if (rec !== undefined) yield rec;
      const { url, title, relevance, fetchedAt } = page;
      rec = { url, title, relevance, fetchedAt, ruleSet: r.ruleSet, fields: [] };
      field = undefined;
    }
    if (field?.name !== r.field) {
      field = { name: r.field, values: [], list: r.position > 0 };
      rec.fields.push(field);
    } else {
      field.list = true;
    }
    field.values.push(r.value);
  }
  if (rec !== undefined) yield rec;
}

/**
 * Passes over the pages before the join gives up (`StoreError`): one, unless the
 * store changed under the export (see `recordRows`).
 */
export const MAX_JOIN_PASSES = 50;

/**
 * The records of every page that has fields, in the pages' order. Both streams are
 * walked once, side by side: a page takes the field rows at the head of the fields
 * stream when they are its own. Only when a crawl writes to the store during the
 * export can a page's fields come where the pages stream has gone past it (or
 * without the page in it): then the pages are walked again from the start for the
 * remaining field rows, and the page whose rows a whole pass did not find is left
 * out (it was written during the export). After `MAX_JOIN_PASSES` passes the export
 * fails.
 */
export async function* recordRows(store: Store): AsyncGenerator<RecordRow> {
  const groups = byPage(store.fields())[Symbol.asyncIterator]();
  let head = await groups.next();
  for (let pass = 1; !head.done; pass++) {
    if (pass > MAX_JOIN_PASSES) {
      throw new StoreError(
        `export records: the store changed too much while it was read (${MAX_JOIN_PASSES} passes over its pages); export again when no crawl writes to it`,
      );
    }
    const first = head.value;
    for await (const page of store.pages()) {
      if (head.done) break;
      if (page.url !== head.value.url) continue;
      yield* toRecords(page, head.value.rows);
      head = await groups.next();
    }
    // A pass that matched nothing: the head's page is not in the store's pages.
    if (!head.done && head.value === first) head = await groups.next();
  }
}
