// Layout features (repeated DOM patterns) and the layout distance, on worked numbers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutCounts, layoutDistance } from './index.js';

function near(actual: number, expected: number, eps = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= eps, `${actual} ≈ ${expected}`);
}

describe('layoutCounts', () => {
  it('counts the paths found at least twice, by signature', () => {
    const html =
      '<html><head><title>x</title><meta a><meta b></head><body>' +
      '<table class="list"><tr class="row odd"><td>1</td><td>2</td></tr>' +
      '<tr class="row even"><td>3</td><td>4</td></tr></table>' +
      '<div class="post post-17"><p>a<br>b<br>c</p></div><div class="post post-18"><p>d</p></div>' +
      '<h1>one</h1><script><b></b><b></b></script></body></html>';
    assert.deepEqual(Object.fromEntries(layoutCounts(html)), {
      // class tokens sorted; odd/even differ, so the rows are two signatures of one each
      'table.list>tr.odd.row>td': 2,
      'table.list>tr.even.row>td': 2,
      // `post-17` holds a digit: an instance id, dropped
      'div.post': 2,
      'div.post>p': 2,
      // h1 once: not repeated; br, head and script content: not layout
    });
  });

  it('keeps the last pathDepth signatures, and maxClassTokens tokens', () => {
    const html = '<div class="a"><ul class="z y x w"><li>1</li><li>2</li></ul></div>';
    assert.deepEqual([...layoutCounts(html).keys()], ['div.a>ul.w.x.y>li']);
    assert.deepEqual([...layoutCounts(html, { pathDepth: 2 }).keys()], ['ul.w.x.y>li']);
    assert.deepEqual([...layoutCounts(html, { maxClassTokens: 0 }).keys()], ['div>ul>li']);
  });

  it('minRepeat 1 counts every element', () => {
    const counts = layoutCounts('<h1>a</h1><p>b</p><p>c</p>', { minRepeat: 1 });
    assert.deepEqual(Object.fromEntries(counts), { h1: 1, p: 2 });
  });

  it('agrees with and without html and body tags', () => {
    const inner = '<ul><li>a</li><li>b</li></ul>';
    assert.deepEqual(layoutCounts(`<html><body>${inner}</body></html>`), layoutCounts(inner));
  });
});

describe('layoutDistance', () => {
  // [a, b, scale, distance]
  const table: [Record<string, number>, Record<string, number>, 'log' | 'raw', number][] = [
    [{ row: 20 }, { row: 35 }, 'log', Math.log(36) - Math.log(21)], // 0.539: same list, longer
    [{ row: 20 }, {}, 'log', Math.log(21)], // 3.045: a list against none
    [{ row: 20 }, { row: 35 }, 'raw', 15],
    [{ row: 20 }, {}, 'raw', 20],
    // two patterns: sqrt(ln(3)² + (ln(5) − ln(2))²) = sqrt(1.2069 + 0.8396) = 1.4306
    [{ a: 2, b: 4 }, { b: 1 }, 'log', Math.hypot(Math.log(3), Math.log(5) - Math.log(2))],
    [{ a: 2, b: 4 }, { b: 1 }, 'raw', Math.hypot(2, 3)], // sqrt(13) = 3.606
    [{ a: 3 }, { a: 3 }, 'log', 0],
  ];
  for (const [a, b, scale, want] of table) {
    it(`${JSON.stringify(a)} to ${JSON.stringify(b)} (${scale}) = ${want.toFixed(4)}`, () => {
      const ma = new Map(Object.entries(a));
      const mb = new Map(Object.entries(b));
      near(layoutDistance(ma, mb, scale), want);
      near(layoutDistance(mb, ma, scale), want); // symmetric
    });
  }

  it('defaults to the log scale', () => {
    near(layoutDistance(new Map([['x', 1]]), new Map()), Math.LN2);
  });
});
