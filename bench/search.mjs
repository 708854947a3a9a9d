// Full-text search benchmark: a SQLite store filled with N kept pages of the large test
// web (title and visible text as the crawler extracts them), committed in batches
// through the store API; the indexing rate and the store's size on disk, against the
// same fill without text (no index); then a fixed mix of Chinese and English queries
// (1–3 words, common and rare), each run several times on the store opened read-only:
// p50/p99/max latency per class and overall, and the hit counts.
// Build first, then run:   npm run build --silent && node bench/search.mjs
// Options: --pages N (default 100000), --batch B (pages per commit, default 500),
//          --repeats R (timed runs of each query, default 20), --limit L (hits, default 10),
//          --bodies (store each page's HTML too, as a crawl does by default: the SQLite
//          store then keeps no text and cuts snippets from the bodies)
//
// The large web has 120,000 pages; beyond that, pages repeat under URLs with a
// `?copy=K` suffix. Parsing is not timed: only the commits are. The pages, outcomes and
// queries are bench/search-mix.mjs's, which bench/search-pg.ts runs on PostgreSQL too.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { analyzeBody } from '../dist/parse/index.js';
import { ftsMatch, queryTerms } from '../dist/search/index.js';
import { DB_FILE, openStore } from '../dist/store/index.js';
import { listPageUrls, pageHtml } from '../dist/testweb/index.js';
import { outcomesOf, pageAt, QUERIES, WEB } from './search-mix.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const pages = opt('pages', 100_000);
const batch = opt('batch', 500);
const repeats = opt('repeats', 20);
const limit = opt('limit', 10);
const bodies = args.includes('--bodies');

const rate = (n, ms) => Math.round((n * 1000) / ms).toLocaleString('en-US');
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const count = (n) => n.toLocaleString('en-US');
const now = () => performance.now();
const tools = { analyzeBody, pageHtml };

/** Bytes on disk of the database files of a store directory (bodies, under pages/, left out). */
function storeBytes(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const st = statSync(join(dir, name));
    if (st.isFile()) total += st.size;
  }
  return total;
}

/** Fills the two stores in step, timing the commits of each. */
async function fill(withText, without) {
  const urls = listPageUrls(WEB);
  const timing = { text: 0, none: 0, parse: 0, chars: 0 };
  let fetchedAt = Date.now();
  for (let i = 0; i < pages; i += batch) {
    const t0 = now();
    const items = [];
    for (let j = i; j < Math.min(pages, i + batch); j++) items.push(pageAt(tools, urls, j));
    timing.parse += now() - t0;
    for (const [store, key] of [
      [withText, 'text'],
      [without, 'none'],
    ]) {
      await store.addUrls(items.map((p) => ({ url: p.url, depth: 1, priority: 0.5 })));
      const claimed = await store.claim(items.length);
      if (claimed.length !== items.length)
        throw new Error(`claimed ${claimed.length} of ${items.length}`);
      const outcomes = outcomesOf(items, i, fetchedAt, key === 'text', bodies);
      const t1 = now();
      await store.commit(outcomes);
      timing[key] += now() - t1;
    }
    for (const p of items) timing.chars += p.text.length;
    fetchedAt += items.length;
    if ((i + batch) % 20_000 === 0) console.error(`  ${count(i + batch)} pages`);
  }
  return timing;
}

/** Nearest-rank percentile of sorted numbers. */
const pct = (sorted, p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${ms(pct(s, 50)).padStart(9)}  p99 ${ms(pct(s, 99)).padStart(9)}  max ${ms(s.at(-1) ?? 0).padStart(9)}`;
};

async function queries(dir) {
  const store = await openStore(dir, { readonly: true });
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  const matches = db.prepare('SELECT count(*) AS n FROM page_text WHERE page_text MATCH ?');
  const all = [];
  try {
    // One untimed pass warms the page cache.
    for (const list of Object.values(QUERIES))
      for (const q of list) await store.search({ query: q, limit });
    for (const [name, list] of Object.entries(QUERIES)) {
      const times = [];
      const lines = [];
      for (const q of list) {
        const own = [];
        let hits = 0;
        for (let r = 0; r < repeats; r++) {
          const t0 = now();
          hits = (await store.search({ query: q, limit })).length;
          own.push(now() - t0);
        }
        const n = matches.get(ftsMatch(queryTerms(q))).n;
        lines.push(
          `    ${q.padEnd(24)} ${count(n).padStart(9)} matches ${String(hits).padStart(4)} hits  ${summary(own)}`,
        );
        times.push(...own);
      }
      console.log(`  ${name.padEnd(26)} ${summary(times)}`);
      for (const l of lines) console.log(l);
      all.push(...times);
    }
    console.log(`  ${'overall'.padEnd(26)} ${summary(all)}  (${count(all.length)} searches)`);
  } finally {
    db.close();
    await store.close();
  }
}

/** The FTS5 table's share of the file: its content copy and its inverted index. */
function ftsBytes(dir) {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'page_text%' GROUP BY name ORDER BY name",
      )
      .all();
    return rows.map((r) => `${r.name} ${mib(r.bytes)}`).join(', ');
  } catch {
    return 'unknown (no dbstat)';
  } finally {
    db.close();
  }
}

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-search-'));
try {
  const withDir = join(root, 'with-text');
  const withoutDir = join(root, 'without-text');
  const withText = await openStore(withDir, { create: true });
  const without = await openStore(withoutDir, { create: true });
  console.log(
    `search: ${count(pages)} kept pages of the large test web (seed 1), commits of ${batch}, limit ${limit}, ${repeats} runs per query`,
  );
  const t = await fill(withText, without);
  await withText.close();
  await without.close();
  const withBytes = storeBytes(withDir);
  const withoutBytes = storeBytes(withoutDir);
  console.log(`  text per page            ${count(Math.round(t.chars / pages))} characters (mean)`);
  console.log(`  parse (not counted)      ${rate(pages, t.parse)} pages/s`);
  console.log(`  commit with text         ${rate(pages, t.text)} pages/s (indexed)`);
  console.log(`  commit without text      ${rate(pages, t.none)} pages/s`);
  console.log(`  indexing alone           ${rate(pages, Math.max(1, t.text - t.none))} pages/s`);
  console.log(`  store with the index     ${mib(withBytes)}`);
  console.log(
    `  store without            ${mib(withoutBytes)} (index ${mib(withBytes - withoutBytes)})`,
  );
  console.log(`  FTS5 tables              ${ftsBytes(withDir)}`);
  console.log('queries (latency of Store.search, matches in the whole index, hits returned)');
  await queries(withDir);
  console.log(`  peak RSS                 ${mib(process.resourceUsage().maxRSS * 1024)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
