import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import iconv from 'iconv-lite';
import { CHARSETS, charsetSample, startTestWeb, type TestWeb } from './index.js';
import { rawGet } from './testing.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb();
});
after(async () => {
  await web.close();
});

function sampleOf(html: string): string {
  const m = /<p id="sample">([^<]*)<\/p>/.exec(html);
  assert.ok(m, 'no sample paragraph');
  return m[1]!;
}

describe('charset hosts', () => {
  for (const cs of CHARSETS) {
    test(`${cs}: header, meta and none hosts encode exactly charsetSample`, async () => {
      for (const decl of ['header', 'meta', 'none'] as const) {
        for (const n of [0, 1, 5]) {
          const r = await rawGet(web.port, `${cs}-${decl}.test`, n === 0 ? '/' : `/page/${n}`);
          assert.equal(r.status, 200);
          const type = String(r.headers['content-type']);
          const html = iconv.decode(r.body, cs);
          assert.equal(sampleOf(html), charsetSample(cs, n), `${cs}-${decl} page ${n}`);
          // The bytes on the wire are exactly the encoded sample.
          assert.ok(r.body.includes(iconv.encode(charsetSample(cs, n), cs)));
          if (decl === 'header') assert.equal(type, `text/html; charset=${cs}`);
          else assert.equal(type, 'text/html');
          const hasMeta = /<meta[^>]*charset=/i.test(html);
          assert.equal(hasMeta, decl === 'meta', `${cs}-${decl} meta`);
          if (decl === 'meta') {
            const viaHttpEquiv = /http-equiv/i.test(html);
            assert.equal(viaHttpEquiv, n % 2 === 1);
          }
        }
      }
    });
  }

  test('utf-8-bom.test starts with a BOM and declares nothing else', async () => {
    const r = await rawGet(web.port, 'utf-8-bom.test', '/page/2');
    assert.deepEqual([...r.body.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(r.headers['content-type'], 'text/html');
    const html = r.body.subarray(3).toString('utf8');
    assert.doesNotMatch(html, /charset/i);
    assert.equal(sampleOf(html), charsetSample('utf-8', 2));
  });
});

describe('charsetSample', () => {
  test('samples tell the encodings apart', () => {
    // windows-1252: smart quotes and € live in 0x80–0x9F.
    const w = iconv.encode(charsetSample('windows-1252', 0), 'windows-1252');
    assert.ok(w.some((b) => b >= 0x80 && b <= 0x9f));
    // gb18030: characters outside GBK.
    const g = charsetSample('gb18030', 0);
    assert.notEqual(iconv.decode(iconv.encode(g, 'gbk'), 'gbk'), g);
    assert.equal(iconv.decode(iconv.encode(g, 'gb18030'), 'gb18030'), g);
    // gbk text (simplified hanzi) is not Big5 text.
    const k = charsetSample('gbk', 0);
    assert.notEqual(iconv.decode(iconv.encode(k, 'big5'), 'big5'), k);
    for (const cs of CHARSETS) {
      const bytes =
        cs === 'utf-8' ? Buffer.from(charsetSample(cs, 0)) : iconv.encode(charsetSample(cs, 0), cs);
      assert.ok(bytes.length >= 240, `${cs} sample is ${bytes.length} bytes`);
    }
  });

  test('samples vary with n and are stable', () => {
    assert.notEqual(charsetSample('big5', 0), charsetSample('big5', 1));
    assert.equal(charsetSample('euc-kr', 3), charsetSample('euc-kr', 3));
  });
});
