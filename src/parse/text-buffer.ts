/**
 * Visible-text accumulator: collapses whitespace as it goes and keeps absolute
 * character offsets, so that anchors and link contexts are slices of one string
 * joined once at the end.
 *
 * Whitespace rules (after CSS `white-space: normal`):
 * - runs of ASCII whitespace and U+00A0 become one space; leading and trailing
 *   whitespace of the whole text is dropped;
 * - a run that holds a line break between two CJK characters is removed (CSS Text
 *   segment-break transformation), so hard-wrapped Chinese or Japanese source
 *   lines join without spaces;
 * - block boundaries become one '\n'. Separators are only written when text follows,
 *   so no empty lines or trailing spaces appear.
 */

export const SEP_NONE = 0;
/** Whitespace that held a line break: dropped between two CJK characters. */
export const SEP_SOFT = 1;
export const SEP_SPACE = 2;
export const SEP_BLOCK = 3;
export type Separator = 0 | 1 | 2 | 3;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x0c || c === 0xa0;
}

function hasNewline(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (s.charCodeAt(k) === 0x0a) return true;
  return false;
}

/** Han, kana, CJK symbols and punctuation, full-width forms (not Hangul: Korean uses spaces). */
export function isCjk(c: number): boolean {
  return (
    (c >= 0x2e80 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xffef) ||
    (c >= 0xd840 && c <= 0xd87f) // high surrogates of the supplementary ideographic planes
  );
}

const NEEDS_COLLAPSE = /[\t\n\f\r\u00a0]| {2}/;
const WS_RUN = /[\t\n\f\r \u00a0]+/g;
const HAS_CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/;

function collapseRun(run: string, offset: number, s: string): string {
  if (run.indexOf('\n') < 0) return ' ';
  const before = s.charCodeAt(offset - 1);
  const after = s.charCodeAt(offset + run.length);
  return isCjk(before) && isCjk(after) ? '' : ' ';
}

/** Collapses the inner whitespace of a string that has none at either end. */
export function collapseInner(s: string): string {
  if (!NEEDS_COLLAPSE.test(s)) return s;
  return HAS_CJK.test(s) ? s.replace(WS_RUN, collapseRun) : s.replace(WS_RUN, ' ');
}

/** Collapses and trims a whole string (titles, attribute texts). */
export function collapseWhitespace(s: string): string {
  let i = 0;
  let j = s.length - 1;
  while (i <= j && isWs(s.charCodeAt(i))) i++;
  while (j >= i && isWs(s.charCodeAt(j))) j--;
  return i > j ? '' : collapseInner(i === 0 && j === s.length - 1 ? s : s.slice(i, j + 1));
}

export class TextBuffer {
  /** Text pieces; together they hold the text from offset `base` to `len`. */
  parts: string[] = [];
  /** Absolute offset of the end of the text. */
  len = 0;
  /** Absolute offset where `parts` starts (text before it was dropped by `compact`). */
  base = 0;
  /** Separator owed before the next text. */
  pending: Separator = SEP_NONE;
  /** Last character code written. */
  private last = 0;

  /** Asks for at least separator `sep` before the next text. */
  separate(sep: Separator): void {
    if (sep > this.pending) this.pending = sep;
  }

  /**
   * Appends a raw text chunk. Returns the absolute offset where its first visible
   * character landed, or -1 when the chunk was only whitespace.
   */
  append(data: string): number {
    const n = data.length;
    let i = 0;
    while (i < n && isWs(data.charCodeAt(i))) i++;
    if (i === n) {
      if (n > 0) this.separate(data.indexOf('\n') >= 0 ? SEP_SOFT : SEP_SPACE);
      return -1;
    }
    if (i > 0) this.separate(hasNewline(data, 0, i) ? SEP_SOFT : SEP_SPACE);
    let j = n - 1;
    while (isWs(data.charCodeAt(j))) j--;
    const first = data.charCodeAt(i);
    this.flush(first);
    const start = this.len;
    const s = collapseInner(i === 0 && j === n - 1 ? data : data.slice(i, j + 1));
    this.parts.push(s);
    this.len += s.length;
    this.last = s.charCodeAt(s.length - 1);
    if (j < n - 1) this.pending = hasNewline(data, j + 1, n) ? SEP_SOFT : SEP_SPACE;
    return start;
  }

  private flush(next: number): void {
    const p = this.pending;
    this.pending = SEP_NONE;
    if (p === SEP_NONE || this.len === 0) return;
    let sep: string;
    if (p === SEP_BLOCK) sep = '\n';
    else if (p === SEP_SPACE) sep = ' ';
    else if (isCjk(this.last) && isCjk(next)) return;
    else sep = ' ';
    this.parts.push(sep);
    this.len += 1;
    this.last = sep.charCodeAt(0);
  }

  /** The whole retained text (from `base`), joined once and cached in `parts`. */
  flat(): string {
    if (this.parts.length !== 1) this.parts = [this.parts.join('')];
    return this.parts[0] ?? '';
  }

  /** Text between absolute offsets (clamped to what is retained). */
  slice(from: number, to: number): string {
    const s = this.flat();
    return s.slice(Math.max(0, from - this.base), Math.max(0, to - this.base));
  }

  /** Drops retained text before absolute offset `keepFrom`. */
  compact(keepFrom: number): void {
    const s = this.flat();
    const k = Math.min(Math.max(keepFrom, this.base), this.len);
    this.parts = [s.slice(k - this.base)];
    this.base = k;
  }

  /** Forgets everything (used for hidden-region side buffers). */
  clear(): void {
    this.parts = [];
    this.len = 0;
    this.base = 0;
    this.pending = SEP_NONE;
    this.last = 0;
  }
}
