// The SQL export for PostgreSQL, loaded with psql into a real, throwaway cluster
// (test/pg.ts) and read back. Skipped on a machine without PostgreSQL, except under CI.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  buildMemoryRecordStore,
  buildRecordStore,
  jsonRows,
  snakeCase,
} from '../src/export/__fixtures__/records.js';
import { buildRevisitStore } from '../src/export/__fixtures__/revisits.js';
import { type ExportOptionsInput, exportLines } from '../src/export/index.js';
import { openStore, type Store } from '../src/store/index.js';
import { tempDir } from '../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from './pg.js';

const out = tempDir('pg-export');

async function scriptFile(store: Store, o: ExportOptionsInput, name: string): Promise<string> {
  let sql = '';
  for await (const l of exportLines(store, { ...o, format: 'sql', dialect: 'postgres' })) sql += l;
  const file = join(out, `${name}.sql`);
  writeFileSync(file, sql, 'utf8');
  return file;
}

const TIMES = new Set(['fetched_at', 'discovered_at', 'at', 'last_modified']);
const snake = snakeCase;
/** A string as PostgreSQL keeps it: no NUL, well-formed UTF-16. */
const asStored = (v: unknown) =>
  typeof v === 'string' ? Buffer.from(v.replaceAll('\0', ''), 'utf8').toString('utf8') : v;
/** A row with snake-case keys and times as milliseconds (timestamptz comes back as +00:00). */
const normal = (row: Record<string, unknown>, keys = snake) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => {
      const key = keys(k);
      return [key, TIMES.has(key) && typeof v === 'string' ? Date.parse(v) : asStored(v)];
    }),
  );

describe('SQL export into PostgreSQL', { skip: pgSkipReason() }, () => {
  let pg: PgCluster;
  let sample: string;
  let revisits: string;
  let n = 0;
  before(async () => {
    pg = await startPg();
    sample = await buildRecordStore();
    revisits = await buildRevisitStore();
  });
  after(async () => {
    await pg?.stop();
  });

  /** Loads the export of `o` into a new database and reads `table` back, in load order. */
  async function load(store: Store, o: ExportOptionsInput, table: string, order: string) {
    const db = `t${++n}`;
    await pg.createDatabase(db);
    await pg.psql(db, ['-f', await scriptFile(store, o, db)]);
    return { db, rows: await pg.queryJson(db, `SELECT * FROM ${table} ORDER BY ${order}`) };
  }

  it('loads every table with psql and reads it back equal', async () => {
    const cases: [string, ExportOptionsInput, string, string][] = [
      [sample, { what: 'history' }, 'history', 'fetched_at, url'],
      [sample, { what: 'pages' }, 'pages', 'fetched_at'],
      [sample, { what: 'urls' }, 'urls', 'id'],
      [sample, { what: 'links' }, 'links', '"from", "to"'],
      [revisits, { what: 'changes' }, 'changes', 'at'],
    ];
    for (const [dir, o, table, order] of cases) {
      const store = await openStore(dir, { readonly: true });
      try {
        const { rows } = await load(store, o, table, order);
        const want = (await jsonRows(store, o)).map((r) => normal(r));
        const sortKey = (r: Record<string, unknown>) => JSON.stringify(r);
        assert.deepEqual(
          rows.map((r) => normal(r, (k) => k)).sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
          want.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
          table,
        );
      } finally {
        await store.close();
      }
    }
  });

  it('types the columns for PostgreSQL', async () => {
    const store = await openStore(sample, { readonly: true });
    try {
      const { db } = await load(store, { what: 'pages', text: false }, 'pages', 'url');
      const types = await pg.queryJson<{ column_name: string; data_type: string }>(
        db,
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'pages' AND column_name IN ('url', 'fetched_at', 'bytes', 'relevance') ORDER BY ordinal_position",
      );
      assert.deepEqual(types, [
        { column_name: 'url', data_type: 'text' },
        { column_name: 'fetched_at', data_type: 'timestamp with time zone' },
        { column_name: 'bytes', data_type: 'bigint' },
        { column_name: 'relevance', data_type: 'double precision' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('loads records and their field values, hostile text and all (NUL dropped)', async () => {
    for (const [name, store] of [
      ['sqlite', await openStore(sample, { readonly: true })],
      ['memory', await buildMemoryRecordStore()],
    ] as const) {
      try {
        const { db, rows } = await load(store, { what: 'records' }, 'records', 'url, rule_set');
        const json = await jsonRows(store, { what: 'records' });
        assert.deepEqual(
          rows.map((r) => normal(r, (k) => k)),
          json.map((r) =>
            normal({
              url: r['url'],
              ruleSet: r['ruleSet'],
              title: r['title'],
              relevance: r['relevance'],
              fetchedAt: r['fetchedAt'],
            }),
          ),
          name,
        );
        const values = await pg.queryJson(
          db,
          'SELECT url, rule_set, field, position, value FROM record_fields ORDER BY url, rule_set, field, position',
        );
        const want = json.flatMap((r) =>
          Object.entries(r['fields'] as Record<string, unknown>).flatMap(([field, v]) =>
            (Array.isArray(v) ? v : [v]).map((value, position) => ({
              url: r['url'],
              rule_set: r['ruleSet'],
              field,
              position,
              value: asStored(value),
            })),
          ),
        );
        const key = (x: Record<string, unknown>) =>
          `${x['url']}\u0000${x['rule_set']}\u0000${x['field']}\u0000${String(x['position']).padStart(4, '0')}`;
        // PostgreSQL orders text by its C collation (bytes), as the store does
        assert.deepEqual(
          values,
          want.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
          name,
        );
        const body = values.find((v) => v['field'] === 'body')?.['value'] as string;
        assert.ok(body.includes(']]>|<&>"\'|中文|😀|') && body.includes("\\''|end"), name);
        const fk = await pg.queryJson(
          db,
          "SELECT conname FROM pg_constraint WHERE conrelid = 'record_fields'::regclass AND contype = 'f'",
        );
        assert.equal(fk.length, 1);
      } finally {
        await store.close();
      }
    }
  });

  it('a broken script stops psql (ON_ERROR_STOP)', async () => {
    await pg.createDatabase('broken');
    const file = join(out, 'broken.sql');
    writeFileSync(file, "CREATE TABLE t (x int);\nINSERT INTO t VALUES ('no');\n");
    await assert.rejects(pg.psql('broken', ['-f', file]), /invalid input syntax/);
  });
});
