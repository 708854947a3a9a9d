// PageRank recomputed when a buffer of new pages fills (DESIGN 1.5).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BufferedPageRank, LinkGraph, normalizeRanks, pageRank } from './index.js';
import { near, refuses } from './testing.js';

const TIGHT = { tolerance: 1e-14, maxIterations: 1000 };

/** Hub h linking to l1..l3, each linking back: R_h = 17/9, R_l = 19/27 (pagerank.test.ts). */
function star(options = {}): BufferedPageRank {
  const b = new BufferedPageRank({ ...TIGHT, ...options });
  b.addPage('h', ['l1', 'l2', 'l3']);
  for (const l of ['l1', 'l2', 'l3']) b.addPage(l, ['h']);
  return b;
}

describe('BufferedPageRank', () => {
  it('is due once bufferPages pages were added, and recompute empties the buffer', () => {
    const b = new BufferedPageRank({ bufferPages: 3 });
    assert.equal(b.due(), false);
    b.addPage('a', ['b']);
    b.addPage('b', ['a']);
    assert.equal(b.due(), false);
    assert.equal(b.pendingPages, 2);
    b.addPage('a', ['b', 'c']); // added again: the graph changed, it counts
    assert.equal(b.due(), true);
    const stats = b.recompute();
    assert.equal(stats.nodes, 3);
    assert.equal(stats.edges, 3);
    assert.ok(stats.iterations >= 1);
    assert.ok(stats.ms >= 0);
    assert.equal(b.due(), false);
    assert.equal(b.pendingPages, 0);
    assert.equal(b.recomputes, 1);
  });

  it('the default buffer is 1000 pages', () => {
    const b = new BufferedPageRank();
    for (let i = 0; i < 999; i++) b.addPage(`p${i}`, [`p${i + 1}`]);
    assert.equal(b.due(), false);
    b.addPage('p999', []);
    assert.equal(b.due(), true);
  });

  it('rank: normalised by the largest rank, undefined before a recompute or for new URLs', () => {
    const b = star();
    assert.equal(b.rank('h'), undefined);
    b.recompute();
    near(b.rank('h'), 1);
    near(b.rank('l1'), 19 / 27 / (17 / 9)); // = 19/51
    assert.equal(b.rank('nowhere'), undefined);
    b.addPage('l1', ['h', 'x']);
    assert.equal(b.rank('x'), undefined, 'x was not known at the last recompute');
    near(b.rank('l1'), 19 / 51, 1e-9, 'unchanged until the next recompute');
  });

  it('estimate before any recompute: R_max = 1, unknown parent rank 1', () => {
    const b = new BufferedPageRank();
    // Unknown parent: (0.2 + 0.8·1/1) / 1 = 1.
    near(b.estimate('x', 'p'), 1);
    // Parent with 4 out-links: (0.2 + 0.8·1/4) / 1 = 0.4.
    b.addPage('p', ['a', 'b', 'c', 'x']);
    near(b.estimate('x', 'p'), 0.4);
    // A parent known only as a link target has no out-links yet: N counts as 1.
    near(b.estimate('y', 'a'), 1);
  });

  it('estimate after a recompute', () => {
    const b = star();
    b.recompute();
    // Known URL: its rank.
    near(b.estimate('l2', 'h'), 19 / 51);
    // New link on h: (0.2 + 0.8·(17/9)/3) / (17/9) = 19/51, what a leaf gets.
    near(b.estimate('new', 'h'), 19 / 51);
    // h now has 4 out-links: (1/5 + 0.8·(17/9)/4) / (17/9) = (26/45)·(9/17) = 26/85.
    b.addPage('h', ['l1', 'l2', 'l3', 'x']);
    near(b.estimate('x', 'h'), 26 / 85);
    // Unknown parent: raw rank 1, one out-link: (0.2 + 0.8) / (17/9) = 9/17.
    near(b.estimate('y', 'elsewhere'), 9 / 17);
    for (const e of [b.estimate('x', 'h'), b.estimate('y', 'elsewhere')]) {
      assert.ok(e >= 0 && e <= 1);
    }
  });

  it('recomputing after several buffers matches one batch pageRank of the final graph', () => {
    let seed = 3;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    const b = new BufferedPageRank({ bufferPages: 50, tolerance: 1e-10, maxIterations: 500 });
    const batch = new LinkGraph();
    const pages: [string, string[]][] = [];
    for (let i = 0; i < 400; i++) {
      // Pages in fetch order, each linking to a few of the first 600 URLs; some re-fetched.
      const page = `u${i % 10 === 9 ? rnd(i) : i}`;
      const links = Array.from({ length: rnd(8) }, () => `u${rnd(600)}`);
      pages.push([page, links]);
    }
    const iterations: number[] = [];
    for (const [page, links] of pages) {
      b.addPage(page, links);
      batch.setOutLinks(page, links);
      if (b.due()) iterations.push(b.recompute().iterations);
    }
    assert.equal(iterations.length, 8);
    assert.equal(b.due(), false);
    const once = pageRank(batch.toCsr(), { tolerance: 1e-10, maxIterations: 500 });
    assert.ok(once.converged);
    const expected = normalizeRanks(once.ranks);
    assert.equal(b.nodeCount, batch.nodeCount);
    assert.equal(b.edgeCount, batch.edgeCount);
    for (let id = 0; id < batch.nodeCount; id++) {
      near(b.rank(batch.urlOf(id)!), expected[id]!, 1e-6, batch.urlOf(id));
    }
  });

  it('refuses bad options, naming them', () => {
    refuses(() => new BufferedPageRank({ bufferPages: 0 }), /bufferPages/);
    refuses(() => new BufferedPageRank({ bufferPages: 1.5 }), /bufferPages/);
    refuses(() => new BufferedPageRank({ damping: 1.2 }), /BufferedPageRank: damping/);
    refuses(() => new BufferedPageRank({ tolerance: -1 }), /tolerance/);
    refuses(() => new BufferedPageRank({ maxIterations: 0 }), /maxIterations/);
  });

  it('uses the damping given', () => {
    const b = new BufferedPageRank({ damping: 0.5 });
    assert.equal(b.damping, 0.5);
    // (0.5 + 0.5·1/2) / 1 = 0.75.
    b.addPage('p', ['a', 'b']);
    near(b.estimate('a', 'p'), 0.75);
  });
});
