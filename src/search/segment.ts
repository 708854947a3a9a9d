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

const SEGMENT_CLUSTER_G = new RegExp(`${SEGMENT_CHAR_CLASS}\\p{M}*`, 'gu');
const SEGMENT_CHAR = new RegExp(`^${SEGMENT_CHAR_CLASS}$`, 'u');
const SPACES = /\s+/g;
/** Characters of the text that would be taken for ours: separators and highlight marks. */
const RESERVED = new RegExp(`[${SEPARATOR}${MARK_START}${MARK_END}]`, 'g');
const SEPARATORS = new RegExp(SEPARATOR, 'g');

/**
 * `text` with a separator around every character (and its marks) of a script
 * written without spaces, whitespace collapsed, at most `maxChars` characters of it.
 */
export function segmentForIndex(text: string, maxChars = MAX_INDEX_CHARS): string {
  const src = text.length > maxChars ? text.slice(0, maxChars) : text;
  return src
    .replace(RESERVED, ' ')
    .replace(SPACES, ' ')
    .trim()
    .replace(SEGMENT_CLUSTER_G, `${SEPARATOR}$&${SEPARATOR}`);
}

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
