// The flags of `focuscrawl compare`: lists after --runs / --seeds, shared crawl options.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { strs } from '../args.js';
import { parseCompareFlags, sharedOptionsFromFlags } from './compare.js';

test('bare arguments belong to the last --runs or --seeds before them', () => {
  const p = parseCompareFlags([
    '--runs',
    'bfs',
    'best-first',
    '--seeds',
    'http://a.test/',
    'http://b.test/',
    '--max-pages',
    '10',
    '--runs',
    'tunnel:strategy=tunnel',
  ]);
  assert.deepEqual(strs(p, 'runs'), ['bfs', 'best-first', 'tunnel:strategy=tunnel']);
  assert.deepEqual(strs(p, 'seeds'), ['http://a.test/', 'http://b.test/']);
  assert.throws(() => parseCompareFlags(['x', '--runs', 'bfs']), {
    code: 'FC_ERR_CLI_USAGE',
    message: /unexpected argument "x"/,
  });
  assert.throws(() => parseCompareFlags(['--max-pages', '10', 'y']), {
    code: 'FC_ERR_CLI_USAGE',
    message: /unexpected argument "y"/,
  });
  assert.throws(() => parseCompareFlags(['--frobnicate']), { code: 'FC_ERR_CLI_USAGE' });
});

test('shared crawl options: threshold forms, fetcher flags and --set', () => {
  const p = parseCompareFlags([
    '--topic',
    't.json',
    '--seeds',
    'http://a.test/',
    '--threshold',
    'iterative',
    '--max-depth',
    '4',
    '--concurrency',
    '8',
    '--resolve',
    '*.test=127.0.0.1:8080',
    '--set',
    'domain-diversity=3,width=2',
    '--set',
    'fetcher.per-host-concurrency=2',
  ]);
  assert.deepEqual(sharedOptionsFromFlags(p), {
    topic: 't.json',
    seeds: ['http://a.test/'],
    fetcher: { concurrency: 8, resolve: ['*.test=127.0.0.1:8080'], perHostConcurrency: 2 },
    threshold: 'iterative',
    maxDepth: 4,
    domainDiversity: 3,
    strategyOptions: { width: 2 },
  });
  const numeric = parseCompareFlags(['--topic', 't.json', '--threshold', '0.2']);
  assert.equal(sharedOptionsFromFlags(numeric).threshold, 0.2);
  assert.throws(() => sharedOptionsFromFlags(parseCompareFlags(['--seeds', 'http://a.test/'])), {
    code: 'FC_ERR_CLI_USAGE',
    message: /--topic is required/,
  });
  assert.throws(
    () => sharedOptionsFromFlags(parseCompareFlags(['--topic', 't.json', '--set', 'store=x'])),
    { code: 'FC_ERR_CLI_USAGE', message: /--set store=x: .*same for every run/ },
  );
});
