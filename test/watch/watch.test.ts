// Incremental crawls (`watch`) against the test web on 127.0.0.1, its clock running
// fast: new forum threads found through revisited board pages, the request budget
// kept (the server's log), conditional requests, and a watch killed with SIGKILL
// resumed with its estimates intact.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { updateControl } from '../../src/crawl/control.js';
import { openStore, type RevisitRecord, type VisitRecord } from '../../src/store/index.js';
import { forumThreads, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { watch } from '../../src/watch/index.js';
import { spawnCli } from '../crawl/resume-helpers.js';
import { webFetcher } from '../web-fetcher.js';

const root = tempDir('watch');
let n = 0;
const newDir = () => join(root, `w${++n}`);
/** One simulated day per real second. */
const SPEED = 86_400;
let web: TestWeb;

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small', clockSpeed: SPEED });
});
after(async () => {
  await web.close();
});

const fetcher = () => webFetcher(web);

/** Every page is kept: these tests are about freshness, not focus. */
const topic = { keywords: { forum: 1, news: 1 }, threshold: 0 };

async function read(dir: string): Promise<{ revisits: RevisitRecord[]; visits: VisitRecord[] }> {
  const store = await openStore(dir, { readonly: true });
  try {
    const revisits: RevisitRecord[] = [];
    for await (const r of store.revisits()) revisits.push(r);
    const visits: VisitRecord[] = [];
    for await (const v of store.visits()) visits.push(v);
    return { revisits, visits };
  } finally {
    await store.close();
  }
}

/** The most requests (robots.txt aside) the server saw in any `windowMs` starting at a request. */
function busiestWindow(host: string, since: number, windowMs: number): number {
  const ts = web.requests
    .filter((r) => r.host === host && r.path !== '/robots.txt' && r.ts >= since)
    .map((r) => r.ts)
    .sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < ts.length; i++) {
    while ((ts[i] as number) - (ts[j] as number) >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

test('a watch finds forum threads created while it runs, through revisited board pages, within its budget', async () => {
  const dir = newDir();
  const since = Date.now();
  const simStart = web.clock.now();
  const run = watch(
    {
      store: dir,
      topic,
      seeds: ['http://forum.test/'],
      // The boards and threads (not their many variants): a few hundred pages.
      include: ['^http://forum\\.test/((board|thread)/\\d+)?$'],
      fetcher: fetcher(),
    },
    { budget: '60/s', durationMs: 12_000, planIntervalMs: 1_000 },
  );
  const changed: string[] = [];
  run.on('changed', (e) => changed.push(e.url));
  const s = await run;
  assert.equal(s.stopReason, 'duration');
  assert.ok(s.revisits.changed > 0, `no revisit found a change: ${JSON.stringify(s.revisits)}`);
  assert.ok(
    changed.some((u) => /\/board\/\d+$/.test(u)),
    'no board page was seen to change',
  );
  // Threads created after the watch began, by the forum's clock, were fetched.
  const born = forumThreads({ seed: 1, size: 'small' }).filter((t) => t.createdAt > simStart);
  const fetched = new Set(
    web.requests
      .filter((r) => r.host === 'forum.test' && r.ts >= since && r.status === 200)
      .map((r) => `http://forum.test${r.path}`),
  );
  const found = born.filter((t) => fetched.has(t.url));
  assert.ok(
    found.length > 0,
    `none of ${born.length} threads created during the watch was fetched`,
  );
  // The budget (60 a second over all hosts) holds in the server's log: at most one
  // request more than the budget in any second.
  const most = busiestWindow('forum.test', since, 1_000);
  assert.ok(most <= 61, `${most} requests in one second against a budget of 60`);
  const { revisits } = await read(dir);
  assert.ok(revisits.some((r) => r.visits > 0 && r.rate !== null));
});

test('revisits send the stored validators: a 304 is an unchanged visit, a changed page replaces the stored copy and keeps its version', async () => {
  const dir = newDir();
  const since = Date.now();
  const s = await watch(
    { store: dir, topic, seeds: ['http://news.test/'], fetcher: fetcher() },
    { budget: '80/s', durationMs: 10_000, planIntervalMs: 1_000, keepVersions: true },
  );
  assert.ok(s.revisits.unchanged > 0 && s.revisits.changed > 0, JSON.stringify(s.revisits));
  const conditional = web.requests.filter(
    (r) => r.host === 'news.test' && r.ts >= since && r.status === 304,
  );
  assert.ok(conditional.length > 0, 'no conditional request was answered 304');
  const { visits } = await read(dir);
  const v304 = visits.filter((v) => v.status === 304);
  // Every 304 recorded was answered; revisits still in flight when the watch ended (4
  // at most, `revisitConcurrency`) were answered but not recorded: due again next run.
  assert.ok(
    v304.length <= conditional.length && v304.length >= conditional.length - 4,
    `${v304.length} visits recorded as 304, ${conditional.length} answered`,
  );
  assert.ok(v304.every((v) => v.change === 'unchanged'));
  // The first fetch's validators are kept, so a page's first revisit is conditional
  // already (regression: they were dropped and every first revisit came back 200).
  const firsts = new Map<string, VisitRecord>();
  for (const v of visits) if (!firsts.has(v.url)) firsts.set(v.url, v);
  assert.ok(
    [...firsts.values()].some((v) => v.status === 304),
    'no first revisit was answered 304',
  );
  // Pages without validators answer 200 with new markup noise every time: unchanged
  // all the same when their visible text is.
  assert.ok(visits.some((v) => v.status === 200 && v.change === 'unchanged'));
  const store = await openStore(dir, { readonly: true });
  try {
    const pages = new Map<string, number>();
    for await (const p of store.pages()) pages.set(p.url, p.fetchedAt);
    for (const v of visits.filter((x) => x.change === 'changed'))
      assert.ok(
        (pages.get(v.url) ?? 0) >= v.at,
        `${v.url}: the stored copy is not the changed one`,
      );
  } finally {
    await store.close();
  }
});

test('a paused watch starts no revisit and no new fetch; resumed, it goes on (regression: revisits went on while paused)', async () => {
  const dir = newDir();
  const run = watch(
    { store: dir, topic, seeds: ['http://news.test/'], fetcher: fetcher() },
    { budget: '80/s', durationMs: 14_000, planIntervalMs: 1_000 },
  );
  let revisited = 0;
  run.on('revisit', () => revisited++);
  // Wait for revisits to run, then pause through the store, as `focuscrawl serve` does.
  const t0 = Date.now();
  while (revisited === 0 && Date.now() - t0 < 9_000) await new Promise((r) => setTimeout(r, 100));
  assert.ok(revisited > 0, 'no revisit within 9 s');
  const control = await openStore(dir);
  try {
    await updateControl(control, (c) => {
      c.paused = true;
    });
    // The poll (500 ms) and the fetches under way.
    await new Promise((r) => setTimeout(r, 1_500));
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 2_500));
    const during = web.requests.filter(
      (q) => q.host === 'news.test' && q.path !== '/robots.txt' && q.ts >= from,
    ).length;
    assert.equal(during, 0, `${during} requests while paused`);
    await updateControl(control, (c) => {
      c.paused = false;
    });
    const resumed = Date.now();
    const s = await run;
    const after = web.requests.filter((q) => q.host === 'news.test' && q.ts >= resumed).length;
    assert.ok(after > 0, 'no request after resuming');
    assert.equal(s.stopReason, 'duration');
  } finally {
    await control.close();
  }
});

