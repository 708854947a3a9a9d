// Change-rate estimators on worked values and on synthetic Poisson histories, and the
// shrinkage of estimateRate towards its prior.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom as mulberry32 } from '../util/index.js';
import {
  estimateRate,
  type IntervalObservation,
  irregularRate,
  lastModifiedRate,
  MS_PER_DAY,
  type RateEstimate,
  regularRate,
  type Visit,
} from './index.js';

function near(actual: number, expected: number, eps: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${what} ${actual} ≈ ${expected} (± ${eps})`);
}

/** 2024-05-01T00:00:00Z */
const T0 = Date.UTC(2024, 4, 1);
const day = (d: number) => T0 + d * MS_PER_DAY;

/**
 * A page changing as a Poisson process of `ratePerDay`, visited after each of
 * `intervalsDays`: every visit with its changed flag and the time of the last change.
 */
function simulate(ratePerDay: number, intervalsDays: readonly number[], seed: number): Visit[] {
  const rnd = mulberry32(seed);
  let nextChange = -Math.log(1 - rnd()) / ratePerDay;
  // Changing long before the first visit: the last change before it is as far back as
  // the next after it is ahead (Poisson), an exponential time.
  let lastChange = Math.log(1 - rnd()) / ratePerDay;
  let t = 0;
  const visits: Visit[] = [{ at: day(0), changed: false, lastModified: day(lastChange) }];
  for (const interval of intervalsDays) {
    t += interval;
    let changed = false;
    while (nextChange <= t) {
      changed = true;
      lastChange = nextChange;
      nextChange += -Math.log(1 - rnd()) / ratePerDay;
    }
    visits.push({ at: day(t), changed, lastModified: day(lastChange) });
  }
  return visits;
}

describe('regularRate', () => {
  // [n, X, I days, λ̂ per day]
  const table: [number, number, number, number][] = [
    [10, 5, 1, -Math.log(5.5 / 10.5)], // 0.6466…
    [10, 5, 2, -Math.log(5.5 / 10.5) / 2], // twice the interval, half the rate
    [10, 0, 1, 0], // nothing changed
    [0, 0, 3, 0], // nothing observed
    [10, 10, 1, Math.log(21)], // every visit changed: ln(2n + 1)/I, finite
    [1, 1, 0.5, 2 * Math.log(3)],
    [100, 30, 7, -Math.log(70.5 / 100.5) / 7],
  ];
  for (const [n, x, interval, expected] of table) {
    it(`n = ${n}, X = ${x}, I = ${interval} → ${expected}`, () => {
      near(regularRate(n, x, interval), expected, 1e-15);
    });
  }

  it('refuses bad input with an InvalidOptionError naming the argument', () => {
    assert.throws(() => regularRate(-1, 0, 1), { name: 'InvalidOptionError', message: /\bn\b/ });
    assert.throws(() => regularRate(2.5, 0, 1), { name: 'InvalidOptionError', message: /\bn\b/ });
    assert.throws(() => regularRate(3, 4, 1), { name: 'InvalidOptionError', message: /changes/ });
    assert.throws(() => regularRate(3, -1, 1), { name: 'InvalidOptionError', message: /changes/ });
    assert.throws(() => regularRate(3, 1, 0), {
      name: 'InvalidOptionError',
      message: /intervalDays/,
    });
    assert.throws(() => regularRate(3, 1, Number.NaN), /intervalDays/);
  });
});

const equal = (n: number, x: number, days: number): IntervalObservation[] =>
  Array.from({ length: n }, (_, i) => ({ intervalDays: days, changed: i < x }));

describe('irregularRate', () => {
  it('solves the likelihood equation on hand-solved cases', () => {
    // One changed day, one unchanged day: 1/(e^λ − 1) = 1 → λ = ln 2.
    near(irregularRate(equal(2, 1, 1)), Math.log(2), 1e-12);
    // Changed 1 and 2 days, unchanged 2 days: 1/(u − 1) + 2/(u² − 1) = 2 with u = e^λ,
    // i.e. 2u² − u − 5 = 0, u = (1 + √41)/4.
    const intervals = [
      { intervalDays: 1, changed: true },
      { intervalDays: 2, changed: true },
      { intervalDays: 2, changed: false },
    ];
    near(irregularRate(intervals), Math.log((1 + Math.sqrt(41)) / 4), 1e-12);
  });

  it('is the plain MLE −ln(1 − X/n)/I on equal intervals', () => {
    for (const [n, x, days] of [
      [10, 3, 1],
      [50, 49, 0.25],
      [200, 1, 30],
    ] as const) {
      const expected = -Math.log(1 - x / n) / days;
      near(irregularRate(equal(n, x, days)), expected, 1e-12 * expected, `${n}, ${x}, ${days}`);
    }
  });

  it('agrees with the regular estimator on equal intervals (within 1% for n = 200)', () => {
    for (const x of [10, 60, 120]) {
      const regular = regularRate(200, x, 2);
      near(irregularRate(equal(200, x, 2)), regular, 0.01 * regular, `X = ${x}`);
    }
  });

  it('gives 0 without changes and the capped ln(2n + 1)/t̄ when everything changed', () => {
    assert.equal(irregularRate([]), 0);
    assert.equal(irregularRate(equal(5, 0, 3)), 0);
    const all = [
      { intervalDays: 1, changed: true },
      { intervalDays: 3, changed: true },
    ];
    near(irregularRate(all), Math.log(5) / 2, 1e-15);
    near(irregularRate(equal(10, 10, 1)), regularRate(10, 10, 1), 1e-15);
  });

  it('recovers λ from a synthetic history with irregular intervals', () => {
    const rnd = mulberry32(7);
    const gaps = Array.from({ length: 10_000 }, () => 0.25 + 3.75 * rnd()); // 0.25 to 4 days
    for (const rate of [0.1, 0.5, 1.5]) {
      const visits = simulate(rate, gaps, 11);
      const intervals = gaps.map((g, i) => ({ intervalDays: g, changed: visits[i + 1]!.changed }));
      // The estimate's spread over seeds is about 2% here: 8% is four of them.
      near(irregularRate(intervals), rate, 0.08 * rate, `λ = ${rate}`);
    }
  });

  it('refuses bad intervals, naming them', () => {
    assert.throws(() => irregularRate([{ intervalDays: 0, changed: true }]), {
      name: 'InvalidOptionError',
      message: /intervals\[0\]\.intervalDays/,
    });
    const notBool = [{ intervalDays: 1, changed: 1 }] as unknown as IntervalObservation[];
    assert.throws(() => irregularRate(notBool), /intervals\[0\]\.changed/);
  });
});

describe('lastModifiedRate', () => {
  it('divides the distinct changes by the time the page was known unchanged', () => {
    // Day 0: unchanged since −10 (10 days); day 1: changed at 0.5 (0.5 day unchanged);
    // day 2: same date (1 day); day 3: changed at 2.75 (0.25 day). X = 2 over 11.75 days.
    const visits = [
      { at: day(0), lastModified: day(-10) },
      { at: day(1), lastModified: day(0.5) },
      { at: day(2), lastModified: day(0.5) },
      { at: day(3), lastModified: day(2.75) },
    ];
    near(lastModifiedRate(visits), 2 / 11.75, 1e-12);
  });

  it('clamps dates after the visit or before the previous one', () => {
    const visits = [
      { at: day(0), lastModified: day(-1) }, // 1 day unchanged before the first visit
      { at: day(1), lastModified: day(1.01) }, // after the visit: 0 unchanged
      { at: day(2), lastModified: day(0.5) }, // earlier than the last visit: 1 day
      { at: day(4), lastModified: day(4) }, // 0
    ];
    near(lastModifiedRate(visits), 3 / 2, 1e-12);
  });

  it('gives 0 without changes and ln(2n + 1)/t̄ when every change is dated at its visit', () => {
    assert.equal(lastModifiedRate([]), 0);
    assert.equal(lastModifiedRate([{ at: day(0), lastModified: day(-1) }]), 0);
    const same = [0, 1, 2].map((d) => ({ at: day(d), lastModified: day(-5) }));
    assert.equal(lastModifiedRate(same), 0);
    const stamped = [0, 1, 3].map((d) => ({ at: day(d), lastModified: day(d) }));
    near(lastModifiedRate(stamped), Math.log(5) / 1.5, 1e-15);
  });

  it('recovers λ from a synthetic history, also when pages change between visits', () => {
    const gaps = Array.from({ length: 500 }, () => 1);
    for (const rate of [0.3, 2, 5]) {
      const visits = simulate(rate, gaps, 3);
      const dated = visits.map((v) => ({ at: v.at, lastModified: v.lastModified! }));
      near(lastModifiedRate(dated), rate, 0.1 * rate, `λ = ${rate}`);
    }
  });

  it('refuses unordered visits and missing dates', () => {
    const unordered = [
      { at: day(1), lastModified: day(0) },
      { at: day(1), lastModified: day(0) },
    ];
    assert.throws(() => lastModifiedRate(unordered), {
      name: 'InvalidOptionError',
      message: /visits\[1\]\.at/,
    });
    const undated = [{ at: day(1) }] as unknown as { at: number; lastModified: number }[];
    assert.throws(() => lastModifiedRate(undated), /visits\[0\]\.lastModified/);
  });
});

const flags = (days: readonly number[], changed: readonly boolean[]): Visit[] =>
  days.map((d, i) => ({ at: day(d), changed: changed[i] ?? false }));

/** The same estimate, the rate to rounding. */
function same(actual: RateEstimate, expected: RateEstimate): void {
  near(actual.ratePerDay, expected.ratePerDay, 1e-12 * expected.ratePerDay, 'ratePerDay');
  assert.deepEqual({ ...actual, ratePerDay: 0 }, { ...expected, ratePerDay: 0 });
}

describe('estimateRate', () => {
  const noPrior = { ratePerDay: 0, weight: 0 };

  it('picks the estimator from the history', () => {
    const regular = estimateRate(flags([0, 1, 2, 3], [false, true, false, true]), noPrior);
    same(regular, { ratePerDay: regularRate(3, 2, 1), method: 'regular', visits: 4, changes: 2 });
    // Intervals of 1 and 1.005 days: equal within 1%, the mean interval is used.
    const close = estimateRate(flags([0, 1, 2.005], [false, true, false]), noPrior);
    assert.equal(close.method, 'regular');
    near(close.ratePerDay, regularRate(2, 1, 1.0025), 1e-12);

    const irregular = estimateRate(flags([0, 1, 3, 5], [false, true, true, false]), noPrior);
    assert.equal(irregular.method, 'irregular');
    near(irregular.ratePerDay, Math.log((1 + Math.sqrt(41)) / 4), 1e-12);

    const dated: Visit[] = [
      { at: day(0), changed: false, lastModified: day(-10) },
      { at: day(1), changed: true, lastModified: day(0.5) },
      { at: day(2), changed: true, lastModified: day(0.5) }, // changed, undated: 1 day
      { at: day(3), changed: true, lastModified: day(2.75) },
    ];
    const lm = estimateRate(dated, noPrior);
    // The flags say what changed, the dates when: X = 3 over 10 + 0.5 + 1 + 0.25 days.
    same(lm, { ratePerDay: 3 / 11.75, method: 'last-modified', visits: 4, changes: 3 });
    // An unchanged visit without a date (a 304 need not send one) keeps the previous.
    const with304 = dated.map((v, i) => (i === 2 ? { ...v, changed: false } : v));
    const undated304 = dated.map((v, i) => (i === 2 ? { at: v.at, changed: false } : v));
    same(estimateRate(with304, noPrior), {
      ratePerDay: 2 / 11.75,
      method: 'last-modified',
      visits: 4,
      changes: 2,
    });
    same(estimateRate(undated304, noPrior), estimateRate(with304, noPrior));

    // One visit without a date: the flags decide.
    const partial = dated.map((v, i) => (i === 2 ? { at: v.at, changed: v.changed } : v));
    assert.equal(estimateRate(partial, noPrior).method, 'regular');
  });

  it('ignores Last-Modified stamped with the response time', () => {
    const stamped: Visit[] = [0, 1, 2, 3].map((d, i) => ({
      at: day(d),
      changed: i === 2,
      lastModified: day(d) - 2_000,
    }));
    const e = estimateRate(stamped, noPrior);
    assert.equal(e.method, 'regular');
    near(e.ratePerDay, regularRate(3, 1, 1), 1e-12);
  });

  it('returns the prior for a history without an interval', () => {
    const prior = { ratePerDay: 0.25, weight: 3 };
    assert.deepEqual(estimateRate([], prior), {
      ratePerDay: 0.25,
      method: 'prior',
      visits: 0,
      changes: 0,
    });
    assert.deepEqual(estimateRate([{ at: day(0), changed: true }], prior), {
      ratePerDay: 0.25,
      method: 'prior',
      visits: 1,
      changes: 0,
    });
  });

  it('stays near the prior with few visits and follows the data with many', () => {
    const prior = { ratePerDay: 1 / 7, weight: 4 };
    // One daily interval with a change: λ̂ = ln 3, shrunk to (4/7 + ln 3)/5.
    const few = estimateRate(flags([0, 1], [false, true]), prior);
    near(few.ratePerDay, (4 / 7 + Math.log(3)) / 5, 1e-12);
    assert.ok(Math.abs(few.ratePerDay - 1 / 7) < Math.abs(few.ratePerDay - Math.log(3)));

    // 2000 daily visits of a page changing twice a day.
    const gaps = Array.from({ length: 2000 }, () => 1);
    const sim = simulate(2, gaps, 5).map((v) => ({ at: v.at, changed: v.changed }));
    const data = estimateRate(sim, noPrior).ratePerDay;
    const many = estimateRate(sim, prior).ratePerDay;
    near(many, (4 / 7 + 2000 * data) / 2004, 1e-12);
    near(many, data, 0.005 * data);
    near(data, 2, 0.1 * 2);
  });

  it('refuses a bad prior or history, naming it', () => {
    const h = flags([0, 1], [false, true]);
    assert.throws(() => estimateRate(h, { ratePerDay: -1, weight: 1 }), /prior\.ratePerDay/);
    assert.throws(() => estimateRate(h, { ratePerDay: 1, weight: Number.NaN }), /prior\.weight/);
    assert.throws(() => estimateRate(flags([1, 0], [false, true]), noPrior), /visits\[1\]\.at/);
    const bad = [{ at: day(0), changed: false, lastModified: Number.NaN }];
    assert.throws(() => estimateRate(bad, noPrior), {
      name: 'InvalidOptionError',
      message: /lastModified/,
    });
  });
});
