// Revisit allocation on hand-solved budgets, its advantage over uniform revisits, the
// budget split between discovery and refreshing, and due times.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allocateRevisits,
  DEFAULT_DISCOVERY_SHARE,
  expectedFreshness,
  MS_PER_DAY,
  marginalFreshness,
  nextDue,
  type RevisitPage,
  splitBudget,
} from './index.js';

function near(actual: number, expected: number, eps: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${what} ${actual} ≈ ${expected} (± ${eps})`);
}

const sum = (m: Map<string, number>) => [...m.values()].reduce((s, x) => s + x, 0);
const gain = (p: RevisitPage, f: number) => (p.weight ?? 1) * marginalFreshness(p.ratePerDay, f);

/** μ for r = λ/f = 1: ∂F/∂f = (1/λ)(1 − 2/e), times w = λ. */
const MU_AT_1 = 1 - 2 / Math.E;

describe('allocateRevisits, solved by hand', () => {
  it('splits the budget equally between two identical pages', () => {
    const plan = allocateRevisits(
      [
        { id: 'a', ratePerDay: 1 },
        { id: 'b', ratePerDay: 1 },
      ],
      2,
    );
    near(plan.frequencies.get('a')!, 1, 1e-9);
    near(plan.frequencies.get('b')!, 1, 1e-9);
    near(plan.multiplier, MU_AT_1, 1e-9); // ∂F/∂f(1, 1)
    near(plan.expectedFreshness, 1 - 1 / Math.E, 1e-9);
    assert.deepEqual(plan.givenUp, []);
  });

  it('gives a page that never changes nothing, and does not count it as given up', () => {
    const plan = allocateRevisits(
      [
        { id: 'static', ratePerDay: 0 },
        { id: 'live', ratePerDay: 1 },
      ],
      3,
    );
    assert.equal(plan.frequencies.get('static'), 0);
    near(plan.frequencies.get('live')!, 3, 1e-12);
    assert.deepEqual(plan.givenUp, []);
    near(plan.expectedFreshness, (1 + expectedFreshness(1, 3)) / 2, 1e-12);
  });

  it('gives up on the fastest-changing page and equalises the others’ marginal gains', () => {
    // With w = λ, w·∂F/∂f depends on λ/f only, so a (λ 1, w 1) and b (λ 2, w 2) share
    // the budget 1 : 2, at f = λ: μ = 1 − 2/e ≈ 0.264. c's first revisit gains
    // w/λ = 0.1 < μ, so c gets nothing.
    const pages: RevisitPage[] = [
      { id: 'a', ratePerDay: 1 },
      { id: 'b', ratePerDay: 2, weight: 2 },
      { id: 'c', ratePerDay: 10 },
    ];
    const plan = allocateRevisits(pages, 3);
    near(plan.frequencies.get('a')!, 1, 1e-9);
    near(plan.frequencies.get('b')!, 2, 1e-9);
    assert.equal(plan.frequencies.get('c'), 0);
    assert.deepEqual(plan.givenUp, ['c']);
    near(sum(plan.frequencies), 3, 1e-12);
    near(plan.multiplier, MU_AT_1, 1e-9);
    const [a, b, c] = pages as [RevisitPage, RevisitPage, RevisitPage];
    near(gain(a, plan.frequencies.get('a')!), gain(b, plan.frequencies.get('b')!), 1e-9);
    assert.ok(gain(c, 0) <= plan.multiplier);
    near(plan.expectedFreshness, (3 * (1 - 1 / Math.E)) / 4, 1e-9); // c: F = 0
  });

  it('keeps the frequencies in the order of the pages', () => {
    const plan = allocateRevisits(
      [
        { id: 'z', ratePerDay: 1 },
        { id: 'y', ratePerDay: 0 },
        { id: 'x', ratePerDay: 100 },
      ],
      1,
    );
    assert.deepEqual([...plan.frequencies.keys()], ['z', 'y', 'x']);
  });
});

describe('allocateRevisits with floors', () => {
  it('gives every page its floor, and the rest as without floors', () => {
    // Without floors page a would take all 2 revisits (b's first gain, 1/100, is below
    // a's gain at f = 1.5). Floors of 0.5: b keeps 0.5 and is given up beyond it, c
    // (never changing) keeps 0.5, a gets the remaining 1.
    const plan = allocateRevisits(
      [
        { id: 'a', ratePerDay: 1, minPerDay: 0.5 },
        { id: 'b', ratePerDay: 100, minPerDay: 0.5 },
        { id: 'c', ratePerDay: 0, minPerDay: 0.5 },
      ],
      2,
    );
    near(plan.frequencies.get('a')!, 1, 1e-9);
    assert.equal(plan.frequencies.get('b'), 0.5);
    assert.equal(plan.frequencies.get('c'), 0.5);
    assert.deepEqual(plan.givenUp, ['b']);
    near(sum(plan.frequencies), 2, 1e-9);
  });

  it('keeps equal marginal gains above the floors', () => {
    const pages: RevisitPage[] = [
      { id: 'a', ratePerDay: 1, minPerDay: 0.1 },
      { id: 'b', ratePerDay: 2, minPerDay: 0.1 },
      { id: 'c', ratePerDay: 0.5, minPerDay: 3 },
    ];
    const plan = allocateRevisits(pages, 6);
    const fa = plan.frequencies.get('a')!;
    const fb = plan.frequencies.get('b')!;
    near(gain(pages[0]!, fa), gain(pages[1]!, fb), 1e-9);
    assert.equal(plan.frequencies.get('c'), 3); // its own optimum is below its floor
    near(fa + fb, 3, 1e-9);
  });

  it('cuts the floors in proportion when they exceed the budget', () => {
    const plan = allocateRevisits(
      [
        { id: 'a', ratePerDay: 1, minPerDay: 1 },
        { id: 'b', ratePerDay: 2, minPerDay: 2 },
      ],
      1.5,
    );
    assert.deepEqual([...plan.frequencies.values()], [0.5, 1]);
    assert.deepEqual(plan.givenUp, ['a', 'b']);
    assert.throws(() => allocateRevisits([{ id: 'a', ratePerDay: 1, minPerDay: -1 }], 1), {
      name: 'InvalidOptionError',
      message: /pages\[0\]\.minPerDay/,
    });
  });
});

describe('allocateRevisits, in general', () => {
  const mixed: RevisitPage[] = [0.02, 0.1, 0.3, 0.5, 1, 2, 3, 4, 5, 6, 7, 7.5, 20, 50].map(
    (rate, i) => ({ id: `p${i}`, ratePerDay: rate, weight: 1 + (i % 3) }),
  );

  it('spends the budget with equal marginal gains, and beats uniform revisits', () => {
    for (const budget of [0.5, 5, 30, 500]) {
      const plan = allocateRevisits(mixed, budget);
      near(sum(plan.frequencies), budget, 1e-9 * budget);
      for (const p of mixed) {
        const f = plan.frequencies.get(p.id)!;
        if (f > 0) near(gain(p, f), plan.multiplier, 1e-7 * plan.multiplier, p.id);
        else assert.ok(gain(p, 0) <= plan.multiplier * (1 + 1e-9), p.id);
      }
      const fresh = (f: (p: RevisitPage) => number) =>
        mixed.reduce((s, p) => s + (p.weight ?? 1) * expectedFreshness(p.ratePerDay, f(p)), 0) /
        mixed.reduce((s, p) => s + (p.weight ?? 1), 0);
      near(
        plan.expectedFreshness,
        fresh((p) => plan.frequencies.get(p.id)!),
        1e-12,
      );
      const uniform = fresh(() => budget / mixed.length);
      assert.ok(
        plan.expectedFreshness > uniform,
        `${budget}: ${plan.expectedFreshness} > ${uniform}`,
      );
    }
  });

  it('revisits more as pages change faster, then less, then not at all', () => {
    const equalWeights = mixed.map((p) => ({ id: p.id, ratePerDay: p.ratePerDay }));
    const plan = allocateRevisits(equalWeights, 12);
    const f = equalWeights.map((p) => plan.frequencies.get(p.id)!);
    const peak = f.indexOf(Math.max(...f));
    assert.ok(peak > 0 && f[peak + 1]! < f[peak]!, `peak at ${peak} of ${f.join(' ')}`);
    for (let i = 1; i <= peak; i++) assert.ok(f[i]! > f[i - 1]!, `rising at ${i}`);
    for (let i = peak + 1; i < f.length; i++) assert.ok(f[i]! <= f[i - 1]!, `falling at ${i}`);
    assert.equal(f.at(-1), 0);
    assert.ok(plan.givenUp.includes('p13'));
  });

  it('leaves a zero budget or pages that gain nothing unspent', () => {
    const none = allocateRevisits(mixed, 0);
    assert.equal(sum(none.frequencies), 0);
    near(none.multiplier, 1 / 0.02, 1e-12); // max w/λ: p0, weight 1
    assert.equal(none.givenUp.length, mixed.length);

    const idle = allocateRevisits(
      [
        { id: 'static', ratePerDay: 0 },
        { id: 'unwanted', ratePerDay: 1, weight: 0 },
      ],
      10,
    );
    assert.deepEqual([...idle.frequencies.values()], [0, 0]);
    assert.equal(idle.multiplier, 0);
    assert.deepEqual(idle.givenUp, ['unwanted']);
    assert.equal(idle.expectedFreshness, 1); // only the static page has weight
    assert.equal(allocateRevisits([], 5).expectedFreshness, 1);
  });

  it('refuses bad pages or budgets, naming them', () => {
    const ok = [{ id: 'a', ratePerDay: 1 }];
    assert.throws(() => allocateRevisits(ok, -1), {
      name: 'InvalidOptionError',
      message: /budgetPerDay/,
    });
    assert.throws(() => allocateRevisits(ok, Number.POSITIVE_INFINITY), /budgetPerDay/);
    assert.throws(() => allocateRevisits([...ok, ...ok], 1), /pages\[1\]\.id/);
    assert.throws(
      () => allocateRevisits([{ id: 'a', ratePerDay: -1 }], 1),
      /pages\[0\]\.ratePerDay/,
    );
    assert.throws(
      () => allocateRevisits([{ id: 'a', ratePerDay: 1, weight: Number.NaN }], 1),
      /pages\[0\]\.weight/,
    );
  });
});

describe('splitBudget', () => {
  // [input, discovery, refresh, idle]
  const table: [Parameters<typeof splitBudget>[0], number, number, number][] = [
    // The frontier takes what it can use, up to half; refreshing the rest.
    [{ totalPerDay: 1000, discoveryDemandPerDay: 5000 }, 500, 500, 0],
    [{ totalPerDay: 1000, discoveryDemandPerDay: 300 }, 300, 700, 0],
    // Empty frontier: everything refreshes.
    [{ totalPerDay: 1000, discoveryDemandPerDay: 0 }, 0, 1000, 0],
    // What refreshing cannot use flows back to discovery.
    [{ totalPerDay: 1000, discoveryDemandPerDay: 5000, refreshDemandPerDay: 200 }, 800, 200, 0],
    // Neither side can use it all.
    [{ totalPerDay: 1000, discoveryDemandPerDay: 100, refreshDemandPerDay: 200 }, 100, 200, 700],
    // Another share.
    [{ totalPerDay: 1000, discoveryDemandPerDay: 5000, discoveryShare: 0.2 }, 200, 800, 0],
    [{ totalPerDay: 1000, discoveryDemandPerDay: 5000, discoveryShare: 0 }, 0, 1000, 0],
    [{ totalPerDay: 0, discoveryDemandPerDay: 10 }, 0, 0, 0],
  ];
  for (const [input, discovery, refresh, idle] of table) {
    it(`${JSON.stringify(input)} → ${discovery} / ${refresh} / ${idle}`, () => {
      assert.deepEqual(splitBudget(input), {
        discoveryPerDay: discovery,
        refreshPerDay: refresh,
        idlePerDay: idle,
      });
    });
  }

  it('reserves half for discovery by default', () => assert.equal(DEFAULT_DISCOVERY_SHARE, 0.5));

  it('refuses bad input, naming it', () => {
    const base = { totalPerDay: 10, discoveryDemandPerDay: 1 };
    assert.throws(() => splitBudget({ ...base, totalPerDay: -1 }), {
      name: 'InvalidOptionError',
      message: /totalPerDay/,
    });
    assert.throws(
      () => splitBudget({ ...base, discoveryDemandPerDay: Number.NaN }),
      /discoveryDemand/,
    );
    assert.throws(() => splitBudget({ ...base, refreshDemandPerDay: -2 }), /refreshDemandPerDay/);
    assert.throws(() => splitBudget({ ...base, discoveryShare: 1.5 }), /discoveryShare/);
  });
});

describe('nextDue', () => {
  const t = Date.UTC(2024, 4, 1);
  it('is one revisit interval after the last visit, in ms', () => {
    assert.equal(nextDue(t, 1), t + MS_PER_DAY);
    assert.equal(nextDue(t, 4), t + 6 * 3_600_000);
    assert.equal(nextDue(t, 0.5), t + 2 * MS_PER_DAY);
    assert.equal(nextDue(t, 0), Number.POSITIVE_INFINITY);
  });

  it('refuses bad input, naming it', () => {
    assert.throws(() => nextDue(Number.NaN, 1), {
      name: 'InvalidOptionError',
      message: /lastVisitAt/,
    });
    assert.throws(() => nextDue(t, -1), /revisitsPerDay/);
  });
});
