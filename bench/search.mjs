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
//          store then keeps no text and cuts snippets from the bodies),
//          --no-peer (leave MiniSearch out)
//
// The large web has 120,000 pages; beyond that, pages repeat under URLs with a
// `?copy=K` suffix. Parsing is not timed: only the commits are. The pages, outcomes and
// queries are bench/search-mix.mjs's, which bench/search-pg.ts runs on PostgreSQL too.
//
// Peer: MiniSearch 7 (bench/search-peer.mjs, in a process of its own; --no-peer leaves
// it out), fed the very pages of each batch right after focuscrawl's two commits, and
// asked each query right after each of focuscrawl's runs of it. Printed: its indexing
// rate (focuscrawl ÷ MiniSearch in pages/s: above 1, focuscrawl indexes faster), its
// heap and peak RSS, per query its p50/p99 (focuscrawl's p50 ÷ its p50: above 1,
// focuscrawl is slower), its match count, the share of pages both find and the overlap
// of both top 10s (focuscrawl's by BM25 alone, untimed, as MiniSearch has no P; BM25
// against BM25+ and lengths counted apart reorder near-equal scores, so a common word's
// top 10s share few pages even when both match the very same ones).
// MiniSearch does less: the index lives on the heap only (nothing persisted unless the
// whole of it is written out as JSON; no transactions, no crash safety), no snippets
// (hits carry URL, title, score), no stemming (FTS5's porter finds `link` for `links`),
// no stop words (`can` in `watering can compost` must occur, focuscrawl drops it), no
// blend with the page's score P. Its Chinese is bigrams (search-peer.mjs): a word
// matches pages holding each of its bigrams, adjacent or not, where focuscrawl matches
// the exact phrase of characters. It does more: prefix and fuzzy search, suggestions
// (not used here).
import { fork } from 'node:child_process';
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
const withPeer = !args.includes('--no-peer');

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

/**
 * The peer's process (bench/search-peer.mjs): `ask` sends one request and resolves with
 * its answer; null when minisearch is not installed or --no-peer is given.
 */
async function startPeer() {
  if (!withPeer) return null;
  try {
    await import('minisearch');
  } catch {
    console.log('peer minisearch not installed: (cd bench && npm install)');
    return null;
  }
  const child = fork(new URL('./search-peer.mjs', import.meta.url), {
    // A larger heap than the default 4 GiB: 100,000 pages take some 1.7 GiB of it.
    execArgv: ['--expose-gc', '--max-old-space-size=8192'],
    serialization: 'advanced',
  });
  const waiting = [];
  child.on('message', (m) => waiting.shift()?.resolve(m));
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`MiniSearch's process exited (${code})`));
  });
  return {
    ask: (request) =>
      new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.send(request);
      }),
    close: () => {
      if (child.connected) child.disconnect();
    },
  };
}

