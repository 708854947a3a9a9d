import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CrawlProgress, CrawlSummary, PageEvent } from '../crawl/index.js';
import {
  type BudgetFigures,
  budgetFigures,
  CLEAR_LINE,
  createProgressReporter,
  formatBar,
  formatBudget,
  formatElapsed,
  formatPageLine,
  formatProgressLine,
  LEGEND,
  LOG_LEVELS,
  type LogLevel,
  legendLines,
  type ProgressBudget,
  type ProgressMode,
  type ProgressReporterOptions,
  RecentRate,
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
  retries: 0,
  requeued: 0,
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

test('formatProgressLine shows every figure on one compact line, the budget when there is one', () => {
  assert.equal(
    formatProgressLine(P),
    '0:12:34 fetched 424, 12.3 pages/s; waiting 12,345 processing 16 complete 300 discard 120 error 4 redirect 0; harvest 71.4%; in flight 16',
  );
  assert.match(
    formatProgressLine({ ...P, pagesPerSec: 1234.5 }),
    /^0:12:34 fetched 424, 1235 pages\/s;/,
  );
  const b: BudgetFigures = { of: 'pages', share: 0.5, etaMs: 192_000, total: 1000 };
  assert.match(
    formatProgressLine(P, b),
    /^0:12:34 fetched 424, 12\.3 pages\/s, 50\.0% of 1,000 pages, ETA 0:03:12; waiting/,
  );
});

test('budgetFigures: the share of --max-pages with an ETA at the recent rate, else of --duration', () => {
  const at = (fetchedTotal: number, elapsedMs: number) => ({ ...P, fetchedTotal, elapsedMs });
  const cases: [
    string,
    ReturnType<typeof at>,
    ProgressBudget | undefined,
    number | null,
    BudgetFigures | null,
  ][] = [
    ['no budget', at(500, 1000), undefined, 10, null],
    ['an empty budget', at(500, 1000), {}, 10, null],
    [
      'pages: half done at 10/s',
      at(500, 60_000),
      { maxPages: 1000 },
      10,
      { of: 'pages', share: 0.5, etaMs: 50_000, total: 1000 },
    ],
    [
      'pages: no rate yet',
      at(500, 1000),
      { maxPages: 1000 },
      null,
      { of: 'pages', share: 0.5, etaMs: null, total: 1000 },
    ],
    [
      'pages: rate 0',
      at(500, 1000),
      { maxPages: 1000 },
      0,
      { of: 'pages', share: 0.5, etaMs: null, total: 1000 },
    ],
    [
      'pages: reached (resumed past it)',
      at(1200, 1000),
      { maxPages: 1000 },
      5,
      { of: 'pages', share: 1, etaMs: 0, total: 1000 },
    ],
    [
      'pages and time: time runs out first',
      at(100, 50_000),
      { maxPages: 1000, durationMs: 60_000 },
      10,
      { of: 'pages', share: 0.1, etaMs: 10_000, total: 1000 },
    ],
    [
      'pages and time: pages run out first',
      at(900, 10_000),
      { maxPages: 1000, durationMs: 60_000 },
      10,
      { of: 'pages', share: 0.9, etaMs: 10_000, total: 1000 },
    ],
    [
      'pages and time, no rate: the time left',
      at(0, 10_000),
      { maxPages: 1000, durationMs: 60_000 },
      null,
      { of: 'pages', share: 0, etaMs: 50_000, total: 1000 },
    ],
    [
      'time only',
      at(0, 15_000),
      { durationMs: 60_000 },
      10,
      { of: 'time', share: 0.25, etaMs: 45_000, total: 60_000 },
    ],
    [
      'time only, past it',
      at(0, 70_000),
      { durationMs: 60_000 },
      10,
      { of: 'time', share: 1, etaMs: 0, total: 60_000 },
    ],
  ];
  for (const [what, p, budget, rate, want] of cases)
    assert.deepEqual(budgetFigures(p, budget, rate), want, what);
});

test('RecentRate: pages per second over the last minute of progress events', () => {
  const cases: [string, [number, number][], (number | null)[]][] = [
    ['one sample: no rate', [[1000, 10]], [null]],
    [
      'steady 10/s',
      [
        [0, 0],
        [1000, 10],
        [2000, 20],
      ],
      [null, 10, 10],
    ],
    [
      'the same instant twice',
      [
        [1000, 5],
        [1000, 6],
      ],
      [null, null],
    ],
    [
      'a fast start forgotten after the window',
      [
        [0, 0],
        [30_000, 3000],
        [60_000, 3100],
        [90_000, 3200],
      ],
      [null, 100, 3100 / 60, 200 / 60],
    ],
  ];
  for (const [what, samples, want] of cases) {
    const r = new RecentRate(60_000);
    assert.deepEqual(
      samples.map(([t, n]) => r.add(t, n)),
      want,
      what,
    );
  }
});

test('formatBudget: long and short forms', () => {
  const cases: [BudgetFigures, boolean, string][] = [
    [
      { of: 'pages', share: 0.421, etaMs: 192_000, total: 1000 },
      true,
      '42.1% of 1,000 pages, ETA 0:03:12',
    ],
    [{ of: 'pages', share: 0.421, etaMs: 192_000, total: 1000 }, false, '42% ETA 0:03:12'],
    [{ of: 'pages', share: 0.999, etaMs: null, total: 1000 }, false, '99% ETA ?'],
    [
      { of: 'time', share: 0.25, etaMs: 5_400_000, total: 7_200_000 },
      true,
      '25.0% of 2:00:00 (--duration), ETA 1:30:00',
    ],
  ];
  for (const [b, long, want] of cases) assert.equal(formatBudget(b, long), want);
});

test('formatPageLine: one line per outcome, control characters defused', () => {
  const cases: [PageEvent, string][] = [
    [PAGE, 'page complete 200 0.60 http://a.test/p1 (+3 URLs)'],
    [
      { ...PAGE, state: 'discard', relevance: 0.01, newUrls: 0 },
      'page discard 200 0.01 http://a.test/p1',
    ],
    [
      {
        ...PAGE,
        state: 'error',
        status: null,
        relevance: null,
        newUrls: 0,
        error: 'FC_ERR_DNS: no such host',
      },
      'page error - - http://a.test/p1: FC_ERR_DNS: no such host',
    ],
    [
      {
        ...PAGE,
        state: 'error',
        status: 503,
        relevance: null,
        newUrls: 0,
        error: 'HTTP 503',
        attempt: 2,
        retryAt: Date.UTC(2024, 4, 1, 12, 0, 30),
      },
      'page error 503 - http://a.test/p1: HTTP 503 (attempt 2, again from 2024-05-01T12:00:30Z)',
    ],
    [
      {
        ...PAGE,
        state: 'error',
        status: 404,
        relevance: null,
        newUrls: 0,
        error: 'HTTP 404',
        attempt: 1,
      },
      'page error 404 - http://a.test/p1: HTTP 404 (attempt 1)',
    ],
    [
      { ...PAGE, finalUrl: 'http://a.test/p2', newUrls: 0 },
      'page complete 200 0.60 http://a.test/p1 → http://a.test/p2',
    ],
    [
      { ...PAGE, url: 'http://a.test/\x1b[2J', newUrls: 0 },
      'page complete 200 0.60 http://a.test/?[2J',
    ],
  ];
  for (const [e, want] of cases) assert.equal(formatPageLine(e), want);
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

test('formatBar shows the budget in every layout that fits it', () => {
  const b: BudgetFigures = { of: 'pages', share: 0.421, etaMs: 192_000, total: 1000 };
  const cases: [number, RegExp][] = [
    [250, /^0:12:34 {2}12\.3 pages\/s {2}42\.1% of 1,000 pages, ETA 0:03:12 {2}waiting 12,345/],
    [140, /^0:12:34 12\.3 p\/s 42% ETA 0:03:12 {2}wait 12,345/],
    [90, /^0:12:34 12\.3p\/s 42% ETA 0:03:12 w12345 p16 c300 d120 e4 h71\.4% f12345 i16$/],
  ];
  for (const [columns, want] of cases) {
    const bar = formatBar(P, columns, b);
    assert.match(bar, want, `${columns}: ${bar}`);
    assert.ok(bar.length < columns);
  }
});

function record(mode: ProgressMode, columns?: number, more: Partial<ProgressReporterOptions> = {}) {
  const out: string[] = [];
  const r = createProgressReporter({
    mode,
    write: (s) => out.push(s),
    now: () => new Date(Date.UTC(2024, 4, 1, 12, 0, 0)),
    ...(columns !== undefined ? { columns } : {}),
    ...more,
  });
  return { r, out };
}

test('bar mode redraws one line; a warning clears it, prints, then redraws it', () => {
  const { r, out } = record('bar', 100, { legend: false });
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
    legend: false,
  });
  r.progress(P);
  columns = 40;
  r.progress(P);
  assert.ok((out[0]?.length ?? 0) > 100);
  assert.ok((out[1]?.length ?? 0) - CLEAR_LINE.length < 40);
});

test('bar mode: the legend once, above the first bar', () => {
  const { r, out } = record('bar', 100);
  r.progress(P);
  r.progress(P);
  assert.deepEqual(out, [
    `${LEGEND}\n`,
    CLEAR_LINE + formatBar(P, 100),
    CLEAR_LINE + formatBar(P, 100),
  ]);
  assert.match(LEGEND, /w waiting, p processing, c complete \(kept\), d discarded, e error/);
});

test('legendLines wraps the legend for --help', () => {
  const text = legendLines(60, '    ');
  const lines = text.split('\n');
  assert.ok(lines.length > 2);
  for (const l of lines) {
    assert.ok(l.length <= 60, l);
    assert.ok(l.startsWith('    '));
  }
  assert.equal(lines.map((l) => l.trim()).join(' '), LEGEND.replace(/^legend: /, ''));
});

test('bar mode: the budget with an ETA from the rate between progress events', () => {
  const { r, out } = record('bar', 100, { legend: false, budget: { maxPages: 1000 } });
  r.progress({ ...P, elapsedMs: 0, fetchedTotal: 0 });
  r.progress({ ...P, elapsedMs: 10_000, fetchedTotal: 100 });
  assert.match(out[0] ?? '', / 0% ETA \? /);
  // 100 pages in 10 s: 900 left take 90 s.
  assert.match(out[1] ?? '', / 10% ETA 0:01:30 /);
});

test('lines mode: a compact timestamped line every lineEveryMs of the run, warnings each', () => {
  const { r, out } = record('lines');
  for (let t = 0; t <= 25_000; t += 1000) r.progress({ ...P, elapsedMs: t });
  r.page(PAGE);
  r.warning('slow host');
  r.end(SUMMARY);
  const at = (t: number) => `2024-05-01T12:00:00Z ${formatProgressLine({ ...P, elapsedMs: t })}\n`;
  // 26 progress events, one line each 10 s (the default), not one per event.
  assert.deepEqual(out, [
    at(0),
    at(10_000),
    at(20_000),
    '2024-05-01T12:00:00Z warning: slow host\n',
  ]);
  const every = record('lines', undefined, { lineEveryMs: 0 });
  for (let t = 0; t < 3000; t += 1000) every.r.progress({ ...P, elapsedMs: t });
  assert.equal(every.out.length, 3);
});

test('lines mode: an end line when asked (the log file)', () => {
  const { r, out } = record('lines', undefined, { endLine: true });
  r.end(SUMMARY);
  assert.deepEqual(out, [
    '2024-05-01T12:00:00Z end max-pages: the store holds 500 fetched pages\n',
  ]);
});

test('log levels: what each mode writes at each level', () => {
  // [mode, level] → [progress written, page written, warning written]
  const want: Record<'bar' | 'lines' | 'quiet', Record<LogLevel, [boolean, boolean, boolean]>> = {
    bar: {
      error: [false, false, false],
      warn: [false, false, true],
      info: [true, false, true],
      debug: [true, true, true],
    },
    lines: {
      error: [false, false, false],
      warn: [false, false, true],
      info: [true, false, true],
      debug: [true, true, true],
    },
    quiet: {
      error: [false, false, false],
      warn: [false, false, true],
      info: [false, false, true],
      debug: [false, false, true],
    },
  };
  for (const mode of ['bar', 'lines', 'quiet'] as const) {
    for (const level of LOG_LEVELS) {
      const written = (call: (r: ReturnType<typeof record>['r']) => void) => {
        const { r, out } = record(mode, 200, { level, legend: false });
        call(r);
        return out.length > 0;
      };
      const got = [
        written((r) => r.progress(P)),
        written((r) => r.page(PAGE)),
        written((r) => r.warning('w')),
      ];
      assert.deepEqual(got, want[mode][level], `${mode} at ${level}`);
    }
  }
  const debug = record('lines', undefined, { level: 'debug' });
  debug.r.page(PAGE);
  assert.deepEqual(debug.out, [`2024-05-01T12:00:00Z ${formatPageLine(PAGE)}\n`]);
  const bar = record('bar', 200, { level: 'debug', legend: false });
  bar.r.progress(P);
  bar.r.page(PAGE);
  assert.equal(bar.out[1], `${CLEAR_LINE}${formatPageLine(PAGE)}\n${formatBar(P, 200)}`);
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
