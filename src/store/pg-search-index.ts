/**
 * Writing the PostgreSQL store's full-text index (pg-search.ts says why it is shaped
 * so): `page_text` keeps a kept page's title and text as indexed (segmented,
 * search/segment.ts) and its length in tokens; `page_terms` its lexemes
 * (pg-search-tokens.ts) as tsvectors, in parts of at most PART_CORE tokens of one
 * column (the title's parts first, then the text's), each followed by the first
 * PART_OVERLAP tokens of the next part so that a phrase across the cut is found.
 * Positions restart at 1 in each part, so none reaches PostgreSQL's limit (16383),
 * and a part ends early rather than give a lexeme more than the 256 positions a
 * tsvector keeps of it.
 */
import { MAX_INDEX_CHARS, segmentForIndex } from '../search/index.js';
import type { Sql } from './pg-db.js';
import { quoteLexeme, storable, lexemes as tokenize } from './pg-search-tokens.js';

/** Tokens of a column in one part. */
export const PART_CORE = 1000;
/** Tokens of the next part repeated after a part's own: the longest phrase found across a cut is one more. */
export const PART_OVERLAP = 64;
/**
 * Positions of one lexeme among a part's own tokens: with the overlap's, at most the
 * 256 a tsvector keeps of a lexeme.
 */
const MAX_OWN_POSITIONS = 256 - PART_OVERLAP;

/** One row of `page_terms`. */
export interface TermPart {
  /** Whether the part is of the title (its matches weigh twice). */
  title: boolean;
  /** The part's own tokens: positions 1 … core; those after belong to the next part. */
  core: number;
  /** The tsvector, as text. */
  tsv: string;
}

/** A page's text made ready for the index (outside any transaction: it is the costly part). */
export interface PreparedText {
  /** Title and text as indexed (segmented, at most MAX_INDEX_CHARS). */
  title: string;
  text: string;
  /** Tokens of both (BM25's document length). */
  docLen: number;
  parts: TermPart[];
}

/** PostgreSQL text cannot hold NUL; it separates tokens anyway. */
function clean(s: string): string {
  const cut = s.length > MAX_INDEX_CHARS ? s.slice(0, MAX_INDEX_CHARS) : s;
  return segmentForIndex(cut.includes('\u0000') ? cut.replaceAll('\u0000', ' ') : cut);
}

function partsOf(lexemes: readonly string[], title: boolean, out: TermPart[]): void {
  let from = 0;
  while (from < lexemes.length) {
    const positions = new Map<string, number[]>();
    const add = (i: number, own: boolean): boolean => {
      const lex = lexemes[i] as string;
      let list = positions.get(lex);
      if (list === undefined) {
        list = [];
        positions.set(lex, list);
      } else if (own && list.length >= MAX_OWN_POSITIONS) {
        // The part's own tokens end early rather than give a lexeme more positions
        // than the part can keep with the overlap's: every count stays exact.
        return false;
      }
      list.push(i - from + 1);
      return true;
    };
    let end = from;
    while (end < lexemes.length && end - from < PART_CORE && add(end, true)) end++;
    const last = Math.min(lexemes.length, end + PART_OVERLAP);
    for (let i = end; i < last; i++) add(i, false);
    const entries: string[] = [];
    for (const [lex, list] of positions) {
      if (storable(lex)) entries.push(`${quoteLexeme(lex)}:${list.join(',')}`);
    }
    out.push({ title, core: end - from, tsv: entries.join(' ') });
    from = end;
  }
}

/** Segments, tokenises and cuts a page's title and text for the index. */
export function prepareText(title: string | null, text: string): PreparedText {
  const t = clean(title ?? '');
  const x = clean(text);
  const titleLex = tokenize(t);
  const textLex = tokenize(x);
  const parts: TermPart[] = [];
  partsOf(titleLex, true, parts);
  partsOf(textLex, false, parts);
  return { title: t, text: x, docLen: titleLex.length + textLex.length, parts };
}

/** A page to index: its URL's id and its prepared text. */
export interface PageTextRow {
  urlId: number;
  text: PreparedText;
}

/**
 * Writes the texts of `pages` (in the caller's transaction): with `replace`, a page
 * indexed already gets the new text; without, it is left as it is. Returns the ids
 * of the pages written.
 */
export async function writePageTexts(
  q: Sql,
  pages: readonly PageTextRow[],
  replace: boolean,
): Promise<Set<number>> {
  if (pages.length === 0) return new Set();
  // By id: concurrent writers take the rows' locks in one order.
  const sorted = [...pages].sort((a, b) => a.urlId - b.urlId);
  const rows = await q<{ url_id: number; inserted: boolean }>(
    `INSERT INTO page_text (url_id, title, text, doc_len)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[])
     ON CONFLICT (url_id) DO ${
       replace
         ? 'UPDATE SET title = excluded.title, text = excluded.text, doc_len = excluded.doc_len'
         : 'NOTHING'
     }
     RETURNING url_id, xmax = 0 AS inserted`,
    [
      sorted.map((p) => p.urlId),
      sorted.map((p) => p.text.title),
      sorted.map((p) => p.text.text),
      sorted.map((p) => p.text.docLen),
    ],
  );
  const written = new Set(rows.map((r) => r.url_id));
  const replaced = rows.filter((r) => !r.inserted).map((r) => r.url_id);
  if (replaced.length > 0) {
    await q('DELETE FROM page_terms WHERE url_id = ANY($1::bigint[])', [replaced]);
  }
  const ids: number[] = [];
  const nums: number[] = [];
  const titles: boolean[] = [];
  const cores: number[] = [];
  const tsvs: string[] = [];
  for (const p of sorted) {
    if (!written.has(p.urlId)) continue;
    p.text.parts.forEach((part, i) => {
      ids.push(p.urlId);
      nums.push(i);
      titles.push(part.title);
      cores.push(part.core);
      tsvs.push(part.tsv);
    });
  }
  if (ids.length > 0) {
    await q(
      `INSERT INTO page_terms (url_id, part, title, core, tsv)
       SELECT * FROM unnest($1::bigint[], $2::integer[], $3::boolean[], $4::integer[], $5::tsvector[])`,
      [ids, nums, titles, cores, tsvs],
    );
  }
  return written;
}

/**
 * Indexes the title and text of the kept page `urlId`, replacing what the index
 * held for it, in the caller's transaction (`commit` of a complete page with text).
 * The page is searchable once that transaction commits.
 */
export async function indexPageText(
  q: Sql,
  urlId: number,
  title: string | null,
  text: string,
): Promise<void> {
  await writePageTexts(q, [{ urlId, text: prepareText(title, text) }], true);
}
