// The "same semantics" check of bench/search-pg.ts: for every query of the mix, the
// pages each store matches (as sets: FTS5's MATCH on SQLite, the tsqueries of the
// store's own tokens on PostgreSQL), and the hits `Store.search` returns on each (URLs
// in order, snippets, each page's BM25) at each limit, at the default scoreWeight
// (0.3) and at 0 (BM25 alone, where ties are likeliest).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type Pg from 'pg';
import { ftsMatch, queryTerms } from '../src/search/index.js';
import { DB_FILE, type Store, type TextHit } from '../src/store/index.js';
import { QUERIES } from './search-mix.mjs';
import { pgMatchSql, tsqueries } from './search-pg-alt.js';

const count = (n: number) => n.toLocaleString('en-US');

interface Compared {
  query: string;
  sqliteMatches: number;
  pgMatches: number;
  sameMatches: boolean;
  sameHits: boolean;
  sameSnippets: boolean;
  /** Largest relative difference of a page's BM25 between the stores. */
  maxBm25Diff: number;
  /** Where the hits first part, for each search that differs. */
  firstDiffs: string[];
}

const hitText = (h: TextHit | undefined) =>
  h === undefined ? 'none' : `${h.url} (BM25 ${h.bm25}, rank ${h.rank})`;

/** Whether both stores give the same hits, and how far the same page's BM25 are apart. */
function compareHits(a: readonly TextHit[], b: readonly TextHit[]) {
  const bm25 = new Map(b.map((h) => [h.url, h.bm25]));
  let diff = 0;
  for (const x of a) {
    const y = bm25.get(x.url);
    if (y !== undefined) {
      diff = Math.max(diff, Math.abs(x.bm25 - y) / Math.max(Math.abs(x.bm25), 1e-12));
    }
  }
  const n = Math.max(a.length, b.length);
  let first = -1;
  for (let i = 0; i < n && first < 0; i++) {
    if (a[i]?.url !== b[i]?.url || a[i]?.snippet !== b[i]?.snippet) first = i;
  }
  return {
    same: a.length === b.length && a.every((h, i) => h.url === b[i]?.url),
    snippets: a.length === b.length && a.every((h, i) => h.snippet === b[i]?.snippet),
    diff,
    first:
      first < 0
        ? undefined
        : `#${first + 1}: SQLite ${hitText(a[first])}, PostgreSQL ${hitText(b[first])}`,
  };
}

async function compareAll(
  sqlite: Store,
  sqliteDir: string,
  pg: Store,
  c: Pg.Client,
  limits: readonly number[],
): Promise<Compared[]> {
  const db = new Database(join(sqliteDir, DB_FILE), { readonly: true });
  const sqliteUrls = db.prepare<[string], { url: string }>(
    'SELECT u.url FROM page_text t JOIN urls u ON u.id = t.rowid WHERE page_text MATCH ?',
  );
  const out: Compared[] = [];
  try {
    for (const query of Object.values(QUERIES).flat()) {
      const a = sqliteUrls
        .all(ftsMatch(queryTerms(query)))
        .map((r) => r.url)
        .sort();
      const tq = tsqueries(query);
      const b = (
        await c.query<{ url: string }>(
          `SELECT u.url FROM urls u WHERE u.id IN (${pgMatchSql(tq.length)})`,
          tq,
        )
      ).rows
        .map((r) => r.url)
        .sort();
      const r: Compared = {
        query,
        sqliteMatches: a.length,
        pgMatches: b.length,
        sameMatches: a.length === b.length && a.every((u, i) => u === b[i]),
        sameHits: true,
        sameSnippets: true,
        maxBm25Diff: 0,
        firstDiffs: [],
      };
      for (const scoreWeight of [0.3, 0]) {
        for (const l of limits) {
          const x = await sqlite.search({ query, limit: l, scoreWeight });
          const y = await pg.search({ query, limit: l, scoreWeight });
          const cmp = compareHits(x, y);
          r.sameHits &&= cmp.same;
          r.sameSnippets &&= cmp.snippets;
          r.maxBm25Diff = Math.max(r.maxBm25Diff, cmp.diff);
          if (cmp.first !== undefined) {
            r.firstDiffs.push(`scoreWeight ${scoreWeight}, limit ${l}: ${cmp.first}`);
          }
        }
      }
      out.push(r);
    }
  } finally {
    db.close();
  }
  return out;
}

/**
 * Compares the SQLite store at `sqliteDir` (open as `sqlite`) with `pg` (`c` on the
 * same schema) and prints, per query, whether they agree, then the queries that differ.
 */
export async function sameSemantics(
  sqlite: Store,
  sqliteDir: string,
  pg: Store,
  c: Pg.Client,
  limits: readonly number[],
): Promise<void> {
  const cmp = await compareAll(sqlite, sqliteDir, pg, c, limits);
  console.log(
    `same semantics: the pages matching each query (as sets), and the hits at limits ${limits.join(' and ')}, scoreWeight 0.3 and 0`,
  );
  for (const r of cmp) {
    console.log(
      `    ${r.query.padEnd(24)} ${count(r.sqliteMatches).padStart(7)} / ${count(r.pgMatches).padStart(7)} matches  ${r.sameMatches ? 'same pages' : 'PAGES DIFFER'}  ${r.sameHits ? 'same hits' : 'HITS DIFFER'}  ${r.sameSnippets ? 'same snippets' : 'SNIPPETS DIFFER'}  BM25 within ${r.maxBm25Diff.toExponential(1)}`,
    );
    for (const d of r.firstDiffs) console.log(`      ${d}`);
  }
  const differ = cmp.filter((r) => !r.sameMatches || !r.sameHits).length;
  console.log(
    `  queries whose matches or hits differ: ${differ} of ${cmp.length}; whose snippets differ: ${cmp.filter((r) => !r.sameSnippets).length}`,
  );
}
