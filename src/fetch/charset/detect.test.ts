import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { htmlPage, SAMPLES } from './__fixtures__/samples.js';
import { decodeAs } from './decode.js';
import { detectCharset, isUtf8Lenient } from './detect.js';

// GBK and GB18030 decode GBK bytes alike; the detector names gb18030 only when
// four-byte sequences occur.
const SAME: Record<string, string> = { gb18030: 'gbk' };

describe('detectCharset on undeclared pages', () => {
  for (const s of SAMPLES) {
    for (const cs of s.charsets) {
      it(`${s.name} in ${cs}`, () => {
        const html = htmlPage('Page', s.text);
        const bytes = iconv.encode(html, cs);
        const d = detectCharset(bytes);
        assert.ok(d !== undefined);
        assert.equal(d.charset, SAME[cs] ?? cs);
        assert.equal(decodeAs(bytes, d.charset), html);
        assert.ok(d.confidence > 0.3, `confidence ${d.confidence}`);
      });
    }
  }

  it('names gb18030 when four-byte sequences occur', () => {
    const bytes = iconv.encode(
      htmlPage('古籍', '古籍整理工作中常常遇到𠀾和𪚥这样的字，刘䶮的名字也是。'),
      'gb18030',
    );
    assert.equal(detectCharset(bytes)?.charset, 'gb18030');
  });

  it('short snippets: one accented word, a Chinese title', () => {
    assert.equal(
      detectCharset(iconv.encode('<p>Voilà tout</p>', 'windows-1252'))?.charset,
      'windows-1252',
    );
    assert.equal(detectCharset(iconv.encode('<title>经济新闻</title>', 'gbk'))?.charset, 'gbk');
  });

  it('pure ASCII gives nothing to detect', () => {
    assert.equal(detectCharset(Buffer.from('<html><p>plain</p></html>')), undefined);
  });

  it('samples from the first non-ASCII byte when the head is long ASCII', () => {
    const head = `<script>${'var x = 1;\n'.repeat(10_000)}</script>`;
    const bytes = Buffer.concat([Buffer.from(head), iconv.encode(SAMPLES[0]!.text, 'gbk')]);
    assert.equal(detectCharset(bytes, 4096)?.charset, 'gbk');
  });

  it('mostly UTF-8 with one stray byte is still UTF-8', () => {
    const text = Buffer.from(SAMPLES[0]!.text, 'utf8');
    const bytes = Buffer.concat([text.subarray(0, 30), Buffer.from([0xff]), text.subarray(30)]);
    assert.equal(isUtf8Lenient(bytes), false);
    assert.equal(detectCharset(bytes)?.charset, 'utf-8');
  });
});

describe('isUtf8Lenient', () => {
  const zh = Buffer.from('中文', 'utf8'); // e4 b8 ad e6 96 87
  it('accepts valid UTF-8 and one sequence cut at the end', () => {
    assert.equal(isUtf8Lenient(zh), true);
    assert.equal(isUtf8Lenient(zh.subarray(0, 5)), true);
    assert.equal(isUtf8Lenient(zh.subarray(0, 4)), true);
  });
  it('rejects invalid bytes elsewhere', () => {
    assert.equal(isUtf8Lenient(Buffer.from([0xe4, 0x41, 0xb8])), false);
    assert.equal(isUtf8Lenient(Buffer.from([0x41, 0xb8])), false);
    assert.equal(isUtf8Lenient(Buffer.from([0x41, 0xff])), false);
    assert.equal(isUtf8Lenient(Buffer.from([0xd6, 0xd0, 0xce, 0xc4])), false); // GBK 中文
  });
});
