/**
 * Text as the full-text index stores it. SQLite's FTS5 tokeniser (`unicode61`)
 * cuts words at spaces and punctuation, which leaves a run of Chinese or Japanese
 * text as one long "word". {@link segmentForIndex} puts a separator
 * ({@link SEPARATOR}, U+001F, which the tokeniser splits on and text never shows)
 * around every character of a script written without spaces, with the combining
 * marks that belong to it (Thai vowels and tones), so that each is a token of its
 * own; a query's run of such characters is then searched as the phrase of them. A
 * page matches when it contains the query's string, however a word segmenter would
 * have cut the page (Intl.Segmenter cuts 新的电网页面 into 新的 / 电 / 网页 / 面,
 * leaving no word 电网 to find). Everything else is left as written, so that
 * snippets keep their case, spacing and punctuation; {@link unsegment} takes the
 * separators out for display.
 */
import { SEGMENT_CHAR_CLASS } from '../text/index.js';
import { MARK_END, MARK_START } from './marks.js';

/** Longest text indexed per page (UTF-16 code units); the rest is not searchable. */
export const MAX_INDEX_CHARS = 100_000;

/** What segmentForIndex puts around a character of an unspaced script. */
export const SEPARATOR = '\u001f';

const SEGMENT_CHAR = new RegExp(`^${SEGMENT_CHAR_CLASS}$`, 'u');
const MARK_CHAR = /^\p{M}$/u;
const SPACE_CHAR = /^\s$/;
const SEPARATORS = new RegExp(SEPARATOR, 'g');

// Class bits of a code point for segmentForIndex: whitespace (and the characters
// reserved for separators and highlight marks, which count as whitespace), a
// character of an unspaced script, a combining mark (Thai vowels and tones are
// both); none for anything else.
const SPACE = 1;
const SEGMENT = 2;
const MARK = 4;
let bmp: Uint8Array | undefined;

function classOfCodePoint(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (cp === 0x1f || ch === MARK_START || ch === MARK_END || SPACE_CHAR.test(ch)) return SPACE;
  return (SEGMENT_CHAR.test(ch) ? SEGMENT : 0) | (MARK_CHAR.test(ch) ? MARK : 0);
}

/** Class of every BMP code unit (lone surrogates: none), built on first use. */
function table(): Uint8Array {
  if (bmp !== undefined) return bmp;
  bmp = new Uint8Array(0x10000);
  for (let c = 0; c < 0x10000; c++) {
    if (c < 0xd800 || c > 0xdfff) bmp[c] = classOfCodePoint(c);
  }
  return bmp;
}

/** Class of the code point at `i` of `s` (a surrogate pair only when both halves lie before `end`), and its length in code units (in `len`). */
let len = 1;
function classAt(t: Uint8Array, s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      len = 2;
      return classOfCodePoint(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000);
    }
  }
  len = 1;
  return t[c] as number;
}

let buffer = new Uint16Array(1 << 14);

/**
 * `text` with a separator around every character (and its marks) of a script
 * written without spaces, whitespace runs collapsed to one space and trimmed, at
 * most `maxChars` characters of it. One pass over a table of character classes,
 * writing code units to a buffer (four regular-expression passes cost 40% more).
 */
export function segmentForIndex(text: string, maxChars = MAX_INDEX_CHARS): string {
  const n = Math.min(text.length, maxChars);
  const t = table();
  // At most three code units out per code unit in (a separator each side).
  if (buffer.length < 3 * n) buffer = new Uint16Array(2 ** Math.ceil(Math.log2(3 * n)));
  const out = buffer;
  let m = 0;
  let space = false; // a space is owed before the next character
  let i = 0;
  while (i < n) {
    const k = classAt(t, text, i, n);
    const size = len;
    if (k === SPACE) {
      if (m > 0) space = true;
      i += size;
      continue;
    }
    if (space) {
      out[m++] = 0x20;
      space = false;
    }
    if ((k & SEGMENT) !== 0) {
      out[m++] = 0x1f;
      let end = i + size;
      while (end < n) {
        const c = classAt(t, text, end, n);
        if ((c & MARK) === 0) break;
        end += len;
      }
      for (; i < end; i++) out[m++] = text.charCodeAt(i);
      out[m++] = 0x1f;
      continue;
    }
    out[m++] = text.charCodeAt(i);
    if (size === 2) out[m++] = text.charCodeAt(i + 1);
    i += size;
  }
  // fromCharCode keeps lone surrogates as they are (a UTF-16 decoder would not).
  let s = '';
  for (let a = 0; a < m; a += CHUNK) {
    s += String.fromCharCode.apply(
      null,
      out.subarray(a, Math.min(m, a + CHUNK)) as unknown as number[],
    );
  }
  return s;
}

/** Code units per String.fromCharCode call (its arguments go on the stack). */
const CHUNK = 8192;

/** Whether `ch` (one code point) is of a script written without spaces. */
export function isSegmentChar(ch: string): boolean {
  return SEGMENT_CHAR.test(ch);
}

/**
 * Removes the separators {@link segmentForIndex} put in; with `marks`, two
 * highlights that then touch become one.
 */
export function unsegment(s: string, marks?: { start: string; end: string }): string {
  const out = s.replace(SEPARATORS, '');
  return marks === undefined ? out : out.replaceAll(marks.end + marks.start, '');
}