test('a watch killed with SIGKILL resumes with its visits and estimates intact', async () => {
  const dir = newDir();
  const args = [
    '--store',
    dir,
    '--topic',
    join(root, 'topic.json'),
    '--seeds',
    'http://news.test/',
    '--resolve',
    web.resolve,
    '--allow-private',
    '--delay-ms',
    '0',
    '--budget',
    '60/s',
    '--plan-interval',
    '1s',
  ];
  const { writeFileSync } = await import('node:fs');
  writeFileSync(
    join(root, 'topic.json'),
    JSON.stringify({ keywords: topic.keywords, threshold: 0 }),
  );
  const first = spawnCli('watch', args);
  // Killed once some revisits are recorded.
  let seen = 0;
  await first.waitFor((e) => e.event === 'revisit' && ++seen >= 20, 40_000);
  first.child.kill('SIGKILL');
  await first.exited;
  const before = await read(dir);
  assert.ok(before.visits.length > 0);
  const rated = before.revisits.filter((r) => r.rate !== null);
  assert.ok(rated.length > 0, 'no estimate was stored');
  // The same command again, for a few seconds: nothing recorded is lost, and the
  // revisit records go on from where they were.
  const again = spawnCli('watch', [...args, '--duration', '4s']);
  const exit = await again.exited;
  assert.equal(exit.code, 0, again.stderr());
  const afterRun = await read(dir);
  assert.ok(afterRun.visits.length >= before.visits.length);
  const was = new Map(before.revisits.map((r) => [r.url, r]));
  for (const r of afterRun.revisits) {
    const old = was.get(r.url);
    if (old === undefined) continue;
    assert.ok(r.visits >= old.visits && r.changes >= old.changes, `${r.url}: counts went back`);
    assert.ok(r.rate !== null || old.rate === null, `${r.url}: its estimate was lost`);
  }
  assert.ok(afterRun.visits.length > before.visits.length, 'the resumed watch recorded no revisit');
});
