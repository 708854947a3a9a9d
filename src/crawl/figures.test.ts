import assert from 'node:assert/strict';
import { test } from 'node:test';
import { harvestRate, progressOf, stopMessage } from './figures.js';

const counts = (complete: number, discard: number, waiting = 0) => ({
  waiting,
  processing: 0,
  complete,
  discard,
  error: 0,
  redirect: 0,
});

test('harvest rate: complete / (complete + discard)', () => {
  const cases: [number, number, number][] = [
    [0, 0, 0],
    [3, 1, 0.75],
    [0, 5, 0],
    [7, 0, 1],
  ];
  for (const [c, d, r] of cases) assert.equal(harvestRate(counts(c, d)), r);
});

test('stop messages say why the crawl ended', () => {
  const none: { url: string; error: string }[] = [];
  assert.match(
    stopMessage('exhausted', counts(5, 3), {}, none),
    /frontier is empty.*links of the 3 discarded \(irrelevant\) pages were not followed/,
  );
  assert.equal(
    stopMessage('exhausted', counts(5, 0), {}, none),
    'the frontier is empty: every URL found was fetched',
  );
  assert.equal(
    stopMessage('exhausted', counts(0, 0), {}, [{ url: 'http://a.test/', error: 'HTTP 404' }]),
    'no seed could be fetched: http://a.test/ (HTTP 404)',
  );
  assert.match(
    stopMessage('max-pages', counts(1, 1, 9), { maxPages: 2 }, none),
    /budget \(2\).*9 URLs/,
  );
  assert.match(
    stopMessage('duration', counts(1, 1, 4), { durationMs: 500 }, none),
    /500 ms.*4 URLs/,
  );
  assert.match(stopMessage('stopped', counts(1, 1, 4), {}, none), /run the same command again/);
});

test('stop messages: failing, and URLs left to be tried again', () => {
  const none: { url: string; error: string }[] = [];
  const at = new Date(2030, 0, 1, 14, 5, 10).getTime();
  const now = at - 60_000;
  const failing =
    'every fetch in the last 30 s failed: cannot resolve a.test — is a --resolve missing?';
  const cases: [Parameters<typeof stopMessage>, string][] = [
    [
      ['failing', counts(0, 0, 7), {}, none, { failing, retryAt: at }, now],
      `${failing} 7 URLs wait to be tried again (from 14:05:10): run the same command again once the cause is fixed`,
    ],
    [
      ['failing', counts(0, 0, 1), {}, none, { failing, retryAt: now }, now],
      `${failing} 1 URL waits to be tried again (now): run the same command again once the cause is fixed`,
    ],
    [
      ['exhausted', counts(5, 0, 2), {}, none, { retryAt: at }, now],
      'every URL found was fetched or failed; 2 URLs wait to be tried again (from 14:05:10): run the same command again then',
    ],
    [
      [
        'exhausted',
        counts(0, 0, 1),
        {},
        [{ url: 'http://a.test/', error: 'HTTP 503' }],
        { retryAt: at },
        now,
      ],
      'no seed could be fetched: http://a.test/ (HTTP 503); 1 URL waits to be tried again (from 14:05:10): run the same command again then',
    ],
    [
      ['exhausted', counts(5, 0), {}, none, { retryAt: null }, now],
      'the frontier is empty: every URL found was fetched',
    ],
  ];
  for (const [args, want] of cases) assert.equal(stopMessage(...args), want);
});

test('progress: rates over the last interval and since the start', () => {
  const p = progressOf({
    now: 11_000,
    startedAt: 1_000,
    counts: counts(30, 10, 100),
    run: { fetched: 40, complete: 30, discard: 10, error: 0, redirect: 0, bytes: 1234 },
    retries: 0,
    requeued: 0,
    fetchedTotal: 140,
    requests: 45,
    waitedForHost: 0,
    refused: {},
    lostClaims: 0,
    lastTick: { at: 10_000, fetched: 35 },
    inFlight: 8,
  });
  assert.equal(p.elapsedMs, 10_000);
  assert.equal(p.pagesPerSec, 5);
  assert.equal(p.averagePagesPerSec, 4);
  assert.equal(p.harvestRate, 0.75);
  assert.equal(p.frontier, 100);
  assert.equal(p.fetchedTotal, 140);
});
