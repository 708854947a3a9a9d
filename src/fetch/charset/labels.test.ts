import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { charsetFromContentType, charsetFromMetaContent, mimeEssence } from './content-type.js';
import { normalizeCharset } from './labels.js';

describe('normalizeCharset (WHATWG labels)', () => {
  const cases: Array<[string, string | undefined]> = [
    ['utf-8', 'utf-8'],
    ['UTF8', 'utf-8'],
    [' utf-8\n', 'utf-8'],
    ['gb2312', 'gbk'],
    ['GB_2312-80', 'gbk'],
    ['x-gbk', 'gbk'],
    ['chinese', 'gbk'],
    ['cp936', 'gbk'],
    ['GB18030', 'gb18030'],
    ['big5-hkscs', 'big5'],
    ['x-x-big5', 'big5'],
    ['shift-jis', 'shift_jis'],
    ['SJIS', 'shift_jis'],
    ['windows-31j', 'shift_jis'],
    ['ks_c_5601-1987', 'euc-kr'],
    ['x-euc-kr', 'euc-kr'],
    ['iso-8859-1', 'windows-1252'],
    ['latin1', 'windows-1252'],
    ['US-ASCII', 'windows-1252'],
    ['ascii', 'windows-1252'],
    ['iso-8859-9', 'windows-1254'],
    ['tis-620', 'windows-874'],
    ['utf-16', 'utf-16le'],
    ['unicodefffe', 'utf-16be'],
    ['iso-2022-kr', 'replacement'],
    ['euc-jp', 'euc-jp'],
    ['koi8-r', 'koi8-r'],
    ['utf-7', undefined],
    ['', undefined],
    ['gbk2', undefined],
  ];
  for (const [label, want] of cases) {
    it(`${JSON.stringify(label)} → ${want}`, () => assert.equal(normalizeCharset(label), want));
  }
});

describe('charsetFromContentType', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    ['text/html; charset=GB2312', 'gbk'],
    ['text/html;charset=utf-8', 'utf-8'],
    ['text/html; charset="Shift_JIS"', 'shift_jis'],
    ["text/html; charset='big5'", undefined], // single quotes are not HTTP quoting
    ['text/html; boundary=x; charset = euc-kr ; q=1', 'euc-kr'],
    ['text/html', undefined],
    ['text/html; charset=', undefined],
    ['text/html; charset=no-such-charset', undefined],
    [undefined, undefined],
  ];
  for (const [header, want] of cases) {
    it(`${JSON.stringify(header)} → ${want}`, () =>
      assert.equal(charsetFromContentType(header), want));
  }
});

describe('charsetFromMetaContent', () => {
  const cases: Array<[string, string | undefined]> = [
    ['text/html; charset=gb2312', 'gbk'],
    ['text/html;charset = "big5"', 'big5'],
    ["text/html; charset='euc-kr'; x=y", 'euc-kr'],
    ['text/html; charset="big5', undefined], // unterminated quote
    ['text/html; charsetx; charset=sjis', 'shift_jis'], // first "charset" not followed by '='
    ['text/html', undefined],
    ['charset=', undefined],
  ];
  for (const [content, want] of cases) {
    it(`${JSON.stringify(content)} → ${want}`, () =>
      assert.equal(charsetFromMetaContent(content), want));
  }
});

describe('mimeEssence', () => {
  it('lower-cases and drops parameters', () => {
    assert.equal(mimeEssence(' Text/HTML ; charset=utf-8'), 'text/html');
    assert.equal(mimeEssence(undefined), '');
  });
});
