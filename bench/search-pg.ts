// Full-text search, PostgreSQL against SQLite (BENCHMARKS.md, "Full-text search", "On
// PostgreSQL"): bench/search.mjs's fill and query mix (bench/search-mix.mjs) run on a
// SQLite store and a PostgreSQL store side by side in one run.
//  1. The fill: N kept pages of the large test web committed in batches through
//     `Store.commit` into four stores in step, each with its text (indexed) and without
//     (nothing indexed), on SQLite and on PostgreSQL: the indexing rate of each, and on
//     PostgreSQL the server's CPU per page and the share of the commit spent tokenising
//     in JavaScript (prepareText, run again on the same pages apart).
//  2. Sizes: the SQLite store's file and its FTS5 tables (dbstat); PostgreSQL's
//     page_text and page_terms with their indexes (pg_total_relation_size), after a
//     VACUUM (ANALYZE) that also merges the GIN index's pending list.
//  3. The same semantics: for every query of the mix, the pages matching on each store
//     (as sets) and the hits `Store.search` returns (URLs in order, BM25, snippets) at
//     the bench's limit and at --check-limit, at the default scoreWeight (0.3) and at 0
//     (BM25 alone); bench/search-pg-same.ts. Prints the number of queries that differ.
//  4. Latency of `Store.search` per query class, each store's runs interleaved, with
//     the ratio PostgreSQL / SQLite.
//  5. With --alternatives: what the two designs set aside would give on the same pages
//     (bench/search-pg-alt.ts): PostgreSQL's `english` configuration and pg_trgm.
// PostgreSQL is a throwaway cluster on 127.0.0.1 (test/pg.ts) with its durability on
// (fsync, synchronous_commit, full_page_writes) and its defaults otherwise; the client
// and the server share the machine.
//
//   node --import tsx bench/search-pg.ts [--pages 20000] [--batch 500] [--repeats 20]
//       [--limit 10] [--check-limit 1000] [--alternatives]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import Pg from 'pg';
import { analyzeBody } from '../src/parse/index.js';
import { DB_FILE, openPgStore, openStore, type Store } from '../src/store/index.js';
import { prepareText } from '../src/store/pg-search-index.js';
import { listPageUrls, pageHtml } from '../src/testweb/index.js';
import { startPg } from '../test/pg.js';
import { serverCpuMs } from './scale-pg.js';
import { type FillPage, outcomesOf, pageAt, QUERIES, WEB } from './search-mix.mjs';
import { alternatives } from './search-pg-alt.js';
import { sameSemantics } from './search-pg-same.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '20000' },
    batch: { type: 'string', default: '500' },
    repeats: { type: 'string', default: '20' },
    limit: { type: 'string', default: '10' },
    'check-limit': { type: 'string', default: '1000' },
    alternatives: { type: 'boolean', default: false },
  },
});
const pages = Number(values.pages);
const batch = Number(values.batch);
const repeats = Number(values.repeats);
const limit = Number(values.limit);
const checkLimit = Number(values['check-limit']);

const DB = 'search';
const rate = (n: number, ms: number) => Math.round((n * 1000) / ms).toLocaleString('en-US');
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');
const now = () => performance.now();
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
/** Nearest-rank percentile of sorted numbers. */
const pct = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;

/** Bytes of a store directory's files. */
function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

interface FillTiming {
  sqliteText: number;
  sqliteNone: number;
  pgText: number;
  pgNone: number;
  /** Server CPU (ms) during each PostgreSQL store's commits. */
  pgTextCpu: number;
  pgNoneCpu: number;
  parse: number;
  prepare: number;
  chars: number;
}

type Key = 'sqliteText' | 'sqliteNone' | 'pgText' | 'pgNone';

