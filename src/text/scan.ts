/**
 * The tokeniser's single scan over normalised text.
 *
 * Words of space-separated scripts are cut by a char-code loop: a word is a run of
 * letters, digits and marks; an apostrophe between two letters stays inside the
 * word (`don't`; `’` is written `'`) and a final `'s` is dropped (`grid's` → `grid`);
 * `.` and `,` between two digits stay inside a number (`3.14`, `1,000`). Everything
 * else (spaces, hyphens, underscores, punctuation) separates words.
 *
 * Text in CJK, Thai and similar scripts is handed to the caller in regions for
 * `Intl.Segmenter`: a region starts and ends with such a character and may hold
 * spaces and punctuation (not letters or digits of other scripts); it is at most
 * {@link MAX_RUN_CHARS} long, cut after punctuation where there is any.
 */
import { classOf, classTable, SEGMENT, WORD } from './chars.js';

/**
 * Longest region given to `Intl.Segmenter` in one call. Each call has a fixed cost, and
 * the cost per segment grows with the length of the input (a 60,000-character input
 * takes seconds), so regions are cut; a word split where there is no punctuation to
 * cut at is the price.
 */
export const MAX_RUN_CHARS = 128;

export interface ScanSink {
  /** A word or number; `isNumber` when it holds only digits (and inner `.`/`,`). */
  word(token: string, isNumber: boolean): void;
  /** A region of text in scripts written without spaces (keep only its word-like segments). */
  run(text: string): void;
}

function isApostrophe(c: number): boolean {
  return c === 0x27 || c === 0x2019;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function scan(norm: string, sink: ScanSink): void {
  const t = classTable();
  const n = norm.length;
  let i = 0;
  while (i < n) {
    const c = norm.charCodeAt(i);
    let cls: number;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const cp = norm.codePointAt(i) ?? c;
      cls = classOf(cp);
      width = cp > 0xffff ? 2 : 1;
    } else {
      cls = t[c] ?? 0;
    }
    if (cls === WORD) {
      const start = i;
      let apostrophe = false;
      let numeric = isDigit(c);
      i += width;
      while (i < n) {
        const d = norm.charCodeAt(i);
        const dc = t[d] ?? 0;
        if (dc === WORD) {
          if (numeric && !isDigit(d)) numeric = false;
          i++;
        } else if (isApostrophe(d) && (t[norm.charCodeAt(i + 1)] ?? 0) === WORD) {
          apostrophe = true;
          numeric = false;
          i++;
        } else if (
          (d === 46 || d === 44) &&
          isDigit(norm.charCodeAt(i - 1)) &&
          isDigit(norm.charCodeAt(i + 1))
        ) {
          i++;
        } else if (d >= 0xd800 && d <= 0xdbff && classOf(norm.codePointAt(i) ?? d) === WORD) {
          numeric = false;
          i += 2;
        } else {
          break;
        }
      }
      let token = norm.slice(start, i);
      if (apostrophe) {
        token = token.replace(/\u2019/g, "'");
        if (token.endsWith("'s")) token = token.slice(0, -2);
      }
      sink.word(token, numeric);
    } else if (cls === SEGMENT) {
      // One segmenter call per region of CJK text, punctuation and spaces included:
      // far cheaper than one call per run between punctuation marks.
      const start = i;
      i += width;
      let end = i; // after the last SEGMENT character
      let cut = -1; // a separator after a SEGMENT character: a clean place to cut
      while (i < n) {
        const d = norm.charCodeAt(i);
        let dc: number;
        let dw = 1;
        if (d >= 0xd800 && d <= 0xdbff) {
          const cp = norm.codePointAt(i) ?? d;
          dc = classOf(cp);
          dw = cp > 0xffff ? 2 : 1;
        } else {
          dc = t[d] ?? 0;
        }
        if (dc === WORD) break;
        if (i + dw - start > MAX_RUN_CHARS) {
          if (cut > start) end = cut;
          break;
        }
        if (dc === SEGMENT) end = i + dw;
        else if (end === i) cut = i;
        i += dw;
      }
      sink.run(norm.slice(start, end));
      i = end;
    } else {
      i += width;
    }
  }
}
