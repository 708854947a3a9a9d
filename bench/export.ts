// Export throughput (docs/export.md): MB/s and peak RSS of `exportToFile` per format
// over a large SQLite store built fast (src/export/__fixtures__/bulk.ts: pages with
// bodies and fields of two rule sets). Each export runs in a child process of its own,
// so that its peak RSS is its own.
//
//   node --import tsx bench/export.ts [--pages 100000] [--body-bytes 2000]
//       [--store DIR] [--cases pages.jsonl,records.csv,...|none] [--text] [--heap MB]
//       [--peer-pages 20000] [--rounds 3]
//
// --store DIR reuses (or builds once into) DIR; without it a temporary store is built
// and removed. --text adds the pages export with the visible text (parsing every body).
// --heap MB runs the children with --max-old-space-size=MB: an export that streams
// completes within a small heap whatever the store's size. --cases none leaves only
// the comparison below.
//
// Peer: Crawlee's Dataset (@crawlee/cheerio in bench/node_modules; @crawlee/memory-storage
// persisting to a temporary directory), as a Crawlee crawl keeps and exports its results.
// The records of pages.jsonl / pages.csv (same columns, same values) are read from a store
// of --peer-pages pages and stored with `pushData` in batches of 1000, once, in a child
// timed apart ("storing"). Then --rounds rounds alternate focuscrawl's `exportToFile` and
// Crawlee's `dataset.exportTo(key, {}, type)` (what exportToJSON / exportToCSV call), each
// in a child of its own; medians. The ratio is of rows/s: the formats differ in size.
// Crawlee does more: it reads back one file a record (JSON indented with tabs) and parses
// each. It does less: nothing streams (all records and the whole output in memory, so its
// RSS grows with the dataset); its records are already in their exported shape, where
// focuscrawl turns store rows into them (ISO times, duplicate fields); its JSON is one
// array indented by 2 spaces, not JSON Lines, U+2028/U+2029 left as they are; its CSV
// lines end with LF, not RFC 4180's CRLF, with the columns of the first record only; the
// file is written at once, not through a temporary file renamed when complete. The first
// round's outputs are compared record by record (rows, URLs, every field).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBulkStore } from '../src/export/__fixtures__/bulk.js';
import { type ExportOptionsInput, exportToFile, pageColumns } from '../src/export/index.js';
import { openStore } from '../src/store/index.js';

interface Case {
  name: string;
  options: ExportOptionsInput;
}

const CASES: Case[] = [
  { name: 'pages.jsonl', options: { what: 'pages', format: 'jsonl', text: false } },
  { name: 'pages.csv', options: { what: 'pages', format: 'csv', text: false } },
  { name: 'pages.xml', options: { what: 'pages', format: 'xml', text: false } },
  { name: 'pages.html', options: { what: 'pages', format: 'html', text: false } },
  { name: 'pages.sql', options: { what: 'pages', format: 'sql', text: false } },
  {
    name: 'pages.pg.sql',
    options: { what: 'pages', format: 'sql', dialect: 'postgres', text: false },
  },
  { name: 'records.jsonl', options: { what: 'records', format: 'jsonl' } },
  { name: 'records.csv', options: { what: 'records', format: 'csv' } },
  { name: 'records.xml', options: { what: 'records', format: 'xml' } },
  { name: 'records.html', options: { what: 'records', format: 'html' } },
  { name: 'records.sql', options: { what: 'records', format: 'sql' } },
  { name: 'pages.warc.gz', options: { what: 'pages', format: 'warc' } },
];
const TEXT_CASE: Case = {
  name: 'pages-text.jsonl',
  options: { what: 'pages', format: 'jsonl', text: true },
};

/** No export: the child's RSS with the modules loaded and the store open. */
const BASELINE: Case = { name: 'baseline', options: { what: 'pages' } };

interface Result {
  rows: number;
  bytes: number;
  ms: number;
  maxRssMb: number;
}

const PEER = '@crawlee/cheerio';

/** What the comparison uses of Crawlee. */
interface CrawleeDataset {
  pushData(items: Record<string, unknown>[]): Promise<void>;
  exportTo(key: string, options: object, contentType: string): Promise<unknown[]>;
}
interface Crawlee {
  Configuration: new (o: object) => { getStorageClient(): { teardown?: () => Promise<void> } };
  Dataset: { open(name: string | undefined, o: { config: unknown }): Promise<CrawleeDataset> };
}

/** Crawlee from bench/node_modules, or null when it is not installed. */
async function loadCrawlee(): Promise<Crawlee | null> {
  const name = PEER;
  try {
    return (await import(name)) as Crawlee;
  } catch {
    return null;
  }
}

/** The children of the comparison: Crawlee loaded, storing, and its two exports. */
const PEER_CASES: Record<string, string> = {
  'crawlee.baseline': '',
  'crawlee.store': '',
  'crawlee.json': 'application/json',
  'crawlee.csv': 'text/csv',
};

