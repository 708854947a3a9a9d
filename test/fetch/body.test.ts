// Bodies through the real fetcher: decompression, the byte cap, gzip bombs, non-HTML content.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isHtmlContentType } from '../../src/fetch/index.js';
import { testFetcher, using, withWeb } from './helpers.js';

describe('decompression', () => {
  test('gzip, br and deflate bodies are decoded; bytesOnWire counts the compressed size', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        for (const p of ['/page/1', '/br/1', '/deflate/1']) {
          const r = await f.fetch(web.url('gzip.test', p));
          assert.equal(r.status, 200, p);
          assert.ok(r.headers['content-encoding'], p);
          const html = r.body.toString('utf8');
          assert.match(html, /<html[\s>]/i, p);
          assert.match(html, /<\/html>\s*$/i, p);
          assert.equal(r.bytes, r.body.length);
          assert.ok(r.bytes > r.bytesOnWire, `${p}: ${r.bytes} <= ${r.bytesOnWire}`);
          assert.equal(r.truncated, false);
        }
        const br = await f.fetch(web.url('gzip.test', '/br/2'));
        assert.match(br.body.toString('utf8'), /Paragraph 19 of br page 2\./);
      }),
    ));
});

describe('byte cap (after decompression)', () => {
  test('a big page is cut at maxBytes and marked truncated, not failed', () =>
    withWeb((web) =>
      using(testFetcher(web, { maxBytes: 10_240 }), async (f) => {
        const r = await f.fetch(web.url('big.test', '/large?kb=200'));
        assert.equal(r.status, 200);
        assert.equal(r.truncated, true);
        assert.equal(r.body.length, 10_240);
        assert.equal(r.bytes, 10_240);
        // The fetcher stopped reading long before the 200 KiB were sent.
        assert.ok(r.bytesOnWire < 200 * 1024, `read ${r.bytesOnWire} bytes`);
        const small = await f.fetch(web.url('big.test', '/large?kb=5'));
        assert.equal(small.truncated, false);
        assert.ok(small.body.length >= 5 * 1024 && small.body.length < 10_240);
      }),
    ));

  test('a gzip bomb stops at maxBytes after reading little of it', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const heapBefore = process.memoryUsage().arrayBuffers;
        const r = await f.fetch(web.url('gzip.test', '/bomb'));
        assert.equal(r.truncated, true);
        assert.equal(r.body.length, 2 * 1024 * 1024);
        assert.ok(
          r.body.every((b) => b === 0),
          'the body is the inflated zeros',
        );
        assert.ok(r.bytesOnWire < 512 * 1024, `read ${r.bytesOnWire} compressed bytes`);
        const grown = process.memoryUsage().arrayBuffers - heapBefore;
        assert.ok(grown < 64 * 1024 * 1024, `buffers grew by ${grown} bytes`);
      }),
    ));

  test('the cap applies with the 10 KB of DESIGN 1.4 to a compressed page too', () =>
    withWeb((web) =>
      using(testFetcher(web, { maxBytes: 1000 }), async (f) => {
        const r = await f.fetch(web.url('gzip.test', '/page/3'));
        assert.equal(r.truncated, true);
        assert.equal(r.body.length, 1000);
      }),
    ));
});

describe('non-HTML content', () => {
  test('is fetched and recorded with its status, type and size', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const cases: Array<[string, string]> = [
          ['/doc.pdf', 'application/pdf'],
          ['/image.png', 'image/png'],
          ['/data.json', 'application/json'],
        ];
        for (const [p, type] of cases) {
          const r = await f.fetch(web.url('media.test', p));
          assert.equal(r.status, 200, p);
          assert.ok(r.contentType?.startsWith(type), `${p}: ${r.contentType}`);
          assert.ok(r.bytes > 0, p);
          assert.equal(isHtmlContentType(r.contentType), false, p);
        }
        const page = await f.fetch(web.url('media.test', '/page.html'));
        assert.equal(isHtmlContentType(page.contentType), true);
        const untyped = await f.fetch(web.url('media.test', '/no-type'));
        assert.equal(untyped.contentType, undefined);
        assert.ok(untyped.bytes > 0);
      }),
    ));

  test('isHtmlContentType', () => {
    const cases: Array<[string | undefined, boolean]> = [
      ['text/html', true],
      ['TEXT/HTML; charset=GBK', true],
      ['application/xhtml+xml', true],
      [' text/html ;q=1', true],
      ['text/plain', false],
      ['application/pdf', false],
      ['', false],
      [undefined, false],
    ];
    for (const [ct, expected] of cases) assert.equal(isHtmlContentType(ct), expected, String(ct));
  });
});
