/**
 * Snippets: a window of the indexed text (segment.ts) around the first matched
 * word, from text whose matches are already marked (FTS5's highlight(), or the
 * memory index). Both stores cut them here, so they agree.
 */
import { MARK_END, MARK_START } from './marks.js';

/** Words (or characters of unspaced scripts) in a snippet. */
export const SNIPPET_TOKENS = 32;
/** Words shown before the first match, when there are that many. */
const LEAD_TOKENS = 8;
/**
 * Only this much text around the first match is looked at (UTF-16 code units
 * before it, and in all): a snippet of a 100,000-character page costs what one of
 * a short page does.
 */
const VIEW_BEFORE = 1_000;
const VIEW_CHARS = 6_000;

const TOKEN_RE = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * About `tokens` words of `marked` from a little before its first match (from the
 * start when nothing is marked), with `…` where text was cut off and every mark
 * that the cut opened or closed balanced.
 */
export function cutSnippet(marked: string, tokens = SNIPPET_TOKENS): string {
  const markAt = marked.indexOf(MARK_START);
  const offset = markAt > VIEW_BEFORE ? markAt - VIEW_BEFORE : 0;
  const viewEnd = Math.min(marked.length, offset + VIEW_CHARS);
  const view = marked.slice(offset, viewEnd);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of view.matchAll(TOKEN_RE)) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  // A word the view cut in two is not shown.
  let lo = offset > 0 ? 1 : 0;
  let hi = viewEnd < marked.length ? starts.length - 1 : starts.length;
  if (hi <= lo) {
    lo = 0;
    hi = starts.length;
  }
  if (hi === 0) return view.trim();
  const first = markAt < 0 ? lo : firstAtOrAfter(starts, markAt - offset, lo, hi);
  let from = Math.max(lo, first - LEAD_TOKENS);
  const to = Math.min(hi, from + tokens);
  from = Math.max(lo, to - tokens);
  const begin = from === 0 && offset === 0 ? 0 : (starts[from] ?? 0);
  let end = to === starts.length && viewEnd === marked.length ? view.length : (ends[to - 1] ?? 0);
  // Keep a mark that closes right after the last word.
  if (view[end] === MARK_END) end++;
  let out = view.slice(begin, end).trim();
  if (out.lastIndexOf(MARK_START) > out.lastIndexOf(MARK_END)) out += MARK_END;
  const close = out.indexOf(MARK_END);
  const open = out.indexOf(MARK_START);
  if (close >= 0 && (open < 0 || close < open)) out = MARK_START + out;
  const cutBefore = offset + begin > 0;
  const cutAfter = offset + end < marked.length && /[\p{L}\p{N}]/u.test(marked.slice(offset + end));
  return `${cutBefore ? '…' : ''}${out}${cutAfter ? '…' : ''}`;
}

/** The first token in [lo, hi) starting at or after `at`, else the last one. */
function firstAtOrAfter(starts: readonly number[], at: number, lo: number, hi: number): number {
  for (let i = lo; i < hi; i++) if ((starts[i] ?? 0) >= at) return i;
  return hi - 1;
}
