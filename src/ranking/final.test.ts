// The final score P = w1·relevance + w2·R of DESIGN 1.1, R the link score scaled to [0, 1].
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_W1,
  DEFAULT_W2,
  DEFAULT_WEIGHTS,
  finalScore,
  finalScores,
  finalWeights,
  normalizeRanks,
} from './index.js';
import { near, refuses } from './testing.js';

describe('finalScore', () => {
  // [relevance, normalised rank, weights, P]
  const table: [number, number, { w1?: number; w2?: number }, number][] = [
    [1, 1, {}, 1],
    [0, 0, {}, 0],
    [0.9, 1, {}, 0.6 * 0.9 + 0.4], // 0.94
    [0.5, 19 / 27, {}, 0.3 + (0.4 * 19) / 27],
    [0.25, 0.5, { w1: 1, w2: 0 }, 0.25], // relevance only
    [0.25, 0.5, { w1: 0, w2: 1 }, 0.5], // link score only
    [0.5, 0.5, { w1: 2, w2: 3 }, 2.5], // weights need not sum to 1
    [0.8, 0.1, { w2: 0.2 }, 0.6 * 0.8 + 0.2 * 0.1], // w1 defaults to 0.6
  ];
  for (const [rel, rank, options, expected] of table) {
    it(`relevance ${rel}, R ${rank.toFixed(3)}, ${JSON.stringify(options)} → ${expected}`, () => {
      near(finalScore(rel, rank, finalWeights(options)), expected, 1e-12);
    });
  }

  it('defaults to w1 = 0.6, w2 = 0.4', () => {
    assert.equal(DEFAULT_W1, 0.6);
    assert.equal(DEFAULT_W2, 0.4);
    assert.deepEqual(finalWeights(), { w1: 0.6, w2: 0.4 });
    assert.deepEqual(DEFAULT_WEIGHTS, { w1: 0.6, w2: 0.4 });
    near(finalScore(0.5, 0.25), 0.4, 1e-12);
  });

  it('refuses a relevance or rank that is not finite', () => {
    refuses(() => finalScore(Number.NaN, 0), /relevance/);
    refuses(() => finalScore(0.5, Number.POSITIVE_INFINITY), /rank/);
  });
});

describe('finalScores', () => {
  it('divides the link scores by their largest, as normalizeRanks', () => {
    // PageRank of A → B, A → C, B → A (C dangling): 27/23, 21/23, 21/23.
    const ranks = Float64Array.of(27 / 23, 21 / 23, 21 / 23);
    const rel = [0.9, 0.5, 0.05];
    const p = finalScores(rel, ranks);
    near(p[0], 0.94, 1e-12, 'A');
    near(p[1], 0.3 + 0.4 * (7 / 9), 1e-12, 'B');
    near(p[2], 0.03 + 0.4 * (7 / 9), 1e-12, 'C');
    const r = normalizeRanks(ranks);
    for (let i = 0; i < 3; i++) assert.equal(p[i], 0.6 * rel[i]! + 0.4 * r[i]!);
  });

  // [relevance, link scores, options, P]
  const table: [string, number[], number[], { w1?: number; w2?: number }, number[]][] = [
    ['empty', [], [], {}, []],
    ['all link scores 0: relevance only', [0.5, 1], [0, 0], {}, [0.3, 0.6]],
    ['HITS authorities already in [0, 1]', [0, 1], [1, 0.5], {}, [0.4, 0.8]],
    ['raw scores scaled', [0, 0, 0], [2, 4, 8], { w2: 1 }, [0.25, 0.5, 1]],
    ['w1 only', [0.2, 0.7], [3, 1], { w1: 1, w2: 0 }, [0.2, 0.7]],
  ];
  for (const [name, rel, links, options, expected] of table) {
    it(name, () => {
      const p = finalScores(rel, links, options);
      assert.equal(p.length, expected.length);
      for (let i = 0; i < expected.length; i++) near(p[i], expected[i]!, 1e-12, `[${i}]`);
    });
  }

  it('refuses bad input, naming it', () => {
    refuses(() => finalScores([1], [1, 2]), /same length, got 1 and 2/);
    refuses(() => finalScores([Number.NaN], [1]), /relevance\[0\]/);
    refuses(() => finalScores([0, 1], [1, -1]), /linkScores\[1\]/);
  });
});

describe('finalWeights are validated, naming the weight', () => {
  const table: [string, { w1?: number; w2?: number }, RegExp][] = [
    ['w1 negative', { w1: -0.1 }, /finalScore: w1 must be a finite number ≥ 0, got -0\.1/],
    ['w1 NaN', { w1: Number.NaN }, /w1/],
    ['w2 ∞', { w2: Number.POSITIVE_INFINITY }, /w2/],
    ['w2 a string', { w2: '0.4' as unknown as number }, /w2/],
  ];
  for (const [name, options, re] of table) it(name, () => refuses(() => finalWeights(options), re));

  it('finalScores names itself', () => {
    refuses(() => finalScores([], [], { w2: -1 }), /finalScores: w2/);
  });

  it('zero weights are allowed', () => {
    assert.deepEqual(finalWeights({ w1: 0, w2: 0 }), { w1: 0, w2: 0 });
  });
});
