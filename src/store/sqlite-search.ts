/**
 * `search` on the SQLite store: FTS5 finds the kept pages containing every word and
 * gives their BM25; the hits are ordered by the blend of docs/search.md in one
 * query (the best BM25 among all matches comes from a window function), and
 * snippets are cut (search/snippet.ts) for the hits returned only. The index's
 * coverage: the kept pages without a row in it (kept while full text was off), and
 * their texts put in later.
 */
import type { Database, Statement } from 'better-sqlite3';
import { ftsMatch, segmentForIndex } from '../search/index.js';
import { STATE_CODE } from './schema.js';
import { type HitRow, textHit } from './search-hits.js';
import { writeText } from './sqlite-statements.js';
import type { UrlIndex } from './sqlite-urls.js';
import type { PageText, TextCoverage, UnindexedPage } from './text-types.js';
import type { TextHit, TextSearch } from './types.js';
import { checkSearch } from './validate.js';

const KEPT = STATE_CODE.complete;

/** Weights of bm25(): a word in the title counts twice one in the text. */
const BM25_WEIGHTS = '2.0, 1.0';

export class SqliteSearch {
  readonly #hits: Statement<[{ match: string; w: number; limit: number }], HitRow>;
  readonly #sources: Statement<[string], SnippetSource & { id: number }>;
  readonly #coverage: Statement<[], TextCoverage>;
  readonly #indexed: Statement<[number], { one: number }>;
  readonly #unindexed: Statement<
    [number, number],
    { url: string; content_type: string | null; has_body: number }
  >;

  constructor(db: Database) {
    // P is the page's score, or its relevance until `rank` has set one.
    this.#hits = db.prepare(
      `WITH m AS (
         SELECT rowid AS id, -bm25(page_text, ${BM25_WEIGHTS}) AS bm25 FROM page_text WHERE page_text MATCH @match
       ), b AS (SELECT id, bm25, max(bm25) OVER () AS max_bm25 FROM m)
       SELECT b.id, u.url, p.title, p.relevance, p.page_rank, p.score, b.bm25, b.max_bm25
       FROM b JOIN pages p ON p.url_id = b.id JOIN urls u ON u.id = b.id
       ORDER BY (1 - @w) * (b.bm25 / b.max_bm25) + @w * coalesce(p.score, p.relevance) DESC, b.id
       LIMIT @limit`,
    );
    this.#sources = db.prepare(
      `SELECT p.url_id AS id, p.content_type, p.body_file, t.text
       FROM pages p LEFT JOIN page_texts t ON t.url_id = p.url_id
       WHERE p.url_id IN (SELECT value FROM json_each(?))`,
    );
    this.#coverage = db.prepare(
      `SELECT count(*) AS kept, count(t.rowid) AS indexed
       FROM urls u JOIN pages p ON p.url_id = u.id LEFT JOIN page_text t ON t.rowid = u.id
       WHERE u.state = ${KEPT}`,
    );
    this.#indexed = db.prepare('SELECT 1 AS one FROM page_text WHERE rowid = ?');
    this.#unindexed = db.prepare(
      `SELECT u.url, p.content_type, p.body_file IS NOT NULL AS has_body
       FROM urls u JOIN pages p ON p.url_id = u.id
       WHERE u.state = ${KEPT} AND u.id > ?
         AND NOT EXISTS (SELECT 1 FROM page_text t WHERE t.rowid = u.id)
       ORDER BY u.id LIMIT ?`,
    );
  }

  coverage(): TextCoverage {
    return { ...(this.#coverage.get() as TextCoverage) };
  }

  /** Up to `limit` kept pages without text, after the URL id `afterId`, in discovery order. */
  unindexed(afterId: number, limit: number): UnindexedPage[] {
    return this.#unindexed.all(afterId, limit).map((r) => ({
      url: r.url,
      contentType: r.content_type,
      hasBody: r.has_body === 1,
    }));
  }

  /** Indexes the texts of `items` that are kept pages not indexed yet (in the caller's transaction). */
  index(ix: UrlIndex, items: readonly PageText[]): number {
    let n = 0;
    for (const t of items) {
      const found = ix.find(t.url);
      if (found === undefined || found.state !== KEPT) continue;
      if (this.#indexed.get(found.id) !== undefined) continue;
      writeText(ix.w, found.id, segmentForIndex(t.title ?? ''), segmentForIndex(t.text), 'look');
      n++;
    }
    return n;
  }

  /**
   * The hits of a search, their snippets empty, and where each snippet's text is: the
   * page's stored body (parsed again by `snippetOf`'s caller) or the text kept for a
   * page stored without its body. The index keeps no text (schema V12).
   */
  search(options: TextSearch): { hits: TextHit[]; sources: SnippetSource[]; terms: string[] } {
    const o = checkSearch('search options', options);
    const { terms } = o;
    const rows = this.#hits.all({ match: ftsMatch(terms), w: o.scoreWeight, limit: o.limit });
    if (rows.length === 0) return { hits: [], sources: [], terms };
    const byId = new Map(
      this.#sources.all(JSON.stringify(rows.map((r) => r.id))).map((r) => [r.id, r]),
    );
    const none: SnippetSource = { content_type: null, body_file: null, text: null };
    return {
      hits: rows.map((r) => textHit(r, o.scoreWeight, '')),
      sources: rows.map((r) => byId.get(r.id) ?? none),
      terms,
    };
  }
}

/** Where a hit's snippet is cut from: its kept text, or its stored body. */
export interface SnippetSource {
  content_type: string | null;
  body_file: string | null;
  /** The indexed (segmented) text, kept for pages stored without their body (used when there is none). */
  text: string | null;
}
