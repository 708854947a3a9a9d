import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import Database from 'better-sqlite3';
import { createMemoryStore, openStore, type Store } from '../store/index.js';
import {
  buildMemoryRecordStore,
  buildRecordStore,
  jsonRows,
  snakeCase,
} from './__fixtures__/records.js';
import { buildRevisitStore } from './__fixtures__/revisits.js';
import { type ExportOptionsInput, exportLines, sqlLiteral } from './index.js';
import { SQL_BATCH_ROWS } from './sql.js';
import { SAMPLE } from './testing.js';

async function script(store: Store, o: ExportOptionsInput): Promise<string> {
  let out = '';
  for await (const l of exportLines(store, { ...o, format: 'sql' })) out += l;
  return out;
}

const snake = snakeCase;
/** A string as the SQL script holds it: NUL dropped, lone surrogates U+FFFD. */
const noNul = (v: unknown) =>
  typeof v === 'string' ? Buffer.from(v.replaceAll('\0', ''), 'utf8').toString('utf8') : v;

let sample: string;
let revisits: string;
before(async () => {
  sample = await buildRecordStore();
  revisits = await buildRevisitStore();
});

test('every table loads into SQLite and reads back equal, typed', async () => {
  const cases: [string, ExportOptionsInput, string][] = [
    [sample, { what: 'history' }, 'history'],
    [sample, { what: 'pages' }, 'pages'],
    [sample, { what: 'urls' }, 'urls'],
    [sample, { what: 'links' }, 'links'],
    [revisits, { what: 'changes' }, 'changes'],
  ];
  for (const [dir, o, table] of cases) {
    const store = await openStore(dir, { readonly: true });
    try {
      const db = new Database(':memory:');
      db.exec(await script(store, o));
      const got = db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Record<
        string,
        unknown
      >[];
      const want = (await jsonRows(store, o)).map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [snake(k), noNul(v)])),
      );
      assert.ok(want.length > 0);
      assert.deepEqual(got, want, table);
      const types = db.prepare(`SELECT name, type FROM pragma_table_info('${table}')`).all();
      if (table === 'pages') {
        assert.deepEqual(
          types.filter((t) =>
            ['url', 'bytes', 'relevance', 'fetched_at'].includes((t as { name: string }).name),
          ),
          [
            { name: 'url', type: 'TEXT' },
            { name: 'fetched_at', type: 'TEXT' },
            { name: 'bytes', type: 'INTEGER' },
            { name: 'relevance', type: 'REAL' },
          ],
        );
      }
      db.close();
    } finally {
      await store.close();
    }
  }
});

test('records load as records and record_fields; hostile text survives but NUL', async () => {
  for (const build of [
    async () => openStore(sample, { readonly: true }),
    async () => buildMemoryRecordStore(),
  ]) {
    const store = await build();
    try {
      const db = new Database(':memory:');
      db.exec(await script(store, { what: 'records' }));
      const records = db.prepare('SELECT * FROM records ORDER BY rowid').all() as Record<
        string,
        unknown
      >[];
      const json = await jsonRows(store, { what: 'records' });
      assert.deepEqual(
        records,
        json.map((r) => ({
          url: r['url'],
          rule_set: r['ruleSet'],
          title: noNul(r['title']),
          relevance: r['relevance'],
          fetched_at: r['fetchedAt'],
        })),
      );
      const values = db
        .prepare('SELECT url, rule_set, field, position, value FROM record_fields ORDER BY rowid')
        .all();
      const want = json.flatMap((r) =>
        Object.entries(r['fields'] as Record<string, unknown>).flatMap(([field, v]) =>
          (Array.isArray(v) ? v : [v]).map((value, position) => ({
            url: r['url'],
            rule_set: r['ruleSet'],
            field,
            position,
            value: noNul(value),
          })),
        ),
      );
      assert.deepEqual(values, want);
      const body = db
        .prepare("SELECT value FROM record_fields WHERE field = 'body'")
        .pluck()
        .get() as string;
      assert.ok(body.startsWith('\u0001\u0008\u000B'), JSON.stringify(body.slice(0, 10)));
      assert.ok(body.includes(']]>|<&>"\'|中文|😀|') && body.includes("\\''|end"));
      assert.equal(
        db.prepare('SELECT count(*) FROM record_fields WHERE url = ?').pluck().get(SAMPLE.home),
        8,
      );
      db.close();
    } finally {
      await store.close();
    }
  }
});

test('sqlLiteral: quotes doubled, NUL dropped, backslashes kept, numbers plain', () => {
  assert.equal(sqlLiteral("O'Neil"), "'O''Neil'");
  assert.equal(sqlLiteral('a\0b\\n'), "'ab\\n'");
  assert.equal(sqlLiteral(null), 'NULL');
  assert.equal(sqlLiteral(0.25), '0.25');
  assert.equal(sqlLiteral(Number.NaN), 'NULL');
  assert.equal(sqlLiteral(1.7976931348623157e308), '1.7976931348623157e+308');
  const db = new Database(':memory:');
  const hostile = "a\0\u0001]]>''\\中文😀\r\n\t'";
  assert.equal(
    db
      .prepare(`SELECT ${sqlLiteral(hostile)}`)
      .pluck()
      .get(),
    hostile.replace('\0', ''),
  );
  db.close();
});

test('rows go in transactions of SQL_BATCH_ROWS', async () => {
  const store = createMemoryStore();
  const n = SQL_BATCH_ROWS * 2 + 5;
  await store.addUrls(
    Array.from({ length: n }, (_, i) => ({ url: `http://t.test/${i}`, depth: 1, priority: 0 })),
  );
  const sql = await script(store, { what: 'urls' });
  assert.equal(sql.match(/^BEGIN;$/gm)?.length, 3);
  assert.equal(sql.match(/^COMMIT;$/gm)?.length, 3);
  const db = new Database(':memory:');
  db.exec(sql);
  assert.equal(db.prepare('SELECT count(*) FROM urls').pluck().get(), n);
  db.close();
});
