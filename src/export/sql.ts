// SQL encoding of export rows (docs/export.md, "SQL"): a script that creates the
// table and fills it, for SQLite or PostgreSQL. Pure.
import type { Column, ColumnType } from './columns.js';
import type { Cell } from './csv.js';
import type { RecordRow } from './records.js';

export const SQL_DIALECTS = ['sqlite', 'postgres'] as const;
export type SqlDialect = (typeof SQL_DIALECTS)[number];

/** Rows per transaction (and per INSERT statement). */
export const SQL_BATCH_ROWS = 1000;
/** A transaction also ends once its values reach about this many characters. */
const SQL_BATCH_CHARS = 4 * 1024 * 1024;

const TYPES: Record<SqlDialect, Record<ColumnType, string>> = {
  sqlite: { text: 'TEXT', url: 'TEXT', integer: 'INTEGER', real: 'REAL', time: 'TEXT' },
  postgres: {
    text: 'text',
    url: 'text',
    integer: 'bigint',
    real: 'double precision',
    time: 'timestamptz',
  },
};

/** `fetchedAt` → `"fetched_at"`: snake case, always quoted (`from` and `to` are reserved words). */
export function sqlName(name: string): string {
  return `"${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replaceAll('"', '""')}"`;
}

/**
 * A literal: NULL; a number as JavaScript writes it (NULL when not finite); a string
 * in single quotes with its single quotes doubled, its NUL characters dropped
 * (PostgreSQL's text cannot hold them) and lone surrogates made U+FFFD (as UTF-8
 * output makes them anyway). Backslashes stay as they are: the PostgreSQL script
 * turns `standard_conforming_strings` on.
 */
export function sqlLiteral(v: Cell): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  let s = v.includes('\0') ? v.replaceAll('\0', '') : v;
  if (SURROGATE.test(s)) s = s.replace(LONE_SURROGATE, '\uFFFD');
  return `'${s.replaceAll("'", "''")}'`;
}

const SURROGATE = /[\uD800-\uDFFF]/;
/** A surrogate that is not half of a pair (in `u` mode a pair is one code point). */
const LONE_SURROGATE = /\p{Cs}/gu;

export interface SqlTable<R> {
  name: string;
  columns: readonly Column<R>[];
  primaryKey?: readonly string[];
  /** `[columns, table, its columns]` of a foreign key. */
  foreignKey?: readonly [readonly string[], string, readonly string[]];
}

function createTable<R>(t: SqlTable<R>, d: SqlDialect): string {
  const key = new Set(t.primaryKey);
  const defs = t.columns.map(
    (c) => `  ${sqlName(c.name)} ${TYPES[d][c.type]}${key.has(c.name) ? ' NOT NULL' : ''}`,
  );
  if (t.primaryKey) defs.push(`  PRIMARY KEY (${t.primaryKey.map(sqlName).join(', ')})`);
  if (t.foreignKey) {
    const [cols, table, refs] = t.foreignKey;
    defs.push(
      `  FOREIGN KEY (${cols.map(sqlName).join(', ')}) REFERENCES ${sqlName(table)} (${refs.map(sqlName).join(', ')})`,
    );
  }
  return `CREATE TABLE ${sqlName(t.name)} (\n${defs.join(',\n')}\n);\n`;
}

const insertInto = <R>(t: SqlTable<R>) =>
  `INSERT INTO ${sqlName(t.name)} (${t.columns.map((c) => sqlName(c.name)).join(', ')}) VALUES\n`;

const tuple = <R>(columns: readonly Column<R>[], r: R) =>
  `(${columns.map((c) => sqlLiteral(c.value(r))).join(', ')})`;

function prologue(d: SqlDialect, tables: readonly SqlTable<never>[]): string {
  const head =
    d === 'postgres'
      ? "-- focuscrawl export for PostgreSQL\nSET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\n"
      : '-- focuscrawl export for SQLite\n';
  return `${head}\n${tables.map((t) => createTable(t, d)).join('\n')}\n`;
}

