/** Link anchors and contexts as slices of the page text (pure). */
import { isCjk } from './text-buffer.js';

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a;
}

/** A cut between s[i-1] and s[i] splits a word (two non-space, non-CJK characters). */
function splitsWord(s: string, i: number): boolean {
  if (i <= 0 || i >= s.length) return false;
  const a = s.charCodeAt(i - 1);
  const b = s.charCodeAt(i);
  return !isSpace(a) && !isSpace(b) && !isCjk(a) && !isCjk(b);
}

function oneLine(s: string): string {
  return s.indexOf('\n') >= 0 ? s.replace(/\n/g, ' ') : s;
}

/**
 * The context of an anchor at [aStart, aEnd) in `s`, within its run of text
 * [bStart, bEnd) (the text between the nearest block boundaries): up to `n`
 * characters on each side, not cutting Latin words in half, on one line. Offsets
 * are relative to `s`; `anchor` is the (possibly shortened) anchor text to put in the
 * middle; `inline` is false when it is not text of the page (an image's alt), so
 * spaces set it apart.
 */
export function linkContext(
  s: string,
  aStart: number,
  aEnd: number,
  bStart: number,
  bEnd: number,
  n: number,
  anchor: string,
  inline: boolean,
): string {
  if (n === 0) return anchor;
  let from = Math.max(bStart, aStart - n, 0);
  let to = Math.min(bEnd, aEnd + n, s.length);
  if (from > bStart && splitsWord(s, from)) {
    while (from < aStart && !isSpace(s.charCodeAt(from))) from++;
  }
  if (to < bEnd && splitsWord(s, to)) {
    while (to > aEnd && !isSpace(s.charCodeAt(to - 1))) to--;
  }
  const before = from < aStart ? oneLine(s.slice(from, aStart)).trimStart() : '';
  const after = to > aEnd ? oneLine(s.slice(aEnd, to)).trimEnd() : '';
  if (inline || anchor === '') return before + anchor + after;
  return `${before.trimEnd()} ${anchor} ${after.trimStart()}`.trim();
}
