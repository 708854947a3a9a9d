/**
 * A search query as typed → the terms every hit must contain, and the same terms as
 * an FTS5 `MATCH` expression. A term is a word of a spaced script (stop words left
 * out unless the query has nothing else) or a run of Chinese (or other unspaced)
 * text, matched as the phrase of its characters (segment.ts).
 */
import { DEFAULT_STOP_WORDS, SEGMENT_CHAR_CLASS } from '../text/index.js';
import { segmentForIndex } from './segment.js';

/** A letter, digit or mark of a spaced script. */
const WORD_CHAR = `(?:(?!${SEGMENT_CHAR_CLASS})[\\p{L}\\p{N}\\p{M}])`;
/**
 * A run of unspaced script, or a word of a spaced one, inner dots, hyphens and the
 * like included (`3.14`, `e-mail`: the index cuts them, the query keeps the pieces
 * together as a phrase).
 */
const TERM_RE = new RegExp(
  `(?:${SEGMENT_CHAR_CLASS}\\p{M}*)+|${WORD_CHAR}+(?:[.'’_:-]${WORD_CHAR}+)*`,
  'gu',
);
const SEGMENT_START = new RegExp(`^${SEGMENT_CHAR_CLASS}`, 'u');

/** The distinct terms of `query`, in order; empty when it has none (only punctuation). */
export function queryTerms(query: string): string[] {
  const all: string[] = [];
  for (const m of query.matchAll(TERM_RE)) {
    const t = m[0];
    all.push(SEGMENT_START.test(t) ? t : t.toLowerCase());
  }
  const content = all.filter((t) => SEGMENT_START.test(t) || !DEFAULT_STOP_WORDS.has(t));
  return [...new Set(content.length > 0 ? content : all)];
}

/**
 * The FTS5 expression matching rows that contain every term: each term a quoted
 * string, which FTS5 reads as a phrase when the index cuts it into several tokens
 * (a run of Chinese into its characters, `3.14` into `3 14`).
 */
export function ftsMatch(terms: readonly string[]): string {
  return terms.map((t) => `"${segmentForIndex(t).replaceAll('"', '""')}"`).join(' ');
}

export { MARK_END, MARK_START, MARKS } from './marks.js';

/**
 * The final order of hits (docs/search.md): BM25 scaled to [0,1] by the best BM25
 * among all matches, blended with the page's score P (its relevance until `rank`
 * has run): `(1 − w)·bm25/maxBm25 + w·P`.
 */
export function blendScore(
  bm25: number,
  maxBm25: number,
  pageScore: number,
  weight: number,
): number {
  const b = maxBm25 > 0 ? bm25 / maxBm25 : 0;
  return (1 - weight) * b + weight * pageScore;
}
