// Crawls of the test web (bench/scale.ts, part 2) by the CLI from dist/, as users run
// it, on the SQLite store and on one PostgreSQL server by 1, 2, 4 processes (a
// `focuscrawl crawl`, then `focuscrawl worker`s joining once the crawl has sent its
// first request), each PostgreSQL crawl in a database of its own. Pages are the test
// web's own count of requests (robots.txt left out).
//
// At --delay-ms 0 the crawls are whole (to the end of the web) and run one after
// another; seconds run from the first process's start to the last one's exit. At a
// delay the crawls run for `windowS` seconds (--duration), side by side, each with a
// test web of its own: a whole crawl at the default delay lasts as long as its
// largest host has pages (the medium web's forum: hours), and uses little CPU.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectStore } from '../src/store/index.js';
import { labels, startTestWeb, type TestWeb, type WebSize } from '../src/testweb/index.js';
import type { PgCluster } from '../test/pg.js';
import {
  type DatabaseActivity,
  databaseActivity,
  type RelationSize,
  relationSizes,
  serverCpuMs,
  type TableChanges,
  tableChanges,
} from './scale-pg.js';
import { fmt } from './scale-report.js';

const repo = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const SEED = 3;

export interface CrawlRun {
  store: 'SQLite' | 'PostgreSQL';
  processes: number;
  pages: number;
  /** Requests for a host and path asked before in the same crawl (GET and HEAD apart). */
  repeated: number;
  /** The first few of them, "METHOD host/path ×n". */
  repeatedSample: string[];
  /** Distinct hosts asked. */
  hosts: number;
  /** URLs the crawl left waiting or processing when its last process ended (0: whole). */
  left: number;
  /** When each process exited, s from the start, in order. */
  exits: number[];
  seconds: number;
  /** The cluster's CPU over the crawl, when it ran alone. */
  serverCpuMs?: number;
  /** The crawl's database: transactions and rows read. */
  activity?: DatabaseActivity;
  load: number;
}

export interface CrawlResults {
  size: WebSize;
  windowS: number;
  byDelay: { delayMs: number; sideBySide: boolean; runs: CrawlRun[] }[];
  sizes?: { title: string; sizes: RelationSize[] };
  /** Row changes of the 1-process crawl at --delay-ms 0 (or the first delay). */
  changes?: { title: string; pages: number; tables: TableChanges[] };
}

/** Runs the CLI from dist/; resolves when it exits, rejects on a failure. */
function cli(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repo, 'bin', 'focuscrawl.js'), ...argv], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`focuscrawl ${argv[0]} exited with ${code}`)),
    );
  });
}

interface Plan {
  store: 'SQLite' | 'PostgreSQL';
  processes: number;
}

