import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { DEFAULT_THRESHOLD, passesThreshold, vsmRelevance } from './index.js';

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

describe('vsmRelevance (DESIGN 1.1)', () => {
  // [weights, freqs, expected, how]
  const table: [number[], number[], number, string][] = [
    [
      [1, 1],
      [2, 1],
      1.5 / (Math.SQRT2 * Math.sqrt(1.25)),
      'x = (1, 0.5): 1.5 / (√2·√1.25) = 0.9487',
    ],
    [[1, 1], [3, 3], 1, 'equal frequencies, equal weights: b ∥ a'],
    [[2, 1, 1], [0, 5, 0], 1 / Math.sqrt(6), 'one keyword present: w / ‖a‖ = 1/√6'],
    [[0.5, 2], [7, 0], 0.5 / Math.sqrt(4.25), 'one keyword present: 0.5/√4.25'],
    [[1, 1], [0, 0], 0, 'no keyword: 0'],
    [[], [], 0, 'empty topic: 0'],
    [[1, 2, 3], [1, 1, 1], 1, 'all present once: b = a'],
    // weights (1, 0.5), freqs (1, 4) → x = (0.25, 1), b = (0.25, 0.5):
    // dot = 0.25 + 0.25 = 0.5; ‖a‖ = √1.25; ‖b‖ = √(0.0625 + 0.25) = √0.3125
    [[1, 0.5], [1, 4], 0.5 / (Math.sqrt(1.25) * Math.sqrt(0.3125)), 'x = (0.25, 1)'],
  ];
  for (const [w, f, expected, how] of table) {
    it(`w=${JSON.stringify(w)} f=${JSON.stringify(f)}: ${how}`, () =>
      close(vsmRelevance(w, f), expected));
  }

  it('0.9487 for the worked example', () => {
    assert.equal(vsmRelevance([1, 1], [2, 1]).toFixed(4), '0.9487');
  });

  it('does not depend on the scale of the frequencies', () => {
    close(vsmRelevance([1, 0.3, 0.7], [2, 5, 1]), vsmRelevance([1, 0.3, 0.7], [20, 50, 10]));
  });

  it('stays within [0, 1]', () => {
    for (let k = 1; k < 50; k++) {
      const r = vsmRelevance([0.1 * k, 1, 3], [k, k, k]);
      assert.ok(r >= 0 && r <= 1, String(r));
    }
  });

  it('rejects weights and frequencies of different lengths', () => {
    assert.throws(() => vsmRelevance([1, 2], [1]), InvalidOptionError);
  });
});

describe('passesThreshold', () => {
  const table: [number, number | undefined, boolean][] = [
    [0.1, undefined, true], // relevance ≥ r is kept
    [0.0999, undefined, false],
    [0, undefined, false],
    [0.5, 0.6, false],
    [0.6, 0.6, true],
    [0, 0, true],
  ];
  for (const [rel, thr, expected] of table) {
    it(`${rel} vs ${thr ?? DEFAULT_THRESHOLD} → ${expected ? 'keep' : 'discard'}`, () => {
      assert.equal(passesThreshold(rel, thr), expected);
    });
  }

  it('one weak keyword among many falls below 0.1', () => {
    // 101 keywords of weight 1, only one present: relevance = 1/√101 < 0.1 → discard
    const w = new Array<number>(101).fill(1);
    const f = new Array<number>(101).fill(0);
    f[0] = 3;
    assert.equal(passesThreshold(vsmRelevance(w, f)), false);
    // 99 keywords: 1/√99 > 0.1 → keep
    assert.equal(passesThreshold(vsmRelevance(w.slice(2), f.slice(0, 99))), true);
  });
});
