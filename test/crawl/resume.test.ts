// Stopping and resuming `focuscrawl crawl` through the CLI in child processes:
// Ctrl-C, kill -9 at random moments, page budgets over several runs and --duration.
// Every crawl is the same closure: one topical host of the small test web, every
// page kept (threshold 0) and every same-host link followed, so an uninterrupted
// run gives the reference set of URLs and states that interrupted ones must reach.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { UrlState } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import {
  checkInvariants,
  finished,
  prng,
  runCrawl,
  type Snapshot,
  sleep,
  snapshot,
  spawnCrawl,
  waitUntil,
} from './resume-helpers.js';

const HOST = 'stargazer.test';
const SEED = `http://${HOST}/`;
const astronomy = labels({ seed: 1, size: 'small' }).topics.find((t) => t.id === 'astronomy');
assert.ok(astronomy?.seeds.includes(SEED), `${HOST} is a site devoted to astronomy`);

const root = tempDir('resume');
const topicFile = join(root, 'astronomy.json');
let web: TestWeb;
let n = 0;
/** The closure: URL → final state, from an uninterrupted crawl. */
let reference: Map<string, UrlState>;

function newDir(): string {
  return join(root, `store${++n}`);
}

function crawlArgs(dir: string, extra: string[] = [], delayMs = 5): string[] {
  return [
    '--store',
    dir,
    '--topic',
    topicFile,
    '--seeds',
    SEED,
    '--scope',
    'same-host',
    '--threshold',
    '0',
    '--store-bodies',
    'kept',
    '--delay-ms',
    String(delayMs),
    '--concurrency',
    '4',
    '--per-host-concurrency',
    '1',
    '--resolve',
    web.resolve,
    '--allow-private',
    ...extra,
  ];
}

async function read(dir: string, label: string): Promise<Snapshot> {
  const s = await snapshot(dir);
  assert.ok(s, `${label}: no store at ${dir}`);
  checkInvariants(s, label);
  return s;
}

/** Page requests the test web received for HOST (robots.txt aside), by path. */
function pageRequests(): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of web.requests) {
    // robots.txt and the sitemaps are not pages.
    if (r.host !== HOST || r.path === '/robots.txt' || r.path.startsWith('/sitemap')) continue;
    m.set(r.path, (m.get(r.path) ?? 0) + 1);
  }
  return m;
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** The final store holds exactly the reference closure, each URL fetched once. */
function assertReference(s: Snapshot, label: string): void {
  assert.equal(s.counts.waiting + s.counts.processing, 0, `${label}: ${JSON.stringify(s.counts)}`);
  const missing = [...reference.keys()].filter((u) => !s.states.has(u));
  const extra = [...s.states.keys()].filter((u) => !reference.has(u));
  assert.deepEqual({ missing, extra }, { missing: [], extra: [] }, `${label}: URLs`);
  for (const [url, state] of reference) {
    assert.equal(s.states.get(url), state, `${label}: state of ${url}`);
  }
  assert.equal(s.history.length, reference.size, `${label}: one fetch outcome per URL`);
}

/** Every URL known `before` is still known `after`, and a final state never changes. */
function assertNothingLost(before: Snapshot, after: Snapshot, label: string): void {
  for (const [url, state] of before.states) {
    const now = after.states.get(url);
    assert.ok(now !== undefined, `${label}: ${url} was lost`);
    if (state !== 'waiting' && state !== 'processing') {
      assert.equal(now, state, `${label}: final state of ${url} changed`);
    }
  }
}

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  writeFileSync(topicFile, JSON.stringify(astronomy?.topic));
  const dir = newDir();
  const r = await runCrawl(crawlArgs(dir));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.end.stopReason, 'exhausted');
  const s = await read(dir, 'reference');
  assert.equal(s.counts.waiting + s.counts.processing, 0);
  assert.ok(s.states.size > 50, `the closure has ${s.states.size} URLs`);
  assert.equal(s.history.length, s.states.size);
  for (const url of s.states.keys()) assert.equal(new URL(url).hostname, HOST, url);
  // Uninterrupted, every page is requested exactly once.
  const requests = pageRequests();
  assert.equal(requests.size, s.states.size);
  for (const [path, times] of requests) assert.equal(times, 1, `${path} requested ${times} times`);
  reference = s.states;
});

after(async () => {
  await web.close();
});

