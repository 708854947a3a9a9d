// Layout clusters: the MST, the silhouette and the measured threshold, on constructed
// distributions of points on a line (distance |x − y|).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterLayouts, DistanceMatrix, meanSilhouette, minimumSpanningTree } from './index.js';

function line(xs: readonly number[]): DistanceMatrix {
  return new DistanceMatrix(xs.length, (i, j) => Math.abs(xs[i]! - xs[j]!));
}

function near(actual: number, expected: number, eps = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${actual} ≈ ${expected}`);
}

describe('minimumSpanningTree', () => {
  it('links neighbours on a line', () => {
    const xs = [0, 10, 1, 4];
    const edges = minimumSpanningTree(xs.length, (i, j) => Math.abs(xs[i]! - xs[j]!));
    assert.deepEqual(
      edges.map((e) => e.w),
      [1, 3, 6],
    );
  });
});

describe('meanSilhouette', () => {
  it('is the mean of (b − a)/max(a, b): a worked example', () => {
    // {0, 1} and {10, 11}. Point 0: a = 1, b = (10 + 11)/2 = 10.5, s = 9.5/10.5;
    // point 1: a = 1, b = (9 + 10)/2 = 9.5, s = 8.5/9.5; the other two mirror them.
    const s = meanSilhouette(line([0, 1, 10, 11]), [0, 0, 1, 1]);
    near(s, (9.5 / 10.5 + 8.5 / 9.5) / 2); // 0.8997
  });

  it('scores a page alone in its cluster 0, and a single cluster 0', () => {
    // {0, 1}, {10}: s(0) = (10 − 1)/10, s(1) = (9 − 1)/9, s(10) = 0.
    near(meanSilhouette(line([0, 1, 10]), [0, 0, 1]), (0.9 + 8 / 9) / 3);
    assert.equal(meanSilhouette(line([0, 1, 10]), [0, 0, 0]), 0);
  });
});

describe('clusterLayouts', () => {
  it('cuts where the silhouette is highest, the threshold in the middle of the gap', () => {
    // Three groups: MST edges 0.5, 0.6, 0.3 | 4.6 | 0.8, 0.3 | 7.9 | 0.2.
    const xs = [0, 0.5, 1.1, 1.4, 6, 6.8, 7.1, 15, 15.2];
    const d = line(xs);
    const { clusters, threshold } = clusterLayouts(d);
    assert.deepEqual(clusters, [
      [0, 1, 2, 3],
      [4, 5, 6],
      [7, 8],
    ]);
    near(threshold.below, 0.8);
    near(threshold.above!, 4.6);
    near(threshold.value, 2.7); // (0.8 + 4.6) / 2
    const three = meanSilhouette(d, [0, 0, 0, 0, 1, 1, 1, 2, 2]);
    near(threshold.silhouette!, three); // 0.8917
    // The other cuts score lower: the longest edge alone, or the 0.8 edge too.
    assert.ok(meanSilhouette(d, [0, 0, 0, 0, 0, 0, 0, 1, 1]) < three);
    assert.ok(meanSilhouette(d, [0, 0, 0, 0, 1, 2, 2, 3, 3]) < three);
    assert.match(threshold.rule, /between the edges 0\.8 and 4\.6.*0\.8917.*3 clusters/);
  });

  it('keeps one cluster when no cut reaches the least silhouette', () => {
    // Evenly spaced: every MST edge is 1; cutting them all leaves singletons (s = 0).
    const { clusters, threshold } = clusterLayouts(line([0, 1, 2, 3, 4, 5]));
    assert.deepEqual(clusters, [[0, 1, 2, 3, 4, 5]]);
    assert.equal(threshold.value, 1);
    assert.equal(threshold.above, null);
    assert.match(threshold.rule, /one layout/);
  });

  it('with minSilhouette, a weak structure is cut or not', () => {
    const xs = [0, 1, 2, 3, 4, 5.5]; // the last step a little longer: silhouette 0.2713
    assert.equal(clusterLayouts(line(xs)).clusters.length, 2);
    assert.equal(clusterLayouts(line(xs), { minSilhouette: 0.3 }).clusters.length, 1);
  });

  it('never cuts an edge of length 0', () => {
    const { clusters, threshold } = clusterLayouts(line([2, 2, 2]));
    assert.deepEqual(clusters, [[0, 1, 2]]);
    assert.match(threshold.rule, /same layout/);
  });

  it('refuses options out of range', () => {
    assert.throws(() => clusterLayouts(line([0, 1]), { maxLayouts: 1 }), /maxLayouts/);
    assert.throws(() => clusterLayouts(line([0, 1]), { minSilhouette: 2 }), /minSilhouette/);
  });
});
