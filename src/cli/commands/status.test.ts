import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import Database from 'better-sqlite3';
import type { StatusData } from '../../export/index.js';
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
  const empty = join(mkdtempSync(join(tmpdir(), 'focuscrawl-status-')), 'empty');
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
