import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { createFetcher } from './fetcher.js';
import { defaultUserAgent, parseFetcherOptions } from './options.js';

test('defaults', () => {
  const o = parseFetcherOptions({});
  assert.equal(o.maxBytes, 2_097_152);
  assert.equal(o.perHostConcurrency, 1);
  assert.equal(o.delayMs, 1000);
  assert.equal(o.maxRedirects, 5);
  assert.equal(o.retries, 2);
  assert.equal(o.robotsCacheSize, 1000);
  assert.equal(o.robotsTtlMs, 86_400_000);
  assert.equal(o.robotsAgent, 'focuscrawl');
  assert.equal(o.allowPrivateAddresses, false);
  assert.match(
    defaultUserAgent(),
    /^focuscrawl\/\S+ \(\+https:\/\/github\.com\/focuscrawl\/focuscrawl\)$/,
  );
});

test('bad options throw InvalidOptionError naming the field', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ delayMs: -1 }, /delayMs/],
    [{ maxBytes: 1.5 }, /maxBytes/],
    [{ timeoutMs: 10 }, /timeoutMs/],
    [{ contactUrl: 'mailto:x@y' }, /contactUrl/],
    [{ proxy: 'socks5://h:1' }, /proxy/],
    [{ robotsAgent: 'focus crawl' }, /robotsAgent/],
    [{ robotsMaxBytes: 1000 }, /robotsMaxBytes/],
    [{ scope: 'a.test' }, /scope/],
    [{ headers: { 'User-Agent': 'x' } }, /User-Agent.*userAgent/],
  ];
  for (const [input, re] of cases) {
    assert.throws(
      () => createFetcher(input as never),
      (e: Error) => e instanceof InvalidOptionError && re.test(e.message),
      JSON.stringify(input),
    );
  }
});
