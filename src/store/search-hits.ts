/**
 * Search hits as both SQLite and PostgreSQL stores give them: a hit from its row, and its
 * snippet cut from text outside the index (the PostgreSQL store keeps the indexed text;
 * the SQLite store's FTS5 index keeps none: schema V12). The words of a query are found
 * as the index finds them (pg-search-tokens.ts: FTS5's `porter unicode61` tokens) and
 * marked as FTS5's highlight() marks them.
 */
import {
  blendScore,
  cutSnippet,
  MARK_END,
  MARK_START,
  MARKS,
  segmentForIndex,
  unsegment,
} from '../search/index.js';
import { lexemes, tokens } from './pg-search-tokens.js';
import type { TextHit } from './types.js';

/** A hit's row, as both stores' search queries select it. */
export interface HitRow {
  id: number;
  url: string;
  title: string | null;
  relevance: number;
  page_rank: number | null;
  score: number | null;
  bm25: number;
  max_bm25: number;
}

/** The hit of a row: its figures, the blended rank, and `snippet`. */
export function textHit(r: HitRow, scoreWeight: number, snippet: string): TextHit {
  return {
    url: r.url,
    title: r.title,
    relevance: r.relevance,
    pageRank: r.page_rank,
    score: r.score,
    bm25: r.bm25,
    rank: blendScore(r.bm25, r.max_bm25, r.score ?? r.relevance, scoreWeight),
    snippet,
  };
}

/** A snippet of segmented text with the phrases marked (search/snippet.ts), for display. */
export function snippetOf(segmented: string, phrases: readonly (readonly string[])[]): string {
  return unsegment(cutSnippet(highlight(segmented, phrases)), MARKS);
}

/** The lexemes of each query term (a phrase when several), terms without any left out. */
export function queryPhrases(terms: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const term of terms) {
    const lex = lexemes(segmentForIndex(term));
    if (lex.length > 0) out.push(lex);
  }
  return out;
}

/**
 * The indexed text with every occurrence of the phrases marked as FTS5's highlight()
 * marks them: from the first token of an occurrence to its last, occurrences that
 * overlap merged into one mark.
 */
export function highlight(text: string, phrases: readonly (readonly string[])[]): string {
  const toks = tokens(text);
  const spans: [number, number][] = [];
  for (const p of phrases) {
    const first = p[0];
    outer: for (let i = 0; i + p.length <= toks.length; i++) {
      if (toks[i]?.lex !== first) continue;
      for (let j = 1; j < p.length; j++) if (toks[i + j]?.lex !== p[j]) continue outer;
      spans.push([i, i + p.length - 1]);
    }
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let out = '';
  let copied = 0;
  const emit = (a: number, b: number) => {
    const start = toks[a]?.start ?? 0;
    const end = toks[b]?.end ?? start;
    out += `${text.slice(copied, start)}${MARK_START}${text.slice(start, end)}${MARK_END}`;
    copied = end;
  };
  let cur: [number, number] | undefined;
  for (const [a, b] of spans) {
    if (cur !== undefined && a <= cur[1]) {
      if (b > cur[1]) cur[1] = b;
      continue;
    }
    if (cur !== undefined) emit(cur[0], cur[1]);
    cur = [a, b];
  }
  if (cur !== undefined) emit(cur[0], cur[1]);
  return out + text.slice(copied);
}
