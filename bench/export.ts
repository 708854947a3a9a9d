// Export throughput (docs/export.md): MB/s and peak RSS of `exportToFile` per format
// over a large SQLite store built fast (src/export/__fixtures__/bulk.ts: pages with
// bodies and fields of two rule sets). Each export runs in a child process of its own,
// so that its peak RSS is its own.
//
//   node --import tsx bench/export.ts [--pages 100000] [--body-bytes 2000]
//       [--store DIR] [--cases pages.jsonl,records.csv,...] [--text] [--heap MB]
//
// --store DIR reuses (or builds once into) DIR; without it a temporary store is built
// and removed. --text adds the pages export with the visible text (parsing every body).
// --heap MB runs the children with --max-old-space-size=MB: an export that streams
// completes within a small heap whatever the store's size.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBulkStore } from '../src/export/__fixtures__/bulk.js';
import { type ExportOptionsInput, exportToFile } from '../src/export/index.js';
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

/** The child: one export, its figures as JSON on standard output. */
async function child(store: string, name: string, out: string): Promise<void> {
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '100000' },
      'body-bytes': { type: 'string', default: '2000' },
      store: { type: 'string' },
      cases: { type: 'string' },
      text: { type: 'boolean', default: false },
      heap: { type: 'string' },
      child: { type: 'string', multiple: true },
    },
  });
  if (values.child) {
    const [store, name, out] = values.child;
    await child(store as string, name as string, out as string);
    return;
  }
  const pages = Number(values.pages);
  const tmp = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-export-'));
  const store = values.store ?? join(tmp, 'store');
  if (!existsSync(store)) {
    const t0 = performance.now();
    await buildBulkStore(store, { pages, bodyBytes: Number(values['body-bytes']) });
    const s = (performance.now() - t0) / 1000;
    console.log(`built ${pages} pages in ${s.toFixed(1)} s (${Math.round(pages / s)} pages/s)`);
  }
  let cases = [BASELINE, ...CASES, ...(values.text ? [TEXT_CASE] : [])];
  if (values.cases) {
    const wanted = new Set(values.cases.split(','));
    cases = [...CASES, TEXT_CASE].filter((c) => wanted.has(c.name));
  }
  const heap = values.heap ? `; children with --max-old-space-size=${values.heap}` : '';
  console.log(`node ${process.version}; store ${store}${heap}`);
  console.log(
    `${'case'.padEnd(18)} ${'rows'.padStart(8)} ${'MB'.padStart(8)} ${'s'.padStart(7)} ${'MB/s'.padStart(7)} ${'rows/s'.padStart(8)} ${'peak RSS MB'.padStart(12)}`,
  );
  try {
    for (const c of cases) {
      const out = join(tmp, c.name);
      const json = execFileSync(
        process.execPath,
        [
          ...(values.heap ? [`--max-old-space-size=${values.heap}`] : []),
          '--import',
          'tsx',
          import.meta.filename,
          '--child',
          store,
          '--child',
          c.name,
          '--child',
          out,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      rmSync(out, { force: true });
      const r = JSON.parse(json) as Result;
      const mb = r.bytes / 1e6;
      const s = r.ms / 1000;
      console.log(
        c === BASELINE
          ? `${c.name.padEnd(18)} ${'-'.padStart(8)} ${'-'.padStart(8)} ${'-'.padStart(7)} ${'-'.padStart(7)} ${'-'.padStart(8)} ${r.maxRssMb.toFixed(0).padStart(12)}`
          : `${c.name.padEnd(18)} ${String(r.rows).padStart(8)} ${mb.toFixed(1).padStart(8)} ${s.toFixed(2).padStart(7)} ${(mb / s).toFixed(1).padStart(7)} ${String(Math.round(r.rows / s)).padStart(8)} ${r.maxRssMb.toFixed(0).padStart(12)}`,
      );
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
