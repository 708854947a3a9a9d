import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bestFirst, breadthFirst, HostDispatch, strategyByName } from './index.js';

test('best-first priority: mean of parent relevance and link context relevance', () => {
  const cases: [parentRelevance: number, context: number, expected: number][] = [
    [0, 0, 0],
    [1, 1, 1],
    [0.8, 0, 0.4],
    [0, 0.6, 0.3],
    [0.5, 0.3, 0.4],
  ];
  for (const [relevance, ctx, expected] of cases) {
    const p = bestFirst.priority({ relevance, depth: 1, priority: 0 }, ctx);
    assert.ok(Math.abs(p - expected) < 1e-12, `${relevance}, ${ctx} → ${p}`);
  }
  // A relevant page's unremarkable link outranks an irrelevant page's.
  assert.ok(
    bestFirst.priority({ relevance: 0.9, depth: 1, priority: 0 }, 0) >
      bestFirst.priority({ relevance: 0.05, depth: 1, priority: 0 }, 0),
  );
});

test('bfs gives every link the same priority, so discovery order decides', () => {
  assert.equal(breadthFirst.priority({ relevance: 1, depth: 3, priority: 5 }, 1), 0);
  assert.equal(breadthFirst.priority({ relevance: 0, depth: 0, priority: 0 }, 0), 0);
  assert.equal(breadthFirst.usesContext, false);
});

test('strategies by name', () => {
  assert.equal(strategyByName('best-first'), bestFirst);
  assert.equal(strategyByName('bfs'), breadthFirst);
  assert.equal(strategyByName('toString'), undefined);
  assert.equal(strategyByName('dfs'), undefined);
});

test('host dispatch: claim order, but a busy host does not hold the slots', () => {
  const d = new HostDispatch<{ url: string }>(1);
  d.push([
    { url: 'http://a.test/1' },
    { url: 'http://a.test/2' },
    { url: 'http://b.test/1' },
    { url: 'http://c.test/1' },
  ]);
  assert.equal(d.take()?.url, 'http://a.test/1');
  assert.equal(d.take()?.url, 'http://b.test/1', 'a.test is busy: skip to b.test');
  assert.equal(d.take()?.url, 'http://c.test/1');
  assert.equal(d.take(), undefined, 'only a.test/2 is left and a.test is busy');
  d.release('http://a.test/1');
  assert.equal(d.take()?.url, 'http://a.test/2');
  assert.equal(d.size, 0);
});

test('host dispatch: per-host concurrency and drain', () => {
  const d = new HostDispatch<{ url: string }>(2);
  d.push([{ url: 'http://a.test/1' }, { url: 'http://a.test/2' }, { url: 'http://a.test/3' }]);
  assert.ok(d.take());
  assert.ok(d.take());
  assert.equal(d.take(), undefined);
  assert.deepEqual(
    d.drain().map((x) => x.url),
    ['http://a.test/3'],
  );
  assert.equal(d.size, 0);
});