/**
 * A Crawlee child. `crawlee.store`: the page records of the store `from` pushed into a
 * new dataset persisted in `dir`. The others open the dataset of `from` and export it
 * to the file `dir` (`crawlee.baseline` only opens it).
 */
async function peerChild(from: string, name: string, dir: string): Promise<Result> {
  const crawlee = await loadCrawlee();
  if (crawlee === null) throw new Error(`${PEER} not installed`);
  const storage = name === 'crawlee.store' ? dir : from;
  const config = new crawlee.Configuration({
    persistStorage: true,
    purgeOnStart: false,
    storageClientOptions: { localDataDirectory: storage },
  });
  const dataset = await crawlee.Dataset.open(undefined, { config });
  const teardown = async () => config.getStorageClient().teardown?.();
  let rows = 0;
  let bytes = 0;
  let ms = 0;
  if (name === 'crawlee.store') {
    const store = await openStore(from, { readonly: true });
    const columns = pageColumns(false);
    const items: Record<string, unknown>[] = [];
    for await (const p of store.pages()) {
      items.push(Object.fromEntries(columns.map((c) => [c.name, c.value(p)])));
    }
    await store.close();
    const t0 = performance.now();
    for (let i = 0; i < items.length; i += 1000) await dataset.pushData(items.slice(i, i + 1000));
    await teardown();
    ms = performance.now() - t0;
    rows = items.length;
    const files = join(dir, 'datasets', 'default');
    for (const f of readdirSync(files)) bytes += statSync(join(files, f)).size;
  } else if (name !== 'crawlee.baseline') {
    const t0 = performance.now();
    rows = (await dataset.exportTo('export', {}, PEER_CASES[name] as string)).length;
    await teardown();
    ms = performance.now() - t0;
    const ext = name === 'crawlee.json' ? 'json' : 'csv';
    renameSync(join(from, 'key_value_stores', 'default', `export.${ext}`), dir);
    bytes = statSync(dir).size;
  }
  return { rows, bytes, ms, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

/** The child: one export, its figures as JSON on standard output. */
async function child(store: string, name: string, out: string): Promise<void> {
  if (name in PEER_CASES) {
    process.stdout.write(JSON.stringify(await peerChild(store, name, out)));
    return;
  }
  const c = [...CASES, TEXT_CASE, BASELINE].find((x) => x.name === name);
  if (c === undefined) throw new Error(`unknown case ${name}`);
  const s = await openStore(store, { readonly: true });
  const t0 = performance.now();
  const { rows } = c === BASELINE ? { rows: 0 } : await exportToFile(s, c.options, out);
  const ms = performance.now() - t0;
  await s.close();
  const result: Result = {
    rows,
    bytes: c === BASELINE ? 0 : statSync(out).size,
    ms,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(result));
}

/** Runs one case in a child process and returns its figures. */
function run(store: string, name: string, out: string, heap: string | undefined): Result {
  const json = execFileSync(
    process.execPath,
    [
      ...(heap ? [`--max-old-space-size=${heap}`] : []),
      '--import',
      'tsx',
      import.meta.filename,
      '--child',
      store,
      '--child',
      name,
      '--child',
      out,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(json) as Result;
}

/** Columns of the tables: widths, negative for the left-aligned name. */
const WIDTHS = [-18, 8, 8, 7, 7, 8, 12];
const cells = (xs: string[]): string =>
  xs
    .map((x, k) => {
      const w = WIDTHS[k] ?? 0;
      return w < 0 ? x.padEnd(-w) : x.padStart(w);
    })
    .join(' ');
const HEADER = cells(['case', 'rows', 'MB', 's', 'MB/s', 'rows/s', 'peak RSS MB']);

/** A line of a table; a baseline (nothing written) shows its peak RSS only. */
function line(name: string, r: Result | undefined): string {
  if (r === undefined) return `${name.padEnd(18)} failed`;
  const rss = r.maxRssMb.toFixed(0);
  if (r.rows === 0 && r.bytes === 0) return cells([name, '-', '-', '-', '-', '-', rss]);
  const mb = r.bytes / 1e6;
  const s = r.ms / 1000;
  const rate = String(Math.round(r.rows / s));
  return cells([name, String(r.rows), mb.toFixed(1), s.toFixed(2), (mb / s).toFixed(1), rate, rss]);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** The medians of each figure over the rounds. */
const medianResult = (rs: Result[]): Result => ({
  rows: median(rs.map((r) => r.rows)),
  bytes: median(rs.map((r) => r.bytes)),
  ms: median(rs.map((r) => r.ms)),
  maxRssMb: median(rs.map((r) => r.maxRssMb)),
});

/** Compares focuscrawl's exports with Crawlee's over the same store. */
async function comparePeer(
  store: string,
  pages: number,
  tmp: string,
  rounds: number,
  heap: string | undefined,
): Promise<void> {
  let version = '?';
  try {
    const pkg = join(import.meta.dirname, 'node_modules', '@crawlee', 'core', 'package.json');
    version = (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {}
  console.log(
    `\nagainst Crawlee ${version} Dataset (memory-storage persisted to disk), ${pages} pages, ` +
      `medians of ${rounds} rounds`,
  );
  const helpers = './export-peer.mjs';
  const { compare } = (await import(helpers)) as {
    compare: (format: 'json' | 'csv', ours: string, theirs: string) => string;
  };
  const dataset = join(tmp, 'crawlee');
  const stored = run(store, 'crawlee.store', dataset, heap);
  const s = stored.ms / 1000;
  console.log(
    `crawlee storing: pushData of ${stored.rows} records in batches of 1000: ${s.toFixed(1)} s ` +
      `(${Math.round(stored.rows / s)} rows/s; ${(stored.bytes / 1e6).toFixed(1)} MB in ` +
      `${stored.rows} files), peak RSS ${stored.maxRssMb.toFixed(0)} MB`,
  );
  const pairs = [
    ['baseline', 'crawlee.baseline', ''],
    ['pages.jsonl', 'crawlee.json', 'json'],
    ['pages.csv', 'crawlee.csv', 'csv'],
  ] as const;
  const results = new Map<string, Result[]>();
  const notes: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [ours, theirs, format] of pairs) {
      const out = (name: string) => join(tmp, `peer-${name}`);
      for (const name of [ours, theirs]) {
        results.set(name, results.get(name) ?? []);
        try {
          const r = run(name === theirs ? dataset : store, name, out(name), heap);
          results.get(name)?.push(r);
        } catch {
          // A child that failed (a heap too small for Crawlee's export): no figure.
        }
      }
      const files = [out(ours), out(theirs)];
      if (round === 0 && format !== '' && files.every((f) => existsSync(f))) {
        notes.push(compare(format, out(ours), out(theirs)));
      }
      for (const f of files) rmSync(f, { force: true });
    }
  }
  console.log(HEADER);
  const m = new Map<string, Result | undefined>();
  for (const [name, rs] of results) m.set(name, rs.length > 0 ? medianResult(rs) : undefined);
  for (const [name, r] of m) console.log(line(name, r));
  for (const [ours, theirs, format] of pairs) {
    const [a, b] = [m.get(ours), m.get(theirs)];
    if (format === '' || a === undefined || b === undefined) continue;
    const api = format === 'json' ? 'exportToJSON' : 'exportToCSV';
    const ratio = (a.rows / a.ms / (b.rows / b.ms)).toFixed(2);
    const rss = (b.maxRssMb / a.maxRssMb).toFixed(2);
    console.log(
      `${ours}: ${ratio}× Crawlee ${api} (rows/s); peak RSS ${a.maxRssMb.toFixed(0)} MB ` +
        `against Crawlee's ${b.maxRssMb.toFixed(0)} MB (Crawlee ${rss}× focuscrawl's)`,
    );
  }
  for (const n of notes) console.log(`agreement, ${n}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '100000' },
      'body-bytes': { type: 'string', default: '2000' },
      store: { type: 'string' },
      cases: { type: 'string' },
      text: { type: 'boolean', default: false },
      heap: { type: 'string' },
      'peer-pages': { type: 'string', default: '20000' },
      rounds: { type: 'string', default: '3' },
      child: { type: 'string', multiple: true },
    },
  });
  if (values.child) {
    const [store, name, out] = values.child;
    await child(store as string, name as string, out as string);
    return;
  }
  const pages = Number(values.pages);
  const bodyBytes = Number(values['body-bytes']);
  const tmp = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-export-'));
  const store = values.store ?? join(tmp, 'store');
  const build = async (dir: string, n: number): Promise<void> => {
    const t0 = performance.now();
    await buildBulkStore(dir, { pages: n, bodyBytes });
    const s = (performance.now() - t0) / 1000;
    console.log(`built ${n} pages in ${s.toFixed(1)} s (${Math.round(n / s)} pages/s)`);
  };
  let cases = [BASELINE, ...CASES, ...(values.text ? [TEXT_CASE] : [])];
  if (values.cases) {
    const wanted = new Set(values.cases.split(','));
    cases = [...CASES, TEXT_CASE].filter((c) => wanted.has(c.name));
  }
  const heap = values.heap;
  try {
    if (cases.length > 0) {
      if (!existsSync(store)) await build(store, pages);
      const heapNote = heap ? `; children with --max-old-space-size=${heap}` : '';
      console.log(`node ${process.version}; store ${store}${heapNote}`);
      console.log(HEADER);
      for (const c of cases) {
        const out = join(tmp, c.name);
        const r = run(store, c.name, out, heap);
        rmSync(out, { force: true });
        console.log(line(c.name, r));
      }
    }
    const peerPages = Number(values['peer-pages']);
    if (peerPages > 0) {
      if ((await loadCrawlee()) === null) {
        console.log(`peer ${PEER} not installed: (cd bench && npm install)`);
      } else {
        // The comparison's store: the main one when it has the same pages, else its own.
        const peerStore = peerPages === pages ? store : join(tmp, 'store-peer');
        if (!existsSync(peerStore)) await build(peerStore, peerPages);
        await comparePeer(peerStore, peerPages, tmp, Number(values.rounds), heap);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