test('Ctrl-C stops gracefully and the same command resumes to the same closure', async () => {
  const dir = newDir();
  web.clearLog();
  const c = spawnCrawl(crawlArgs(dir));
  // The first page events come with the first commit: the crawl is under way.
  await c.waitFor((e) => e.event === 'page');
  c.child.kill('SIGINT');
  const first = await finished(c);
  assert.equal(first.code, 130, first.stderr); // interrupted, not finished
  assert.equal(first.end.stopReason, 'stopped');
  assert.match(first.end.message, /run the same command again to resume/);
  assert.equal(first.end.counts.processing, 0);
  assert.ok(first.end.counts.waiting > 0, JSON.stringify(first.end.counts));
  const s1 = await read(dir, 'after Ctrl-C');
  assert.equal(s1.counts.processing, 0, 'no URL left in processing');
  assert.deepEqual(s1.counts, first.end.counts, 'the summary gives the store counts');
  assert.equal(s1.history.length, first.end.run.fetched);
  for (const url of s1.states.keys())
    assert.ok(reference.has(url), `${url} is outside the closure`);
  const firstRun = new Set(s1.history.map((h) => h.url));

  const second = await runCrawl(crawlArgs(dir));
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.end.stopReason, 'exhausted');
  assert.equal(second.end.resumed, true);
  assert.equal(second.end.recovered, 0, 'a graceful stop leaves nothing to recover');
  assert.equal(first.end.run.fetched + second.end.run.fetched, reference.size);
  assert.equal(second.end.fetchedTotal, reference.size);
  const s2 = await read(dir, 'after resuming');
  assertReference(s2, 'after resuming');

  // Each page was requested once, but for what was in flight at Ctrl-C: the stop
  // abandons those fetches (at most --per-host-concurrency of them, here 1) and
  // the resumed run fetches them again.
  const requests = pageRequests();
  for (const url of reference.keys()) {
    assert.ok(requests.has(pathOf(url)), `${url} was never requested`);
  }
  assert.equal(requests.size, reference.size, 'only pages of the closure were requested');
  const again = [...requests].filter(([, times]) => times > 1);
  assert.ok(again.length <= 1, `requested more than once: ${JSON.stringify(again)}`);
  for (const [path, times] of again) {
    assert.equal(times, 2, `${path} requested ${times} times`);
    assert.ok(!firstRun.has(`http://${HOST}${path}`), `${path} was recorded by the first run`);
  }
});

test('kill -9 at random moments loses no URL and records none twice', async (t) => {
  const seed = Number(process.env['FC_KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 32));
  t.diagnostic(`kill times seeded with ${seed} (replay: FC_KILL_SEED=${seed})`);
  const random = prng(seed);
  const dir = newDir();
  web.clearLog();
  let prev: Snapshot | null = null;
  for (let k = 1; k <= 4; k++) {
    const label = `seed ${seed}, kill ${k}`;
    const delay = 100 + Math.floor(random() * 1401);
    // A slower crawl (30 ms between requests) than the reference, so that the kills
    // fall while it runs; the delay does not change the closure. The clock starts at
    // the child's first request, once the process and its store are up.
    const requestsBefore = web.requests.length;
    const c = spawnCrawl(crawlArgs(dir, [], 30));
    const started = await waitUntil(() => web.requests.length > requestsBefore, c.exited);
    if (started) await sleep(delay);
    c.child.kill('SIGKILL');
    const exit = await c.exited;
    const s = await snapshot(dir);
    if (s === null) {
      assert.ok(prev === null, `${label}: the store disappeared`);
      t.diagnostic(`kill ${k} after ${delay} ms: before the store was set up`);
      continue;
    }
    checkInvariants(s, label);
    for (const url of s.states.keys())
      assert.ok(reference.has(url), `${label}: ${url} not in closure`);
    if (prev !== null) assertNothingLost(prev, s, label);
    t.diagnostic(
      `kill ${k} after ${delay} ms${exit.signal === null ? ` (had exited: ${exit.code})` : ''}: ` +
        `${s.states.size} URLs, ${s.history.length} fetched, ${s.counts.processing} processing`,
    );
    prev = s;
  }

  let s = prev;
  for (let i = 1; ; i++) {
    const label = `seed ${seed}, resume ${i}`;
    const r = await runCrawl(crawlArgs(dir));
    assert.equal(r.code, 0, `${label}: ${r.stderr}`);
    if (i === 1) {
      assert.equal(
        r.end.recovered,
        s?.counts.processing ?? 0,
        `${label}: the URLs the killed run held are recovered`,
      );
    }
    s = await read(dir, label);
    if (r.end.stopReason === 'exhausted') break;
    assert.ok(i < 3, `${label}: still not exhausted (${r.end.stopReason})`);
  }
  assertReference(s, `seed ${seed}, final`);
  // Pages fetched but not committed when a run was killed are fetched again; nothing
  // outside the closure ever is.
  const requests = pageRequests();
  for (const path of requests.keys()) {
    assert.ok(reference.has(`http://${HOST}${path}`), `${path} requested, not in the closure`);
  }
});

test('--max-pages counts over runs: 30, then 60 with the same store', async () => {
  const dir = newDir();
  const a = await runCrawl(crawlArgs(dir, ['--max-pages', '30']));
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.end.stopReason, 'max-pages');
  assert.equal(a.end.fetchedTotal, 30);
  let s = await read(dir, 'max-pages 30');
  assert.equal(s.history.length, 30);
  assert.equal(s.counts.processing, 0);
  assert.ok(s.counts.waiting > 0);

  const b = await runCrawl(crawlArgs(dir, ['--max-pages', '60']));
  assert.equal(b.code, 0, b.stderr);
  assert.equal(b.end.stopReason, 'max-pages');
  assert.equal(b.end.resumed, true);
  assert.equal(b.end.run.fetched, 30);
  assert.equal(b.end.fetchedTotal, 60);
  s = await read(dir, 'max-pages 60');
  assert.equal(s.history.length, 60);
  assert.equal(s.counts.processing, 0);
  for (const h of s.history) assert.ok(reference.has(h.url), `${h.url} not in the closure`);
});

test('--duration stops the run in time, with nothing left processing', async () => {
  const dir = newDir();
  const r = await runCrawl(crawlArgs(dir, ['--duration', '1s'], 200));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.end.stopReason, 'duration');
  assert.match(r.end.message, /duration \(1000 ms\)/);
  assert.equal(r.end.counts.processing, 0);
  const s = await read(dir, 'duration');
  assert.equal(s.counts.processing, 0);
  assert.ok(s.counts.waiting > 0, 'the crawl was cut short');
  assert.equal(s.history.length, r.end.run.fetched);
  assert.ok(s.history.length < reference.size);
});

