import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  clip,
  displayHost,
  displayUrl,
  escapeHtml,
  formatAxisNumber,
  formatTick,
  formatTime,
  safeHref,
} from './format.js';
import { readRuns } from './gather.js';

describe('escaping', () => {
  it('makes markup inert in text and attributes', () => {
    assert.equal(
      escapeHtml(`</title><script>alert("x")</script>&'`),
      '&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;',
    );
    assert.equal(escapeHtml('电网 & power grid'), '电网 &amp; power grid');
  });
  it('links only http(s) URLs', () => {
    const cases: [string, string | null][] = [
      ['http://a.test/x?q=1&r=2', 'http://a.test/x?q=1&r=2'],
      ['https://电网.test/', 'https://xn--wnyq9s.test/'],
      ['javascript:alert(1)', null],
      ['JAVASCRIPT:alert(1)', null],
      ['data:text/html,<script>alert(1)</script>', null],
      ['/relative', null],
      ['ftp://a.test/', null],
    ];
    for (const [url, want] of cases) assert.equal(safeHref(url), want, url);
  });
});

describe('figures for people', () => {
  it('tick labels', () => {
    assert.deepEqual(
      [0, 200, 1500, 30_000, 90_000, 3_600_000, 5_400_000, 129_600_000].map(formatTick),
      ['0', '200ms', '1.5s', '30s', '1m30s', '1h', '1h30m', '1d12h'],
    );
    assert.deepEqual([0, 0.2, 0.30000000000000004, 1200, 25_000, 1_500_000].map(formatAxisNumber), [
      '0',
      '0.2',
      '0.3',
      '1,200',
      '25k',
      '1.5M',
    ]);
  });
  it('times, clipping', () => {
    assert.equal(formatTime(Date.UTC(2024, 4, 1, 12, 0, 5)), '2024-05-01 12:00:05 UTC');
    assert.equal(formatTime(null), '–');
    assert.equal(clip('电网新闻报道', 4), '电网新…');
    assert.equal(clip('short', 10), 'short');
  });
});

describe('readRuns', () => {
  const now = 1_000_000;
  it('orders runs, names missing stop reasons running or interrupted', () => {
    const runs = readRuns(
      [
        { startedAt: 900_000, endedAt: now - 5000, fetched: 7, stopReason: null, strategy: 'bfs' },
        { startedAt: 100_000, endedAt: 200_000, fetched: 5, stopReason: null, strategy: 'bfs' },
        {
          startedAt: 300_000,
          endedAt: 400_000,
          fetched: 6,
          stopReason: 'duration',
          strategy: 'bfs',
        },
        'garbage',
        { endedAt: 5 },
      ],
      now,
    );
    assert.deepEqual(
      runs.map((r) => [r.startedAt, r.durationMs, r.outcome]),
      [
        [100_000, 100_000, 'interrupted'],
        [300_000, 100_000, 'duration'],
        [900_000, 95_000, 'running'],
      ],
    );
    // Long silent: the process died.
    assert.equal(
      readRuns([{ startedAt: 1, endedAt: 2, fetched: 0, stopReason: null }], now)[0]?.outcome,
      'interrupted',
    );
    assert.deepEqual(readRuns(undefined, now), []);
  });
});

it('URLs and hosts read as people write them; links keep the URL', () => {
  const cases: [string, string][] = [
    ['http://xn--wnyq9s.test/%E6%96%B0%E9%97%BB?q=%E7%94%B5', 'http://电网.test/新闻?q=电'],
    ['http://a.test/x%20y', 'http://a.test/x%20y'], // a space would hide where the URL ends
    ['http://a.test/%E2%80%AEevil', 'http://a.test/%E2%80%AEevil'], // right-to-left override
    ['http://a.test/%E6%96', 'http://a.test/%E6%96'], // malformed escape
    ['http://a.test:8080/p', 'http://a.test:8080/p'],
    ['not a url', 'not a url'],
  ];
  for (const [url, want] of cases) assert.equal(displayUrl(url), want, url);
  assert.equal(displayHost('xn--wnyq9s.test'), '电网.test');
  assert.equal(displayHost('grid.test'), 'grid.test');
});
