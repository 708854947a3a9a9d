import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { before, describe, it, test } from 'node:test';
import Database from 'better-sqlite3';
import {
  buildRevisitStore,
  REVISIT_TIMES,
  SAMPLE_PLAN,
  SAMPLE_WATCH,
} from '../../export/__fixtures__/revisits.js';
import type { RevisitPlanStatus, StatusData } from '../../export/index.js';
import {
  buildSampleStore,
  captureIo,
  SAMPLE_BYTES,
  SAMPLE_THRESHOLD,
  SAMPLE_TOPIC_HISTORY,
  T0,
} from '../../export/testing.js';
import { META_THRESHOLD, META_TOPIC } from '../../relevance/history.js';
import { openStore } from '../../store/index.js';
import { tempDir } from '../../util/testing.js';
import { META_PLAN, META_WATCH, type PlanSummary, type WatchRecord } from '../../watch/index.js';
import type { FetchStats } from '../run-stats.js';
import { statusCommand } from './status.js';

let dir: string;
let noRuns: string;
before(async () => {
  dir = await buildSampleStore();
  noRuns = await buildSampleStore({ runs: false });
});

async function status(...argv: string[]) {
  const io = captureIo();
  const code = await statusCommand(argv, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

test('status --json gives the figures of the store', async () => {
  const r = await status('--store', dir, '--json');
  assert.equal(r.code, 0);
  const d = JSON.parse(r.out) as StatusData & { store: string };
  assert.equal(d.store, dir);
  assert.equal(d.fetched, 4);
  assert.equal(d.failed, 1);
  assert.equal(d.rejected, 1);
  assert.equal(d.discovered, 5);
  assert.equal(d.dropped, 0);
  assert.equal(d.bytes, SAMPLE_BYTES);
  assert.equal(d.seeds, 1);
  assert.deepEqual(d.counts, {
    waiting: 1,
    processing: 0,
    complete: 2,
    discard: 1,
    error: 1,
    redirect: 0,
  });
  assert.equal(d.harvestRate, 2 / 3);
  // first run start → last run end; crawl time is the sum of the two runs
  assert.equal(d.timeSource, 'runs');
  assert.equal(d.startedAt, T0 - 1000);
  assert.equal(d.endedAt, T0 + 150_000);
  assert.equal(d.totalTimeMs, 151_000);
  assert.equal(d.crawlTimeMs, 61_000 + 30_000);
  assert.equal(d.pagesPerSec, 4 / 91);
  assert.equal(d.firstFetchAt, T0);
  assert.equal(d.lastFetchAt, T0 + 121_000);
  assert.deepEqual(d.topic, { name: '电网', threshold: 0.1, keywords: 3 });
  assert.equal(d.runs.count, 2);
  assert.equal(d.runs.lastStopReason, 'max-pages');
  assert.deepEqual(
    d.runs.list.map((x) => [x.durationMs, x.fetched, x.stopReason]),
    [
      [61_000, 3, 'duration'],
      [30_000, 1, 'max-pages'],
    ],
  );
  assert.deepEqual(
    d.topHosts.map((h) => [h.host, h.fetched, h.complete, h.discard, h.error, h.discovered]),
    [
      ['a.test', 3, 2, 1, 0, 4],
      ['b.test', 1, 0, 0, 1, 1],
    ],
  );
});

test('status prints the statistics table', async () => {
  const r = await status('--store', dir);
  assert.equal(r.code, 0);
  const o = r.out;
  assert.match(o, new RegExp(`^Store\\s+${dir.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`, 'm'));
  assert.match(o, /^Topic\s+电网 \(threshold 0\.1, 3 keywords\)$/m);
  assert.match(o, /^Docs fetched\s+4$/m);
  assert.match(o, /^ {2}failed\s+1 \(error\) by cause: HTTP 503/m);
  assert.match(o, /^ {2}rejected\s+1 \(discard/m);
  assert.match(o, /^Discovered\s+5 URLs$/m);
  assert.match(o, new RegExp(`^Bytes\\s+${SAMPLE_BYTES} B$`, 'm'));
  assert.match(o, /^Total time\s+2m31s \(2024-05-01T11:59:59Z → 2024-05-01T12:02:30Z\)$/m);
  assert.match(o, /^Crawl time\s+1m31s \(sum of 2 runs\)$/m);
  assert.match(o, /^Pages\/s\s+0\.04$/m);
  assert.match(o, /^Harvest rate\s+66\.7%/m);
  for (const [state, n] of [
    ['waiting', 1],
    ['processing', 0],
    ['complete', 2],
    ['discard', 1],
    ['error', 1],
  ] as const) {
    assert.match(o, new RegExp(`^ {2}${state}\\s+${n}$`, 'm'), state);
  }
  assert.match(o, /^Runs\s+2, last: max-pages reached$/m);
  assert.match(o, /^ {2}host\s+fetched\s+complete\s+discard\s+error\s+discovered\s+bytes$/m);
  assert.match(o, /^ {2}a\.test\s+3\s+2\s+1\s+0\s+4\s+\d+ B$/m);
});

test('without run records the times come from the history', async () => {
  const r = await status('--store', noRuns, '--json', '--top-hosts', '1');
  const d = JSON.parse(r.out) as StatusData;
  assert.equal(d.timeSource, 'history');
  assert.equal(d.totalTimeMs, 121_000);
  assert.equal(d.crawlTimeMs, 121_000);
  assert.equal(d.pagesPerSec, 4 / 121);
  assert.equal(d.runs.count, 0);
  assert.equal(d.topHosts.length, 1);
  const text = await status('--store', noRuns);
  assert.match(text.out, /^Total time\s+2m01s \(.*, first to last fetch\)$/m);
  assert.match(text.out, /^Runs\s+none recorded$/m);
});

test('status of a missing store names the path', async () => {
  const missing = join(dir, 'nope');
  await assert.rejects(statusCommand(['--store', missing], captureIo()), (e: Error) => {
    assert.equal((e as { code?: string }).code, 'FC_ERR_STORE');
    assert.ok(e.message.includes(missing), e.message);
    return true;
  });
});

test('status of a store from a newer version is refused and the file left as it was', async () => {
  const newer = await buildSampleStore();
  const db = new Database(join(newer, 'crawl.db'));
  db.pragma('user_version = 99');
  db.close();
  const before = readFileSync(join(newer, 'crawl.db'));
  await assert.rejects(statusCommand(['--store', newer], captureIo()), {
    code: 'FC_ERR_STORE_VERSION',
  });
  assert.deepEqual(readFileSync(join(newer, 'crawl.db')), before);
});

test('status flags are checked', async () => {
  await assert.rejects(statusCommand([], captureIo()), {
    code: 'FC_ERR_CLI_USAGE',
    message: /--store is required/,
  });
  await assert.rejects(statusCommand(['--store', dir, '--top-hosts', 'many'], captureIo()), {
    code: 'FC_ERR_CLI_USAGE',
    message: /--top-hosts expects a non-negative integer, got "many"/,
  });
  await assert.rejects(statusCommand(['--store', dir, '--frobnicate'], captureIo()), {
    code: 'FC_ERR_CLI_USAGE',
  });
  const help = await status('--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /Usage: focuscrawl status --store DIR/);
});

test('a store status reads does not change', async () => {
  const fresh = await buildSampleStore();
  const before = readFileSync(join(fresh, 'crawl.db'));
  await status('--store', fresh, '--json');
  assert.deepEqual(readFileSync(join(fresh, 'crawl.db')), before);
});

test('status of an empty store shows zeros and no times', async () => {
  const empty = join(tempDir('status'), 'empty');
  await (await openStore(empty, { create: true })).close();
  const d = JSON.parse((await status('--store', empty, '--json')).out) as StatusData;
  assert.equal(d.fetched, 0);
  assert.equal(d.harvestRate, null);
  assert.equal(d.totalTimeMs, null);
  assert.equal(d.pagesPerSec, null);
  assert.equal(d.topic, null);
  assert.deepEqual(d.topHosts, []);
  const text = (await status('--store', empty)).out;
  assert.match(text, /^Total time\s+– \(nothing fetched yet\)$/m);
  assert.match(text, /^Harvest rate\s+–/m);
  assert.match(text, /^Topic\s+\(none recorded\)$/m);
  assert.doesNotMatch(text, /Top hosts/);
});

test('status shows the threshold and topic-vector histories a crawl stored', async () => {
  const withHistory = await buildSampleStore();
  const w = await openStore(withHistory);
  await w.setMeta(META_THRESHOLD, SAMPLE_THRESHOLD);
  await w.setMeta(META_TOPIC, SAMPLE_TOPIC_HISTORY);
  await w.close();
  const d = JSON.parse((await status('--store', withHistory, '--json')).out) as StatusData;
  assert.equal(d.threshold?.kind, 'iterative');
  assert.equal(d.threshold?.value, 0.1834);
  assert.equal(d.threshold?.changes, 7);
  assert.equal(d.threshold?.last.length, 5);
  assert.equal(d.topicVector?.changes, 2);
  assert.equal(d.topicVector?.lastDrift, 0.04213);
  const text = (await status('--store', withHistory)).out;
  assert.match(text, /^Threshold\s+iterative 0\.05 → 0\.1834, frozen \(7 changes\)$/m);
  assert.match(text, /^Topic vector\s+2 changes; last at 1,000 fetched: drift 0\.042/m);
  // The store without histories: the fields are null and the rows absent.
  const plain = JSON.parse((await status('--store', dir, '--json')).out) as StatusData;
  assert.equal(plain.threshold, null);
  assert.equal(plain.topicVector, null);
});

test('status shows the last ranking and the top pages by P, relevance and PageRank beside it', async () => {
  const ranked = await buildSampleStore();
  const before = await status('--store', ranked);
  assert.match(before.out, /Ranking\s+none yet/);
  assert.match(before.out, /Duplicates\s+0/);
  const store = await openStore(ranked);
  const { rankStore } = await import('../../ranking/index.js');
  await rankStore(store);
  await store.close();
  const json = JSON.parse((await status('--store', ranked, '--json')).out) as StatusData;
  assert.equal(json.ranking?.algorithm, 'pagerank');
  assert.equal(json.topPages.length, 2);
  for (const p of json.topPages) {
    assert.ok(p.pageRank !== null);
    assert.ok(Math.abs(p.score - (0.6 * p.relevance + 0.4 * p.pageRank)) < 1e-9);
  }
  assert.ok((json.topPages[0]?.score ?? 0) >= (json.topPages[1]?.score ?? 0));
  const text = (await status('--store', ranked)).out;
  assert.match(text, /Top pages by P\n\s+url\s+P\s+relevance\s+PR\n/);
  assert.ok(text.includes(json.topPages[0]?.url ?? '?'));
  assert.equal(
    (await status('--store', ranked, '--top-pages', '0', '--json')).out.includes('"topPages": []'),
    true,
  );
});

test('status names the crawls holding claims, and one that stopped renewing its lease', async () => {
  const d = await buildSampleStore();
  const s = await openStore(d);
  try {
    await s.openLease({ host: hostname(), pid: process.pid, startedAt: T0 }, Date.now() + 60_000);
    await s.openLease({ host: hostname(), pid: 2 ** 30, startedAt: T0 }, Date.now() + 60_000);
  } finally {
    await s.close();
  }
  const r = await status('--store', d);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, new RegExp(`Running +a crawl \\(pid ${process.pid} on .*; lease until `));
  assert.match(r.out, /Running +a crawl \(pid 1073741824 on .*\) stopped renewing its lease/);
  const j = JSON.parse((await status('--store', d, '--json')).out) as StatusData;
  assert.deepEqual(
    j.running.map((x) => [x.pid, x.lost]),
    [
      [process.pid, false],
      [2 ** 30, true],
    ],
  );
  assert.match((await status('--store', dir)).out, /Running +no crawl/);
});

describe('status of a watched store: the revisits section', () => {
  // The fixtures' plain objects are the watch's records: they type-check as such,
  // and the status reads the plan as the watch writes it.
  const watchRecord: WatchRecord = SAMPLE_WATCH;
  const plan: PlanSummary = SAMPLE_PLAN;
  const asRead: RevisitPlanStatus = plan;
  let watched: string;
  before(async () => {
    watched = await buildRevisitStore({ [META_WATCH]: watchRecord, [META_PLAN]: plan });
  });

  it('gives the budget, what was spent against it, what the revisits found and the plan in --json', async () => {
    const r = await status('--store', watched, '--json');
    assert.equal(r.code, 0, r.err);
    const v = (JSON.parse(r.out) as StatusData).revisits;
    assert.ok(v);
    assert.deepEqual(v.watch, {
      policy: 'freshness',
      discoveryShare: 0.5,
      startedAt: T0 + 500_000,
    });
    assert.deepEqual(v.budget, { requests: 30, perMs: 60_000, perSec: 0.5 });
    // All time: five history rows (p3 fetched during the watch), six visits.
    assert.equal(v.fetches, 5);
    assert.equal(v.revisits, 6);
    assert.deepEqual(v.found, { unchanged: 2, changed: 2, gone: 1, failed: 1 });
    assert.equal(v.gone, 1);
    // The last hour of records: rounds 2 and 3 and the fetch of p3.
    const t = REVISIT_TIMES;
    assert.deepEqual(v.lastHour, {
      from: t.round3 + 1000 - 3_600_000,
      until: t.round3 + 1000,
      fetches: 1,
      revisits: 4,
      found: { unchanged: 1, changed: 1, gone: 1, failed: 1 },
      perSec: 5 / 3600,
      ofBudget: 5 / 3600 / 0.5,
    });
    // Home is scheduled (and long due at today's date), p1 gone.
    assert.deepEqual([v.tracked, v.scheduled, v.due, v.nextDueAt], [2, 1, 1, t.homeDue]);
    assert.deepEqual(v.plan, asRead);
  });

  it('prints the revisits section after the runs', async () => {
    const r = await status('--store', watched);
    assert.equal(r.code, 0, r.err);
    const o = r.out;
    assert.match(
      o,
      /^Runs +2, last: max-pages reached\n\nRevisits +2 pages tracked, 1 scheduled, 1 due now; next due 2024-05-01T14:30:00Z$/m,
    );
    assert.match(
      o,
      /^ {2}budget +30\/min \(0\.5\/s\), policy freshness, discovery share 50\.0%; watch started 2024-05-01T12:08:20Z$/m,
    );
    assert.match(
      o,
      /^ {2}spent +0\.00139\/s \(0\.3% of the budget\) over the last hour: 1 fetch \+ 4 revisits, 2024-05-01T13:00:01Z → 2024-05-01T14:00:01Z$/m,
    );
    assert.match(
      o,
      /^ {2}revisits +6 \(4 in the last hour\) vs 5 new fetches \(1 in the last hour\)$/m,
    );
    assert.match(
      o,
      /^ {2}found +2 changed, 2 unchanged, 1 gone, 1 failed; last hour: 1 changed, 1 unchanged, 1 gone, 1 failed$/m,
    );
    assert.match(o, /^ {2}gone +1 page \(404, 410 or moved: no longer revisited\)$/m);
    assert.match(
      o,
      /^ {2}freshness +87\.3% expected \(plan of 2024-05-01T14:01:40Z, freshness: 2 pages, 1 scheduled, 0 given up; 21,600 revisits\/day, 21,600 new URLs\/day\)$/m,
    );
    assert.match(
      o,
      /^ {2}change rates +λ̂ per day: <0\.01 0, 0\.01–0\.1 0, 0\.1–1 1, 1–10 1, 10–100 0, ≥100 0$/m,
    );
    assert.match(
      o,
      /^ {2}next due \(plan\)\n {4}url +due at +changes\/day\n {4}http:\/\/a\.test\/ +2024-05-01T14:30:00Z +0\.5$/m,
    );
  });

  it('shows the store’s own figures when no watch or plan is recorded', async () => {
    const bare = await buildRevisitStore();
    const v = (JSON.parse((await status('--store', bare, '--json')).out) as StatusData).revisits;
    assert.equal(v?.budget, null);
    assert.equal(v?.watch, null);
    assert.equal(v?.plan, null);
    assert.equal(v?.lastHour?.ofBudget, null);
    assert.equal(v?.tracked, 2);
    const o = (await status('--store', bare)).out;
    assert.match(o, /^ {2}budget +– \(no watch recorded\)$/m);
    assert.match(o, /^ {2}spent +0\.00139\/s over the last hour: /m);
    assert.match(o, /^ {2}freshness +– \(no revisit plan recorded\)$/m);
    assert.doesNotMatch(o, /change rates|next due \(plan\)/);
  });

  it('shows a watch recorded before any revisit', async () => {
    const started = await buildSampleStore();
    const w = await openStore(started);
    await w.setMeta(META_WATCH, { ...watchRecord, startedAt: T0 + 100_000 });
    await w.close();
    const v = (JSON.parse((await status('--store', started, '--json')).out) as StatusData).revisits;
    assert.equal(v?.tracked, 0);
    assert.equal(v?.revisits, 0);
    assert.equal(v?.nextDueAt, null);
    // The window starts with the watch: only the fetch of bx (T0 + 121 s) after it.
    assert.equal(v?.lastHour?.from, T0 + 100_000);
    assert.equal(v?.lastHour?.fetches, 1);
    assert.equal(v?.lastHour?.perSec, 1 / 21);
    const o = (await status('--store', started)).out;
    assert.match(o, /^Revisits +0 pages tracked, 0 scheduled, 0 due now; nothing scheduled$/m);
    assert.match(
      o,
      /^ {2}spent +0\.0476\/s \(9\.5% of the budget\) over the last hour: 1 fetch \+ 0 revisits, .* \(21\.0s\)$/m,
    );
  });

  it('leaves the output of a store without revisits as it was', async () => {
    const json = (await status('--store', dir, '--json')).out;
    assert.equal('revisits' in JSON.parse(json), false);
    assert.doesNotMatch(json, /revisit/i);
    assert.doesNotMatch((await status('--store', dir)).out, /Revisits|budget/);
  });
});

test('status shows the fetch statistics: by status, by error, the failing hosts', async () => {
  const j = await status('--store', dir, '--json');
  const d = JSON.parse(j.out) as { fetchStats: FetchStats };
  assert.equal(d.fetchStats.fetches, 4);
  assert.deepEqual(d.fetchStats.byStatus, [
    { status: '200', count: 3 },
    { status: '503', count: 1 },
  ]);
  assert.deepEqual(d.fetchStats.byError, [{ code: 'HTTP 503', count: 1 }]);
  assert.deepEqual(d.fetchStats.failingHosts, [
    { host: 'b.test', fetches: 1, failures: 1, share: 1 },
  ]);
  const r = await status('--store', dir);
  const section = r.out.slice(r.out.indexOf('\nFetch stats\n'));
  assert.match(section, /^ {2}by status {6}200 3, 503 1$/m);
  assert.match(section, /^ {2}by error {7}HTTP 503 1$/m);
  assert.match(section, /^ {2}failing hosts {2}b\.test 1 of 1 \(100\.0%\)$/m);
});

test('status of a store that fetched nothing has no fetch statistics section', async () => {
  const empty = join(tempDir('status-empty'), 'store');
  const store = await openStore(empty, { create: true });
  await store.close();
  const r = await status('--store', empty);
  assert.equal(r.code, 0);
  assert.doesNotMatch(r.out, /Fetch stats/);
  const j = JSON.parse((await status('--store', empty, '--json')).out) as {
    fetchStats: FetchStats;
  };
  assert.equal(j.fetchStats.fetches, 0);
});
