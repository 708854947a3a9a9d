// The API and the dashboard (docs/api.md, docs/dashboard.md): what their requests cost
// on a store of 100,000 pages, and what serving costs a running crawl.
//
//   npm run build && node --import tsx bench/serve.ts      # = npm run bench:serve
//     [--pages 100000] [--repeats 100] [--size medium] [--crawls 2] [--skip-api] [--skip-crawl]
//
// Part 1 fills a SQLite store with the pages of bench/search-mix.mjs (the large test
// web's pages, with their text: relevance cycling 0 … 0.99), serves it (startServer, in
// this process) and sends each request of a mix `repeats` times, one at a time, after 10
// unmeasured: p50 and p99 of the time to the last byte. With Chromium present (Debian's
// chromium, or CHROMIUM_PATH), the dashboard is loaded `--loads` times: time from
// navigation to its first table filled.
//
// Part 2 crawls the test web at --delay-ms 0 (the CLI from dist/, whole crawls, one after
// another) plain and with `--serve PORT` while a client does what an open dashboard does:
// the event stream, and every 10 s the series, the last 500 pages, one page of each table
// and the hosts. Pages/s of each, in turns (plain, served, plain, served …).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeBody } from '../src/parse/index.js';
import { startServer } from '../src/serve/index.js';
import { connectStore } from '../src/store/index.js';
import {
  labels,
  listPageUrls,
  pageHtml,
  startTestWeb,
  type WebSize,
} from '../src/testweb/index.js';
import { outcomesOf, pageAt, QUERIES, WEB } from './search-mix.mjs';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '100000' },
    repeats: { type: 'string', default: '100' },
    loads: { type: 'string', default: '10' },
    size: { type: 'string', default: 'medium' },
    crawls: { type: 'string', default: '2' },
    'skip-api': { type: 'boolean', default: false },
    'skip-crawl': { type: 'boolean', default: false },
  },
});
const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

async function fill(dir: string, pages: number): Promise<string[]> {
  const store = await connectStore(dir, { create: true });
  const urls = listPageUrls(WEB);
  const tools = { analyzeBody, pageHtml };
  const all: string[] = [];
  let fetchedAt = Date.now() - pages;
  try {
    await store.setKeywords(
      new Map([
        ['电网', 1],
        ['调度', 0.8],
        ['telescope', 0.6],
      ]),
    );
    for (let i = 0; i < pages; i += 500) {
      const items = [];
      for (let j = i; j < Math.min(pages, i + 500); j++) items.push(pageAt(tools, urls, j));
      await store.addUrls(items.map((p) => ({ url: p.url, depth: 1, priority: 0.5 })));
      await store.claim(items.length);
      await store.commit(outcomesOf(items, i, fetchedAt, true));
      fetchedAt += items.length;
      for (const p of items) all.push(p.url);
      if ((i + 500) % 20_000 === 0) console.error(`  filled ${fmt(i + 500)} pages`);
    }
  } finally {
    await store.close();
  }
  return all;
}

interface Timed {
  name: string;
  path: string;
  ms: number[];
  bytes: number;
}