// Regression: a second `crawl --store X` started while one ran (a second terminal, an
// overlapping cron job) recovered the first's in-flight URLs back to waiting; the first
// then stopped with FC_ERR_STORE_STATE and pages were fetched twice.
test('a second crawl on a store in use is refused, naming the running one, which goes on undisturbed', async () => {
  const dir = newDir();
  web.clearLog();
  // 60 ms a page keeps the first crawl running for seconds: the second process must
  // start up (slow on a loaded machine) while the first still holds the store.
  const first = spawnCrawl(crawlArgs(dir, [], 60));
  await first.waitFor((e) => e.event === 'page');
  const second = spawnCrawl(crawlArgs(dir));
  const exit = await second.exited;
  assert.equal(exit.code, 1, second.stderr());
  assert.match(
    second.stderr(),
    new RegExp(`FC_ERR_STORE_BUSY: store .* is in use by a crawl \\(pid ${first.child.pid} on `),
  );
  const r = await finished(first);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.end.stopReason, 'exhausted');
  assertReference(await read(dir, 'two crawls'), 'two crawls');
  for (const [path, times] of pageRequests())
    assert.equal(times, 1, `${path} requested ${times} times`);
  // Once the first has ended, the same command runs (and finds nothing left to do).
  const again = await runCrawl(crawlArgs(dir));
  assert.equal(again.code, 0, again.stderr);
});

// The run lock refuses a second crawl; leases keep the store right even when that lock
// is out of the way (deleted by hand, a directory shared over a network): each run's
// claims are its own, and recovery takes back only a gone run's.
test('with the run lock removed, a second crawl joins safely: no URL fetched twice, no claim lost', async () => {
  const dir = newDir();
  web.clearLog();
  const first = spawnCrawl(crawlArgs(dir, [], 60));
  await first.waitFor((e) => e.event === 'page');
  rmSync(join(dir, 'crawl.lock'));
  const second = spawnCrawl(crawlArgs(dir, [], 60));
  const [a, b] = await Promise.all([finished(first), finished(second)]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.ok(
    b.end.run.fetched > 0,
    `the second crawl fetched pages: ${b.end.stopReason}: ${b.end.message}\n${b.stderr}`,
  );
  assert.equal(a.end.lostClaims, 0);
  assert.equal(b.end.lostClaims, 0);
  assertReference(await read(dir, 'joined crawls'), 'joined crawls');
  for (const [path, times] of pageRequests())
    assert.equal(times, 1, `${path} requested ${times} times`);
});
