// Many workers, one crawl: a crawl on a PostgreSQL store joined by worker processes
// (focuscrawl worker), as on many machines. Every URL of the site ends in one final
// state with one fetch outcome, whichever worker fetched it, and the host's delay
// holds across the workers together (the site's own log, kept by a server in a
// process of its own that does nothing else). A worker killed with SIGKILL mid-crawl
// loses nothing: the others finish its claims.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { updateControl } from '../../src/crawl/control.js';
import { connectStore, type UrlState } from '../../src/store/index.js';
import { tempDir } from '../../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from '../pg.js';
import { runCli } from '../run-cli.js';
import { type CrawlChild, finished, spawnCli } from './resume-helpers.js';

const HOST = 'site.test';
const SEED = `http://${HOST}/p/1.html`;
const PAGES = 150;
const DELAY_MS = 50;

const root = tempDir('workers');
const topicFile = join(root, 'topic.json');
const DB = 'crawls';
let pg: PgCluster | undefined;
/** The site (paced-site.mjs), in a process of its own. */
let site: { port: number; resolve: string; stop: () => void };
let n = 0;

function storeUrl(): string {
  return `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=crawl${++n}`;
}

/** The crawl's flags: one host, every page kept, the host's delay, one request to it at a time (the default). */
function crawlArgs(store: string): string[] {
  return [
    '--store',
    store,
    '--topic',
    topicFile,
    '--seeds',
    SEED,
    '--scope',
    'same-host',
    '--threshold',
    '0',
    '--delay-ms',
    String(DELAY_MS),
    '--concurrency',
    '2',
    '--resolve',
    site.resolve,
    '--allow-private',
    '--sitemaps',
    'none',
  ];
}

interface Stored {
  states: Map<string, UrlState>;
  /** Fetch outcomes per URL. */
  outcomes: Map<string, number>;
}

async function read(store: string): Promise<Stored> {
  const s = await connectStore(store, { readonly: true });
  try {
    const states = new Map<string, UrlState>();
    for await (const u of s.urls()) states.set(u.url, u.state);
    const outcomes = new Map<string, number>();
    for await (const h of s.history()) outcomes.set(h.url, (outcomes.get(h.url) ?? 0) + 1);
    return { states, outcomes };
  } finally {
    await s.close();
  }
}

interface Arrival {
  ts: number;
  host: string;
  path: string;
}

/** The site's log: every request, in order of arrival. */
async function siteLog(): Promise<Arrival[]> {
  const r = await fetch(`http://127.0.0.1:${site.port}/__log`);
  return (await r.json()) as Arrival[];
}

/** Starts paced-site.mjs in a child process. */
function startSite(): Promise<typeof site> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const child = spawn(process.execPath, [join(here, 'paced-site.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      const m = /port (\d+)/.exec(out);
      if (m) {
        const port = Number(m[1]);
        resolve({ port, resolve: `*.test=127.0.0.1:${port}`, stop: () => child.kill() });
      }
    });
    child.once('exit', (code) => reject(new Error(`the site exited (${code}): ${out}`)));
  });
}

/** Every URL final, one outcome each; returns the number of URLs. */
function assertFinishedOnce(s: Stored, label: string): number {
  const open = [...s.states].filter(([, st]) => st === 'waiting' || st === 'processing');
  assert.deepEqual(open, [], `${label}: URLs left unfinished`);
  for (const [url] of s.states) {
    assert.equal(
      s.outcomes.get(url),
      1,
      `${label}: ${url} has ${s.outcomes.get(url) ?? 0} outcomes`,
    );
  }
  return s.states.size;
}