export async function crawls(
  pg: PgCluster,
  o: { workers: number[]; delays: number[]; size: WebSize; oneByOne: boolean; windowS: number },
): Promise<CrawlResults> {
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-scale-crawl-'));
  const topic = labels({ seed: SEED, size: o.size }).topics.find((t) => t.id === 'grid');
  const topicFile = join(dir, 'topic.json');
  writeFileSync(topicFile, JSON.stringify(topic?.topic));
  const out: CrawlResults = { size: o.size, windowS: o.windowS, byDelay: [] };
  const webs: TestWeb[] = [];
  const webFor = async (i: number) => {
    while (webs.length <= i) webs.push(await startTestWeb({ port: 0, seed: SEED, size: o.size }));
    return webs[i] as TestWeb;
  };

  /** One crawl (a `crawl` and its workers) on `web`, measured. */
  async function crawl(p: Plan, delayMs: number, web: TestWeb, alone: boolean): Promise<CrawlRun> {
    const bounded = delayMs > 0;
    // What a local test web needs: its address, and leave to fetch from 127.0.0.1.
    const common = [
      '--topic',
      topicFile,
      '--seeds',
      'http://portal.test/',
      '--resolve',
      web.resolve,
      '--allow-private',
      '--delay-ms',
      String(delayMs),
      ...(bounded ? ['--duration', `${o.windowS}s`] : []),
      '--quiet',
    ];
    const db = `crawl_${p.processes}_${delayMs}`;
    const store =
      p.store === 'SQLite'
        ? join(dir, `sqlite-${delayMs}`)
        : `postgres://postgres@127.0.0.1:${pg.port}/${db}?schema=focuscrawl`;
    if (p.store === 'PostgreSQL') await pg.createDatabase(db);
    const from = web.requests.length;
    const cpu0 = serverCpuMs(pg);
    const t0 = performance.now();
    const startedAt = Date.now();
    const exits: number[] = [];
    const ended = (x: Promise<void>) =>
      x.then(() => {
        exits.push((performance.now() - t0) / 1000);
      });
    const first = ended(cli(['crawl', '--store', store, ...common]));
    // Workers join once the crawl has recorded its settings and sent a request.
    while (web.requests.length === from) await new Promise((r) => setTimeout(r, 20));
    const others = Array.from({ length: p.processes - 1 }, () =>
      ended(cli(['worker', '--store', store, '--quiet'])),
    );
    await Promise.all([first, ...others]);
    const seconds = bounded ? o.windowS : (performance.now() - t0) / 1000;
    // A bounded crawl: the requests of its window (workers, started later, stop later).
    const end = bounded ? startedAt + o.windowS * 1000 : Number.POSITIVE_INFINITY;
    const reqs = web.requests.slice(from).filter((r) => r.path !== '/robots.txt' && r.ts < end);
    const s = await connectStore(store, { readonly: true });
    const counts = await s.counts();
    await s.close();
    const asked = new Map<string, number>();
    for (const r of reqs) {
      const k = `${r.method} ${r.host}${r.path}`;
      asked.set(k, (asked.get(k) ?? 0) + 1);
    }
    const again = [...asked].filter(([, n]) => n > 1);
    const run: CrawlRun = {
      ...p,
      repeated: again.reduce((a, [, n]) => a + n - 1, 0),
      repeatedSample: again.slice(0, 5).map(([k, n]) => `${k} ×${n}`),
      left: counts.waiting + counts.processing,
      exits,
      pages: reqs.length,
      hosts: new Set(reqs.map((r) => r.host)).size,
      seconds,
      load: loadavg()[0] ?? 0,
    };
    if (alone && p.store === 'PostgreSQL') run.serverCpuMs = serverCpuMs(pg) - cpu0;
    if (p.store === 'PostgreSQL') run.activity = await databaseActivity(pg, db);
    console.error(
      `  crawl, --delay-ms ${delayMs}, ${p.store} × ${p.processes}: ${run.pages} pages in ${seconds.toFixed(0)} s, ${run.left} URLs left, ${run.repeated} asked again${run.repeated > 0 ? ` (${run.repeatedSample.join(', ')})` : ''}`,
    );
    if (p.store === 'PostgreSQL' && p.processes === 1 && (delayMs === 0 || !out.changes)) {
      out.changes = {
        title: `the 1-process crawl at --delay-ms ${delayMs}`,
        pages: run.pages,
        tables: await tableChanges(pg, db, 'focuscrawl'),
      };
      out.sizes = {
        title: `Sizes of a crawled store (the ${o.size} test web, 1 process, --delay-ms ${delayMs})`,
        sizes: await relationSizes(pg, db, 'focuscrawl'),
      };
    }
    return run;
  }

  try {
    const plans: Plan[] = [
      { store: 'SQLite', processes: 1 },
      ...o.workers.map((w): Plan => ({ store: 'PostgreSQL', processes: w })),
    ];
    for (const delayMs of o.delays) {
      const sideBySide = delayMs > 0 && !o.oneByOne;
      let runs: CrawlRun[];
      if (sideBySide) {
        const own: TestWeb[] = [];
        for (let i = 0; i < plans.length; i++) own.push(await webFor(i));
        runs = await Promise.all(plans.map((p, i) => crawl(p, delayMs, own[i] as TestWeb, false)));
      } else {
        runs = [];
        for (const p of plans) runs.push(await crawl(p, delayMs, await webFor(0), true));
      }
      out.byDelay.push({ delayMs, sideBySide, runs });
    }
    return out;
  } finally {
    await Promise.all(webs.map((w) => w.close()));
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printCrawls(r: CrawlResults): void {
  for (const d of r.byDelay) {
    const base = d.runs.find((x) => x.store === 'SQLite');
    const baseRate = base === undefined ? 0 : base.pages / base.seconds;
    console.log(
      `\n### ${d.delayMs > 0 ? `The first ${r.windowS} s of crawls` : 'Whole crawls'} of the ${r.size} test web, --delay-ms ${d.delayMs}${d.sideBySide ? ' (side by side)' : ''}\n\n` +
        '| store | processes | pages | asked again | hosts | URLs left | s | processes ended at (s) | pages/s | vs SQLite | server CPU ms/page | transactions/page | rows read/page | load |\n' +
        '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const x of d.runs) {
      const rate = x.pages / x.seconds;
      const a = x.activity;
      console.log(
        `| ${x.store} | ${x.processes} | ${fmt(x.pages)} | ${fmt(x.repeated)} | ${x.hosts} | ${fmt(x.left)} | ${fmt(x.seconds, 1)} | ${x.exits.map((e) => fmt(e)).join(', ')} | ${fmt(rate, 1)} | ${baseRate > 0 ? `${fmt(rate / baseRate, 2)}×` : '–'} | ${x.serverCpuMs === undefined ? '–' : fmt(x.serverCpuMs / x.pages, 2)} | ${a ? fmt(a.transactions / x.pages, 1) : '–'} | ${a ? fmt(a.rowsRead / x.pages) : '–'} | ${fmt(x.load, 1)} |`,
      );
    }
  }
}
