// Run specs of `compare` and the crawl options they become.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import {
  mergeOptions,
  parseRunSpec,
  runOptions,
  specValue,
  validateRunOptions,
} from './run-spec.js';

function refuses(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof InvalidOptionError, String(e));
    assert.match(e.message, re);
    return true;
  });
}

describe('parseRunSpec', () => {
  const table: [spec: string, name: string, options: Record<string, unknown>][] = [
    ['bfs', 'bfs', { strategy: 'bfs' }],
    ['best-first', 'best-first', { strategy: 'best-first' }],
    ['tunnel:strategy=tunnel', 'tunnel', { strategy: 'tunnel' }],
    [
      'bf-tfidf:strategy=best-first,model=tfidf,threshold=iterative',
      'bf-tfidf',
      { strategy: 'best-first', model: 'tfidf', threshold: 'iterative' },
    ],
    [
      ' plain:strategy=bfs, threshold=0 , max-depth=3,fetcher.per-host-concurrency=2 ',
      'plain',
      { strategy: 'bfs', threshold: 0, maxDepth: 3, fetcher: { perHostConcurrency: 2 } },
    ],
    // A strategy constant by its own name lands in the nested option object.
    ['fish2:strategy=fish,width=2', 'fish2', { strategy: 'fish', strategyOptions: { width: 2 } }],
    ['x:strategyOptions.decay=0.25', 'x', { strategyOptions: { decay: 0.25 } }],
  ];
  for (const [spec, name, options] of table) {
    it(spec.trim(), () => {
      const r = parseRunSpec(spec);
      assert.equal(r.name, name);
      assert.equal(r.spec, spec.trim());
      assert.deepEqual(r.options, options);
    });
  }

  it('values: numbers and booleans are converted, the rest stays text', () => {
    assert.equal(specValue('0.15'), 0.15);
    assert.equal(specValue('.5'), 0.5);
    assert.equal(specValue('1e3'), 1000);
    assert.equal(specValue('true'), true);
    assert.equal(specValue('adaptive'), 'adaptive');
    assert.equal(specValue('1h'), '1h');
  });

  it('bad specs are refused, naming the spec', () => {
    refuses(() => parseRunSpec('x:'), /^run spec "x:": no options after the ":"/);
    refuses(() => parseRunSpec('x:strategy'), /"strategy" is not key=value/);
    refuses(() => parseRunSpec('x:strategy='), /"strategy=" is not key=value/);
    refuses(() => parseRunSpec('x:max-pages=5'), /"max-pages" is the same for every run/);
    refuses(() => parseRunSpec('x:store=/tmp/s'), /"store" is the same for every run/);
    refuses(() => parseRunSpec('x:threshold=0.1,threshold=0.2'), /"threshold" is given twice/);
    refuses(() => parseRunSpec('a/b:strategy=bfs'), /the name "a\/b" must be/);
    refuses(() => parseRunSpec(''), /the name "" must be/);
    refuses(() => parseRunSpec('compare.html'), /names the run's store folder/);
  });
});

describe('run options', () => {
  const shared = {
    topic: 'topic.json',
    seeds: ['http://a.test/'],
    threshold: 0.1,
    fetcher: { concurrency: 8, delayMs: 0 },
  };

  it('the spec overrides the shared options, nested objects merged', () => {
    const o = runOptions(
      shared,
      parseRunSpec('p:threshold=0,fetcher.concurrency=2'),
      '/tmp/p',
      300,
    );
    assert.deepEqual(o, {
      topic: 'topic.json',
      seeds: ['http://a.test/'],
      threshold: 0,
      fetcher: { concurrency: 2, delayMs: 0 },
      store: '/tmp/p',
      maxPages: 300,
    });
    assert.deepEqual(mergeOptions({ a: { b: 1, c: [1] } }, { a: { c: [2] } }), {
      a: { b: 1, c: [2] },
    });
  });

  it("the crawl's own validation refuses unknown values, naming the run spec", () => {
    const check = (spec: string) => {
      const r = parseRunSpec(spec);
      validateRunOptions(r, runOptions(shared, r, '/tmp/x', 10));
    };
    check('bfs');
    check('best-first');
    refuses(() => check('sideways'), /^run spec "sideways": invalid crawl options: strategy: /);
    refuses(
      () => check('x:colour=red'),
      /^run spec "x:colour=red": invalid crawl options: .*colour/,
    );
    refuses(
      () => check('x:threshold=2'),
      /^run spec "x:threshold=2": invalid crawl options: threshold/,
    );
  });
});