async function timeRequests(base: string, mix: [string, string][], repeats: number) {
  const out: Timed[] = [];
  for (const [name, path] of mix) {
    const t: Timed = { name, path, ms: [], bytes: 0 };
    for (let i = 0; i < repeats + 10; i++) {
      const t0 = performance.now();
      const res = await fetch(base + path);
      const body = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}: ${body.toString()}`);
      if (i >= 10) t.ms.push(ms);
      t.bytes = body.length;
    }
    t.ms.sort((a, b) => a - b);
    out.push(t);
    console.error(`  ${name}: p50 ${pct(t.ms, 50).toFixed(1)} ms`);
  }
  return out;
}

/** The dashboard in Chromium: ms from navigation to its first table filled, if Chromium is here. */
async function dashboardLoads(url: string, loads: number): Promise<number[] | null> {
  const path = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  let chromium: typeof import('playwright-core').chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    return null;
  }
  const browser = await chromium.launch({ executablePath: path }).catch(() => null);
  if (browser === null) return null;
  try {
    const ms: number[] = [];
    for (let i = 0; i < loads + 2; i++) {
      const page = await browser.newPage();
      const t0 = performance.now();
      await page.goto(url);
      // A first row in the pages table: the first paint a user waits for.
      await page.waitForSelector('table tbody tr', { timeout: 30_000 });
      if (i >= 2) ms.push(performance.now() - t0);
      await page.close();
    }
    return ms.sort((a, b) => a - b);
  } finally {
    await browser.close();
  }
}

async function apiPart(): Promise<void> {
  const pages = Number(values.pages);
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-serve-'));
  try {
    const t0 = performance.now();
    const urls = await fill(dir, pages);
    console.error(`  filled in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const store = await connectStore(dir);
    const server = await startServer({ store, port: 0 });
    try {
      const base = server.url.replace(/\/$/, '');
      // A cursor 20 pages deep, and a host with pages.
      let cursor = '';
      for (let i = 0; i < 20; i++) {
        const r = (await (await fetch(`${base}/api/pages?sort=relevance${cursor}`)).json()) as {
          next: string | null;
        };
        cursor = r.next === null ? '' : `&cursor=${encodeURIComponent(r.next)}`;
      }
      const url = urls[Math.floor(urls.length / 2)] as string;
      const host = new URL(url).hostname;
      const q = (s: string) => encodeURIComponent(s);
      const zh = QUERIES['zh common, 1 word']?.[0] ?? '电网';
      const en = QUERIES['en common, 1 word']?.[1] ?? 'telescope';
      const rare = QUERIES['zh rare']?.[0] ?? '推荐';
      const mix: [string, string][] = [
        ['status', '/api/status'],
        ['pages, newest first (the first paint)', '/api/pages'],
        ['pages by relevance', '/api/pages?sort=relevance'],
        ['pages by relevance, 20 pages deep', `/api/pages?sort=relevance${cursor}`],
        [
          'pages kept, relevance 0.90–0.95',
          '/api/pages?state=complete&minRelevance=0.9&maxRelevance=0.95&sort=relevance',
        ],
        ['pages of one host', `/api/pages?host=${q(host)}`],
        ['pages, 500 (the histogram sample)', '/api/pages?limit=500'],
        ['series', '/api/series?bucketMs=60000'],
        ['hosts', '/api/hosts?limit=50'],
        ['one page', `/api/page?url=${q(url)}`],
        [`search "${zh}"`, `/api/search?q=${q(zh)}`],
        [`search "${en}"`, `/api/search?q=${q(en)}`],
        [`search "${rare}" (rare)`, `/api/search?q=${q(rare)}`],
        ['the dashboard page', '/'],
      ];
      const load0 = loadavg()[0] ?? 0;
      const timed = await timeRequests(base, mix, Number(values.repeats));
      const loads = await dashboardLoads(server.dashboardUrl, Number(values.loads));
      console.log(
        `\n### API latency on a store of ${fmt(pages)} pages (SQLite, ${values.repeats} requests each, one at a time)\n\n` +
          '| request | p50 ms | p99 ms | bytes |\n|---|---:|---:|---:|',
      );
      for (const t of timed) {
        console.log(
          `| ${t.name} | ${fmt(pct(t.ms, 50), 1)} | ${fmt(pct(t.ms, 99), 1)} | ${fmt(t.bytes)} |`,
        );
      }
      if (loads !== null) {
        console.log(
          `| the dashboard in Chromium, navigation to first rows (${loads.length} loads) | ${fmt(pct(loads, 50))} | ${fmt(pct(loads, 99))} | |`,
        );
      } else {
        console.log('\n(no Chromium here: the dashboard load was not measured)');
      }
      console.log(`\nLoad average at the start: ${load0.toFixed(1)}.`);
    } finally {
      await server.close();
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() =>
        typeof a === 'object' && a !== null ? resolve(a.port) : reject(new Error('no port')),
      );
    });
  });
}

