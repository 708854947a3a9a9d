import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CrawlProgress, CrawlSummary, PageEvent } from '../crawl/index.js';
import {
  CLEAR_LINE,
  createProgressReporter,
  formatBar,
  formatElapsed,
  formatProgressLine,
  type ProgressMode,
} from './progress.js';

const P: CrawlProgress = {
  elapsedMs: 754_000,
  counts: { waiting: 12_345, processing: 16, complete: 300, discard: 120, error: 4, redirect: 0 },
  fetched: 424,
  fetchedTotal: 500,
  pagesPerSec: 12.34,
  averagePagesPerSec: 0.56,
  harvestRate: 300 / 420,
  inFlight: 16,
  frontier: 12_345,
  bytes: 1_000_000,
};

const SUMMARY: CrawlSummary = {
  stopReason: 'max-pages',
  message: 'the store holds 500 fetched pages',
  resumed: false,
  recovered: 0,
  lostClaims: 0,
  run: { fetched: 430, complete: 305, discard: 121, error: 4, redirect: 0, bytes: 1_100_000 },
  requests: 440,
  waitedForHost: 0,
  refused: {},
  counts: { waiting: 12_000, processing: 0, complete: 305, discard: 121, error: 4, redirect: 0 },
  fetchedTotal: 430,
  harvestRate: 305 / 426,
  elapsedMs: 760_000,
  pagesPerSec: 0.57,
  seedErrors: [],
  resources: { cpuMs: 1234, peakRssBytes: 150 * 1048576 },
};

const PAGE: PageEvent = {
  url: 'http://a.test/p1',
  state: 'complete',
  depth: 1,
  status: 200,
  relevance: 0.6,
  title: '显示器市场',
  newUrls: 3,
  error: null,
};

test('formatElapsed is h:mm:ss', () => {
  const cases: [number, string][] = [
    [0, '0:00:00'],
    [999, '0:00:00'],
    [61_000, '0:01:01'],
    [754_000, '0:12:34'],
    [3_723_000, '1:02:03'],
    [100 * 3_600_000, '100:00:00'],
  ];
  for (const [ms, want] of cases) assert.equal(formatElapsed(ms), want);
});

test('formatProgressLine shows every figure', () => {
  assert.equal(
    formatProgressLine(P),
    '12.3 pages/s | fetched 424 | waiting 12,345 processing 16 complete 300 discard 120 error 4 redirect 0 | harvest 71.4% | elapsed 0:12:34 | frontier 12,345 | in flight 16',
  );
  assert.match(formatProgressLine({ ...P, pagesPerSec: 1234.5 }), /^1235 pages\/s/);
});

test('formatBar picks the longest layout that fits, and always fits', () => {
  const cases: [number, RegExp][] = [
    [200, /^0:12:34 {2}12\.3 pages\/s {2}waiting 12,345 {2}processing 16 .* in flight 16$/],
    [120, /^0:12:34 12\.3 p\/s {2}wait 12,345 proc 16 ok 300 disc 120 err 4 {2}harvest 71\.4%/],
    [80, /^0:12:34 12\.3p\/s w12345 p16 c300 d120 e4 h71\.4% f12345 i16$/],
    [20, /^0:12:34 12\.3p\/s$/],
    [5, /^0:12$/],
  ];
  for (const [columns, want] of cases) {
    const bar = formatBar(P, columns);
    assert.match(bar, want, `${columns}: ${bar}`);
    assert.ok(bar.length < columns, `${columns}: ${bar.length} characters`);
  }
  for (let columns = 1; columns <= 220; columns++) {
    assert.ok(formatBar(P, columns).length <= Math.max(1, columns - 1));
  }
});

function record(mode: ProgressMode, columns?: number) {
  const out: string[] = [];
  const r = createProgressReporter({
    mode,
    write: (s) => out.push(s),
    now: () => new Date(Date.UTC(2024, 4, 1, 12, 0, 0)),
    ...(columns !== undefined ? { columns } : {}),
  });
  return { r, out };
}

