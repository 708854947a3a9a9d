import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import {
  createThreshold,
  parseThresholdSpec,
  separatingThreshold,
  THRESHOLD_DEFAULTS,
  type ThresholdHistory,
  type ThresholdSpec,
} from './index.js';

const near = (a: number | undefined, b: number, what = '') =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what} ${a} ≈ ${b}`);

describe('fixed threshold', () => {
  it('never moves', () => {
    const t = createThreshold({ kind: 'fixed', value: 0.2 });
    for (const r of [0, 0.5, 1]) t.observe(r);
    assert.equal(t.step(1000, 3), null);
    assert.equal(t.value, 0.2);
    assert.deepEqual(t.history(), {
      kind: 'fixed',
      initial: 0.2,
      value: 0.2,
      frozen: false,
      changes: [],
      state: undefined,
    });
  });
});

describe('iterative threshold (DESIGN 1.2)', () => {
  const spec: ThresholdSpec = { kind: 'iterative', t0: 0.05, epsilon: 0.005, batchPages: 4 };
  // Each batch of 4 pages, then one step over the histogram of all pages so far:
  // [batch, t (previous estimate), T1, T2, t' = (T1 + T2)/2, rule]
  const batches: [number[], number, number, number, number, string][] = [
    // t_min 0, t_max .8 → t = .4; T1 = mean(0, .1), T2 = mean(.6, .8)
    [[0, 0.1, 0.6, 0.8], 0.4, 0.05, 0.7, 0.375, 'iterative'],
    // all 8: [0, .1, .2, .3 | .5, .6, .8, .9]
    [[0.2, 0.3, 0.5, 0.9], 0.375, 0.15, 0.7, 0.425, 'iterative'],
    // [0, .05, .05, .1, .2, .3 | .5, .6, .8, .85, .85, .9]: 0.7/6, 4.5/6; |t' − t| = .00833
    [[0.05, 0.05, 0.85, 0.85], 0.425, 0.7 / 6, 0.75, 0.7 / 12 + 0.375, 'iterative'],
    // [0 … .3 (8 pages, sum 1.0) | .5 … .9 (8 pages, sum 6.0)]: |.4375 − .43333| < .005
    [[0.1, 0.2, 0.7, 0.8], 0.7 / 12 + 0.375, 0.125, 0.75, 0.4375, 'converged'],
  ];

  it('keeps t0 until the first batch is complete', () => {
    const t = createThreshold(spec);
    for (const r of [0, 0.9, 0.5]) t.observe(r);
    assert.equal(t.step(1, 3), null);
    assert.equal(t.value, 0.05);
  });

  it('converges on a histogram worked by hand, then freezes', () => {
    const t = createThreshold(spec);
    let fetched = 0;
    for (const [batch, prev, t1, t2, next, rule] of batches) {
      for (const r of batch) t.observe(r);
      fetched += batch.length;
      const c = t.step(fetched * 100, fetched);
      assert.ok(c, `a change after ${fetched} pages`);
      near((t1 + t2) / 2, next, 'worked t′');
      near(c.to, next, `t′ after ${fetched}`);
      assert.equal(c.rule, rule);
      assert.equal(c.fetched, fetched);
      assert.equal(c.at, fetched * 100);
      assert.ok(Math.abs(next - prev) >= 0.005 === (rule === 'iterative'));
    }
    assert.equal(t.frozen, true);
    near(t.value, 0.4375);
    for (const r of [1, 1, 1, 1]) t.observe(r);
    assert.equal(t.step(9999, 20), null);
    near(t.value, 0.4375);
    assert.equal(t.history().changes.length, 4);
  });

  it('resumes from its history exactly where it was', () => {
    const a = createThreshold(spec);
    for (const [batch] of batches.slice(0, 2)) {
      for (const r of batch) a.observe(r);
      a.step(1, 0);
    }
    const saved = JSON.parse(JSON.stringify(a.history())) as ThresholdHistory;
    const b = createThreshold(spec, saved);
    near(b.value, 0.425);
    for (const r of batches[2]?.[0] ?? []) b.observe(r);
    near(b.step(2, 0)?.to, 0.7 / 12 + 0.375);
  });

  it('does not move while every page has the same relevance', () => {
    const t = createThreshold(spec);
    for (let i = 0; i < 8; i++) t.observe(0);
    assert.equal(t.step(1, 8), null);
    assert.equal(t.value, 0.05);
  });
});

describe('adaptive threshold (DESIGN 1.5)', () => {
  const S = 10;
  const spec: ThresholdSpec = {
    kind: 'adaptive',
    initial: 0.1,
    alpha: 1.05,
    beta: 1.2,
    gamma: 0.95,
    mu: 0.3,
    expectedPerInterval: S,
    intervalMs: 1000,
    min: 0.01,
    max: 0.6,
  };
  /** One interval closing as interval T, after `before` pages in earlier intervals. */
  const run = (T: number, before: number, f: number, r: number, value = 0.1) => {
    const saved: ThresholdHistory = {
      kind: 'adaptive',
      initial: 0.1,
      value,
      frozen: false,
      changes: [],
      state: { intervals: T - 1, total: before, fetched: 0, relevant: 0 },
    };
    const t = createThreshold(spec, saved);
    assert.equal(t.step(0, before), null); // starts the clock
    for (let i = 0; i < f; i++) t.observe(i < r ? value : value / 2);
    assert.equal(t.step(999, before + f), null); // the interval is not over
    return { change: t.step(1000, before + f), value: t.value };
  };
  // [what, T, F before, f_T, r_T, rule or null, new threshold]
  const table: [string, number, number, number, number, string | null, number][] = [
    ['f > S, F > S·T → α', 1, 0, 11, 11, 'alpha', 0.105],
    ['… and r < μ·f (3 < 3.3) → β', 1, 0, 11, 3, 'beta', 0.12],
    ['r = 4 ≥ μ·f = 3.3 → α', 1, 0, 11, 4, 'alpha', 0.105],
    ['r = μ·f exactly (6 of 20) → α, not β', 1, 0, 20, 6, 'alpha', 0.105],
    ['f = S → nothing', 1, 0, 10, 0, null, 0.1],
    ['f > S but F = S·T → nothing', 2, 9, 11, 11, null, 0.1],
    ['f > S, F = S·T + 1 → α', 2, 10, 11, 11, 'alpha', 0.105],
    ['f < S, F < S·T → γ', 1, 0, 9, 9, 'gamma', 0.095],
    ['f < S but F = S·T → nothing', 2, 11, 9, 9, null, 0.1],
    ['f < S but F > S·T → nothing', 2, 12, 9, 9, null, 0.1],
    ['nothing fetched, behind schedule → γ', 2, 0, 0, 0, 'gamma', 0.095],
  ];
  for (const [what, T, before, f, r, rule, value] of table) {
    it(what, () => {
      const got = run(T, before, f, r);
      assert.equal(got.change?.rule ?? null, rule);
      near(got.value, value);
      if (got.change) {
        assert.equal(got.change.from, 0.1);
        assert.equal(got.change.fetched, before + f);
      }
    });
  }

  it('clamps to [min, max] and reports no change when clamped in place', () => {
    near(run(1, 0, 11, 11, 0.59).value, 0.6);
    assert.equal(run(1, 0, 11, 11, 0.6).change, null);
    near(run(1, 0, 9, 9, 0.0101).value, 0.01);
  });

  it('counts a page relevant at the threshold in force (≥)', () => {
    // 11 pages, 4 exactly at the threshold: r = 4 ≥ 3.3 → α
    assert.equal(run(1, 0, 11, 4).change?.rule, 'alpha');
  });

  it('starts its clock at the first step and keeps T and F across runs', () => {
    const t = createThreshold(spec);
    t.step(5000, 0);
    for (let i = 0; i < 11; i++) t.observe(1);
    assert.equal(t.step(6000, 11)?.rule, 'alpha');
    const h = t.history();
    assert.deepEqual(h.state, { intervals: 1, total: 11, fetched: 0, relevant: 0 });
    const resumed = createThreshold(spec, h);
    near(resumed.value, 0.105);
    assert.equal(resumed.step(99_000, 11), null); // a new run: the clock starts again
  });
});

describe('createThreshold validation', () => {
  const bad: [unknown, RegExp][] = [
    [{ kind: 'fixed', value: 1.5 }, /^threshold\.value: expected a number in \[0, 1\], got 1\.5$/],
    [{ kind: 'fixed', value: 0.1, x: 1 }, /^threshold: unknown field "x"$/],
    [{ kind: 'nope' }, /^threshold\.kind: expected kind "fixed", "iterative" or "adaptive"/],
    [
      { ...THRESHOLD_DEFAULTS.adaptive, kind: 'adaptive', alpha: 0.9 },
      /^threshold\.alpha: expected a number > 1, got 0\.9$/,
    ],
    [
      { ...THRESHOLD_DEFAULTS.adaptive, kind: 'adaptive', gamma: 1 },
      /^threshold\.gamma: expected a number in \(0, 1\), got 1$/,
    ],
    [
      { ...THRESHOLD_DEFAULTS.adaptive, kind: 'adaptive', beta: 1.01 },
      /^threshold\.beta: expected a number ≥ alpha/,
    ],
    [
      { ...THRESHOLD_DEFAULTS.adaptive, kind: 'adaptive', initial: 0.9 },
      /^threshold\.initial: expected a number in \[min, max\]/,
    ],
    [
      { ...THRESHOLD_DEFAULTS.iterative, kind: 'iterative', batchPages: 0 },
      /^threshold\.batchPages: expected a positive integer, got 0$/,
    ],
  ];
  for (const [spec, message] of bad) {
    it(`rejects ${JSON.stringify(spec).slice(0, 60)}`, () => {
      assert.throws(
        () => createThreshold(spec as ThresholdSpec),
        (e: unknown) => e instanceof InvalidOptionError && message.test(e.message),
      );
    });
  }

  it('refuses a history of another kind, and a malformed state', () => {
    const saved = createThreshold({ kind: 'fixed', value: 0.1 }).history();
    assert.throws(
      () => createThreshold({ ...THRESHOLD_DEFAULTS.iterative, kind: 'iterative' }, saved),
      /run with a fixed threshold and is resumed with a iterative one/,
    );
    assert.throws(
      () =>
        createThreshold(
          { ...THRESHOLD_DEFAULTS.adaptive, kind: 'adaptive' },
          { ...saved, kind: 'adaptive', state: { intervals: -1 } },
        ),
      (e: unknown) =>
        e instanceof InvalidOptionError && /saved adaptive threshold state/.test(e.message),
    );
  });
});

describe('parseThresholdSpec', () => {
  it('reads the CLI forms', () => {
    assert.deepEqual(parseThresholdSpec('0.2'), { kind: 'fixed', value: 0.2 });
    assert.deepEqual(parseThresholdSpec(0), { kind: 'fixed', value: 0 });
    assert.deepEqual(parseThresholdSpec('iterative'), {
      kind: 'iterative',
      ...THRESHOLD_DEFAULTS.iterative,
    });
    assert.deepEqual(parseThresholdSpec('adaptive', { alpha: '1.08', intervalMs: 5000 }), {
      ...THRESHOLD_DEFAULTS.adaptive,
      kind: 'adaptive',
      alpha: 1.08,
      intervalMs: 5000,
    });
  });

  const bad: [string | number, Record<string, string | number>, RegExp][] = [
    [
      'high',
      {},
      /^threshold: expected a number in \[0, 1\], "iterative" or "adaptive", got "high"$/,
    ],
    ['1.5', {}, /^threshold\.value: expected a number in \[0, 1\], got 1\.5$/],
    ['0.1', { alpha: 1.1 }, /^threshold\.alpha: applies to an adaptive threshold only/],
    ['adaptive', { t0: 0.1 }, /^threshold\.t0: applies to an iterative threshold only/],
    ['iterative', { t0: 'x' }, /^threshold\.t0: expected a number, got "x"$/],
    ['iterative', { speed: 1 }, /^threshold: unknown parameter speed$/],
  ];
  for (const [flag, overrides, message] of bad) {
    it(`rejects ${JSON.stringify(flag)} ${JSON.stringify(overrides)}`, () => {
      assert.throws(
        () => parseThresholdSpec(flag, overrides as never),
        (e: unknown) => e instanceof InvalidOptionError && message.test(e.message),
      );
    });
  }
});

describe('separatingThreshold', () => {
  // Cuts midway between consecutive distinct scores; best (TPR + TNR)/2, lowest on a tie.
  const table: [number[], number[], number | undefined][] = [
    [[0.5, 0.7], [0.1, 0.3], 0.4], // separable: the middle of the gap
    // cuts .1 (.667), .35 (.833), .55 (.667), .7 (.833), .85 (.667): the lower of the two best
    [[0.5, 0.8, 0.9], [0, 0.2, 0.6], 0.35],
    [[0.5], [], undefined],
  ];
  for (const [pos, neg, expected] of table) {
    it(`${JSON.stringify(pos)} vs ${JSON.stringify(neg)} → ${expected}`, () => {
      const t = separatingThreshold(pos, neg);
      if (expected === undefined) assert.equal(t, undefined);
      else near(t, expected);
    });
  }
});
