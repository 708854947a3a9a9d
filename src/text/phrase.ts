/**
 * Counting a phrase of word tokens in normalised text without tokenising the text:
 * `indexOf` finds candidates, and the boundary rules of the scan (scan.ts) decide
 * whether a candidate is a whole token. The result equals counting the phrase in the
 * token stream of the scan (stop words and numbers kept, a CJK region breaking a
 * phrase), at a fraction of the cost: no token strings are made.
 */
import { classOf, SEGMENT, WORD } from './chars.js';

function classAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
    const h = s.charCodeAt(i - 1);
    if (h >= 0xd800 && h <= 0xdbff) return classOf(s.codePointAt(i - 1) ?? c);
  }
  return classOf(s.codePointAt(i) ?? c);
}

const isWord = (s: string, i: number) => i >= 0 && i < s.length && classAt(s, i) === WORD;
const isDigitAt = (s: string, i: number) => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};
const APOSTROPHE = 0x27;

/** Whether a token (starting with a word character) may start at `i`. */
function startsToken(s: string, i: number): boolean {
  if (i === 0) return true;
  if (isWord(s, i - 1)) return false;
  const p = s.charCodeAt(i - 1);
  if (p === APOSTROPHE && isWord(s, i - 2)) return false; // joined: rock'n'roll
  if ((p === 46 || p === 44) && isDigitAt(s, i - 2) && isDigitAt(s, i)) return false; // 3.14
  return true;
}

/**
 * Where the token that ends its text at `e` really ends, or -1 when the word goes on.
 * A possessive `'s` belongs to the token but is not part of it (`grid's` is `grid`).
 */
function endOfToken(s: string, e: number): number {
  if (e >= s.length) return e;
  if (isWord(s, e)) return -1;
  const c = s.charCodeAt(e);
  if (c === APOSTROPHE && isWord(s, e + 1)) {
    // The scan joins the apostrophe; only a final 's leaves the token as it was.
    if (s.charCodeAt(e + 1) !== 115 /* s */) return -1;
    const after = e + 2;
    if (isWord(s, after)) return -1;
    if (s.charCodeAt(after) === APOSTROPHE && isWord(s, after + 1)) return -1;
    return after;
  }
  if ((c === 46 || c === 44) && isDigitAt(s, e - 1) && isDigitAt(s, e + 1)) return -1;
  return e;
}

/** Next token start at or after `i`, skipping separators; -1 at a CJK region or the end. */
function nextTokenStart(s: string, i: number): number {
  for (let j = i; j < s.length; j++) {
    const cls = classAt(s, j);
    if (cls === WORD) return startsToken(s, j) ? j : -1;
    if (cls === SEGMENT) return -1;
  }
  return -1;
}

/**
 * Whether the token sequence `tokens` occurs at `i` of normalised text `s` as whole
 * tokens, given that `s` holds `tokens[0]` at `i`.
 */
export function phraseAt(s: string, i: number, tokens: readonly string[]): boolean {
  if (!startsToken(s, i)) return false;
  let end = endOfToken(s, i + (tokens[0] ?? '').length);
  for (let k = 1; end >= 0 && k < tokens.length; k++) {
    const t = tokens[k] ?? '';
    const j = nextTokenStart(s, end);
    end = j >= 0 && s.startsWith(t, j) ? endOfToken(s, j + t.length) : -1;
  }
  return end >= 0;
}

/** Occurrences of the token sequence `tokens` in normalised text `s` (`’` written `'`). */
export function countTokenPhrase(s: string, tokens: readonly string[]): number {
  const first = tokens[0];
  if (first === undefined || first === '') return 0;
  let n = 0;
  for (let i = s.indexOf(first); i >= 0; i = s.indexOf(first, i + first.length)) {
    if (phraseAt(s, i, tokens)) n++;
  }
  return n;
}