describe('workers on one PostgreSQL store', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
    site = await startSite();
    writeFileSync(topicFile, JSON.stringify({ keywords: { telescope: 1, astronomy: 1 } }));
  });
  after(async () => {
    site?.stop();
    await pg?.stop();
  });

  test('a crawl and two workers finish the closure once, keeping the host delay together', async () => {
    const store = storeUrl();
    const from = (await siteLog()).length;
    const first = spawnCli('crawl', crawlArgs(store));
    await first.waitFor((e) => e.event === 'page', 60_000);
    const workers = [0, 1].map(() => spawnCli('worker', ['--store', store]));
    const runs = await Promise.all([first, ...workers].map((c) => finished(c)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const pagesBy = runs.map((r) => r.events.filter((e) => e.event === 'page').length);
    assert.ok(
      pagesBy.filter((p) => p > 0).length >= 2,
      `the workers shared the crawl: pages per process ${pagesBy.join(', ')}`,
    );
    const s = await read(store);
    assert.equal(assertFinishedOnce(s, 'three processes'), PAGES, 'every page of the site');
    const arrivals = (await siteLog()).slice(from).filter((r) => r.host === HOST);
    const paths = new Map<string, number>();
    for (const r of arrivals) paths.set(r.path, (paths.get(r.path) ?? 0) + 1);
    for (const [path, times] of paths) {
      // robots.txt: once per process.
      if (path !== '/robots.txt') assert.equal(times, 1, `${path} requested ${times} times`);
    }
    // One request at a time, the next a delay after the last one ended, across the
    // processes together: arrivals are at least the delay apart (the log's times are
    // whole ms: 1 ms of leeway for the rounding).
    arrivals.sort((a, b) => a.ts - b.ts);
    for (let i = 1; i < arrivals.length; i++) {
      const [a, b] = [arrivals[i - 1], arrivals[i]] as [Arrival, Arrival];
      assert.ok(
        b.ts - a.ts >= DELAY_MS - 1,
        `two requests to ${HOST} came ${b.ts - a.ts} ms apart: ${a.path} then ${b.path}`,
      );
    }
  });

  test('a pause through the store holds the crawl and its workers together; resumed, they finish once', async () => {
    const store = storeUrl();
    const first = spawnCli('crawl', crawlArgs(store));
    await first.waitFor((e) => e.event === 'page', 60_000);
    const worker = spawnCli('worker', ['--store', store]);
    await worker.waitFor((e) => e.event === 'page', 60_000);
    // As `focuscrawl serve` does: the control value, written through a store handle of its own.
    const control = await connectStore(store);
    try {
      await updateControl(control, (c) => {
        c.paused = true;
      });
      // Every process reads it within 500 ms; fetches under way finish.
      await new Promise((r) => setTimeout(r, 1_500));
      const from = (await siteLog()).length;
      await new Promise((r) => setTimeout(r, 2_000));
      const during = (await siteLog()).slice(from).filter((r) => r.path !== '/robots.txt');
      assert.deepEqual(
        during.map((r) => r.path),
        [],
        'requests while the crawl was paused',
      );
      await updateControl(control, (c) => {
        c.paused = false;
      });
    } finally {
      await control.close();
    }
    const runs = await Promise.all([first, worker].map((c) => finished(c)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal(assertFinishedOnce(await read(store), 'paused and resumed'), PAGES);
  });

  test("worker refuses what is not a worker's, naming it", async () => {
    const store = storeUrl();
    const cases: [string[], RegExp][] = [
      [['--store', root], /--store must be a PostgreSQL store \(postgres:\/\/…\)/],
      [['--store', store, '--topic', topicFile], /--topic is the crawl's, not a worker's/],
      [['--store', store], /no crawl recorded at postgres:\/\/.*: start one with focuscrawl crawl/],
      [[], /--store is required/],
    ];
    for (const [argv, re] of cases) {
      const r = await runCli('worker', ...argv);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
      assert.match(r.err, re);
    }
  });

  test('status on a PostgreSQL store shows the database and its figures', async () => {
    const store = storeUrl();
    const c = await runCli('crawl', ...crawlArgs(store), '--max-pages', '5', '--quiet');
    assert.equal(c.code, 0, c.err);
    const r = await runCli('status', '--store', store);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Database {8}PostgreSQL \d+/);
    assert.match(r.out, /complete/);
    const j = await runCli('status', '--store', store, '--json');
    const data = JSON.parse(j.out) as { workers: unknown[]; database: { connections: number } };
    assert.deepEqual(data.workers, [], 'no run at work once the crawl ended');
    assert.ok(data.database.connections >= 1);
  });

  test('a worker killed with SIGKILL mid-crawl loses nothing and nothing is done twice', async () => {
    const store = storeUrl();
    const first = spawnCli('crawl', crawlArgs(store));
    await first.waitFor((e) => e.event === 'page', 60_000);
    const victim: CrawlChild = spawnCli('worker', ['--store', store]);
    const other = spawnCli('worker', ['--store', store]);
    await victim.waitFor((e) => e.event === 'page', 60_000);
    victim.child.kill('SIGKILL');
    const killed = await victim.exited;
    assert.equal(killed.signal, 'SIGKILL');
    const runs = await Promise.all([first, other].map((c) => finished(c)));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    assert.equal(assertFinishedOnce(await read(store), 'after the kill'), PAGES);
  });
});
