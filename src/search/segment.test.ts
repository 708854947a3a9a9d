// Text as the full-text index stores it: a token per character of an unspaced
// script (set apart by U+001F), and back again for display.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SEGMENT_CHAR_CLASS } from '../text/index.js';
import { MARK_END, MARK_START, MARKS } from './query.js';
import {
  isSegmentChar,
  MAX_INDEX_CHARS,
  SEPARATOR,
  segmentForIndex,
  unsegment,
} from './segment.js';

/** `|` stands for the separator, `[` `]` for the marks: readable expectations. */
const show = (s: string) =>
  s.replaceAll('|', SEPARATOR).replaceAll('[', MARK_START).replaceAll(']', MARK_END);

describe('segmentForIndex', () => {
  const table: [string, string, string][] = [
    ['Chinese', '电网调度', '|电||网||调||度|'],
    ['Chinese with its punctuation', '调度。电网', '|调||度|。|电||网|'],
    [
      'mixed Chinese and English',
      '国家电网 grid 调度Center',
      '|国||家||电||网| grid |调||度|Center',
    ],
    ['Chinese and digits', '2024年', '2024|年|'],
    ['hiragana and katakana, the long vowel mark', 'タワー', '|タ||ワ||ー|'],
    ['Thai: vowels and tones stay with their letter', 'ที่', '|ที่|'],
    ['English is left as written', 'Hello, World! 3.14', 'Hello, World! 3.14'],
    ['whitespace collapsed and trimmed', ' a \n\t b  ', 'a b'],
    [
      'separators and marks in the text become spaces',
      `a${SEPARATOR}b ${MARK_START}c${MARK_END}`,
      'a b c',
    ],
    ['empty', '', ''],
  ];
  for (const [what, text, expected] of table) {
    it(what, () => assert.equal(segmentForIndex(text), show(expected)));
  }

  it('keeps the first maxChars characters of the text, before segmenting', () => {
    assert.equal(segmentForIndex('abcdefgh', 5), 'abcde');
    assert.equal(segmentForIndex('电网'.repeat(10), 3), show('|电||网||电|'));
    const long = `${'x'.repeat(MAX_INDEX_CHARS - 1)} tail`;
    assert.equal(segmentForIndex(long), 'x'.repeat(MAX_INDEX_CHARS - 1));
  });
});

describe('isSegmentChar', () => {
  const table: [string, boolean][] = [
    ['电', true],
    ['タ', true],
    ['ー', true],
    ['ภ', true],
    ['a', false],
    ['7', false],
    ['。', false],
    [' ', false],
  ];
  for (const [ch, expected] of table) {
    it(`${JSON.stringify(ch)} → ${expected}`, () => assert.equal(isSegmentChar(ch), expected));
  }
});

describe('unsegment', () => {
  it('undoes segmentForIndex exactly, spaces, digits and punctuation included', () => {
    for (const s of [
      '国家电网调度中心',
      '国家电网 grid 调度 center',
      '调度。电网',
      '2024年',
      '中国 北京',
      'สวยงาม ที่นี่',
      'とうきょうタワー',
      'power grid of China',
    ]) {
      assert.equal(unsegment(segmentForIndex(s)), s);
    }
  });

  const withMarks: [string, string, string][] = [
    ['merges touching marks into one', '|国||家|[|电|][|网|]|调|', '国家[电网]调'],
    ['keeps English matches apart', 'the [power] [grid] is', 'the [power] [grid] is'],
    ['keeps a Chinese match apart from an English one', '[|电|][|网|] [grid]', '[电网] [grid]'],
    ['matches at both ends', '[|电|]|网|[|调|]', '[电]网[调]'],
  ];
  for (const [what, s, expected] of withMarks) {
    it(`with marks: ${what}`, () => assert.equal(unsegment(show(s), MARKS), show(expected)));
  }

  it('without marks given, touching marks stay as they are', () => {
    assert.equal(unsegment(show('[|电|][|网|]')), show('[电][网]'));
  });
});

/** What segmentForIndex gave as four regular-expression passes (the reference). */
function segmentByRegex(text: string, maxChars = MAX_INDEX_CHARS): string {
  const src = text.length > maxChars ? text.slice(0, maxChars) : text;
  return src
    .replace(/[\u001f\uE000\uE001]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(new RegExp(`${SEGMENT_CHAR_CLASS}\\p{M}*`, 'gu'), `${SEPARATOR}$&${SEPARATOR}`);
}

it('segmentForIndex: one pass gives what the regular-expression passes give, on any text', () => {
  const pieces = fc.constantFrom(
    ' ',
    '  ',
    '\t',
    '\n',
    '\u00a0',
    '\u3000',
    '\u2028',
    '\ufeff',
    '\u001f',
    '\uE000',
    '\uE001',
    'a',
    'Word',
    '电',
    '网',
    'ー',
    '々',
    'ก',
    '\u0e34',
    '\u0301',
    '\u0e48',
    'ຄ',
    'ក',
    'က',
    '𠀋',
    '𝅥',
    '\ud800',
    '\udc00',
    '.',
    ',',
    'é',
    '한',
    'ア',
    'ひ',
  );
  const texts = fc.oneof(
    fc.array(pieces, { maxLength: 40 }).map((a) => a.join('')),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  fc.assert(
    fc.property(texts, (text) => {
      assert.equal(segmentForIndex(text), segmentByRegex(text), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
  const long = '电网 grid  power\n'.repeat(20);
  assert.equal(segmentForIndex(long, 50), segmentByRegex(long, 50));
});