test('bar mode redraws one line; a warning clears it, prints, then redraws it', () => {
  const { r, out } = record('bar', 100);
  r.progress(P);
  r.page(PAGE);
  r.warning('robots.txt of b.test is unreachable');
  r.progress({ ...P, fetched: 500 });
  r.end(SUMMARY);
  const bar = formatBar(P, 100);
  assert.deepEqual(out.slice(0, 3), [
    CLEAR_LINE + bar,
    `${CLEAR_LINE}warning: robots.txt of b.test is unreachable\n${bar}`,
    CLEAR_LINE + formatBar({ ...P, fetched: 500 }, 100),
  ]);
  // end draws the final figures and ends the line
  assert.equal(out.length, 4);
  assert.ok(out[3]?.startsWith(CLEAR_LINE) && out[3].endsWith('\n'));
  assert.match(out[3] ?? '', /^\r\x1b\[2K0:12:40 /);
  assert.ok(out.every((s) => !s.slice(0, -1).includes('\n') || s.includes('warning')));
});

test('bar mode: a warning before any bar is a plain line, control characters defused', () => {
  const { r, out } = record('bar');
  r.warning('bad\x1b[31m title\r');
  r.end(SUMMARY);
  assert.deepEqual(out, ['warning: bad?[31m title?\n']);
});

test('bar mode follows a resized terminal', () => {
  let columns = 200;
  const out: string[] = [];
  const r = createProgressReporter({
    mode: 'bar',
    write: (s) => out.push(s),
    columns: () => columns,
  });
  r.progress(P);
  columns = 40;
  r.progress(P);
  assert.ok((out[0]?.length ?? 0) > 100);
  assert.ok((out[1]?.length ?? 0) - CLEAR_LINE.length < 40);
});

test('lines mode: one timestamped line per progress event and per warning', () => {
  const { r, out } = record('lines');
  r.progress(P);
  r.page(PAGE);
  r.warning('slow host');
  r.end(SUMMARY);
  assert.deepEqual(out, [
    `2024-05-01T12:00:00Z ${formatProgressLine(P)}\n`,
    '2024-05-01T12:00:00Z warning: slow host\n',
  ]);
});

test('json mode: one object per line per event', () => {
  const { r, out } = record('json');
  r.progress(P);
  r.page(PAGE);
  r.warning('slow host');
  r.end(SUMMARY);
  assert.ok(out.every((s) => s.endsWith('\n') && s.indexOf('\n') === s.length - 1));
  const events = out.map((s) => JSON.parse(s));
  assert.deepEqual(
    events.map((e) => e.event),
    ['progress', 'page', 'warning', 'end'],
  );
  assert.ok(events.every((e) => e.time === '2024-05-01T12:00:00.000Z'));
  const { event: _p, time: _tp, ...progress } = events[0];
  assert.deepEqual(progress, P);
  const { event: _g, time: _tg, ...page } = events[1];
  assert.deepEqual(page, PAGE);
  assert.equal(events[2].message, 'slow host');
  assert.equal(events[3].stopReason, 'max-pages');
  assert.deepEqual(events[3].run, SUMMARY.run);
});

test('quiet mode prints warnings only', () => {
  const { r, out } = record('quiet');
  r.progress(P);
  r.page(PAGE);
  r.warning('slow host');
  r.end(SUMMARY);
  assert.deepEqual(out, ['warning: slow host\n']);
});

test('invalid reporter options name the field', () => {
  assert.throws(() => createProgressReporter({ mode: 'fancy' as 'bar', write: () => {} }), {
    code: 'FC_ERR_INVALID_OPTION',
    message: /mode/,
  });
  assert.throws(() => createProgressReporter({ mode: 'bar', write: () => {}, columns: 0 }), {
    code: 'FC_ERR_INVALID_OPTION',
    message: /columns/,
  });
});
