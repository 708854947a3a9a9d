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

test('progress: rates over the last interval and since the start', () => {
  const p = progressOf({
    now: 11_000,
    startedAt: 1_000,
    counts: counts(30, 10, 100),
    run: { fetched: 40, complete: 30, discard: 10, error: 0, redirect: 0, bytes: 1234 },
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
