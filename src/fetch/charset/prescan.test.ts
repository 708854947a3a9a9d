import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { prescanMetaCharset } from './prescan.js';

const b = (s: string) => Buffer.from(s, 'latin1');

describe('prescanMetaCharset', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['meta charset, quoted', '<html><head><meta charset="gb2312"><title>', 'gbk'],
    ['meta charset, unquoted', '<meta charset=big5>', 'big5'],
    ['upper case, single quotes', "<META CHARSET='Shift-JIS'>", 'shift_jis'],
    ['self-closing slash', '<meta charset="euc-kr"/>', 'euc-kr'],
    [
      'http-equiv then content',
      '<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">',
      'euc-kr',
    ],
    [
      'content then http-equiv',
      '<meta content="text/html; charset=gbk" http-equiv="content-type">',
      'gbk',
    ],
    ['content without the pragma', '<meta content="text/html; charset=gbk">', undefined],
    ['name=... content is not a declaration', '<meta name="x" content="charset=gbk">', undefined],
    ['utf-16 declared → utf-8', '<meta charset="utf-16">', 'utf-8'],
    ['x-user-defined → windows-1252', '<meta charset="x-user-defined">', 'windows-1252'],
    ['unknown label', '<meta charset="no-such"><meta charset="big5">', 'big5'],
    ['first of duplicate attributes wins', '<meta charset="gbk" charset="big5">', 'gbk'],
    ['inside a comment', '<!-- <meta charset="gbk"> --><p>', undefined],
    ['after a comment', '<!-- <meta charset="gbk"> --><meta charset="big5">', 'big5'],
    ['"<!-->" closes the comment', '<!--><meta charset="gbk">', 'gbk'],
    ["in another tag's attribute", '<a title="<meta charset=gbk>">x</a>', undefined],
    ['after other tags', '<!DOCTYPE html><html lang=zh><head><meta charset=gb18030>', 'gb18030'],
    ['"<metax" is another tag', '<metax charset="gbk">', undefined],
    ['processing instruction skipped', '<?php echo 1 ?><meta charset="gbk">', 'gbk'],
    ['unterminated attribute', '<meta charset="gbk', undefined],
    ['xml declaration', '<?xml version="1.0" encoding="GB2312"?><rss>', 'gbk'],
    ['nothing', '<html><head><title>x</title></head>', undefined],
  ];
  for (const [name, html, want] of cases) {
    it(`${name} → ${want}`, () => assert.equal(prescanMetaCharset(b(html)), want));
  }

  it('looks at the first 1024 bytes only, unless told otherwise', () => {
    const html = `<html><!-- ${'x'.repeat(1100)} --><meta charset="gbk">`;
    assert.equal(prescanMetaCharset(b(html)), undefined);
    assert.equal(prescanMetaCharset(b(html), 4096), 'gbk');
  });
});
