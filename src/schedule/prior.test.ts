// URL patterns for grouping pages, and priors pooled from a group's histories.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import {
  DEFAULT_FALLBACK_PRIOR_WEIGHT,
  DEFAULT_GROUP_PRIOR_WEIGHT,
  DEFAULT_RATE_PER_DAY,
  groupPrior,
  irregularRate,
  leaveOneOutPriors,
  MS_PER_DAY,
  regularRate,
  urlPattern,
  type Visit,
} from './index.js';

function near(actual: number, expected: number, eps: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${what} ${actual} ≈ ${expected} (± ${eps})`);
}

describe('urlPattern', () => {
  // [url, pattern]
  const table: [string, string][] = [
    ['http://forum.test/thread/123?page=2', 'forum.test/thread/{n}?page'],
    ['https://forum.test/thread/9', 'forum.test/thread/{n}'], // scheme left out
    ['https://shop.test/p/42?b=1&a=2&b=3', 'shop.test/p/{n}?a&b'], // keys sorted, once
    ['http://News.Test/2024/05/post-7.html#top', 'news.test/{n}/{n}/post-{n}.html'],
    ['http://a.test:8080/x?utm=&id=5', 'a.test:8080/x?id&utm'], // port kept
    ['http://a.test', 'a.test/'],
    ['http://a.test/?', 'a.test/'], // an empty query has no keys
    ['http://user:pw@a.test/item/007', 'a.test/item/{n}'], // credentials left out
  ];
  for (const [url, expected] of table) {
    it(`${url} → ${expected}`, () => assert.equal(urlPattern(url), expected));
  }

  it('gives siblings one key and other sections another', () => {
    assert.equal(urlPattern('http://f.test/t/1?page=3'), urlPattern('http://f.test/t/22?page=1'));
    assert.notEqual(urlPattern('http://f.test/t/1'), urlPattern('http://f.test/user/1'));
  });

  it('refuses what is not an absolute URL, naming the argument', () => {
    assert.throws(() => urlPattern('/thread/1'), { name: 'InvalidOptionError', message: /url/ });
    assert.throws(() => urlPattern(''), InvalidOptionError);
  });
});

/** 2024-05-01T00:00:00Z */
const T0 = Date.UTC(2024, 4, 1);

/** Visits every `days` days; `changed[i]` for visit i + 1. */
function history(days: number, changed: readonly boolean[]): Visit[] {
  const visits: Visit[] = [{ at: T0, changed: false }];
  changed.forEach((c, i) => {
    visits.push({ at: T0 + (i + 1) * days * MS_PER_DAY, changed: c });
  });
  return visits;
}

describe('groupPrior', () => {
  it('averages the siblings’ rates weighted by their numbers of intervals', () => {
    const a = history(1, [true, false, true, false, true, false]); // 6 daily, 3 changed
    const b = history(2, Array<boolean>(12).fill(false)); // 12 of 2 days, none changed
    const c = [{ at: T0, changed: false }]; // one visit: no interval, ignored
    const prior = groupPrior([a, b, c]);
    assert.deepEqual(
      { ...prior, ratePerDay: 0 },
      { ratePerDay: 0, weight: DEFAULT_GROUP_PRIOR_WEIGHT, source: 'group', intervals: 18 },
    );
    near(prior.ratePerDay, (6 * regularRate(6, 3, 1)) / 18, 1e-15);
  });

  it('estimates each sibling with its own estimator', () => {
    const irregular: Visit[] = [0, 1, 3, 5].map((d, i) => ({
      at: T0 + d * MS_PER_DAY,
      changed: i === 1 || i === 2,
    }));
    const regular = history(
      1,
      Array.from({ length: 8 }, (_, i) => i % 4 === 0),
    );
    const prior = groupPrior([irregular, regular]);
    const expected =
      (3 *
        irregularRate([
          { intervalDays: 1, changed: true },
          { intervalDays: 2, changed: true },
          { intervalDays: 2, changed: false },
        ]) +
        8 * regularRate(8, 2, 1)) /
      11;
    near(prior.ratePerDay, expected, 1e-12);
  });

  it('falls back to once a week, weakly, when the group has too little history', () => {
    const fallback = {
      ratePerDay: DEFAULT_RATE_PER_DAY,
      weight: DEFAULT_FALLBACK_PRIOR_WEIGHT,
      source: 'default',
    };
    assert.equal(DEFAULT_RATE_PER_DAY, 1 / 7);
    assert.deepEqual(groupPrior([]), { ...fallback, intervals: 0 });
    const short = [history(1, [true, true, true]), history(1, [false, false])];
    assert.deepEqual(groupPrior(short), { ...fallback, intervals: 5 });
    // The threshold and the weight are options.
    const trusted = groupPrior(short, { minIntervals: 5, weight: 2 });
    assert.equal(trusted.source, 'group');
    assert.equal(trusted.weight, 2);
    near(trusted.ratePerDay, (3 * regularRate(3, 3, 1)) / 5, 1e-15);
  });

  it('refuses bad options or siblings, naming them', () => {
    assert.throws(() => groupPrior([], { minIntervals: 0 }), {
      name: 'InvalidOptionError',
      message: /minIntervals/,
    });
    assert.throws(() => groupPrior([], { weight: -1 }), /weight/);
    const notArray = [{}] as unknown as Visit[][];
    assert.throws(() => groupPrior(notArray), /siblings\[0\]/);
  });
});

describe('leaveOneOutPriors', () => {
  it('gives each page the prior of the others, never its own history', () => {
    const a = history(1, [true, false, true, false, true, false]); // 6 intervals, 3 changed
    const b = history(2, Array<boolean>(12).fill(false)); // 12 intervals, none changed
    const c = history(1, Array<boolean>(6).fill(true)); // 6 intervals, all changed
    const [pa, pb, pc] = leaveOneOutPriors([a, b, c]);
    // a's prior: b and c (18 intervals); b's: a and c (12); c's: a and b (18).
    near(pa!.ratePerDay, (6 * regularRate(6, 6, 1)) / 18, 1e-15);
    near(pb!.ratePerDay, (6 * regularRate(6, 3, 1) + 6 * regularRate(6, 6, 1)) / 12, 1e-15);
    near(pc!.ratePerDay, (6 * regularRate(6, 3, 1)) / 18, 1e-15);
    assert.deepEqual(
      [pa, pb, pc].map((p) => [p!.source, p!.intervals, p!.weight]),
      [
        ['group', 18, DEFAULT_GROUP_PRIOR_WEIGHT],
        ['group', 12, DEFAULT_GROUP_PRIOR_WEIGHT],
        ['group', 18, DEFAULT_GROUP_PRIOR_WEIGHT],
      ],
    );
    // Each equals groupPrior of the others.
    assert.deepEqual(pa, groupPrior([b, c]));
  });

  it('falls back to the default where the others have too few intervals', () => {
    const a = history(1, Array<boolean>(10).fill(true));
    const b = history(1, [false, false]);
    const [pa, pb] = leaveOneOutPriors([a, b]);
    assert.deepEqual(pa, {
      ratePerDay: DEFAULT_RATE_PER_DAY,
      weight: DEFAULT_FALLBACK_PRIOR_WEIGHT,
      source: 'default',
      intervals: 2,
    });
    assert.equal(pb!.source, 'group');
    assert.deepEqual(leaveOneOutPriors([]), []);
    assert.throws(() => leaveOneOutPriors([a], { minIntervals: 0 }), {
      name: 'InvalidOptionError',
      message: /leaveOneOutPriors: minIntervals/,
    });
  });
});
