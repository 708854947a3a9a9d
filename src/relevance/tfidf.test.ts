import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classWeight,
  documentVector,
  extractKeywords,
  idfWeight,
  mergeKeywords,
  smoothIdf,
} from './index.js';

const near = (actual: number | undefined, expected: number, what = '') =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 5e-5,
    `${what} ${actual} ≈ ${expected}`,
  );

describe('idf and class weight', () => {
  // [N, n, ln(N/n + 0.01)]
  const idf: [number, number, number][] = [
    [4, 2, 0.6981], // ln 2.01
    [4, 4, 0.00995], // ln 1.01: a term in every document keeps a little weight
    [4, 1, 1.3888], // ln 4.01
    [4, 0, 1.3888], // unseen: counted as seen once
  ];
  for (const [N, n, expected] of idf) {
    it(`idf(${N}, ${n}) = ${expected}`, () => near(idfWeight(N, n), expected));
  }
  it('smoothed idf without negatives: ln(1 + N/n)', () => {
    near(smoothIdf(2, 2), Math.LN2);
    near(smoothIdf(2, 1), Math.log(3));
  });

  // [n⁺, N⁺, n⁻, N⁻, cw]: P = (n⁺ + .5)/(N⁺ + 1), Q = (n⁻ + .5)/(N⁻ + 1), max(0, (P − Q)/(P + Q))
  const cw: [number, number, number, number, number][] = [
    [4, 4, 0, 4, 0.8], // P .9, Q .1
    [3, 4, 1, 4, 0.4], // P .7, Q .3
    [2, 4, 2, 4, 0], // as common in both classes
    [0, 4, 3, 4, 0], // commoner in negatives: 0, not negative
    [1, 1, 0, 0, 1], // no negatives: 1
  ];
  for (const [np, NP, nn, NN, expected] of cw) {
    it(`cw(${np}/${NP} positive, ${nn}/${NN} negative) = ${expected}`, () =>
      near(classWeight(np, NP, nn, NN), expected));
  }
});

describe('documentVector', () => {
  it('weighs counts and scales to unit length, leaving out zero weights', () => {
    const v = documentVector(
      new Map([
        ['a', 3],
        ['b', 2],
        ['c', 5],
      ]),
      (t) => (t === 'c' ? 0 : t === 'b' ? 2 : 1),
    );
    // (3, 4) / 5
    assert.deepEqual(
      [...v],
      [
        ['a', 0.6],
        ['b', 0.8],
      ],
    );
  });
});

describe('extractKeywords', () => {
  it('class-weighted TF-IDF of DESIGN 1.5, worked by hand', () => {
    // N = 5. n: a 2 (2 pos), b 2 (1 pos, 1 neg), c 2 (2 pos), d 2 (2 neg), e 1 (1 pos).
    // idf: ln(5/2 + .01) = 0.920283 for a–d, ln 5.01 = 1.611436 for e.
    // cw (N⁺ 3, N⁻ 2): a, c: P 2.5/4, Q .5/3 → 11/19 = 0.578947; e: P 1.5/4, Q .5/3 → 5/13;
    // b: P 1.5/4 < Q 1.5/3 → 0; d → 0.
    // P1: only a → (1). P2: a = c → (0.707107, 0.707107). P3: c 0.532796, e 0.619783 →
    // (0.651887, 0.758316). Centroid: a 0.569036, c 0.452998, e 0.252772; ÷ a.
    const r = extractKeywords({
      positive: [
        ['a', 'a', 'b'],
        ['a', 'c'],
        ['c', 'e'],
      ],
      negative: [['b', 'd'], ['d']],
    });
    assert.equal(r.documents, 5);
    const table: [string, number, number, number, number, number][] = [
      // word, weight, idf, cw, in positive, in negative
      ['a', 1, 0.920283, 11 / 19, 2, 0],
      ['c', 0.796079, 0.920283, 11 / 19, 2, 0],
      ['e', 0.444212, 1.611436, 5 / 13, 1, 0],
    ];
    assert.deepEqual(
      r.keywords.map((k) => k.word),
      table.map((t) => t[0]),
    );
    for (const [i, [word, weight, idf, cw, p, n]] of table.entries()) {
      const k = r.keywords[i];
      near(k?.weight, weight, `${word} weight`);
      near(k?.idf, idf, `${word} idf`);
      near(k?.classWeight, cw, `${word} cw`);
      assert.equal(k?.positiveDocs, p);
      assert.equal(k?.negativeDocs, n);
    }
  });

  it('without negatives: smoothed idf, no class weight, worked by hand', () => {
    // idf: a ln 2, b and c ln 3. P1 (2 ln2, ln3)/1.768831 = a .783738, b .621096;
    // P2 (ln2, ln3)/1.299000 = a .533601, c .845736. Centroid a .658670, c .422868,
    // b .310548; ÷ a.
    const r = extractKeywords({
      positive: [
        ['a', 'a', 'b'],
        ['a', 'c'],
      ],
    });
    assert.equal(r.documents, 2);
    assert.deepEqual(
      r.keywords.map((k) => k.word),
      ['a', 'c', 'b'],
    );
    near(r.keywords[1]?.weight, 0.642006);
    near(r.keywords[2]?.weight, 0.471478);
    assert.ok(r.keywords.every((k) => k.classWeight === 1));
  });

  it('keeps the top N, heaviest 1, ties in word order', () => {
    const r = extractKeywords({ positive: [['y', 'x', 'z', 'z']] }, { top: 2 });
    assert.deepEqual(
      r.keywords.map((k) => [k.word, k.weight]),
      [
        ['z', 1],
        ['x', 0.5],
      ],
    );
  });

  it('gives nothing for empty documents', () => {
    assert.deepEqual(extractKeywords({ positive: [[]] }).keywords, []);
  });
});

describe('mergeKeywords', () => {
  const expert = [
    { word: 'a', weight: 2 },
    { word: 'B', weight: 1 },
  ];
  const learned = [
    { word: 'b', weight: 1 },
    { word: 'c', weight: 0.5 },
  ];
  // Expert scaled: a 1, b .5. Learned: b 1, c .5.
  const table: [number, [string, number, string][]][] = [
    [
      0.5, // a .5, b .25 + .5 = .75, c .25 → ÷ .75
      [
        ['b', 1, 'both'],
        ['a', 2 / 3, 'expert'],
        ['c', 1 / 3, 'learned'],
      ],
    ],
    [
      0.8, // a .8, b .4 + .2 = .6, c .1 → ÷ .8
      [
        ['a', 1, 'expert'],
        ['b', 0.75, 'both'],
        ['c', 0.125, 'learned'],
      ],
    ],
    [
      1, // the expert's words only
      [
        ['a', 1, 'expert'],
        ['b', 0.5, 'both'],
      ],
    ],
  ];
  for (const [lambda, expected] of table) {
    it(`λ = ${lambda}`, () => {
      const m = mergeKeywords(expert, learned, { expertShare: lambda });
      assert.deepEqual(
        m.map((k) => [k.word, k.source]),
        expected.map(([w, , s]) => [w, s]),
      );
      for (const [i, [, w]] of expected.entries()) near(m[i]?.weight, w);
    });
  }

  it('without an expert is the learned list scaled to 1', () => {
    assert.deepEqual(
      mergeKeywords([], learned).map((k) => [k.word, k.weight, k.source]),
      [
        ['b', 1, 'learned'],
        ['c', 0.5, 'learned'],
      ],
    );
  });
});
