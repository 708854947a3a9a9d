/**
 * Character classes for the tokeniser's single scan, and text normalisation.
 *
 * - WORD: letters, digits and combining marks of scripts that separate words by
 *   spaces or punctuation (Latin, Greek, Cyrillic, Arabic, Hebrew, Hangul, …).
 * - SEGMENT: scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao,
 *   Khmer, Myanmar), whose runs go to `Intl.Segmenter`.
 * - SEPARATOR: everything else (spaces, punctuation, symbols, emoji).
 */

export const SEPARATOR = 0;
export const WORD = 1;
export const SEGMENT = 2;

/** A character of a script written without spaces (the SEGMENT class), as a regex class. */
export const SEGMENT_CHAR_CLASS =
  '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}\\u30fc\\u3005\\u303b]';
const SEGMENT_RE = new RegExp(SEGMENT_CHAR_CLASS, 'u');
const WORD_RE = /[\p{L}\p{N}\p{M}]/u;

let bmp: Uint8Array | undefined;

/** Class of every BMP code point, built once on first use (about 20 ms). */
function table(): Uint8Array {
  if (bmp !== undefined) return bmp;
  const t = new Uint8Array(0x10000);
  for (let c = 48; c <= 57; c++) t[c] = WORD;
  for (let c = 65; c <= 90; c++) t[c] = WORD;
  for (let c = 97; c <= 122; c++) t[c] = WORD;
  for (let c = 0x80; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue; // surrogates: see classOf
    const s = String.fromCharCode(c);
    if (SEGMENT_RE.test(s)) t[c] = SEGMENT;
    else if (WORD_RE.test(s)) t[c] = WORD;
  }
  bmp = t;
  return t;
}

/** Class of code point `cp` (any plane). */
export function classOf(cp: number): number {
  if (cp < 0x10000) return table()[cp] ?? SEPARATOR;
  // CJK extension planes and the kana supplements; other astral letters are words.
  if ((cp >= 0x20000 && cp <= 0x3ffff) || (cp >= 0x1b000 && cp <= 0x1b16f)) return SEGMENT;
  const s = String.fromCodePoint(cp);
  return WORD_RE.test(s) ? WORD : SEPARATOR;
}

/** The class table itself, for loops that inline the BMP lookup. */
export function classTable(): Uint8Array {
  return table();
}

/**
 * Normalises text the way the tokeniser sees it: Unicode NFKC (full-width letters
 * and digits become ASCII, ligatures are split, compatibility ideographs unified),
 * then lower-case (locale-independent).
 */
export function normalizeText(text: string): string {
  // A page's text is normalised by the relevance model and again by the duplicate
  // detector: the last long text is remembered (short ones cost less than a compare).
  if (text.length >= MEMO_MIN_CHARS) {
    if (text === memoIn) return memoOut;
    memoIn = text;
    memoOut = normalizeUncached(text);
    return memoOut;
  }
  return normalizeUncached(text);
}

function normalizeUncached(text: string): string {
  // NFKC leaves ASCII alone; skipping it for ASCII-only text halves the cost.
  return NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase();
}

const MEMO_MIN_CHARS = 512;
let memoIn = '';
let memoOut = '';

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Normalises a topic keyword: {@link normalizeText}, then surrounding whitespace
 * trimmed and inner whitespace runs collapsed to one space. Two keywords that
 * normalise to the same string are the same keyword.
 */
export function normalizeKeyword(keyword: string): string {
  return normalizeText(keyword).trim().replace(/\s+/g, ' ');
}

/** Whether `s` contains a character of a script written without spaces (CJK, Thai…). */
export function hasSegmentScript(s: string): boolean {
  const t = table();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const cp = s.codePointAt(i) ?? c;
      if (classOf(cp) === SEGMENT) return true;
      i++;
    } else if (t[c] === SEGMENT) return true;
  }
  return false;
}
