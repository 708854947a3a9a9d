// PageRank in the DESIGN 1.1 form R(u) = (1 − d) + d·Σ R(v)/N(v), d = 0.8, on graphs
// solved by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CsrGraph,
  csrFromEdges,
  DEFAULT_DAMPING,
  maxRank,
  normalizeRanks,
  pageRank,
} from './index.js';
import { near, refuses } from './testing.js';

/** Every actual[i] within eps of expected[i], and as many. */
function nearAll(actual: Float64Array, expected: ArrayLike<number>, eps: number): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) near(actual[i], expected[i]!, eps, `[${i}]`);
}

const sum = (a: Float64Array) => a.reduce((s, x) => s + x, 0);

/** Solved to well below 1e-9. */
const TIGHT = { tolerance: 1e-14, maxIterations: 1000 };

describe('pageRank, d = 0.8, solved by hand', () => {
  // [name, nodeCount, edges as [from, to], exact ranks]
  const table: [string, number, [number, number][], number[]][] = [
    // R_A = 0.2 + 0.8·R_B, R_B = 0.2 + 0.8·R_A → both 1.
    [
      '2-cycle A ⇄ B',
      2,
      [
        [0, 1],
        [1, 0],
      ],
      [1, 1],
    ],
    // A → B → C, C dangling: C spreads 0.8·c/3 to each node.
    // R_A = 0.2 + 0.8c/3 =: a, R_B = a + 0.8a = 1.8a, R_C = a + 0.8·1.8a = 2.44a;
    // sum 5.24a = 3 → a = 75/131, R_B = 135/131, R_C = 183/131.
    [
      '3-node chain with a dangling end',
      3,
      [
        [0, 1],
        [1, 2],
      ],
      [75 / 131, 135 / 131, 183 / 131],
    ],
    // Hub H → L1, L2, L3, each Li → H. R_L = 0.2 + 0.8·R_H/3, R_H = 0.2 + 0.8·3·R_L;
    // R_L = 0.2 + (0.16 + 1.92·R_L)/3 → 0.36·R_L = 0.76/3 → R_L = 19/27, R_H = 17/9.
    [
      'star: hub to 3 leaves, leaves back',
      4,
      [
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 0],
        [2, 0],
        [3, 0],
      ],
      [17 / 9, 19 / 27, 19 / 27, 19 / 27],
    ],
    // A → B, A → C, B → A, C dangling. R_B = R_C = c = 0.2 + 0.4·R_A + 0.8c/3 and
    // R_A = 3 − 2c: c·(1.8 − 0.8/3) = 1.4 → c = 21/23, R_A = 27/23.
    [
      'a dangling node',
      3,
      [
        [0, 1],
        [0, 2],
        [1, 0],
      ],
      [27 / 23, 21 / 23, 21 / 23],
    ],
    // No links at all: every node dangling, R = 0.2 + 0.8·N/N = 1.
    ['isolated nodes', 3, [], [1, 1, 1]],
  ];
  for (const [name, n, edges, expected] of table) {
    it(name, () => {
      const g = csrFromEdges(
        n,
        edges.map((e) => e[0]),
        edges.map((e) => e[1]),
      );
      const r = pageRank(g, TIGHT);
      assert.ok(r.converged);
      assert.ok(r.delta < TIGHT.tolerance);
      nearAll(r.ranks, expected, 1e-9);
      near(sum(r.ranks), n, 1e-9, 'sum');
    });
  }

  it('other damping: 3-node chain, d = 0.5', () => {
    // R_A = 0.5 + 0.5c/3 =: a, R_B = 1.5a, R_C = a + 0.75a = 1.75a; sum 4.25a = 3 →
    // a = 12/17, R_B = 18/17, R_C = 21/17.
    const r = pageRank(csrFromEdges(3, [0, 1], [1, 2]), { ...TIGHT, damping: 0.5 });
    nearAll(r.ranks, [12 / 17, 18 / 17, 21 / 17], 1e-9);
  });

  it('duplicate edges and self-links do not change the result', () => {
    // Star with the hub's links repeated and every node linking to itself.
    const plain = pageRank(csrFromEdges(4, [0, 0, 0, 1, 2, 3], [1, 2, 3, 0, 0, 0]), TIGHT);
    const noisy = pageRank(
      csrFromEdges(4, [0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 2], [1, 2, 2, 3, 0, 0, 1, 0, 0, 3, 2]),
      TIGHT,
    );
    assert.deepEqual([...noisy.ranks], [...plain.ranks]);
  });

  it('ranks sum to N on a random graph with dangling nodes', () => {
    let seed = 11;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const n = 200;
    const from: number[] = [];
    const to: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const f = rnd(n);
      if (f % 5 === 0) continue; // every fifth node dangling
      from.push(f);
      to.push(rnd(n));
    }
    const r = pageRank(csrFromEdges(n, from, to));
    assert.ok(r.converged);
    near(sum(r.ranks), n, 1e-6, 'sum');
    for (const x of r.ranks) assert.ok(x >= 0.2 - 1e-12, `${x} ≥ 1 − d`);
  });

  it('an empty graph has no ranks', () => {
    const r = pageRank(csrFromEdges(0, [], []));
    assert.deepEqual(r, { ranks: new Float64Array(0), iterations: 0, delta: 0, converged: true });
  });

  it('stops at maxIterations without converging', () => {
    const r = pageRank(csrFromEdges(3, [0, 1], [1, 2]), { maxIterations: 2 });
    assert.equal(r.iterations, 2);
    assert.equal(r.converged, false);
    assert.ok(r.delta >= 1e-6);
  });
});

