import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrawlSummary } from '../crawl/index.js';
import { tallyFetches } from './run-stats.js';
import { formatSummary, nextCommands, refusedText, shellWord } from './summary.js';

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

describe('shellWord', () => {
  const cases: [string, string][] = [
    ['crawls/grid', 'crawls/grid'],
    ['/tmp/a-b_c.d@e%f+g=h:i,j', '/tmp/a-b_c.d@e%f+g=h:i,j'],
    ['my crawls/grid', "'my crawls/grid'"],
    ["it's", "'it'\\''s'"],
    ['$HOME/x', "'$HOME/x'"],
    ['', "''"],
  ];
  for (const [word, want] of cases)
    it(JSON.stringify(word), () => assert.equal(shellWord(word), want));
});

describe('refusedText', () => {
  const cases: [Record<string, number>, string][] = [
    [{}, ''],
    [
      { FC_ERR_ROBOTS_DISALLOWED: 2, FC_ERR_HOST_UNREACHABLE: 10 },
      '; 12 URLs refused before sending (FC_ERR_HOST_UNREACHABLE 10, FC_ERR_ROBOTS_DISALLOWED 2)',
    ],
  ];
  for (const [refused, want] of cases)
    it(want || '(none)', () => assert.equal(refusedText(refused), want));
});

describe('formatSummary', () => {
  it('ends with the commands to go on with, one a line, never joined as a pipe', () => {
    const text = formatSummary(SUMMARY, 'my crawls/grid');
    assert.ok(
      text.endsWith(
        "\nnext:\n  focuscrawl status --store 'my crawls/grid'\n  focuscrawl search --store 'my crawls/grid' \"words\"\n  focuscrawl report --store 'my crawls/grid' --out report.html",
      ),
      text,
    );
    assert.doesNotMatch(text, / \| focuscrawl/);
    assert.deepEqual(
      nextCommands('s').map((l) => l.split(' ')[1]),
      ['status', 'search', 'report'],
    );
  });

  it('shows the fetch statistics under the run line, aligned', () => {
    const stats = tallyFetches([
      { url: 'http://a.test/', state: 'complete', status: 200, error: null },
      {
        url: 'http://b.test/',
        state: 'error',
        status: null,
        error: 'FC_ERR_DNS: ENOTFOUND b.test',
      },
    ]);
    const lines = formatSummary({ ...SUMMARY, retries: 2 }, 'x', 'ranked …', stats).split('\n');
    assert.match(lines[1] ?? '', /^this run: 430 fetched/);
    assert.deepEqual(lines.slice(2, 7), [
      '  by status      200 1, no response 1',
      '  by error       FC_ERR_DNS 1',
      '  retries        2 failed fetches put back to wait for another attempt',
      '  bytes          1.05 MiB received (1.05 MiB per page)',
      '  failing hosts  b.test 1 of 1 (100.0%)',
    ]);
    assert.match(lines[7] ?? '', /^requests: 440 sent this run;/);
    assert.ok(lines.includes('ranked …'));
  });

  it('without statistics, the run as before', () => {
    const lines = formatSummary(SUMMARY, 'x').split('\n');
    assert.match(lines[2] ?? '', /^requests: /);
  });
});
