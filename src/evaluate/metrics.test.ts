// Hand-worked evaluations of short fetch histories.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CurvePoint,
  decisionScore,
  EvaluationTracker,
  evaluateOutcomes,
  evaluateStream,
  normalizeBudgets,
  type OutcomeInput,
} from './metrics.js';

const A = 'http://a.test/1';
const B = 'http://a.test/2';
const C = 'http://a.test/3';
const D = 'http://d.test/';
const LABELLED = new Set([A, B, C, D]);

/** Six fetches: see the table in the first test. */
const HISTORY: OutcomeInput[] = [
  { url: A, state: 'complete' },
  { url: 'http://x.test/', state: 'discard' },
  { url: B, state: 'error' },
  { url: C, state: 'discard' },
  { url: 'http://y.test/', state: 'complete' },
  // D written differently: canonicalised before the lookup.
  { url: 'HTTP://D.test:80/index.html', state: 'complete' },
];

const pt = (fetched: number, relevant: number): CurvePoint => ({
  fetched,
  relevant,
  harvestRate: relevant / fetched,
  recall: relevant / 4,
});

describe('evaluateOutcomes', () => {
  it('harvest rate and target recall after each fetch', () => {
    const ev = evaluateOutcomes(HISTORY, LABELLED, { budgets: [2, 4, 10] });
    // fetch  url   state     relevant so far  harvest  recall
    //   1    A     complete  1                1/1      1/4
    //   2    x     discard   1                1/2      1/4
    //   3    B     error     1 (not a page)   1/3      1/4
    //   4    C     discard   2                2/4      2/4
    //   5    y     complete  2                2/5      2/4
    //   6    D     complete  3                3/6      3/4
    assert.deepEqual(ev.curve, [pt(1, 1), pt(2, 1), pt(3, 1), pt(4, 2), pt(5, 2), pt(6, 3)]);
    assert.equal(ev.labelled, 4);
    assert.equal(ev.fetched, 6);
    assert.equal(ev.pages, 5);
    assert.equal(ev.errors, 1);
    assert.equal(ev.relevant, 3);
    assert.equal(ev.harvestRate, 0.5);
    assert.equal(ev.recall, 0.75);
  });

  it('figures at the budgets, the end in its place, budgets not reached empty', () => {
    const ev = evaluateOutcomes(HISTORY, LABELLED, { budgets: [10, 4, 2, 4] });
    assert.deepEqual(ev.budgets, [
      { budget: 2, end: false, at: pt(2, 1) },
      { budget: 4, end: false, at: pt(4, 2) },
      { budget: 6, end: true, at: pt(6, 3) },
      { budget: 10, end: false, at: null },
    ]);
    // A budget equal to the end is the end row, not a second one.
    const exact = evaluateOutcomes(HISTORY, LABELLED, { budgets: [6] });
    assert.deepEqual(exact.budgets, [{ budget: 6, end: true, at: pt(6, 3) }]);
  });

  it('the keep/discard decision: kept = complete', () => {
    const ev = evaluateOutcomes(HISTORY, LABELLED);
    // kept: A (relevant), y (not), D (relevant); discarded: x (not), C (relevant); B failed.
    assert.deepEqual(ev.decision, {
      truePositive: 2,
      falsePositive: 1,
      falseNegative: 1,
      trueNegative: 1,
      precision: 2 / 3,
      recall: 2 / 3,
      f1: 2 / 3,
    });
  });

  it('a relevant URL counts once', () => {
    const ev = evaluateOutcomes(
      [
        { url: A, state: 'complete' },
        { url: 'http://a.test/1#again', state: 'complete' },
      ],
      LABELLED,
    );
    assert.equal(ev.relevant, 1);
    assert.equal(ev.harvestRate, 0.5);
  });

  it('limit: only the first outcomes count', async () => {
    const ev = evaluateOutcomes(HISTORY, LABELLED, { limit: 4, budgets: [4] });
    assert.equal(ev.fetched, 4);
    assert.deepEqual(ev.budgets, [{ budget: 4, end: true, at: pt(4, 2) }]);
    async function* stream() {
      yield* HISTORY;
    }
    const streamed = await evaluateStream(stream(), LABELLED, { limit: 4, budgets: [4] });
    assert.deepEqual(streamed, ev);
  });

  it('an empty history', () => {
    const ev = evaluateOutcomes([], LABELLED, { budgets: [5] });
    assert.equal(ev.harvestRate, null);
    assert.equal(ev.recall, 0);
    assert.deepEqual(ev.curve, []);
    assert.deepEqual(ev.budgets, [
      { budget: 0, end: true, at: null },
      { budget: 5, end: false, at: null },
    ]);
    assert.equal(ev.decision.precision, null);
    assert.equal(ev.decision.f1, null);
  });

  it('long histories are decimated, the last point exact', () => {
    const t = new EvaluationTracker(LABELLED, { maxPoints: 4 });
    for (let i = 0; i < 100; i++) t.push({ url: `http://z.test/${i}`, state: 'discard' });
    t.push({ url: A, state: 'complete' });
    const ev = t.result();
    assert.ok(ev.curve.length <= 5, String(ev.curve.length));
    assert.deepEqual(ev.curve.at(-1), pt(101, 1));
    assert.equal(ev.curve[0]?.fetched, 1);
  });
});

describe('decisionScore', () => {
  const table: [
    tp: number,
    fp: number,
    fn: number,
    p: number | null,
    r: number | null,
    f1: number | null,
  ][] = [
    [0, 0, 0, null, null, null], // nothing kept, nothing relevant
    [0, 2, 1, 0, 0, 0], // kept only irrelevant pages
    [3, 1, 3, 0.75, 0.5, 0.6], // 2·0.75·0.5 / 1.25
    [4, 0, 0, 1, 1, 1],
    [0, 3, 0, 0, null, null], // no relevant page fetched: recall undefined
  ];
  for (const [tp, fp, fn, p, r, f1] of table) {
    it(`TP ${tp} FP ${fp} FN ${fn} → P ${p} R ${r} F1 ${f1}`, () => {
      const s = decisionScore({
        truePositive: tp,
        falsePositive: fp,
        falseNegative: fn,
        trueNegative: 7,
      });
      assert.equal(s.precision, p);
      assert.equal(s.recall, r);
      assert.equal(s.f1 === null ? null : +s.f1.toFixed(12), f1);
      assert.equal(s.trueNegative, 7);
    });
  }
});

describe('normalizeBudgets', () => {
  it('sorts and de-duplicates; refuses what is not a whole number ≥ 1', () => {
    assert.deepEqual(normalizeBudgets([5000, 1000, 5000]), [1000, 5000]);
    assert.throws(() => normalizeBudgets([0]), RangeError);
    assert.throws(() => normalizeBudgets([1.5]), RangeError);
  });
});