describe('the DESIGN 1.1 formula, term by term', () => {
  /** A random graph over n nodes; node v has no out-links when dangling(v). */
  function randomGraph(n: number, seed0: number, dangling: (v: number) => boolean): CsrGraph {
    let seed = seed0;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const from: number[] = [];
    const to: number[] = [];
    for (let v = 0; v < n; v++) {
      if (dangling(v)) continue;
      from.push(v);
      to.push((v + 1) % n); // at least one out-link to another page
      for (let k = rnd(6); k > 0; k--) {
        from.push(v);
        to.push(rnd(n));
      }
    }
    return csrFromEdges(n, from, to);
  }

  /** (1 − d) + d·Σ_{v∈B(u)} R(v)/N(v) + d·D/N for every u, from the ranks given. */
  function rightHandSide(g: CsrGraph, r: Float64Array, d: number): Float64Array {
    const n = g.nodeCount;
    const rhs = new Float64Array(n);
    let dangling = 0;
    for (let v = 0; v < n; v++) {
      const start = g.offsets[v]!;
      const end = g.offsets[v + 1]!;
      if (start === end) dangling += r[v]!;
      for (let k = start; k < end; k++) rhs[g.targets[k]!]! += (d * r[v]!) / (end - start);
    }
    for (let u = 0; u < n; u++) rhs[u]! += 1 - d + (d * dangling) / n;
    return rhs;
  }

  it('d is 0.8 unless given', () => {
    assert.equal(DEFAULT_DAMPING, 0.8);
    const g = randomGraph(50, 5, () => false);
    assert.deepEqual([...pageRank(g).ranks], [...pageRank(g, { damping: 0.8 }).ranks]);
  });

  it('without dangling pages: R(u) = 0.2 + 0.8·Σ_{v∈B(u)} R(v)/N(v) at every node', () => {
    const g = randomGraph(300, 9, () => false);
    const r = pageRank(g, TIGHT);
    assert.ok(r.converged);
    nearAll(r.ranks, rightHandSide(g, r.ranks, 0.8), 1e-10);
    near(sum(r.ranks), 300, 1e-9, 'sum');
  });

  it('with dangling pages: the same plus 0.8·D/N at every node', () => {
    const g = randomGraph(300, 13, (v) => v % 7 === 0);
    const r = pageRank(g, TIGHT);
    assert.ok(r.converged);
    nearAll(r.ranks, rightHandSide(g, r.ranks, 0.8), 1e-10);
  });
});