/** What an open dashboard asks for, until `stop`: the event stream, and every 10 s the rest. */
function dashboardClient(base: string, token: string | null) {
  const ac = new AbortController();
  const auth = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  let requests = 0;
  const get = async (path: string) => {
    try {
      const res = await fetch(base + path, { signal: ac.signal });
      await res.arrayBuffer();
      requests++;
    } catch {
      // the server is not up yet, or the crawl ended
    }
  };
  const events = (async () => {
    while (!ac.signal.aborted) {
      try {
        const res = await fetch(`${base}/api/events${auth}`, { signal: ac.signal });
        if (res.body === null) throw new Error('no body');
        for await (const _ of res.body) requests += 0;
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  })();
  const round = async () => {
    await get('/api/status');
    await get('/api/series?bucketMs=5000');
    await get('/api/pages?limit=500');
    await get('/api/pages?state=complete&sort=relevance');
    await get('/api/pages?state=discard&sort=relevance');
    await get('/api/hosts?limit=50');
  };
  const timer = setInterval(() => void round(), 10_000);
  void round();
  return {
    requests: () => requests,
    async stop() {
      clearInterval(timer);
      ac.abort();
      await events;
    },
  };
}

function cli(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['bin/focuscrawl.js', ...argv], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    c.on('error', reject);
    c.on('exit', (code) => resolve(code ?? 1));
  });
}

async function crawlPart(): Promise<void> {
  const size = values.size as WebSize;
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-serve-crawl-'));
  const web = await startTestWeb({ port: 0, seed: 1, size });
  try {
    const topic = labels({ seed: 1, size }).topics.find((t) => t.id === 'grid');
    const topicFile = join(dir, 'topic.json');
    writeFileSync(topicFile, JSON.stringify(topic?.topic));
    const runs: { served: boolean; pages: number; seconds: number; apiRequests: number }[] = [];
    for (let k = 0; k < Number(values.crawls); k++) {
      for (const served of [false, true]) {
        const store = join(dir, `store-${k}-${served}`);
        const port = await freePort();
        const from = web.requests.length;
        const t0 = performance.now();
        const client = served ? dashboardClient(`http://127.0.0.1:${port}`, null) : null;
        const code = await cli([
          'crawl',
          '--store',
          store,
          '--topic',
          topicFile,
          '--seeds',
          'http://portal.test/',
          '--resolve',
          web.resolve,
          '--allow-private',
          '--delay-ms',
          '0',
          '--quiet',
          ...(served ? ['--serve', String(port)] : []),
        ]);
        const seconds = (performance.now() - t0) / 1000;
        await client?.stop();
        if (code !== 0) throw new Error(`crawl exited with ${code}`);
        const pages = web.requests.slice(from).filter((r) => r.path !== '/robots.txt').length;
        runs.push({ served, pages, seconds, apiRequests: client?.requests() ?? 0 });
        console.error(
          `  crawl${served ? ' --serve' : ''}: ${pages} pages in ${seconds.toFixed(1)} s${served ? `, ${client?.requests()} API requests` : ''}`,
        );
      }
    }
    const rate = (served: boolean) => {
      const r = runs.filter((x) => x.served === served);
      return r.reduce((a, x) => a + x.pages, 0) / r.reduce((a, x) => a + x.seconds, 0);
    };
    console.log(
      `\n### What serving costs a crawl (the ${size} test web, --delay-ms 0, SQLite, whole crawls in turns)\n\n` +
        '| crawl | pages | s | pages/s | API requests answered |\n|---|---:|---:|---:|---:|',
    );
    for (const r of runs) {
      console.log(
        `| ${r.served ? '--serve, dashboard client' : 'plain'} | ${fmt(r.pages)} | ${fmt(r.seconds, 1)} | ${fmt(r.pages / r.seconds, 1)} | ${r.served ? fmt(r.apiRequests) : '–'} |`,
      );
    }
    console.log(
      `\nServed against plain, pages over seconds of all their runs: ${fmt(rate(true) / rate(false), 3)}×.`,
    );
  } finally {
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!values['skip-api']) await apiPart();
if (!values['skip-crawl']) await crawlPart();
