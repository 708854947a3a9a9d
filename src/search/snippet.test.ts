// Snippets: a window of the marked text around the first match, cut the same way
// for both stores.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARK_END, MARK_START, MARKS } from './query.js';
import { SEPARATOR, segmentForIndex, unsegment } from './segment.js';
import { cutSnippet, SNIPPET_TOKENS } from './snippet.js';

/** Marks written as brackets, for readable cases. */
const marked = (s: string) => s.replaceAll('[', MARK_START).replaceAll(']', MARK_END);
const brackets = (s: string) => s.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']');

// w0 … w49, then a full stop; `at` lists the words marked.
const words = Array.from({ length: 50 }, (_, i) => `w${i}`);
const text = (...at: number[]) =>
  `${words.map((w, i) => (at.includes(i) ? `[${w}]` : w)).join(' ')}.`;
const span = (from: number, to: number) => words.slice(from, to).join(' ');
const cut = (s: string, tokens?: number) => brackets(cutSnippet(marked(s), tokens));

describe('cutSnippet', () => {
  it(`holds ${SNIPPET_TOKENS} words, eight of them before the first match`, () => {
    assert.equal(SNIPPET_TOKENS, 32);
    assert.equal(cut(text(20)), `…${span(12, 20)} [w20] ${span(21, 44)}…`);
  });

  it('starts at the start when the first match is near it', () => {
    assert.equal(cut(text(2)), `${span(0, 2)} [w2] ${span(3, 32)}…`);
  });

  it('ends with the text, punctuation included, when the first match is near the end', () => {
    assert.equal(cut(text(48)), `…${span(18, 48)} [w48] w49.`);
  });

  it('keeps every mark inside the window, from the first match', () => {
    assert.equal(cut(text(30, 15)), `…${span(7, 15)} [w15] ${span(16, 30)} [w30] ${span(31, 39)}…`);
  });

  it('shows the start of the text when nothing is marked', () => {
    assert.equal(cut(text()), `${span(0, 32)}…`);
  });

  it('the whole text when it is short, trimmed', () => {
    assert.equal(cut('  a [b] c  '), 'a [b] c');
    assert.equal(cut('a [b] c', 3), 'a [b] c');
  });

  it('closes a mark the cut left open', () => {
    // The phrase [x y z] starts at the window's last word.
    const s = `${span(0, 10)} [x y z] tail`;
    assert.equal(cut(s, 9), `…${span(2, 10)} [x]…`);
  });

  it('keeps a mark that closes right after the last word', () => {
    assert.equal(cut(`${span(0, 8)} [a] b`, 9), `${span(0, 8)} [a]…`);
  });

  it('counts a Chinese character as a word, and unsegment makes it whole again', () => {
    const chars =
      '国家电网负责全国电力系统的实时调度电网负荷在夏季达到高峰调度员需要平衡发电与用电';
    const segmented = segmentForIndex(chars).replace(
      `${SEPARATOR}电${SEPARATOR}${SEPARATOR}网${SEPARATOR}`,
      `[${SEPARATOR}电${SEPARATOR}${SEPARATOR}网${SEPARATOR}]`,
    );
    const s = cutSnippet(marked(segmented));
    assert.equal(brackets(unsegment(s, MARKS)), `国家[电网]${chars.slice(4, 32)}…`);
  });

  it('leaves text without a word as it is', () => {
    assert.equal(cutSnippet(''), '');
    assert.equal(cutSnippet(' 。！ '), '。！');
  });
});
