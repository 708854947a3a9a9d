// The CSR builder and the crawl's growing link graph.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CsrGraph, csrEdgeCount, csrFromEdges, LinkGraph } from './index.js';
import { refuses } from './testing.js';

/** Out-links of every node as plain arrays, for deepEqual. */
const adjacency = (g: CsrGraph): number[][] =>
  Array.from({ length: g.nodeCount }, (_, v) => [
    ...g.targets.subarray(g.offsets[v]!, g.offsets[v + 1]!),
  ]);

describe('csrFromEdges', () => {
  // [name, nodeCount, from, to, out-links per node]
  const table: [string, number, number[], number[], number[][]][] = [
    ['empty graph', 0, [], [], []],
    ['nodes without edges', 3, [], [], [[], [], []]],
    ['2-cycle', 2, [0, 1], [1, 0], [[1], [0]]],
    [
      'groups by source, keeps first-seen order',
      3,
      [2, 0, 2, 0],
      [0, 2, 1, 1],
      [[2, 1], [], [0, 1]],
    ],
    ['duplicate edges count once', 2, [0, 0, 0, 1], [1, 1, 1, 0], [[1], [0]]],
    ['self-links are dropped', 2, [0, 0, 1], [0, 1, 1], [[1], []]],
    [
      'same target from two sources is kept for both',
      3,
      [0, 1, 0, 1],
      [2, 2, 2, 2],
      [[2], [2], []],
    ],
  ];
  for (const [name, n, from, to, expected] of table) {
    it(name, () => {
      const g = csrFromEdges(n, from, to);
      assert.equal(g.nodeCount, n);
      assert.equal(g.offsets.length, n + 1);
      assert.deepEqual(adjacency(g), expected);
      assert.equal(csrEdgeCount(g), g.targets.length);
    });
  }

  it('accepts typed arrays', () => {
    const g = csrFromEdges(3, Uint32Array.of(0, 1, 1), Uint32Array.of(1, 2, 2));
    assert.deepEqual([...g.offsets], [0, 1, 2, 2]);
    assert.deepEqual([...g.targets], [1, 2]);
  });

  it('refuses bad input, naming it', () => {
    refuses(() => csrFromEdges(-1, [], []), /nodeCount/);
    refuses(() => csrFromEdges(1.5, [], []), /nodeCount/);
    refuses(() => csrFromEdges(2, [0], []), /same length/);
    refuses(() => csrFromEdges(2, [0, 2], [1, 0]), /from\[1\] = 2/);
    refuses(() => csrFromEdges(2, [0], [-1]), /to\[0\] = -1/);
    refuses(() => csrFromEdges(2, [0.5], [1]), /from\[0\] = 0.5/);
  });
});

describe('LinkGraph', () => {
  it('interns URLs in order of first sight', () => {
    const g = new LinkGraph();
    assert.equal(g.nodeId('a'), 0);
    assert.equal(g.nodeId('b'), 1);
    assert.equal(g.nodeId('a'), 0);
    assert.equal(g.idOf('b'), 1);
    assert.equal(g.idOf('z'), undefined);
    assert.equal(g.urlOf(1), 'b');
    assert.equal(g.urlOf(2), undefined);
    assert.equal(g.nodeCount, 2);
    assert.equal(g.outDegree(5), 0);
  });

  it('records out-links once: self-links dropped, duplicates counted once', () => {
    const g = new LinkGraph();
    assert.equal(g.setOutLinks('a', ['b', 'a', 'c', 'b']), 0);
    assert.deepEqual([g.idOf('b'), g.idOf('c')], [1, 2]);
    assert.equal(g.outDegree(0), 2);
    assert.equal(g.outDegree(1), 0);
    assert.deepEqual([...g.outLinks(0)], [1, 2]);
    assert.equal(g.edgeCount, 2);
  });

  it('setOutLinks again replaces the links (shorter, longer, empty)', () => {
    const g = new LinkGraph();
    g.setOutLinks('a', ['b', 'c']);
    g.setOutLinks('b', ['a']);
    g.setOutLinks('a', ['c']);
    assert.deepEqual([...g.outLinks(0)], [2]);
    assert.deepEqual([...g.outLinks(1)], [0]);
    assert.equal(g.edgeCount, 2);
    g.setOutLinks('a', ['d', 'b', 'c']); // longer: moves to a new block
    assert.deepEqual([...g.outLinks(0)], [3, 1, 2]);
    assert.deepEqual([...g.outLinks(1)], [0]);
    assert.equal(g.edgeCount, 4);
    g.setOutLinks('a', ['e', 'd', 'b', 'c']); // longer again, now the last block: in place
    assert.deepEqual([...g.outLinks(0)], [4, 3, 1, 2]);
    g.setOutLinks('a', []);
    assert.equal(g.outDegree(0), 0);
    assert.equal(g.edgeCount, 1);
    assert.deepEqual(adjacency(g.toCsr()), [[], [0], [], [], []]);
  });

  it('toCsr matches csrFromEdges over the same links, through growth and compaction', () => {
    // 300 pages, each recorded three times with different links; the last wins. The last
    // round keeps few links, so most of the log falls unused and is compacted.
    const g = new LinkGraph();
    const last = new Map<number, number[]>();
    let seed = 7;
    const rnd = (k: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % k;
    };
    for (let round = 0; round < 3; round++) {
      for (let p = 0; p < 300; p++) {
        const links = Array.from({ length: rnd(round === 2 ? 3 : 40) }, () => rnd(500));
        g.setOutLinks(
          `u${p}`,
          links.map((t) => `u${t}`),
        );
        last.set(p, links);
      }
    }
    const from: number[] = [];
    const to: number[] = [];
    for (const [p, links] of last) {
      for (const t of links) {
        from.push(g.idOf(`u${p}`)!);
        to.push(g.idOf(`u${t}`)!);
      }
    }
    const expected = csrFromEdges(g.nodeCount, from, to);
    const csr = g.toCsr();
    assert.equal(csr.nodeCount, g.nodeCount);
    assert.deepEqual(adjacency(csr), adjacency(expected));
    assert.equal(g.edgeCount, expected.targets.length);
  });

  it('a snapshot does not change with the graph', () => {
    const g = new LinkGraph();
    g.setOutLinks('a', ['b']);
    const csr = g.toCsr();
    g.setOutLinks('a', ['c']);
    assert.deepEqual(adjacency(csr), [[1], []]);
  });
});
