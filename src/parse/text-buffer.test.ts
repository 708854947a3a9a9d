import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkContext } from './context.js';
import { collapseWhitespace, SEP_BLOCK, TextBuffer } from './text-buffer.js';

describe('collapseWhitespace', () => {
  const cases: Array<[string, string]> = [
    ['  a   b  ', 'a b'],
    ['a\n\tb\r\nc', 'a b c'],
    ['a\u00a0\u00a0b', 'a b'],
    ['中文\n段落', '中文段落'], // a line break between CJK characters disappears
    ['中文\n  段落', '中文段落'],
    ['中文 段落', '中文 段落'], // a space typed on one line stays
    ['中文\nEnglish', '中文 English'],
    ['日本語の\nテキスト', '日本語のテキスト'],
    ['한국어\n문장', '한국어 문장'], // Korean separates words with spaces
    ['', ''],
    [' \n ', ''],
  ];
  for (const [input, want] of cases) {
    it(JSON.stringify(input), () => assert.equal(collapseWhitespace(input), want));
  }
});

describe('TextBuffer', () => {
  it('joins chunks, collapses whitespace across them, separates blocks by one line break', () => {
    const t = new TextBuffer();
    t.append('  Hello ');
    t.append(' world');
    t.separate(SEP_BLOCK);
    t.separate(SEP_BLOCK);
    t.append('\n  next\n');
    t.append('中文\n');
    t.append('段落');
    t.append('  ');
    assert.equal(t.flat(), 'Hello world\nnext 中文段落');
    assert.equal(t.len, t.flat().length);
  });

  it('returns the offset where a chunk landed, -1 for whitespace only', () => {
    const t = new TextBuffer();
    assert.equal(t.append('ab'), 0);
    assert.equal(t.append('   '), -1);
    assert.equal(t.append('cd'), 3);
    assert.equal(t.slice(3, 5), 'cd');
  });

  it('compacts to a later offset and still slices by absolute offsets', () => {
    const t = new TextBuffer();
    t.append('0123456789');
    t.compact(4);
    assert.equal(t.base, 4);
    assert.equal(t.slice(6, 8), '67');
    assert.equal(t.slice(0, 6), '45');
  });
});

describe('linkContext', () => {
  const s = 'alpha beta gamma delta epsilon zeta';
  // anchor 'delta' at 17..22
  it('takes n characters each side without cutting words', () => {
    assert.equal(linkContext(s, 17, 22, 0, s.length, 8, 'delta', true), 'gamma delta epsilon');
    assert.equal(linkContext(s, 17, 22, 0, s.length, 100, 'delta', true), s);
  });
  it('stays inside the run [bStart, bEnd)', () => {
    assert.equal(linkContext(s, 17, 22, 11, 22, 100, 'delta', true), 'gamma delta');
  });
  it('cuts CJK text by characters', () => {
    const zh = '一二三四五六七八九十';
    assert.equal(linkContext(zh, 4, 6, 0, zh.length, 2, '五六', true), '三四五六七八');
  });
  it('sets a non-text anchor (image alt) apart with spaces', () => {
    const t = 'before after';
    assert.equal(linkContext(t, 6, 6, 0, t.length, 20, 'Alt', false), 'before Alt after');
  });
});