async function fill(stores: Record<Key, Store>, cpu: () => number): Promise<FillTiming> {
  const urls = listPageUrls(WEB);
  const tools = { analyzeBody, pageHtml };
  const t: FillTiming = {
    sqliteText: 0,
    sqliteNone: 0,
    pgText: 0,
    pgNone: 0,
    pgTextCpu: 0,
    pgNoneCpu: 0,
    parse: 0,
    prepare: 0,
    chars: 0,
  };
  let fetchedAt = Date.now();
  for (let i = 0; i < pages; i += batch) {
    const t0 = now();
    const items: FillPage[] = [];
    for (let j = i; j < Math.min(pages, i + batch); j++) items.push(pageAt(tools, urls, j));
    t.parse += now() - t0;
    for (const key of ['sqliteText', 'sqliteNone', 'pgText', 'pgNone'] as const) {
      const store = stores[key];
      await store.addUrls(items.map((p) => ({ url: p.url, depth: 1, priority: 0.5 })));
      const claimed = await store.claim(items.length);
      if (claimed.length !== items.length) {
        throw new Error(`${key}: claimed ${claimed.length} of ${items.length}`);
      }
      const outcomes = outcomesOf(items, i, fetchedAt, key.endsWith('Text'));
      const pg = key.startsWith('pg');
      const c0 = pg ? cpu() : 0;
      const t1 = now();
      await store.commit(outcomes);
      t[key] += now() - t1;
      if (key === 'pgText') t.pgTextCpu += cpu() - c0;
      if (key === 'pgNone') t.pgNoneCpu += cpu() - c0;
    }
    // What the PostgreSQL store's commit spends tokenising, apart.
    const t2 = now();
    for (const p of items) prepareText(p.title, p.text);
    t.prepare += now() - t2;
    for (const p of items) t.chars += p.text.length;
    fetchedAt += items.length;
    if ((i + batch) % 10_000 === 0) console.error(`  ${count(i + batch)} pages`);
  }
  return t;
}

/** The FTS5 table's share of the SQLite file, by shadow table. */
function ftsTables(dir: string): { name: string; bytes: number }[] {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  try {
    return db
      .prepare<[], { name: string; bytes: number }>(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'page_text%' GROUP BY name ORDER BY name",
      )
      .all();
  } finally {
    db.close();
  }
}

/** A number a statement returns (first row, column n). */
async function num(c: Pg.Client, sql: string, params: unknown[] = []): Promise<number> {
  return Number((await c.query<{ n: string }>(sql, params)).rows[0]?.n);
}

/** Bytes of every table of a schema, with their indexes and TOAST. */
const schemaBytes = (c: Pg.Client, schema: string) =>
  num(
    c,
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
     JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'`,
    [schema],
  );

/** Sizes on PostgreSQL: each search relation and the whole store schema. */
async function pgSizes(c: Pg.Client, schema: string) {
  const total = (name: string) =>
    num(c, 'SELECT pg_total_relation_size($1::regclass) AS n', [`${schema}.${name}`]);
  const one = (name: string) =>
    num(c, 'SELECT pg_relation_size($1::regclass) AS n', [`${schema}.${name}`]);
  const pageTerms = await total('page_terms');
  return {
    schemaBytes: await schemaBytes(c, schema),
    pageText: await total('page_text'),
    pageTerms,
    gin: await one('page_terms_tsv'),
    termsHeap: pageTerms - (await one('page_terms_tsv')) - (await one('page_terms_pkey')),
    parts: await num(c, `SELECT count(*) AS n FROM ${schema}.page_terms`),
  };
}

/** Latency of Store.search per query, both stores' runs interleaved. */
async function latencies(sqlite: Store, pg: Store) {
  const all = { sqlite: [] as number[], pg: [] as number[] };
  // One untimed pass of each warms the caches.
  for (const q of Object.values(QUERIES).flat()) {
    await sqlite.search({ query: q, limit });
    await pg.search({ query: q, limit });
  }
  const line = (name: string, s: number[], p: number[], indent: string) => {
    const a = sorted(s);
    const b = sorted(p);
    const cell = (x: number) => ms(x).padStart(9);
    return `${indent}${name.padEnd(26 - indent.length + 2)} SQLite p50 ${cell(pct(a, 50))} p99 ${cell(pct(a, 99))} | PostgreSQL p50 ${cell(pct(b, 50))} p99 ${cell(pct(b, 99))} | ×${ratio(pct(b, 50), pct(a, 50)).padStart(6)} ×${ratio(pct(b, 99), pct(a, 99)).padStart(6)}`;
  };
  for (const [name, list] of Object.entries(QUERIES)) {
    const cls = { sqlite: [] as number[], pg: [] as number[] };
    const lines: string[] = [];
    for (const query of list) {
      const own = { sqlite: [] as number[], pg: [] as number[] };
      for (let r = 0; r < repeats; r++) {
        let t0 = now();
        await sqlite.search({ query, limit });
        own.sqlite.push(now() - t0);
        t0 = now();
        await pg.search({ query, limit });
        own.pg.push(now() - t0);
      }
      lines.push(line(query, own.sqlite, own.pg, '    '));
      cls.sqlite.push(...own.sqlite);
      cls.pg.push(...own.pg);
    }
    console.log(line(name, cls.sqlite, cls.pg, '  '));
    for (const l of lines) console.log(l);
    all.sqlite.push(...cls.sqlite);
    all.pg.push(...cls.pg);
  }
  console.log(line(`overall (${count(all.sqlite.length)} each)`, all.sqlite, all.pg, '  '));
}

