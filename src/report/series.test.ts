import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countAxis, niceAxis, timeAxis } from './scale.js';
import {
  addToHistogram,
  binIndex,
  EdgeCounter,
  emptyHistogram,
  harvestSeries,
  harvestWindow,
  TopN,
} from './series.js';

describe('binIndex: 20 bins over [0, 1], each closed on the left', () => {
  const cases: [number, number][] = [
    [0, 0],
    [0.04999, 0],
    [0.05, 1],
    [0.0999, 1],
    [0.1, 2], // the usual threshold opens bin [0.10, 0.15)
    [0.15, 3],
    [0.09999999999999999, 1], // just below the threshold: discarded, left of the line
    [0.35, 7],
    [0.55, 11],
    [0.999, 19],
    [1, 19],
    [-0.2, 0],
    [1.7, 19],
    [Number.NaN, 0],
  ];
  for (const [v, bin] of cases) it(`${v} → bin ${bin}`, () => assert.equal(binIndex(v), bin));
  it('4 bins', () =>
    assert.deepEqual(
      [0, 0.25, 0.5, 0.74, 1].map((v) => binIndex(v, 4)),
      [0, 1, 2, 2, 3],
    ));
});

it('histogram counts complete and discard apart', () => {
  const h = emptyHistogram(4);
  addToHistogram(h, 'complete', 0.9);
  addToHistogram(h, 'complete', 1);
  addToHistogram(h, 'complete', 0.3);
  addToHistogram(h, 'discard', 0.05);
  addToHistogram(h, 'discard', 0);
  assert.deepEqual(h.complete, [0, 1, 0, 2]);
  assert.deepEqual(h.discard, [2, 0, 0, 0]);
});

describe('harvest rate series', () => {
  it('cumulative and window of 2 on C D C C', () => {
    const s = harvestSeries(['complete', 'discard', 'complete', 'complete'], 2);
    assert.deepEqual(
      s.map((p) => [p.pages, +p.cumulative.toFixed(3), p.recent]),
      [
        [1, 1, 1],
        [2, 0.5, 0.5],
        [3, 0.667, 0.5],
        [4, 0.75, 1],
      ],
    );
  });
  it('window of 3 on D D C C C D', () => {
    const s = harvestSeries(
      ['discard', 'discard', 'complete', 'complete', 'complete', 'discard'],
      3,
    );
    assert.deepEqual(
      s.map((p) => +p.recent.toFixed(3)),
      [0, 0, 0.333, 0.667, 1, 0.667],
    );
    assert.equal(s.at(-1)?.cumulative, 0.5);
  });
  it('window size: 100 pages, a tenth of shorter crawls, at least 10', () => {
    assert.deepEqual(
      [0, 1, 50, 150, 999, 1000, 50_000].map((n) => harvestWindow(n)),
      [10, 10, 10, 15, 100, 100, 100],
    );
  });
});

it('EdgeCounter: how many values up to each edge', () => {
  const c = new EdgeCounter([10, 20, 20, 30]);
  for (const v of [1, 10, 11, 20, 25, 30, 99]) c.add(v);
  // ≤10: 1,10; ≤20: +11,20; ≤20 again: same; ≤30 and above: +25,30,99
  assert.deepEqual(c.prefixSums(), [2, 4, 4, 7]);
});

it('TopN keeps the best n, best first, earlier first among equals', () => {
  const t = new TopN<{ id: string; v: number }>(3, (a, b) => a.v > b.v);
  for (const [id, v] of [
    ['a', 0.2],
    ['b', 0.9],
    ['c', 0.5],
    ['d', 0.9],
    ['e', 0.1],
    ['f', 0.5],
  ] as const)
    t.push({ id, v });
  assert.deepEqual(
    t.items().map((x) => x.id),
    ['b', 'd', 'c'],
  );
  assert.deepEqual(new TopN<number>(0, (a, b) => a > b).items(), []);
});

describe('axes', () => {
  it('niceAxis extends to round ticks', () => {
    assert.deepEqual(niceAxis(0, 37), { min: 0, max: 40, ticks: [0, 10, 20, 30, 40] });
    assert.deepEqual(niceAxis(0, 1).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(niceAxis(0, 0.3).ticks, [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]);
    assert.deepEqual(niceAxis(5, 5), { min: 5, max: 6, ticks: [5, 5.2, 5.4, 5.6, 5.8, 6] });
  });
  it('countAxis has whole-number ticks, also for one page', () => {
    assert.deepEqual(countAxis(1).ticks, [0, 1]);
    assert.deepEqual(countAxis(0).ticks, [0, 1]);
    assert.deepEqual(countAxis(3).ticks, [0, 1, 2, 3]);
    assert.deepEqual(countAxis(1234).ticks, [0, 200, 400, 600, 800, 1000, 1200, 1400]);
  });
  it('timeAxis ticks at round durations', () => {
    assert.deepEqual(timeAxis(100_000).ticks, [0, 30_000, 60_000, 90_000, 120_000]);
    assert.deepEqual(timeAxis(3_600_000).ticks, [0, 900_000, 1_800_000, 2_700_000, 3_600_000]);
    assert.deepEqual(timeAxis(1200).ticks, [0, 200, 400, 600, 800, 1000, 1200]);
    assert.deepEqual(timeAxis(0).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});
