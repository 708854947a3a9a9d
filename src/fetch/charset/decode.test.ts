import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { decodeAs } from './decode.js';

const bytes = (...b: number[]) => Buffer.from(b);

describe('decodeAs', () => {
  it('windows-1252 maps 0x80–0x9F to € “ ” – — … (not C1 controls)', () => {
    assert.equal(
      decodeAs(bytes(0x80, 0x93, 0x94, 0x96, 0x97, 0x85, 0x99), 'windows-1252'),
      '€“”–—…™',
    );
    assert.equal(decodeAs(bytes(0x63, 0x61, 0x66, 0xe9), 'windows-1252'), 'café');
    // bytes the standard leaves unassigned keep their code point
    assert.equal(decodeAs(bytes(0x81, 0x9d), 'windows-1252'), '\u0081\u009d');
  });

  it('gbk decodes GB2312 text, GBK-only characters and 0x80 as €', () => {
    const text = '王堃和李喆是大学同学，张玥也是。';
    assert.equal(decodeAs(iconv.encode(text, 'gbk'), 'gbk'), text);
    assert.equal(decodeAs(bytes(0x80), 'gbk'), '€');
  });

  it('gb18030 decodes four-byte sequences (extension A and B characters)', () => {
    const text = '南汉高祖刘䶮，古籍中的𠀾和𪚥。';
    const enc = iconv.encode(text, 'gb18030');
    assert.equal(decodeAs(enc, 'gb18030'), text);
    // a GBK label decodes the same bytes alike (the standard uses one decoder)
    assert.equal(decodeAs(enc, 'gbk'), text);
  });

  it('gb18030 follows the 2022 mapping (A6D9 is U+FE10, not a private-use code point)', () => {
    assert.equal(decodeAs(bytes(0xa6, 0xd9), 'gb18030'), '\ufe10');
  });

  it('big5 decodes common text and the HKSCS / ETEN rows of the standard', () => {
    const text = '這個週末我們到臺北的夜市逛街，吃了滷肉飯。';
    assert.equal(decodeAs(iconv.encode(text, 'big5'), 'big5'), text);
    assert.equal(decodeAs(bytes(0xc6, 0xa1), 'big5'), '①');
    assert.equal(decodeAs(bytes(0x88, 0x62), 'big5'), '\u00ca\u0304');
    assert.equal(decodeAs(bytes(0xa4, 0x40, 0xc6, 0xa1), 'big5'), '一①');
  });

  it('euc-kr decodes KS X 1001 text and the UHC extension (windows-949)', () => {
    const text = '오늘은 날씨가 좋아서 한강 공원에 갔습니다.';
    assert.equal(decodeAs(iconv.encode(text, 'euc-kr'), 'euc-kr'), text);
    const uhc = '똠방각하 햏';
    const enc = iconv.encode(uhc, 'cp949');
    assert.ok(enc[0]! < 0xa1, 'the sample must use the UHC extension');
    assert.equal(decodeAs(enc, 'euc-kr'), uhc);
    assert.equal(decodeAs(bytes(0xa2, 0xe6), 'euc-kr'), '€');
  });

  it('shift_jis decodes kana and kanji, and keeps 0x1A, 0x1C, 0x7F as they are', () => {
    const text = '今日は天気が良かったので、メロンパンを買いました。';
    assert.equal(decodeAs(iconv.encode(text, 'shift_jis'), 'shift_jis'), text);
    assert.equal(
      decodeAs(bytes(0x61, 0x7f, 0x1a, 0x1c, 0x82, 0xa0), 'shift_jis'),
      'a\x7f\x1a\x1cあ',
    );
    assert.equal(decodeAs(bytes(0x80), 'shift_jis'), '\u0080');
  });

  it('euc-jp, utf-8, utf-16le/be', () => {
    const ja = '図書館で借りた小説';
    assert.equal(decodeAs(iconv.encode(ja, 'euc-jp'), 'euc-jp'), ja);
    assert.equal(decodeAs(Buffer.from('中文 🙂', 'utf8'), 'utf-8'), '中文 🙂');
    assert.equal(decodeAs(Buffer.from('中a', 'utf16le'), 'utf-16le'), '中a');
    assert.equal(decodeAs(bytes(0x4e, 0x2d, 0x00, 0x61), 'utf-16be'), '中a');
  });

  it('ibm866 keeps control bytes, iso-8859-16 decodes', () => {
    assert.equal(
      decodeAs(Buffer.concat([iconv.encode('Привет', 'cp866'), bytes(0x1a)]), 'ibm866'),
      'Привет\x1a',
    );
    assert.equal(decodeAs(bytes(0xaa), 'iso-8859-16'), 'Ș');
  });

  it('x-user-defined and replacement', () => {
    assert.equal(decodeAs(bytes(0x41, 0x80, 0xff), 'x-user-defined'), 'A\uf780\uf7ff');
    assert.equal(decodeAs(bytes(0x41, 0x42), 'replacement'), '\ufffd');
    assert.equal(decodeAs(bytes(), 'replacement'), '');
  });
});
