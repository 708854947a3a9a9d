/**
 * Full-text search on the PostgreSQL store, with the SQLite store's semantics
 * (docs/search.md): a kept page matches when its title or text holds every term of
 * the query, a run of Chinese (or other unspaced script) being the phrase of its
 * characters; hits are ordered by BM25 as FTS5 computes it (title matches count
 * twice) blended with the page score P, ties in discovery order; snippets are cut
 * by search/snippet.ts from the text with the matches marked as FTS5's highlight()
 * marks them.
 *
 * What was chosen, and why:
 * - tsvectors built from our own tokens, not PostgreSQL's parser and dictionaries,
 *   nor pg_trgm. The tokens are the SQLite store's (pg-search-tokens.ts: the same
 *   cuts, case and diacritic folding, and FTS5's Porter stemmer, ported in
 *   pg-search-porter.ts, where PostgreSQL's `english` is Snowball's later stemmer
 *   and its parser keeps `3.14` or an e-mail address whole), so that a query finds
 *   the same pages on both stores. A term is a tsquery (`'电' <-> '网'` for a
 *   phrase) matched through a GIN index. pg_trgm was set aside: it cannot stem,
 *   cannot give the per-term counts BM25 needs, and under the C locale it drops
 *   every character outside ASCII, so Chinese would not be indexed at all.
 * - A page's lexemes are cut in parts of PART_CORE tokens (pg-search-index.ts):
 *   a tsvector position stops at 16383 and keeps at most 256 positions of a
 *   lexeme, so one tsvector for a long Chinese page (one token per character, up
 *   to 100,000) would lose the phrases of its end and the counts of its common
 *   characters. Each part repeats the first PART_OVERLAP tokens of the next, so
 *   phrases of up to PART_OVERLAP + 1 tokens are found across a cut, and a part
 *   ends early rather than hold a lexeme more often than a tsvector keeps.
 * - BM25 is computed in one SQL statement: N and avgdl from page_text's key
 *   (doc_len is included in it), n(t) from the pages matching each term, and the
 *   occurrences of each term in a part from its tsvector cut down to the term's
 *   lexemes (setweight + ts_filter, done in C, about 10 µs a part) and counted
 *   from the part's own positions, so that a phrase in an overlap counts once.
 *   A one-term search counts in the same scan that finds the pages.
 *
 * What it costs:
 * - Space: the segmented text is stored (for snippets, and to rebuild the index
 *   should tokens change) beside the tsvectors and their GIN index.
 * - Time: indexing tokenises and stems in JavaScript (prepareText; run it before the
 *   transaction where the caller can). A search reads the totals from page_text's
 *   key (an index-only scan over all indexed pages) and scores every match, as
 *   FTS5 does, at 15–50 µs a matching page against FTS5's ~6: on 20,000 pages, a
 *   character in half of them takes ~0.35 s (SQLite 0.06 s), a word in 3,000 of
 *   them ~50 ms, a rare word a few ms. Snippets read the texts of the hits returned.
 * - Differences with FTS5: letters added to Unicode after FTS5's tables are
 *   folded by JavaScript's rules; a phrase longer than PART_OVERLAP + 1 tokens
 *   across a part's cut is not found; tokens over 2,000 bytes are not indexed.
 */
import { InvalidOptionError } from '../errors/index.js';
import { segmentForIndex } from '../search/index.js';
import type { SearchIndex } from './contracts.js';
import type { PgDb, Sql } from './pg-db.js';
import { urlKey } from './pg-find.js';
import { type PageTextRow, prepareText, writePageTexts } from './pg-search-index.js';
import { lexemes, quoteLexeme, storable } from './pg-search-tokens.js';
import { STATE_CODE } from './schema.js';
import { type HitRow, snippetOf, textHit } from './search-hits.js';
import { checkPageTexts, checkUnindexedOptions, type UnindexedPage } from './text-types.js';
import type { TextHit } from './types.js';
import { checkSearch } from './validate.js';

const KEPT = STATE_CODE.complete;

/** Occurrences of term `i` (its lexemes $2i+2, `k` of them) starting at a part's own positions. */
function countSql(i: number, k: number): string {
  const lx = `($${2 * i + 2}::text[])`;
  // The part's tsvector cut down to the term's lexemes (in C: setweight and ts_filter).
  const only = `unnest(ts_filter(setweight(p.tsv, 'C', ${lx}), '{c}'))`;
  if (k === 1) {
    // Positions are sorted: width_bucket counts those up to the part's own last.
    return `SELECT coalesce(sum(width_bucket(p.core, e.positions)), 0) AS n FROM ${only} e`;
  }
  const arrays = Array.from(
    { length: k },
    (_, j) => `(SELECT positions FROM e WHERE lexeme = ${lx}[${j + 1}]) AS p${j + 1}`,
  ).join(', ');
  const next = Array.from({ length: k - 1 }, (_, j) => `a + ${j + 1} = ANY(z.p${j + 2})`).join(
    ' AND ',
  );
  return `WITH e AS MATERIALIZED (SELECT lexeme, positions FROM ${only})
      SELECT count(*) AS n FROM (SELECT ${arrays}) z, unnest(z.p1) AS a
      WHERE a <= p.core AND ${next}`;
}

