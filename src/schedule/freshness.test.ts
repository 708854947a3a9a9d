// Expected freshness F(λ, f) = (f/λ)(1 − e^{−λ/f}) and its derivative in f, on worked
// values, limits, and a finite-difference check.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { expectedFreshness, marginalFreshness } from './index.js';

function near(actual: number, expected: number, eps: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${what} ${actual} ≈ ${expected} (± ${eps})`);
}

describe('expectedFreshness', () => {
  // [λ per day, f per day, F]
  const table: [number, number, number][] = [
    [1, 1, 1 - Math.exp(-1)], // 0.6321…
    [2, 1, (1 - Math.exp(-2)) / 2], // revisited half as often as it changes
    [1, 2, 2 * (1 - Math.exp(-0.5))],
    [3, 3, 1 - Math.exp(-1)], // only λ/f matters
    [0, 5, 1], // never changes: always fresh
    [0, 0, 1], // … even if never revisited
    [4, 0, 0], // changes, never revisited: stale
    [1e-12, 1, 1 - 5e-13], // F ≈ 1 − r/2 for small r = λ/f
    [1e6, 1, 1e-6], // F ≈ 1/r for large r
  ];
  for (const [rate, f, expected] of table) {
    it(`F(${rate}, ${f}) = ${expected}`, () => {
      near(expectedFreshness(rate, f), expected, 1e-15);
    });
  }

  it('rises with the revisit rate, towards 1', () => {
    for (const rate of [0.01, 0.5, 1, 7, 100]) {
      let prev = 0;
      for (const f of [0, 1e-3, 0.01, 0.1, 0.5, 1, 2, 5, 10, 100, 1e4]) {
        const F = expectedFreshness(rate, f);
        assert.ok(F > prev || (f === 0 && F === 0), `F(${rate}, ${f}) = ${F} after ${prev}`);
        assert.ok(F <= 1);
        prev = F;
      }
      assert.ok(prev > 0.99);
    }
  });

  it('refuses negative, NaN or infinite rates, naming them', () => {
    assert.throws(() => expectedFreshness(-1, 1), {
      name: 'InvalidOptionError',
      message: /ratePerDay/,
    });
    assert.throws(() => expectedFreshness(Number.NaN, 1), InvalidOptionError);
    assert.throws(() => expectedFreshness(1, -0.5), {
      name: 'InvalidOptionError',
      message: /revisitsPerDay/,
    });
    assert.throws(() => expectedFreshness(1, Number.POSITIVE_INFINITY), /revisitsPerDay/);
  });
});

describe('marginalFreshness', () => {
  // [λ, f, ∂F/∂f]
  const table: [number, number, number][] = [
    [1, 1, 1 - 2 / Math.E], // (1/λ)(1 − (1 + r)e^{−r}), r = 1: 0.2642…
    [2, 1, (1 - 3 * Math.exp(-2)) / 2],
    [4, 0, 1 / 4], // first revisit: 1/λ
    [0, 3, 0], // a page that never changes gains nothing
    [0, 0, 0],
    [1e-6, 1, 5e-7 - 1e-12 / 3], // λ/(2f²) − λ²/(3f³): no cancellation
    [1, 1e4, 1 / 2e8 - 1 / 3e12 + 1 / 8e16], // three terms of the series
  ];
  for (const [rate, f, expected] of table) {
    it(`∂F/∂f(${rate}, ${f}) = ${expected}`, () => {
      near(marginalFreshness(rate, f), expected, Math.abs(expected) * 1e-12 + 1e-18);
    });
  }

  it('agrees with a central difference of F, on both sides of the series switch', () => {
    for (const rate of [0.05, 0.5, 1, 3]) {
      for (const f of [0.2, 0.9, 1.1, 2, 6, 20]) {
        const h = 1e-5 * f;
        const diff = (expectedFreshness(rate, f + h) - expectedFreshness(rate, f - h)) / (2 * h);
        near(marginalFreshness(rate, f), diff, 1e-7 * Math.max(1, Math.abs(diff)), `${rate}, ${f}`);
      }
    }
  });

  it('falls as the revisit rate grows (F is concave in f)', () => {
    for (const rate of [0.1, 1, 10]) {
      let prev = Number.POSITIVE_INFINITY;
      const fs = [0, 0.01, 0.1, 0.3, 1, 2, 10, 1e3, 2.04 * rate, 1.96 * rate].sort((a, b) => a - b);
      for (const f of fs) {
        const m = marginalFreshness(rate, f);
        // Non-increasing: at f ≪ λ it equals 1/λ to double precision.
        assert.ok(m <= prev, `∂F/∂f(${rate}, ${f}) = ${m} after ${prev}`);
        prev = m;
      }
      assert.ok(prev < 1e-3 * marginalFreshness(rate, 0));
    }
  });

  it('refuses bad input, naming it', () => {
    assert.throws(() => marginalFreshness(-1, 1), {
      name: 'InvalidOptionError',
      message: /ratePerDay/,
    });
    assert.throws(() => marginalFreshness(1, Number.NaN), /revisitsPerDay/);
  });
});
