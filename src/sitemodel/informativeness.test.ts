// Informativeness inf(S_i) = (N_i/N)·(S_i^avg/S^avg)·(1 − N_i^dup/N_i), its threshold,
// and the kinds of clusters.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type ClusterFacts,
  classifyClusters,
  informativeness,
  informativenessThreshold,
} from './index.js';
import { median } from './informativeness.js';

function near(actual: number, expected: number, eps = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${actual} ≈ ${expected}`);
}

describe('informativeness', () => {
  // [N_i, S_i^avg, N_i^dup, N, S^avg, inf]
  const table: [number, number, number, number, number, number][] = [
    [40, 2000, 10, 100, 1000, 0.4 * 2 * 0.75], // 0.6: the worked example
    [40, 2000, 0, 100, 1000, 0.8],
    [20, 250, 0, 100, 1000, 0.2 * 0.25], // 0.05: small pages
    [10, 1000, 10, 100, 1000, 0], // all duplicates
    [100, 1000, 0, 100, 1000, 1], // the whole sample
    [5, 0, 0, 100, 1000, 0], // no content
    [5, 100, 0, 100, 0, 0], // a sample without content
    [0, 0, 0, 100, 1000, 0],
  ];
  for (const [pages, avgSize, duplicates, n, s, want] of table) {
    it(`N_i=${pages} S_i=${avgSize} dup=${duplicates} of N=${n} S=${s}: ${want}`, () => {
      near(informativeness({ pages, avgSize, duplicates }, { pages: n, avgSize: s }), want);
    });
  }

  it('times N is the distinct content in average pages', () => {
    // (40 − 10) pages · 2000/1000 = 60 average pages = 0.6 · 100.
    near(
      informativeness({ pages: 40, avgSize: 2000, duplicates: 10 }, { pages: 100, avgSize: 1000 }) *
        100,
      60,
    );
  });

  it('refuses bad numbers, naming them', () => {
    assert.throws(
      () => informativeness({ pages: -1, avgSize: 1, duplicates: 0 }, { pages: 1, avgSize: 1 }),
      { name: 'InvalidOptionError', message: /cluster\.pages/ },
    );
    assert.throws(
      () => informativeness({ pages: 2, avgSize: 1, duplicates: 3 }, { pages: 9, avgSize: 1 }),
      /duplicates \(3\) exceeds cluster\.pages \(2\)/,
    );
    assert.throws(
      () => informativeness({ pages: 1, avgSize: 1, duplicates: 0 }, { pages: 0, avgSize: 1 }),
      /site\.pages/,
    );
  });
});

describe('informativenessThreshold', () => {
  // [N, minContentPages, minShare, threshold]
  const table: [number, number, number, number][] = [
    [100, 2, 0.01, 0.02], // 2 / 100 pages
    [40, 1, 0.01, 0.025], // 1 / 40
    [200, 2, 0.01, 0.01], // 2 / 200 = 0.01: either
    [1500, 2, 0.01, 0.01], // 2 / 1500 = 0.0013: the least share
    [1500, 2, 0, 2 / 1500],
  ];
  for (const [n, pages, share, want] of table) {
    it(`N = ${n}, ${pages} pages, share ${share}: ${want}`, () => {
      near(informativenessThreshold(n, pages, share).value, want);
    });
  }

  it('says which bound holds', () => {
    assert.match(
      informativenessThreshold(100).rule,
      /^distinct content worth 2 average pages.*2 \/ 100/,
    );
    assert.match(informativenessThreshold(1500).rule, /^the least share .*0\.01/);
  });
});

describe('median', () => {
  it('middle value, or the mean of the middle two', () => {
    assert.equal(median([3, 1, 2]), 2);
    assert.equal(median([4, 1, 2, 3]), 2.5);
    assert.equal(median([]), 0);
  });
});

/** Facts of a cluster whose pages link `links[p]` times to cluster `to`. */
function facts(
  pages: number,
  duplicates: number,
  inf: number,
  links: Record<number, number>[] = [],
): ClusterFacts {
  const perPage = Array.from(
    { length: pages },
    (_, p) => new Map(Object.entries(links[p] ?? {}).map(([k, v]) => [Number(k), v])),
  );
  return { pages, duplicates, informativeness: inf, links: perPage };
}

describe('classifyClusters', () => {
  it('a list of links to a content cluster stays valid below the threshold', () => {
    const out = classifyClusters(
      [
        facts(40, 0, 0.7), // 0: articles
        facts(3, 0, 0.01, [{ 0: 20 }, { 0: 20 }, { 0: 4 }]), // 1: paginated list, last page short
        facts(5, 4, 0.001), // 2: the same form five times
        facts(6, 0, 0.004, [{ 0: 1 }, { 0: 1 }]), // 3: profiles, one link each
      ],
      { threshold: 0.02 },
    );
    assert.deepEqual(
      out.map((c) => [c.kind, c.decision, c.listLinks]),
      [
        ['content', 'valid', 0],
        ['list', 'valid', 20], // median of 20, 20, 4
        ['duplicate', 'invalid', 0],
        ['no-content', 'invalid', 0], // median of 1, 1, 0, 0, 0, 0
      ],
    );
  });

  it('a list of lists is a list; links to clusters below do not make one', () => {
    const out = classifyClusters(
      [
        facts(30, 0, 0.6, [{ 3: 5 }, { 3: 5 }]), // 0: articles, each linking to 5 profiles
        facts(4, 0, 0.05, [{ 0: 12 }, { 0: 12 }, { 0: 12 }, { 0: 12 }]), // 1: lists
        facts(1, 0, 0.01, [{ 1: 8 }]), // 2: the start page, linking to the lists
        facts(6, 0, 0.1), // 3: profiles
      ],
      { threshold: 0.02, minListLinks: 3 },
    );
    assert.deepEqual(
      out.map((c) => c.kind),
      ['content', 'list', 'list', 'content'],
    );
  });

  it('minListLinks sets how many links make a list', () => {
    const fs = [facts(10, 0, 0.9), facts(2, 0, 0.001, [{ 0: 2 }, { 0: 2 }])];
    assert.equal(classifyClusters(fs, { threshold: 0.1 })[1]!.kind, 'no-content');
    assert.equal(classifyClusters(fs, { threshold: 0.1, minListLinks: 2 })[1]!.kind, 'list');
  });

  it('a cluster of duplicates only is never a list', () => {
    const out = classifyClusters([facts(10, 0, 0.9), facts(2, 2, 0, [{ 0: 9 }, { 0: 9 }])], {
      threshold: 0.1,
    });
    assert.equal(out[1]!.kind, 'duplicate');
  });
});