/** Fills the two stores in step, timing the commits of each, and the peer's index after them. */
async function fill(withText, without, peer) {
  const urls = listPageUrls(WEB);
  const timing = { text: 0, none: 0, peer: 0, parse: 0, chars: 0 };
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
    if (peer !== null) {
      const docs = items.map(({ url, title, text }) => ({ url, title, text }));
      timing.peer += (await peer.ask({ op: 'add', items: docs })).ms;
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

/** focuscrawl's p50 and p99 over the peer's: above 1, focuscrawl is slower. */
function slower(own, theirs) {
  const a = [...own].sort((x, y) => x - y);
  const b = [...theirs].sort((x, y) => x - y);
  const r = (p) => (pct(a, p) / Math.max(1e-6, pct(b, p))).toFixed(2);
  return `÷ p50 ${r(50)}×  p99 ${r(99)}×`;
}

/** Counts of agreement between the two engines, summed over queries. */
const agreeing = () => ({ matches: 0, both: 0, own: 0, peer: 0, top: 0, tops: 0 });
const addTo = (into, a) => {
  for (const k of Object.keys(into)) into[k] += a[k];
};
const agreed = (a) => {
  const union = a.both + a.own + a.peer;
  const share = union === 0 ? 100 : (100 * a.both) / union;
  const only = `only focuscrawl ${count(a.own)}, only MiniSearch ${count(a.peer)}`;
  return `same pages ${share.toFixed(1)}% (${only}), top ${limit} ${a.top}/${a.tops}`;
};

/**
 * How far the engines agree on query `q`: the pages both match (`ownUrls`: focuscrawl's
 * matches), and the overlap of the top `limit`s (focuscrawl's by BM25 alone, untimed).
 */
async function agreement(store, peer, q, ownUrls, peerTop) {
  const theirs = (await peer.ask({ op: 'matches', query: q })).urls;
  const mine = new Set(ownUrls);
  let both = 0;
  for (const u of theirs) if (mine.has(u)) both++;
  const top = (await store.search({ query: q, limit, scoreWeight: 0 })).map((h) => h.url);
  const peerTopSet = new Set(peerTop);
  return {
    matches: theirs.length,
    both,
    own: mine.size - both,
    peer: theirs.length - both,
    top: top.filter((u) => peerTopSet.has(u)).length,
    tops: Math.max(top.length, peerTop.length),
  };
}

async function queries(dir, peer) {
  const store = await openStore(dir, { readonly: true });
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  const matches = db.prepare('SELECT count(*) AS n FROM page_text WHERE page_text MATCH ?');
  const matchUrls = db
    .prepare('SELECT u.url FROM page_text t JOIN urls u ON u.id = t.rowid WHERE page_text MATCH ?')
    .pluck();
  const all = [];
  const allPeer = [];
  const agreeAll = agreeing();
  try {
    // One untimed pass warms the page cache, and the peer's code.
    for (const list of Object.values(QUERIES)) {
      for (const q of list) {
        await store.search({ query: q, limit });
        if (peer !== null) await peer.ask({ op: 'search', query: q, limit });
      }
    }
    for (const [name, list] of Object.entries(QUERIES)) {
      const times = [];
      const peerTimes = [];
      const agree = agreeing();
      const lines = [];
      for (const q of list) {
        const own = [];
        const theirs = [];
        let hits = 0;
        let peerTop = [];
        // Rounds alternate: focuscrawl, then MiniSearch, so that drift hits both.
        for (let r = 0; r < repeats; r++) {
          const t0 = now();
          hits = (await store.search({ query: q, limit })).length;
          own.push(now() - t0);
          if (peer !== null) {
            const answer = await peer.ask({ op: 'search', query: q, limit });
            theirs.push(answer.ms);
            peerTop = answer.urls;
          }
        }
        const match = ftsMatch(queryTerms(q));
        const n = matches.get(match).n;
        lines.push(
          `    ${q.padEnd(24)} ${count(n).padStart(9)} matches ${String(hits).padStart(4)} hits  ${summary(own)}`,
        );
        times.push(...own);
        if (peer === null) continue;
        const a = await agreement(store, peer, q, matchUrls.all(match), peerTop);
        addTo(agree, a);
        lines.push(
          `      ${'MiniSearch'.padEnd(22)} ${count(a.matches).padStart(9)} matches ` +
            `${String(peerTop.length).padStart(4)} hits  ${summary(theirs)}  ` +
            slower(own, theirs),
          `        ${agreed(a)}`,
        );
        peerTimes.push(...theirs);
      }
      console.log(`  ${name.padEnd(26)} ${summary(times)}`);
      if (peer !== null) {
        console.log(
          `    ${'MiniSearch'.padEnd(24)} ${summary(peerTimes)}  ${slower(times, peerTimes)}`,
        );
        console.log(`      ${agreed(agree)}`);
        addTo(agreeAll, agree);
      }
      for (const l of lines) console.log(l);
      all.push(...times);
      allPeer.push(...peerTimes);
    }
    console.log(`  ${'overall'.padEnd(26)} ${summary(all)}  (${count(all.length)} searches)`);
    if (peer !== null) {
      console.log(`    ${'MiniSearch'.padEnd(24)} ${summary(allPeer)}  ${slower(all, allPeer)}`);
      console.log(`      ${agreed(agreeAll)}`);
    }
  } finally {
    db.close();
    await store.close();
  }
}

/**
 * The FTS5 table's share of the file, table by table (`text`), and the bytes of its
 * inverted index (`inverted`: its shadow tables, without the texts kept for snippets).
 */
function ftsBytes(dir) {
  const db = new Database(join(dir, DB_FILE), { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'page_text%' GROUP BY name ORDER BY name",
      )
      .all();
    const inverted = rows
      .filter((r) => r.name.startsWith('page_text_') && r.name !== 'page_text_content')
      .reduce((sum, r) => sum + r.bytes, 0);
    return { text: rows.map((r) => `${r.name} ${mib(r.bytes)}`).join(', '), inverted };
  } catch {
    return { text: 'unknown (no dbstat)', inverted: 0 };
  } finally {
    db.close();
  }
}

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-search-'));
const peer = await startPeer();
try {
  const withDir = join(root, 'with-text');
  const withoutDir = join(root, 'without-text');
  const withText = await openStore(withDir, { create: true });
  const without = await openStore(withoutDir, { create: true });
  console.log(
    `search: ${count(pages)} kept pages of the large test web (seed 1), commits of ${batch}, limit ${limit}, ${repeats} runs per query`,
  );
  const t = await fill(withText, without, peer);
  await withText.close();
  await without.close();
  const withBytes = storeBytes(withDir);
  const withoutBytes = storeBytes(withoutDir);
  console.log(`  text per page            ${count(Math.round(t.chars / pages))} characters (mean)`);
  console.log(`  parse (not counted)      ${rate(pages, t.parse)} pages/s`);
  console.log(`  commit with text         ${rate(pages, t.text)} pages/s (indexed)`);
  console.log(`  commit without text      ${rate(pages, t.none)} pages/s`);
  const alone = Math.max(1, t.text - t.none);
  console.log(`  indexing alone           ${rate(pages, alone)} pages/s`);
  if (peer !== null) {
    // Rates in pages/s, focuscrawl's over MiniSearch's: above 1, focuscrawl indexes faster.
    const over = (ms) => (t.peer / ms).toFixed(2);
    console.log(
      `  MiniSearch addAll        ${rate(pages, t.peer)} pages/s (in memory); ` +
        `focuscrawl ÷ MiniSearch ${over(t.text)}× (commit with text), ` +
        `${over(alone)}× (indexing alone)`,
    );
  }
  console.log(`  store with the index     ${mib(withBytes)}`);
  console.log(
    `  store without            ${mib(withoutBytes)} (index ${mib(withBytes - withoutBytes)})`,
  );
  const fts = ftsBytes(withDir);
  console.log(`  FTS5 tables              ${fts.text}`);
  if (peer !== null) {
    // MiniSearch's heap over focuscrawl's bytes on disk: above 1, MiniSearch takes more.
    const { heap } = await peer.ask({ op: 'memory' });
    const over = (bytes) => (bytes > 0 ? `${(heap / bytes).toFixed(2)}×` : '?');
    console.log(
      `  MiniSearch index         ${mib(heap)} of heap after a full GC, nothing on disk; ` +
        `${over(fts.inverted)} the FTS5 inverted index (${mib(fts.inverted)}), ` +
        `${over(withBytes - withoutBytes)} focuscrawl's whole index`,
    );
  }
  console.log('queries (latency of Store.search, matches in the whole index, hits returned)');
  if (peer !== null) {
    console.log(
      '  (÷: focuscrawl time over MiniSearch time, above 1 focuscrawl is slower; same pages: ' +
        `both match ÷ either matches; top ${limit}: pages in both, focuscrawl by BM25 alone)`,
    );
  }
  await queries(withDir, peer);
  const rss = process.resourceUsage().maxRSS * 1024;
  console.log(`  peak RSS                 ${mib(rss)}`);
  if (peer !== null) {
    const { maxRss } = await peer.ask({ op: 'memory' });
    console.log(
      `  MiniSearch peak RSS      ${mib(maxRss)} (its own process, which parses nothing); ` +
        `focuscrawl ÷ MiniSearch ${(rss / maxRss).toFixed(2)}× (below 1, focuscrawl uses less)`,
    );
  }
} finally {
  peer?.close();
  rmSync(root, { recursive: true, force: true });
}
