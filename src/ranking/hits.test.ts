// HITS hubs and authorities, each scaled to a largest entry of 1, on graphs solved by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CsrGraph, csrFromEdges, hits } from './index.js';
import { near, refuses } from './testing.js';

function nearAll(actual: Float64Array, expected: ArrayLike<number>, eps: number, what: string) {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) near(actual[i], expected[i]!, eps, `${what}[${i}]`);
}

const graph = (n: number, edges: [number, number][]): CsrGraph =>
  csrFromEdges(
    n,
    edges.map((e) => e[0]),
    edges.map((e) => e[1]),
  );

const TIGHT = { tolerance: 1e-14, maxIterations: 1000 };
const SQRT2 = Math.SQRT2;

describe('hits, solved by hand', () => {
  // [name, nodeCount, edges, hubs, authorities]
  const table: [string, number, [number, number][], number[], number[]][] = [
    // a = Aᵀ·1 = in-degrees [0, 1, 1, 1]; h = A·a = [3, 0, 0, 0]; scaled, a fixed point.
    [
      'star: hub to 3 leaves',
      4,
      [
        [0, 1],
        [0, 2],
        [0, 3],
      ],
      [1, 0, 0, 0],
      [0, 1, 1, 1],
    ],
    // a = [3, 1, 1, 1] → [1, 1/3, 1/3, 1/3]; h_0 = 3·(1/3) = 1, h_leaf = a_0 = 1.
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
      [1, 1, 1, 1],
      [1, 1 / 3, 1 / 3, 1 / 3],
    ],
    // A → B → C: a = [0, h_A, h_B] = [0, 1, 1], h = [a_B, a_C, 0] = [1, 1, 0].
    [
      'chain A → B → C',
      3,
      [
        [0, 1],
        [1, 2],
      ],
      [1, 1, 0],
      [0, 1, 1],
    ],
    [
      '2-cycle A ⇄ B',
      2,
      [
        [0, 1],
        [1, 0],
      ],
      [1, 1],
      [1, 1],
    ],
    // Hubs {0, 1}, authorities {2, 3, 4}: 0 → 2, 3, 4 and 1 → 3. A·Aᵀ = [[3, 1], [1, 1]],
    // largest eigenvalue 2 + √2 with eigenvector (1, √2 − 1); a = Aᵀh = (1, √2, 1) / √2.
    [
      'bipartite: two hubs sharing an authority',
      5,
      [
        [0, 2],
        [0, 3],
        [0, 4],
        [1, 3],
      ],
      [1, SQRT2 - 1, 0, 0, 0],
      [0, 0, 1 / SQRT2, 1, 1 / SQRT2],
    ],
    // 0 → 1, 0 → 2, 1 → 0, 2 dangling. h_0 ← a_1 + a_2 = 2·h_0, h_1 ← a_0 = h_1: the
    // eigenvalue 2 wins, h_1 decays as 2^−k. The dangling page is a full authority, no hub.
    [
      'a dangling node',
      3,
      [
        [0, 1],
        [0, 2],
        [1, 0],
      ],
      [1, 0, 0],
      [0, 1, 1],
    ],
    // The star with a fifth node linked with nothing.
    [
      'an isolated node',
      5,
      [
        [0, 1],
        [0, 2],
        [0, 3],
      ],
      [1, 0, 0, 0, 0],
      [0, 1, 1, 1, 0],
    ],
    ['nodes without links', 3, [], [0, 0, 0], [0, 0, 0]],
    ['empty graph', 0, [], [], []],
  ];
  for (const [name, n, edges, hubs, authorities] of table) {
    it(name, () => {
      const r = hits(graph(n, edges), TIGHT);
      assert.ok(r.converged);
      assert.ok(r.delta < TIGHT.tolerance);
      nearAll(r.hubs, hubs, 1e-9, 'hubs');
      nearAll(r.authorities, authorities, 1e-9, 'authorities');
    });
  }

  it('a graph without edges runs no sweep', () => {
    assert.deepEqual(hits(graph(2, [])), {
      hubs: new Float64Array(2),
      authorities: new Float64Array(2),
      iterations: 0,
      delta: 0,
      converged: true,
    });
    assert.equal(hits(graph(0, [])).iterations, 0);
  });

  it('duplicate edges and self-links do not change the result', () => {
    const plain = hits(
      graph(5, [
        [0, 2],
        [0, 3],
        [0, 4],
        [1, 3],
      ]),
      TIGHT,
    );
    const noisy = hits(
      graph(5, [
        [0, 2],
        [0, 3],
        [0, 3],
        [0, 0],
        [0, 4],
        [1, 3],
        [1, 1],
        [1, 3],
        [3, 3],
      ]),
      TIGHT,
    );
    assert.deepEqual([...noisy.hubs], [...plain.hubs]);
    assert.deepEqual([...noisy.authorities], [...plain.authorities]);
  });

  it('on a random graph the result is a fixed point of one sweep, scaled to max 1', () => {
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const n = 150;
    const edges: [number, number][] = [];
    for (let i = 0; i < 900; i++) {
      const f = rnd(n);
      if (f % 4 !== 0) edges.push([f, rnd(n) % 60]); // every fourth node dangling
    }
    const g = graph(n, edges);
    const r = hits(g, { tolerance: 1e-13, maxIterations: 1000 });
    assert.ok(r.converged);
    const max = (a: Float64Array) => a.reduce((m, x) => Math.max(m, x), 0);
    near(max(r.hubs), 1, 1e-12, 'max hub');
    near(max(r.authorities), 1, 1e-12, 'max authority');
    // a ∝ Aᵀ·h and h ∝ A·a.
    const a = new Float64Array(n);
    const h = new Float64Array(n);
    for (let v = 0; v < n; v++) {
      for (let k = g.offsets[v]!; k < g.offsets[v + 1]!; k++) {
        a[g.targets[k]!]! += r.hubs[v]!;
        h[v]! += r.authorities[g.targets[k]!]!;
      }
    }
    const am = max(a);
    const hm = max(h);
    for (let i = 0; i < n; i++) {
      near(a[i]! / am, r.authorities[i]!, 1e-9, `a[${i}]`);
      near(h[i]! / hm, r.hubs[i]!, 1e-9, `h[${i}]`);
      if (i >= 60) assert.equal(r.authorities[i], 0, 'no in-links, no authority');
      if (i % 4 === 0) assert.equal(r.hubs[i], 0, 'no out-links, no hub');
    }
  });

  it('stops at maxIterations without converging', () => {
    const r = hits(
      graph(3, [
        [0, 1],
        [0, 2],
        [1, 0],
      ]),
      { maxIterations: 2 },
    );
    assert.equal(r.iterations, 2);
    assert.equal(r.converged, false);
    // From all ones: sweep 1 gives a = [1, 1, 1], h = [1, 1/2, 0]; sweep 2 gives
    // a = [1/2, 1, 1] (Σ|Δa| = 1/2) and h = [1, 1/4, 0] (Σ|Δh| = 1/4).
    near(r.hubs[1], 0.25, 1e-12, 'h_1');
    near(r.authorities[0], 0.5, 1e-12, 'a_0');
    near(r.delta, 0.5 / 3, 1e-12, 'delta = max(Σ|Δa|, Σ|Δh|)/N');
  });

  it('uses 1e-6 and 100 by default', () => {
    // From sweep 3 on, a_0 = h_1 of the sweep before = 2^−(k−1) halves each sweep, so
    // delta = Σ|Δa|/3 = 2^−(k−1)/3, first below 1e-6 at k = 20.
    const r = hits(
      graph(3, [
        [0, 1],
        [0, 2],
        [1, 0],
      ]),
    );
    assert.equal(r.iterations, 20);
    assert.ok(r.converged);
  });
});

