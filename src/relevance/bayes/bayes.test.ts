import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BANDWIDTH_RULES,
  classificationMetrics,
  contextDocumentFrequencies,
  contextTermWeight,
  contextWeights,
  fitNormal,
  kernelLogDensity,
  logistic,
  logSumExp,
  naiveBayesFromJSON,
  normalLogDensity,
  stratifiedFolds,
  trainNaiveBayes,
  VARIANCE_FLOOR,
} from './index.js';

const near = (actual: number | undefined, expected: number, what = '') =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what} ${actual} ≈ ${expected}`,
  );

const vec = (o: Record<string, number>) => new Map(Object.entries(o));

describe('improved TF-IDF of a link context', () => {
  it('document frequencies count contexts containing a term', () => {
    const df = contextDocumentFrequencies([vec({ a: 2, b: 1 }), vec({ a: 1 }), vec({ b: 0 })]);
    assert.deepEqual([...df].sort(), [
      ['a', 2],
      ['b', 1],
    ]);
  });

  it('weights worked by hand', () => {
    // |E| = 4; context tf: a 2, b 1, z 1 (z not in the vocabulary, but counts for max tf = 2)
    // w_a = (0.5 + 0.5·2/2)·ln(4/1) = ln 4 = 1.3862944
    // w_b = (0.5 + 0.5·1/2)·ln(4/2) = 0.75·ln 2 = 0.5198604
    // d has df 0 → weight 0, left out; c is not in the context
    const df = vec({ a: 1, b: 2, c: 3, d: 0 });
    const w = contextWeights(vec({ a: 2, b: 1, z: 1, d: 1 }), df, 4);
    assert.deepEqual([...w.keys()].sort(), ['a', 'b']);
    near(w.get('a'), 1.3862944, 'w_a');
    near(w.get('b'), 0.5198604, 'w_b');
  });

  // [tf, maxTf, df, |E|, w]
  const table: [number, number, number, number, number][] = [
    [1, 1, 1, Math.E, 1], // (0.5 + 0.5)·ln e
    [1, 4, 1, Math.E, 0.625], // (0.5 + 0.125)·1
    [3, 3, 5, 5, 0], // a term in every example: ln 1 = 0
    [1, 1, 0, 5, 0], // df 0
    [0, 1, 1, 5, 0], // not in the context
  ];
  for (const [tf, maxTf, df, e, expected] of table) {
    it(`w(tf ${tf}, max ${maxTf}, df ${df}, |E| ${e.toFixed(3)}) = ${expected}`, () =>
      near(contextTermWeight(tf, maxTf, df, e), expected));
  }
});

describe('densities', () => {
  // [x, mean, variance, ln N(x; mean, variance)]
  const normal: [number, number, number, number][] = [
    [0, 0, 1, -0.9189385], // −ln sqrt(2π)
    [1, 0, 1, -1.4189385], // − ½
    [-1, 0, 1, -1.4189385],
    [2, 1, 4, -1.7370857], // −0.9189385 − ½ ln 4 − 1/8
  ];
  for (const [x, m, v, expected] of normal) {
    it(`ln N(${x}; ${m}, ${v}) = ${expected}`, () => near(normalLogDensity(x, m, v), expected));
  }

  it('maximum-likelihood fit, variance floored for a constant feature', () => {
    assert.deepEqual(fitNormal([1, 3]), { mean: 2, variance: 1 }); // Σ(x − 2)²/2 = 1
    assert.deepEqual(fitNormal([0, 0, 0]), { mean: 0, variance: VARIANCE_FLOOR });
    const far = normalLogDensity(1, 0, VARIANCE_FLOOR); // −0.9189 + 6.9078 − 500000
    assert.ok(Number.isFinite(far));
    near(far, -499994.0111833);
  });

  it('kernel density of a 2-point sample worked by hand', () => {
    // sample {0, 2}, σ = 1, x = 0: (N(0;0,1) + N(0;2,1))/2 = (0.3989423 + 0.0539910)/2
    // = 0.2264666, ln = −1.4851577
    near(kernelLogDensity(0, [0, 2], 1), -1.4851577);
    // x = 1 is 1 from both points: ln N(1;0,1) = −1.4189385
    near(kernelLogDensity(1, [0, 2], 1), -1.4189385);
  });

  it('kernel density does not underflow far from the sample', () => {
    // σ = 0.001, x 1 away: density e^−499994, far below the smallest double
    near(kernelLogDensity(1, [0, 0], 0.001), -499994.0111833);
    assert.equal(kernelLogDensity(1, [], 1), Number.NEGATIVE_INFINITY);
  });

  it('log-sum-exp and bandwidth rules', () => {
    near(logSumExp([-1000, -1000]), -1000 + Math.LN2);
    assert.equal(logSumExp([]), Number.NEGATIVE_INFINITY);
    near(BANDWIDTH_RULES['inverse-n'](4), 0.25);
    near(BANDWIDTH_RULES['inverse-sqrt-n'](4), 0.5);
  });
});

describe('naive Bayes classifier', () => {
  // Positives: a ∈ {1, 3} (mean 2, var 1), b ∈ {0, 2} (mean 1, var 1)
  // Negatives: a ∈ {0, 2} (mean 1, var 1), b ∈ {1, 3} (mean 2, var 1); priors ½, ½
  const positives = [vec({ a: 1 }), vec({ a: 3, b: 2 })];
  const negatives = [vec({ b: 1 }), vec({ a: 2, b: 3 })];
  const model = trainNaiveBayes(positives, negatives);

  it('posterior worked by hand', () => {
    // x = {a: 2, b: 1}: ln p(x|+) = ln N(2;2,1) + ln N(1;1,1) = −0.9189 − 0.9189
    //                   ln p(x|−) = ln N(2;1,1) + ln N(1;2,1) = (−0.9189 − ½) + (−0.9189 − ½)
    // z = ln ½ − ln ½ + 1 = 1, Pr(+|x) = 1/(1 + e^−1) = 0.7310586
    near(model.logOdds(vec({ a: 2, b: 1 })), 1);
    near(model.posterior(vec({ a: 2, b: 1 })), 0.7310586);
    // x = {a: 2} (b absent = 0): + : −0.9189 + (−0.9189 − (0−1)²/2)
    //                            − : (−0.9189 − ½) + (−0.9189 − (0−2)²/2)
    // z = ½ + 2 − ½ = 2, Pr(+|x) = 0.8807971
    near(model.posterior(vec({ a: 2 })), 0.8807971);
  });

  it('priors come from class counts', () => {
    const m = trainNaiveBayes([vec({ a: 1 })], [vec({ a: 1 }), vec({ a: 1 }), vec({ a: 1 })]);
    // same density in both classes: Pr(+|x) = Pr(+) = 1/4
    near(m.posterior(vec({ a: 1 })), 0.25);
    assert.deepEqual(m.toJSON().priors, { positive: 0.25, negative: 0.75 });
  });

  it('extreme inputs give a finite posterior in [0, 1]', () => {
    const floored = trainNaiveBayes([vec({ a: 0 }), vec({ a: 0 })], [vec({ a: 1 }), vec({ a: 2 })]);
    const kernel = trainNaiveBayes(positives, negatives, {
      density: 'kernel',
      bandwidth: 'inverse-n',
    });
    const inputs = [
      vec({ a: 1e6 }),
      vec({ a: 1e200, b: -1e300 }),
      vec({ a: Number.POSITIVE_INFINITY }),
      vec({ a: Number.NaN, b: Number.NEGATIVE_INFINITY }),
      vec({ a: 1e154, b: 1e150 }),
    ];
    for (const m of [model, floored, kernel]) {
      for (const x of inputs) {
        const p = m.posterior(x);
        assert.ok(Number.isFinite(p) && p >= 0 && p <= 1, `posterior ${p}`);
        assert.ok(!Number.isNaN(m.logOdds(x)));
      }
    }
    assert.equal(logistic(1e308), 1);
    assert.equal(logistic(-1e308), 0);
    assert.equal(logistic(Number.NaN), 0.5);
  });

  it('kernel density model: sample per term, σ from the rule', () => {
    const m = trainNaiveBayes(positives, negatives, { density: 'kernel', bandwidth: 'inverse-n' });
    const json = m.toJSON();
    assert.deepEqual(json.vocabulary, ['a', 'b']);
    assert.deepEqual(json.terms[1]?.positive.sample, { values: [0, 2], counts: [1, 1] });
    assert.deepEqual(json.sigma, { positive: 0.5, negative: 0.5 });
    // a point at the positives' values scores above ½, one at the negatives' below
    assert.ok(m.posterior(vec({ a: 3, b: 0 })) > 0.5);
    assert.ok(m.posterior(vec({ a: 0, b: 3 })) < 0.5);
  });

  it('plain-data round trip keeps the posterior', () => {
    for (const density of ['normal', 'kernel'] as const) {
      const m = trainNaiveBayes(positives, negatives, { density });
      const copy = naiveBayesFromJSON(JSON.parse(JSON.stringify(m.toJSON())));
      const x = vec({ a: 1.5, b: 0.5 });
      assert.equal(copy.posterior(x), m.posterior(x));
    }
  });

  it('rejects a missing class and a malformed model', () => {
    assert.throws(() => trainNaiveBayes([], negatives), RangeError);
    const json = model.toJSON();
    assert.throws(() => naiveBayesFromJSON({ ...json, terms: [] }), /term statistics/);
    assert.throws(
      () => naiveBayesFromJSON({ ...json, density: 'laplace' as 'normal' }),
      /unknown density/,
    );
  });
});

describe('cross-validation', () => {
  const labels = [true, false, false, true, false, false, true, false, false, true, false, false];

  it('folds cover every example once and keep class proportions', () => {
    const folds = stratifiedFolds(labels, 4, 7); // 4 positives, 8 negatives
    const seen = folds.flatMap((f) => f.test).sort((a, b) => a - b);
    assert.deepEqual(
      seen,
      labels.map((_, i) => i),
    );
    for (const f of folds) {
      assert.equal(f.test.filter((i) => labels[i]).length, 1);
      assert.equal(f.test.filter((i) => !labels[i]).length, 2);
      assert.equal(f.train.length + f.test.length, labels.length);
      assert.ok(f.train.every((i) => !f.test.includes(i)));
    }
  });

  it('folds are deterministic for a seed', () => {
    assert.deepEqual(stratifiedFolds(labels, 3, 42), stratifiedFolds(labels, 3, 42));
    assert.throws(() => stratifiedFolds(labels, 1), RangeError);
    assert.throws(() => stratifiedFolds(labels, 13), RangeError);
  });

  it('metrics on a small confusion table', () => {
    // TP 3, FP 1, FN 2, TN 4
    const predicted = [true, true, true, true, false, false, false, false, false, false];
    const actual = [true, true, true, false, true, true, false, false, false, false];
    const m = classificationMetrics(predicted, actual);
    assert.deepEqual(
      [m.truePositives, m.falsePositives, m.falseNegatives, m.trueNegatives],
      [3, 1, 2, 4],
    );
    near(m.accuracy, 0.7); // 7/10
    near(m.precision, 0.75); // 3/4
    near(m.recall, 0.6); // 3/5
    near(m.f1, 2 / 3); // 2·0.75·0.6 / 1.35
    const none = classificationMetrics([false, false], [true, false]);
    assert.deepEqual([none.precision, none.recall, none.f1, none.accuracy], [0, 0, 0, 0.5]);
  });
});