const pgc = await startPg({ fsync: true });
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-search-pg-'));
const url = (schema: string) => `postgres://postgres@127.0.0.1:${pgc.port}/${DB}?schema=${schema}`;
try {
  await pgc.createDatabase(DB);
  const dirs = { text: join(root, 'with-text'), none: join(root, 'without-text') };
  const stores: Record<Key, Store> = {
    sqliteText: await openStore(dirs.text, { create: true }),
    sqliteNone: await openStore(dirs.none, { create: true }),
    pgText: await openPgStore(url('with_text'), { create: true }),
    pgNone: await openPgStore(url('without_text'), { create: true }),
  };
  console.log(
    `search, SQLite and PostgreSQL: ${count(pages)} kept pages of the large test web (seed 1), commits of ${batch}, limit ${limit}, ${repeats} runs per query`,
  );
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  console.log(
    `  machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load average at the start ${load()}`,
  );
  const t = await fill(stores, () => serverCpuMs(pgc));
  for (const s of Object.values(stores)) await s.close();
  const c = new Pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgc.port}/${DB}` });
  await c.connect();
  try {
    const version = (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
      .rows[0]?.v;
    console.log(`  PostgreSQL ${version}, fsync on, defaults otherwise`);
    const v0 = now();
    await c.query('VACUUM (ANALYZE)');
    const vacuumMs = now() - v0;
    console.log(
      `  text per page             ${count(Math.round(t.chars / pages))} characters (mean)`,
    );
    console.log(`  parse (not counted)       ${rate(pages, t.parse)} pages/s`);
    console.log(
      `  SQLite commit             with text ${rate(pages, t.sqliteText)} pages/s, without ${rate(pages, t.sqliteNone)} pages/s; indexing alone ${ms(Math.max(0, t.sqliteText - t.sqliteNone) / pages)} a page`,
    );
    console.log(
      `  PostgreSQL commit         with text ${rate(pages, t.pgText)} pages/s, without ${rate(pages, t.pgNone)} pages/s; indexing alone ${ms(Math.max(0, t.pgText - t.pgNone) / pages)} a page, of which tokenising in JS ${ms(t.prepare / pages)}`,
    );
    console.log(
      `  PostgreSQL server CPU     with text ${ms(t.pgTextCpu / pages)} a page, without ${ms(t.pgNoneCpu / pages)} a page; VACUUM (ANALYZE) after the fill ${(vacuumMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  ratio PostgreSQL / SQLite commit with text: ${ratio(t.pgText, t.sqliteText)} the time`,
    );
    const sqliteWith = dirBytes(dirs.text);
    const sqliteWithout = dirBytes(dirs.none);
    const fts = ftsTables(dirs.text);
    const ftsTotal = fts.reduce((s, r) => s + r.bytes, 0);
    console.log(
      `  SQLite store              with text ${mib(sqliteWith)}, without ${mib(sqliteWithout)}; FTS5 tables ${mib(ftsTotal)}: ${fts.map((r) => `${r.name} ${mib(r.bytes)}`).join(', ')}`,
    );
    const pw = await pgSizes(c, 'with_text');
    const pn = await schemaBytes(c, 'without_text');
    const search = pw.pageText + pw.pageTerms;
    console.log(
      `  PostgreSQL store          with text ${mib(pw.schemaBytes)}, without ${mib(pn)}; page_text + page_terms ${mib(search)}: page_text ${mib(pw.pageText)}, page_terms ${mib(pw.pageTerms)} (${count(pw.parts)} parts; GIN ${mib(pw.gin)}, tsvectors ${mib(pw.termsHeap)})`,
    );
    console.log(`  ratio PostgreSQL / SQLite search tables: ${ratio(search, ftsTotal)} the size`);

    await c.query('SET search_path TO with_text, public');
    const sqlite = await openStore(dirs.text, { readonly: true });
    const pg = await openPgStore(url('with_text'), { readonly: true });
    try {
      await sameSemantics(sqlite, dirs.text, pg, c, [limit, checkLimit]);
      console.log(`queries (latency of Store.search, limit ${limit})`);
      await latencies(sqlite, pg);
    } finally {
      await sqlite.close();
      await pg.close();
    }
    if (values.alternatives) await alternatives(c, 'with_text', QUERIES);
  } finally {
    await c.end();
  }
  console.log(`  peak RSS of the benchmark ${mib(process.resourceUsage().maxRSS * 1024)}`);
  console.log(
    `  load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await pgc.stop();
  rmSync(root, { recursive: true, force: true });
}
