/**
 * `search` on the SQLite store: FTS5 finds the kept pages containing every word and
 * gives their BM25; the hits are ordered by the blend of docs/search.md in one
 * query (the best BM25 among all matches comes from a window function), and
 * snippets are cut (search/snippet.ts) for the hits returned only. The index's
 * coverage: the kept pages without a row in it (kept while full text was off), and
 * their texts put in later.
 */
import type { Database, Statement } from 'better-sqlite3';
import {
  blendScore,
  cutSnippet,
  ftsMatch,
  MARKS,
  segmentForIndex,
  unsegment,
} from '../search/index.js';
import { STATE_CODE } from './schema.js';
import type { UrlIndex } from './sqlite-urls.js';
import type { PageText, TextCoverage, UnindexedPage } from './text-types.js';
import type { TextHit, TextSearch } from './types.js';
import { checkSearch } from './validate.js';

const KEPT = STATE_CODE.complete;

/** Weights of bm25(): a word in the title counts twice one in the text. */
const BM25_WEIGHTS = '2.0, 1.0';

interface HitRow {
  id: number;
  url: string;
  title: string | null;
  relevance: number;
  page_rank: number | null;
  score: number | null;
  bm25: number;
  max_bm25: number;
}

export class SqliteSearch {
  readonly #hits: Statement<[{ match: string; w: number; limit: number }], HitRow>;
  readonly #snippets: Statement<[string, string], { id: number; snippet: string }>;
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
    this.#snippets = db.prepare(
      `SELECT rowid AS id, highlight(page_text, 1, char(57344), char(57345)) AS snippet
       FROM page_text WHERE page_text MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
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
      ix.w.text.run(found.id, segmentForIndex(t.title ?? ''), segmentForIndex(t.text));
      n++;
    }
    return n;
  }

  search(options: TextSearch): TextHit[] {
    const o = checkSearch('search options', options);
    const { terms } = o;
    const match = ftsMatch(terms);
    const rows = this.#hits.all({ match, w: o.scoreWeight, limit: o.limit });
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((r) => r.id));
    const snippets = new Map(this.#snippets.all(match, ids).map((r) => [r.id, r.snippet]));
    return rows.map((r) => ({
      url: r.url,
      title: r.title,
      relevance: r.relevance,
      pageRank: r.page_rank,
      score: r.score,
      bm25: r.bm25,
      rank: blendScore(r.bm25, r.max_bm25, r.score ?? r.relevance, o.scoreWeight),
      snippet: unsegment(cutSnippet(snippets.get(r.id) ?? ''), MARKS),
    }));
  }
}
