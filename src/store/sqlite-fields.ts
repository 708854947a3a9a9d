/**
 * The SQLite store's extracted fields (`ExtractedFields`, table `fields`, schema
 * version 9): written with a complete page by `commit` (sqlite-urls.ts), replaced
 * by `replaceFields`, streamed by key, and counted by `fieldStats` in two GROUP BY
 * queries.
 */
import type { Database } from 'better-sqlite3';
import { InvalidOptionError } from '../errors/index.js';
import type { ExtractedFields } from './contracts.js';
import type { FieldRecord, FieldStats, FieldValue } from './field-types.js';
import type { FoundUrl, Writes } from './sqlite-statements.js';
import type { UrlIndex } from './sqlite-urls.js';
import { checkFieldsOptions, checkPageFields } from './validate-fields.js';

/** Rows read per query while streaming. */
const PAGE_ROWS = 1000;

/** Replaces the fields of the page `id` (inside the caller's transaction). */
export function writeFields(w: Writes, id: number, fields: readonly FieldValue[]): void {
  w.clearFields.run(id);
  for (const f of fields) w.field.run(id, f.ruleSet, f.field, f.position, f.value);
}

interface FieldRow {
  url_id: number;
  url: string;
  rule_set: string;
  field: string;
  position: number;
  value: string | null;
}

/** A key of the table; rows come after it. */
type After = [id: number, ruleSet: string, field: string, position: number];

const COLUMNS =
  'f.url_id, u.url, f.rule_set, f.field, f.position, f.value FROM fields f JOIN urls u ON u.id = f.url_id';
const ORDER = `ORDER BY f.url_id, f.rule_set, f.field, f.position LIMIT ${PAGE_ROWS}`;

function prepare(db: Database) {
  return {
    // Both walk the primary key from the last row read.
    all: db.prepare<After, FieldRow>(
      `SELECT ${COLUMNS} WHERE (f.url_id, f.rule_set, f.field, f.position) > (?, ?, ?, ?) ${ORDER}`,
    ),
    ofPage: db.prepare<After, FieldRow>(
      `SELECT ${COLUMNS} WHERE f.url_id = ? AND (f.rule_set, f.field, f.position) > (?, ?, ?) ${ORDER}`,
    ),
    hasPage: db.prepare<[number], number>('SELECT 1 FROM pages WHERE url_id = ?').pluck(),
    ruleSets: db
      .prepare<[], [string, number]>(
        'SELECT rule_set, count(DISTINCT url_id) FROM fields GROUP BY rule_set ORDER BY rule_set',
      )
      .raw(),
    filled: db
      .prepare<[], [string, string, number]>(
        `SELECT rule_set, field, count(DISTINCT iif(value IS NULL, NULL, url_id)) FROM fields
         GROUP BY rule_set, field ORDER BY rule_set, field`,
      )
      .raw(),
  };
}

/** What the fields methods need of the store. */
export interface FieldsContext {
  db: Database;
  /** Runs `fn`, turning driver errors into `StoreError` (a closed store throws). */
  sync<T>(op: string, fn: () => T): T;
  /** Looks a URL up (outside a transaction: a plain read). */
  find(url: string): FoundUrl | undefined;
  /** A write transaction with the URL index. */
  tx<T>(op: string, fn: (ix: UrlIndex) => T): T;
}

export function fieldMethods(c: FieldsContext): ExtractedFields {
  const q = prepare(c.db);
  return {
    async replaceFields(items) {
      checkPageFields('replaceFields', items);
      return c.tx('replaceFields', (ix) => {
        // Every URL first: nothing is written when one is refused.
        const ids = new Map<number, readonly FieldValue[]>();
        items.forEach((it, i) => {
          const id = ix.find(it.url)?.id;
          if (id === undefined || q.hasPage.get(id) === undefined) {
            const is = id === undefined ? 'not a known URL' : 'a URL without a stored page';
            throw new InvalidOptionError(`replaceFields[${i}].url: ${it.url} is ${is}`);
          }
          ids.set(id, it.fields);
        });
        for (const [id, fields] of ids) writeFields(ix.w, id, fields);
        return ids.size;
      });
    },
    fields(options) {
      const url = checkFieldsOptions('fields options', options);
      return stream(c, q, url);
    },
    async fieldStats() {
      return c.sync('fieldStats', () => {
        const out: FieldStats[] = q.ruleSets.all().map(([ruleSet, pages]) => ({
          ruleSet,
          pages,
          fields: [],
        }));
        const byName = new Map(out.map((s) => [s.ruleSet, s]));
        for (const [ruleSet, field, filled] of q.filled.all()) {
          byName.get(ruleSet)?.fields.push({ field, filled });
        }
        return out;
      });
    },
  };
}

async function* stream(
  c: FieldsContext,
  q: ReturnType<typeof prepare>,
  url: string | undefined,
): AsyncGenerator<FieldRecord> {
  let id = 0;
  if (url !== undefined) {
    const found = c.sync('fields', () => c.find(url));
    if (found === undefined) return;
    id = found.id;
  }
  let after: After = [id, '', '', -1];
  for (;;) {
    const rows = c.sync('fields', () => (url === undefined ? q.all : q.ofPage).all(...after));
    for (const r of rows) {
      yield {
        url: r.url,
        ruleSet: r.rule_set,
        field: r.field,
        position: r.position,
        value: r.value,
      };
    }
    if (rows.length < PAGE_ROWS) return;
    const last = rows[rows.length - 1] as FieldRow;
    after = [url === undefined ? last.url_id : id, last.rule_set, last.field, last.position];
  }
}