/**
 * The statement of a search for `phrases` (each term's lexemes): $2i+1 the tsquery of
 * term i, $2i+2 its lexemes, then the weight of P and the limit. BM25 with FTS5's
 * constants (k1 = 1.2, b = 0.75) and idf floor (1e-6).
 */
function searchSql(phrases: readonly (readonly string[])[]): string {
  const n = phrases.length;
  const query = (i: number) => `$${2 * i + 1}::tsquery`;
  // Per term, its occurrences in each page, the title's counting twice: in the pages
  // matching every term; for one term, straight from the scan that finds them.
  const counts = (i: number, from: string) => `SELECT p.url_id, ${i + 1} AS i,
      sum(CASE WHEN p.title THEN 2 ELSE 1 END * c.n)::float8 AS f
    FROM ${from}
    CROSS JOIN LATERAL (${countSql(i, (phrases[i] as readonly string[]).length)}) c
    WHERE p.tsv @@ ${query(i)}
    GROUP BY p.url_id`;
  const w = `$${2 * n + 1}::float8`;
  const head =
    n === 1
      ? `tf AS (
    ${counts(0, 'page_terms p')}
  ), hit AS (
    SELECT i, url_id FROM tf
  ), matched AS (
    SELECT url_id FROM tf`
      : `hit AS (
    ${phrases
      .map(
        (_, i) => `SELECT DISTINCT ${i + 1} AS i, url_id FROM page_terms WHERE tsv @@ ${query(i)}`,
      )
      .join('\n    UNION ALL ')}
  ), matched AS (
    SELECT url_id FROM hit GROUP BY url_id HAVING count(*) = ${n}
  ), tf AS (
    ${phrases
      .map((_, i) => counts(i, 'matched m JOIN page_terms p ON p.url_id = m.url_id'))
      .join('\n    UNION ALL ')}`;
  return `WITH ${head}
  ), tot AS (
    SELECT count(*)::float8 AS n, coalesce(sum(doc_len), 0)::float8 AS tokens FROM page_text
  ), idf AS (
    -- FTS5's floor: a term in more than half of the pages weighs almost nothing.
    SELECT d.i, CASE WHEN l.v > 0 THEN l.v ELSE 1e-6 END AS v
    FROM (SELECT i, count(*)::float8 AS n FROM hit GROUP BY i) d
    CROSS JOIN tot
    CROSS JOIN LATERAL (SELECT ln((tot.n - d.n + 0.5) / (d.n + 0.5)) AS v) l
  ), s AS (
    -- FTS5's operations in FTS5's order (idf times the quotient, terms summed in query
    -- order): the same BM25 to the last bit, so that ties break alike on both stores.
    SELECT m.url_id, coalesce(sum(
      idf.v * ((tf.f * (1.2 + 1.0)) / (tf.f + 1.2 * (1 - 0.75 + 0.75 * x.doc_len / (tot.tokens / tot.n))))
      ${n > 1 ? 'ORDER BY tf.i' : ''}
    ), 0)::float8 AS bm25
    FROM matched m
    JOIN page_text x ON x.url_id = m.url_id
    CROSS JOIN tot
    LEFT JOIN tf ON tf.url_id = m.url_id
    LEFT JOIN idf ON idf.i = tf.i
    GROUP BY m.url_id
  ), b AS (
    SELECT url_id, bm25, max(bm25) OVER () AS max_bm25 FROM s
  ), top AS (
    SELECT b.url_id, b.bm25, b.max_bm25, p.title, p.relevance, p.page_rank, p.score,
      row_number() OVER (ORDER BY
        (1 - ${w}) * CASE WHEN b.max_bm25 > 0 THEN b.bm25 / b.max_bm25 ELSE 0 END
          + ${w} * coalesce(p.score, p.relevance) DESC, b.url_id) AS o
    FROM b JOIN pages p ON p.url_id = b.url_id
    ORDER BY o LIMIT $${2 * n + 2}::integer
  )
  -- The URLs of the hits returned only.
  SELECT t.url_id AS id, u.url, t.title, t.relevance, t.page_rank, t.score, t.bm25, t.max_bm25
  FROM top t JOIN urls u ON u.id = t.url_id ORDER BY t.o`;
}

