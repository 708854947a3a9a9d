import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { NetworkError } from '../errors/index.js';
import { BodyCollector, encodingOf } from './body.js';

/** Feeds `wire` in chunks and resolves with the collector when done or capped. */
function collect(wire: Buffer, encoding: string | undefined, maxBytes: number, chunk = 1000) {
  return new Promise<{ c: BodyCollector; capped: boolean; err?: Error }>((resolve) => {
    let capped = false;
    let paused = false;
    let pos = 0;
    const owner = {
      bodyDone: (err?: Error) => resolve({ c, capped, ...(err ? { err } : {}) }),
      bodyCapped: () => {
        capped = true;
        resolve({ c, capped });
      },
      pauseInput: () => {
        paused = true;
      },
      resumeInput: () => {
        paused = false;
        setImmediate(feed);
      },
    };
    const c = new BodyCollector(owner, maxBytes, encodingOf(encoding), 'http://a.test/');
    function feed() {
      while (!paused && !capped && pos < wire.length) {
        c.write(wire.subarray(pos, pos + chunk));
        pos += chunk;
      }
      if (!paused && !capped && pos >= wire.length) c.end();
    }
    feed();
  });
}

const TEXT = Buffer.from('<p>hello, 你好</p>\n'.repeat(2000));

test('every supported encoding decodes to the same bytes', async () => {
  const cases: Array<[string | undefined, Buffer]> = [
    [undefined, TEXT],
    ['identity', TEXT],
    ['gzip', gzipSync(TEXT)],
    ['x-gzip', gzipSync(TEXT)],
    ['deflate', deflateSync(TEXT)],
    ['deflate', deflateRawSync(TEXT)],
    ['br', brotliCompressSync(TEXT)],
    [' GZIP ', gzipSync(TEXT)],
  ];
  for (const [enc, wire] of cases) {
    const { c, capped, err } = await collect(wire, enc, 1 << 20);
    assert.equal(err, undefined, String(enc));
    assert.equal(capped, false);
    assert.ok(c.body().equals(TEXT), String(enc));
    assert.equal(c.wireBytes, wire.length);
    assert.equal(c.truncated, false);
  }
});

test('an unknown encoding keeps the bytes as received', async () => {
  const wire = Buffer.from('opaque bytes');
  const { c } = await collect(wire, 'zstd', 100);
  assert.ok(c.body().equals(wire));
});

test('the cap applies to decoded bytes, exactly', async () => {
  for (const [enc, wire] of [
    [undefined, TEXT],
    ['gzip', gzipSync(TEXT)],
    ['br', brotliCompressSync(TEXT)],
  ] as const) {
    const { c, capped } = await collect(wire, enc, 10_240);
    assert.equal(capped, true, String(enc));
    assert.equal(c.truncated, true);
    assert.equal(c.body().length, 10_240);
    assert.ok(c.body().equals(TEXT.subarray(0, 10_240)), String(enc));
  }
  // A body exactly as long as the cap is not truncated.
  const exact = await collect(TEXT.subarray(0, 5000), undefined, 5000);
  assert.equal(exact.capped, false);
  assert.equal(exact.c.truncated, false);
  assert.equal(exact.c.body().length, 5000);
});

test('a compression bomb stops at the cap after little input', async () => {
  const bomb = gzipSync(Buffer.alloc(256 * 1024 * 1024));
  const { c, capped } = await collect(bomb, 'gzip', 1 << 20, 16 * 1024);
  assert.equal(capped, true);
  assert.equal(c.body().length, 1 << 20);
  assert.ok(c.wireBytes < bomb.length / 4, `read ${c.wireBytes} of ${bomb.length}`);
});

test('a corrupt body is a NetworkError naming the URL and the encoding', async () => {
  const { err } = await collect(Buffer.from('definitely not gzip data'), 'gzip', 1000);
  assert.ok(err instanceof NetworkError);
  assert.match(err.message, /http:\/\/a\.test\/: the gzip body could not be decoded/);
});

test('an empty compressed body is empty', async () => {
  const { c, err } = await collect(Buffer.alloc(0), 'gzip', 1000);
  assert.equal(err, undefined);
  assert.equal(c.body().length, 0);
});