/**
 * The script a piece at a time, each ending with a line end: the CREATE TABLE, then
 * INSERTs of up to `SQL_BATCH_ROWS` rows, each in its own transaction (BEGIN … COMMIT).
 */
export async function* sqlLines<R>(
  table: SqlTable<R>,
  rows: AsyncIterable<R>,
  d: SqlDialect,
): AsyncGenerator<string> {
  yield prologue(d, [table as SqlTable<never>]);
  // The last row's tuple waits for what follows it: a comma, or the end of the batch.
  let pending: string | undefined;
  let n = 0;
  let chars = 0;
  for await (const r of rows) {
    yield pending === undefined ? `BEGIN;\n${insertInto(table)}` : `${pending},\n`;
    pending = tuple(table.columns, r);
    n++;
    chars += pending.length;
    if (n >= SQL_BATCH_ROWS || chars >= SQL_BATCH_CHARS) {
      yield `${pending};\nCOMMIT;\n`;
      pending = undefined;
      n = 0;
      chars = 0;
    }
  }
  if (pending !== undefined) yield `${pending};\nCOMMIT;\n`;
}

/** One value of a record's field, a row of `record_fields`. */
interface FieldRow {
  url: string;
  ruleSet: string;
  field: string;
  position: number;
  value: string | null;
}

const RECORDS_TABLE: SqlTable<RecordRow> = {
  name: 'records',
  columns: [
    { name: 'url', type: 'url', value: (r) => r.url },
    { name: 'ruleSet', type: 'text', value: (r) => r.ruleSet },
    { name: 'title', type: 'text', value: (r) => r.title },
    { name: 'relevance', type: 'real', value: (r) => r.relevance },
    { name: 'fetchedAt', type: 'time', value: (r) => new Date(r.fetchedAt).toISOString() },
  ],
  primaryKey: ['url', 'ruleSet'],
};

const FIELDS_TABLE: SqlTable<FieldRow> = {
  name: 'recordFields',
  columns: [
    { name: 'url', type: 'url', value: (r) => r.url },
    { name: 'ruleSet', type: 'text', value: (r) => r.ruleSet },
    { name: 'field', type: 'text', value: (r) => r.field },
    { name: 'position', type: 'integer', value: (r) => r.position },
    { name: 'value', type: 'text', value: (r) => r.value },
  ],
  primaryKey: ['url', 'ruleSet', 'field', 'position'],
  foreignKey: [['url', 'ruleSet'], 'records', ['url', 'ruleSet']],
};

/**
 * Records as two tables: `records` (url, rule_set, title, relevance, fetched_at) and
 * `record_fields` (url, rule_set, field, position, value), one row per value, filled
 * together: each transaction inserts up to `SQL_BATCH_ROWS` records, then their values.
 */
export async function* recordSqlLines(
  rows: AsyncIterable<RecordRow>,
  d: SqlDialect,
): AsyncGenerator<string> {
  yield prologue(d, [RECORDS_TABLE, FIELDS_TABLE] as SqlTable<never>[]);
  let records: string[] = [];
  let values: string[] = [];
  let chars = 0;
  const flush = () => {
    let out = `BEGIN;\n${insertInto(RECORDS_TABLE)}${records.join(',\n')};\n`;
    if (values.length > 0) out += `${insertInto(FIELDS_TABLE)}${values.join(',\n')};\n`;
    records = [];
    values = [];
    chars = 0;
    return `${out}COMMIT;\n`;
  };
  for await (const r of rows) {
    const t = tuple(RECORDS_TABLE.columns, r);
    records.push(t);
    chars += t.length;
    for (const f of r.fields) {
      f.values.forEach((value, position) => {
        const v = tuple(FIELDS_TABLE.columns, {
          url: r.url,
          ruleSet: r.ruleSet,
          field: f.name,
          position,
          value,
        });
        values.push(v);
        chars += v.length;
      });
    }
    if (records.length >= SQL_BATCH_ROWS || chars >= SQL_BATCH_CHARS) yield flush();
  }
  if (records.length > 0) yield flush();
}