describe('warm start', () => {
  const chain = csrFromEdges(6, [0, 1, 2, 3, 4], [1, 2, 3, 4, 5]);

  it('from the fixed point converges in one sweep', () => {
    const cold = pageRank(chain, TIGHT);
    const warm = pageRank(chain, { ...TIGHT, initial: cold.ranks });
    assert.equal(warm.iterations, 1);
    nearAll(warm.ranks, cold.ranks, 1e-12);
  });

  it('after the graph grew: fewer sweeps, same ranks (shorter initial padded with 1)', () => {
    // A hub with L leaves linking back: R_H = 0.2 + 0.8·L·R_L, R_L = 0.2 + 0.8·R_H/L →
    // R_H = (0.2 + 0.16·L)/0.36. The hub/leaves see-saw converges at the slowest rate, 0.8
    // per sweep, so starting closer shows. 50 leaves ranked, then a 51st added.
    const star = (leaves: number) => {
      const from: number[] = [];
      const to: number[] = [];
      for (let l = 1; l <= leaves; l++) {
        from.push(0, l);
        to.push(l, 0);
      }
      return csrFromEdges(leaves + 1, from, to);
    };
    const before = pageRank(star(50), TIGHT);
    const cold = pageRank(star(51), TIGHT);
    const warm = pageRank(star(51), { ...TIGHT, initial: before.ranks });
    assert.ok(warm.iterations + 10 < cold.iterations, `${warm.iterations} ≪ ${cold.iterations}`);
    near(warm.ranks[0], (0.2 + 0.16 * 51) / 0.36, 1e-9, 'R_H');
    nearAll(warm.ranks, cold.ranks, 1e-9);
  });
});

describe('normalizeRanks', () => {
  const table: [number[], number[]][] = [
    [[], []],
    [
      [0, 0],
      [0, 0],
    ],
    [
      [1, 2, 4],
      [0.25, 0.5, 1],
    ],
    [
      [17 / 9, 19 / 27],
      [1, 19 / 51],
    ],
  ];
  for (const [ranks, expected] of table) {
    it(`[${ranks.join(', ')}]`, () => {
      const input = Float64Array.from(ranks);
      const out = normalizeRanks(input);
      assert.notEqual(out, input);
      assert.deepEqual([...input], ranks, 'input untouched');
      nearAll(out, expected, 1e-12);
    });
  }

  it('maxRank', () => {
    assert.equal(maxRank([]), 0);
    assert.equal(maxRank(Float64Array.of(0.5, 3, 2)), 3);
  });
});

describe('options are validated, naming the option', () => {
  const g = csrFromEdges(2, [0], [1]);
  const table: [string, () => unknown, RegExp][] = [
    ['damping 0', () => pageRank(g, { damping: 0 }), /damping/],
    ['damping 1', () => pageRank(g, { damping: 1 }), /damping/],
    ['damping NaN', () => pageRank(g, { damping: Number.NaN }), /damping/],
    ['tolerance 0', () => pageRank(g, { tolerance: 0 }), /tolerance/],
    ['tolerance ∞', () => pageRank(g, { tolerance: Number.POSITIVE_INFINITY }), /tolerance/],
    ['maxIterations 0', () => pageRank(g, { maxIterations: 0 }), /maxIterations/],
    ['maxIterations 2.5', () => pageRank(g, { maxIterations: 2.5 }), /maxIterations/],
    ['initial too long', () => pageRank(g, { initial: new Float64Array(3) }), /initial/],
    ['initial negative', () => pageRank(g, { initial: Float64Array.of(1, -1) }), /initial\[1\]/],
    ['initial NaN', () => pageRank(g, { initial: Float64Array.of(Number.NaN) }), /initial\[0\]/],
    [
      'offsets of the wrong length',
      () => pageRank({ nodeCount: 3, offsets: new Uint32Array(2), targets: new Uint32Array(0) }),
      /offsets/,
    ],
    [
      'target out of range',
      () => pageRank({ nodeCount: 1, offsets: Uint32Array.of(0, 1), targets: Uint32Array.of(1) }),
      /targets\[0\] = 1/,
    ],
    [
      'decreasing offsets',
      () =>
        pageRank({ nodeCount: 2, offsets: Uint32Array.of(0, 1, 0), targets: Uint32Array.of(1) }),
      /decrease/,
    ],
  ];
  for (const [name, fn, re] of table) it(name, () => refuses(fn, re));
});
