import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadFromResponse, RobotsCache, type RobotsLoad, verdictFor } from './cache.js';

function setup(loads: Record<string, RobotsLoad | Error>, maxEntries = 10) {
  let now = 1_000;
  const calls: string[] = [];
  const cache = new RobotsCache({
    maxEntries,
    ttlMs: 1_000,
    errorTtlMs: 100,
    productToken: 'focuscrawl',
    now: () => now,
    load: async (url) => {
      calls.push(url);
      await new Promise((r) => setImmediate(r));
      const l = loads[url];
      if (l === undefined) throw new Error(`unexpected ${url}`);
      if (l instanceof Error) throw l;
      return l;
    },
  });
  return { cache, calls, advance: (ms: number) => (now += ms) };
}

const parsed = (text: string): RobotsLoad => ({ source: 'parsed', status: 200, text });

test('concurrent lookups of one origin share a single load', async () => {
  const { cache, calls } = setup({ 'http://a.test/robots.txt': parsed('User-agent: *\n') });
  const entries = await Promise.all([1, 2, 3].map(() => cache.get('http://a.test')));
  assert.equal(calls.length, 1);
  assert.equal(entries[0], entries[2]);
  assert.deepEqual([cache.misses, cache.shared, cache.hits], [1, 2, 0]);
  await cache.get('http://a.test');
  assert.equal(cache.hits, 1);
});

test('entries expire after ttlMs, unreachable ones after errorTtlMs', async () => {
  const { cache, calls, advance } = setup({
    'http://a.test/robots.txt': parsed(''),
    'http://b.test/robots.txt': { source: 'unreachable', status: 500, error: 'HTTP 500' },
  });
  await cache.get('http://a.test');
  await cache.get('http://b.test');
  advance(150);
  assert.ok(cache.peek('http://a.test'));
  assert.equal(cache.peek('http://b.test'), undefined);
  advance(900);
  assert.equal(cache.peek('http://a.test'), undefined);
  await cache.get('http://a.test');
  assert.equal(calls.filter((c) => c.startsWith('http://a.test')).length, 2);
});

test('least recently used origins are evicted beyond maxEntries', async () => {
  const loads: Record<string, RobotsLoad> = {};
  for (const h of ['a', 'b', 'c']) loads[`http://${h}.test/robots.txt`] = parsed('');
  const { cache } = setup(loads, 2);
  await cache.get('http://a.test');
  await cache.get('http://b.test');
  cache.peek('http://a.test'); // a is now more recent than b
  await cache.get('http://c.test');
  assert.equal(cache.size, 2);
  assert.ok(cache.peek('http://a.test'));
  assert.equal(cache.peek('http://b.test'), undefined);
});

test('a failed load reaches every waiter and is not cached', async () => {
  const err = new Error('blocked');
  const { cache, calls } = setup({ 'http://a.test/robots.txt': err });
  const results = await Promise.allSettled([
    cache.get('http://a.test'),
    cache.get('http://a.test'),
  ]);
  assert.deepEqual(
    results.map((r) => r.status === 'rejected' && r.reason === err),
    [true, true],
  );
  await assert.rejects(cache.get('http://a.test'));
  assert.equal(calls.length, 2);
});

test('verdicts: per rule, missing allows all, unreachable disallows all', async () => {
  const { cache } = setup({
    'http://a.test/robots.txt': parsed(
      'User-agent: focuscrawl\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 0.5\nSitemap: http://a.test/s.xml\n',
    ),
    'http://b.test/robots.txt': { source: 'missing', status: 404 },
    'http://c.test/robots.txt': { source: 'unreachable', status: 503, error: 'HTTP 503' },
  });
  const a = await cache.get('http://a.test');
  const denied = verdictFor(a, '/private/x');
  assert.equal(denied.allowed, false);
  assert.deepEqual(denied.rule, { directive: 'disallow', pattern: '/private/', line: 2 });
  assert.equal(denied.group, 'focuscrawl');
  assert.equal(denied.crawlDelayMs, 500);
  assert.deepEqual(denied.sitemaps, ['http://a.test/s.xml']);
  assert.equal(verdictFor(a, '/private/open').allowed, true);
  assert.equal(verdictFor(a, '/x').rule, undefined);
  // The same rule gives the same (shared) verdict object.
  assert.equal(verdictFor(a, '/private/y'), denied);

  const b = verdictFor(await cache.get('http://b.test'), '/anything');
  assert.deepEqual([b.allowed, b.source, b.status], [true, 'missing', 404]);
  const c = verdictFor(await cache.get('http://c.test'), '/anything');
  assert.deepEqual([c.allowed, c.source, c.error], [false, 'unreachable', 'HTTP 503']);
});

test('loadFromResponse: status classes and a truncated file', () => {
  assert.equal(loadFromResponse(404, Buffer.alloc(0), false).source, 'missing');
  assert.equal(loadFromResponse(401, Buffer.alloc(0), false).source, 'missing');
  assert.equal(loadFromResponse(500, Buffer.alloc(0), false).source, 'unreachable');
  assert.equal(loadFromResponse(429, Buffer.alloc(0), false).source, 'unreachable');
  const l = loadFromResponse(200, Buffer.from('User-agent: *\nDisallow: /a\nDisallow: /b'), true);
  assert.deepEqual(l, { source: 'parsed', status: 200, text: 'User-agent: *\nDisallow: /a' });
});

test('loadFromResponse skips a whole or partial byte-order mark (ID_UTF8ByteOrderMarkIsSkipped)', () => {
  const rest = Buffer.from('User-agent: *\nDisallow: /a\n');
  for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef], []]) {
    const l = loadFromResponse(200, Buffer.concat([Buffer.from(bom), rest]), false);
    assert.equal(l.source === 'parsed' && l.text, rest.toString(), bom.join(' '));
  }
  // Not a mark: the bytes stay (and make the first line junk).
  const l = loadFromResponse(200, Buffer.concat([Buffer.from([0xef, 0x11, 0xbf]), rest]), false);
  assert.ok(
    l.source === 'parsed' && l.text.endsWith(rest.toString()) && l.text.length > rest.length,
  );
});