describe('hits options are validated, naming the option', () => {
  const g = graph(2, [[0, 1]]);
  const table: [string, () => unknown, RegExp][] = [
    ['tolerance 0', () => hits(g, { tolerance: 0 }), /hits: tolerance/],
    ['tolerance NaN', () => hits(g, { tolerance: Number.NaN }), /tolerance/],
    ['tolerance ∞', () => hits(g, { tolerance: Number.POSITIVE_INFINITY }), /tolerance/],
    ['maxIterations 0', () => hits(g, { maxIterations: 0 }), /maxIterations/],
    ['maxIterations 2.5', () => hits(g, { maxIterations: 2.5 }), /maxIterations/],
    [
      'offsets of the wrong length',
      () => hits({ nodeCount: 3, offsets: new Uint32Array(2), targets: new Uint32Array(0) }),
      /offsets/,
    ],
    [
      'target out of range',
      () => hits({ nodeCount: 1, offsets: Uint32Array.of(0, 1), targets: Uint32Array.of(1) }),
      /targets\[0\] = 1/,
    ],
    [
      'decreasing offsets',
      () => hits({ nodeCount: 2, offsets: Uint32Array.of(0, 1, 0), targets: Uint32Array.of(1) }),
      /decrease/,
    ],
  ];
  for (const [name, fn, re] of table) it(name, () => refuses(fn, re));
});