/** The parameters of `searchSql`. */
function searchParams(
  phrases: readonly (readonly string[])[],
  scoreWeight: number,
  limit: number,
): unknown[] {
  return [...phrases.flatMap((p) => [tsquery(p), p]), scoreWeight, limit];
}

/** The index's lexemes of each query term (a phrase when several); null when one cannot match. */
function phrasesOf(terms: readonly string[]): string[][] | null {
  const out: string[][] = [];
  for (const term of terms) {
    const lex = lexemes(segmentForIndex(term));
    if (lex.length === 0) continue;
    if (!lex.every(storable)) return null;
    out.push(lex);
  }
  return out.length === 0 ? null : out;
}

/** A phrase as a tsquery: its lexemes one after the other. */
function tsquery(phrase: readonly string[]): string {
  return phrase.map(quoteLexeme).join(' <-> ');
}

async function hits(
  q: Sql,
  phrases: readonly (readonly string[])[],
  scoreWeight: number,
  limit: number,
): Promise<TextHit[]> {
  const rows = await q<HitRow & Record<string, unknown>>(
    searchSql(phrases),
    searchParams(phrases, scoreWeight, limit),
  );
  if (rows.length === 0) return [];
  const texts = await q<{ url_id: number; text: string }>(
    'SELECT url_id, text FROM page_text WHERE url_id = ANY($1::bigint[])',
    [rows.map((r) => r.id)],
  );
  const byId = new Map(texts.map((t) => [t.url_id, t.text]));
  return rows.map((r) => textHit(r, scoreWeight, snippetOf(byId.get(r.id) ?? '', phrases)));
}

export function searchMethods(db: PgDb): Pick<SearchIndex, keyof SearchIndex> {
  return {
    async search(options) {
      const o = checkSearch('search options', options);
      const phrases = phrasesOf(o.terms);
      // One snapshot: the hits and the texts their snippets are cut from agree.
      return db.read('search', (q) =>
        phrases === null ? Promise.resolve([]) : hits(q, phrases, o.scoreWeight, o.limit),
      );
    },

    async textCoverage() {
      const [row] = await db.query<{ kept: number; indexed: number }>(
        'textCoverage',
        `SELECT count(*) AS kept, count(t.url_id) AS indexed
         FROM urls u JOIN pages p ON p.url_id = u.id LEFT JOIN page_text t ON t.url_id = u.id
         WHERE u.state = ${KEPT}`,
      );
      return { kept: row?.kept ?? 0, indexed: row?.indexed ?? 0 };
    },

    async unindexedPages(options) {
      const o = checkUnindexedOptions('unindexedPages options', options);
      const after = o.after;
      return db.read('unindexedPages', async (q) => {
        let afterId = 0;
        if (after !== undefined) {
          const [found] = await q<{ id: number }>('SELECT id FROM urls WHERE url_key = $1', [
            urlKey(after),
          ]);
          if (found === undefined) {
            throw new InvalidOptionError(
              `unindexedPages options.after: ${after} is not in the store`,
            );
          }
          afterId = found.id;
        }
        const rows = await q<{ url: string; content_type: string | null; has_body: boolean }>(
          `SELECT u.url, p.content_type, p.body_file IS NOT NULL AS has_body
           FROM urls u JOIN pages p ON p.url_id = u.id
           WHERE u.state = ${KEPT} AND u.id > $1
             AND NOT EXISTS (SELECT 1 FROM page_text t WHERE t.url_id = u.id)
           ORDER BY u.id LIMIT $2`,
          [afterId, o.limit],
        );
        return rows.map(
          (r): UnindexedPage => ({ url: r.url, contentType: r.content_type, hasBody: r.has_body }),
        );
      });
    },

    async indexTexts(items) {
      checkPageTexts('indexTexts', items);
      // Which items are kept pages not indexed yet, read first so that their texts are
      // tokenised outside the transaction; the insert skips any indexed meanwhile.
      const found =
        items.length === 0
          ? []
          : await db.query<{ id: number; url: string }>(
              'indexTexts',
              `SELECT u.id, u.url FROM urls u
               WHERE u.url_key = ANY($1::uuid[]) AND u.state = ${KEPT}
                 AND NOT EXISTS (SELECT 1 FROM page_text t WHERE t.url_id = u.id)`,
              [[...new Set(items.map((t) => urlKey(t.url)))]],
            );
      const ids = new Map(found.map((r) => [r.url, r.id]));
      const pages: PageTextRow[] = [];
      for (const t of items) {
        const id = ids.get(t.url);
        if (id === undefined) continue;
        ids.delete(t.url); // a URL listed twice is indexed from its first item
        pages.push({ urlId: id, text: prepareText(t.title, t.text) });
      }
      return db.tx('indexTexts', async (q) => (await writePageTexts(q, pages, false)).size);
    },
  };
}
