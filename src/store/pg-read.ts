/**
 * The PostgreSQL store's records (history, pages, URLs, bodies, scores, statistics),
 * its link graph and its run records (keywords, named JSON values). Iterations
 * stream through a cursor (`PgDb.stream`): one snapshot per iteration, a batch of
 * rows at a time, never a whole table in memory.
 */
import { InvalidOptionError, StoreError, StoreStateError } from '../errors/index.js';
import { decompressBody } from './bodies.js';
import type { LinkGraph, Records, RunRecords } from './contracts.js';
import type { BodyPlace } from './pg-bodies.js';
import type { PgDb, Row } from './pg-db.js';
import { urlKey } from './pg-find.js';
import { statsOf } from './pg-read-stats.js';
import { historyRecord, pageRecord, urlRecord } from './rows.js';
import { STATE_CODE } from './schema.js';
import type { LinkRecord, UrlState } from './types.js';
import * as v from './validate.js';

const HISTORY_SQL = `SELECT u.url, h.fetched_at, h.status, h.state, h.relevance, h.depth, h.error,
    h.location, h.attempt, h.retry_at, h.fetch_ms
  FROM history h JOIN urls u ON u.id = h.url_id ORDER BY h.fetched_at, h.id`;

const PAGES_SQL = `SELECT u.url, u.state, u.depth, p.fetched_at, p.status, p.content_type, p.bytes,
    p.title, p.relevance, p.content_hash, p.body_file, p.page_rank, p.score, p.simhash,
    p.text_hash, d.url AS duplicate_of, p.duplicate_kind, p.duplicate_distance, p.etag,
    p.last_modified, p.modified_at
  FROM pages p JOIN urls u ON u.id = p.url_id LEFT JOIN urls d ON d.id = p.duplicate_of
  ORDER BY p.url_id`;

// A redirect's target by its id, or, when the target was trimmed from the frontier
// since, by the location its last history row recorded.
const URLS_SQL = (where: string) => `SELECT u.id, u.url, u.state, u.depth, u.priority, u.value,
    p.url AS parent, u.anchor, u.context, u.discovered_at, u.attempts, u.retry_at,
    CASE WHEN u.state = ${STATE_CODE.redirect} THEN coalesce(
      (SELECT url FROM urls WHERE id = u.redirect_id),
      (SELECT location FROM history WHERE url_id = u.id AND state = ${STATE_CODE.redirect}
       ORDER BY id DESC LIMIT 1)
    ) END AS redirect_to
  FROM urls u LEFT JOIN urls p ON p.id = u.parent_id ${where} ORDER BY u.id`;

const LINKS_SQL = `SELECT u.url, l.links FROM page_links l JOIN urls u ON u.id = l.url_id
  ORDER BY l.url_id`;

async function* mapRows<R, T>(rows: AsyncIterable<Row>, f: (r: R) => T): AsyncGenerator<T> {
  for await (const r of rows) yield f(r as R);
}

async function* linkRecords(rows: AsyncIterable<Row>): AsyncGenerator<LinkRecord> {
  for await (const r of rows) {
    const { url, links } = r as { url: string; links: string };
    for (const [to, anchor] of JSON.parse(links) as [string, string | null][]) {
      yield { from: url, to, anchor };
    }
  }
}

/** Score changes of one page: a field given sets it (null clears it), one left out keeps it. */
interface ScoreChange {
  setRank: boolean;
  rank: number | null;
  setScore: boolean;
  score: number | null;
}

export function readMethods(
  db: PgDb,
  place: BodyPlace,
): Pick<Records & LinkGraph & RunRecords, keyof Records | keyof LinkGraph | keyof RunRecords> {
  return {
    history() {
      return mapRows(db.stream('history', HISTORY_SQL), historyRecord);
    },

    pages() {
      return mapRows(db.stream('pages', PAGES_SQL), pageRecord);
    },

    urls(state?: UrlState) {
      if (state !== undefined && !Object.hasOwn(STATE_CODE, state)) {
        throw new InvalidOptionError(`urls(state): unknown state ${JSON.stringify(state)}`);
      }
      const rows =
        state === undefined
          ? db.stream('urls', URLS_SQL(''))
          : db.stream('urls', URLS_SQL('WHERE u.state = $1'), [STATE_CODE[state]]);
      return mapRows(rows, urlRecord);
    },

    links() {
      return linkRecords(db.stream('links', LINKS_SQL));
    },

    async readBody(url) {
      v.checkUrl('readBody', url);
      const [row] = await db.query<{ body_file: string | null; data: Buffer | null }>(
        'readBody',
        `SELECT p.body_file, b.data FROM urls u JOIN pages p ON p.url_id = u.id
         LEFT JOIN bodies b ON b.name = p.body_file
         WHERE u.url_key = $1 AND u.url = $2`,
        [urlKey(url), url],
      );
      if (row === undefined || row.body_file === null) return null;
      // A body outside the database: read from its place (the join found no row).
      const data = row.data ?? (place.inTransaction ? null : await place.get(row.body_file));
      if (data === null) {
        throw new StoreError(
          `cannot read the body of ${url}: ${place.inTransaction ? db.location : place.shown} has no body ${row.body_file}`,
          { url },
        );
      }
      return decompressBody(
        data,
        `${place.inTransaction ? db.location : place.shown} body ${row.body_file}`,
      );
    },

    async setPageScores(items) {
      v.checkScores('setPageScores', items);
      // In the order given; a URL given twice has its later fields applied over its earlier.
      const changes = new Map<string, ScoreChange>();
      for (const s of items) {
        let c = changes.get(s.url);
        if (c === undefined) {
          c = { setRank: false, rank: null, setScore: false, score: null };
          changes.set(s.url, c);
        }
        if (s.pageRank !== undefined) {
          c.setRank = true;
          c.rank = s.pageRank;
        }
        if (s.score !== undefined) {
          c.setScore = true;
          c.score = s.score;
        }
      }
      await db.tx('setPageScores', async (q) => {
        if (changes.size === 0) return;
        const urls = [...changes.keys()];
        // Locked by id, one order for every writer.
        const rows = await q<{ url: string; url_id: number }>(
          `SELECT u.url, p.url_id FROM urls u JOIN pages p ON p.url_id = u.id
           WHERE u.url_key = ANY($1::uuid[]) ORDER BY p.url_id FOR UPDATE OF p`,
          [urls.map(urlKey)],
        );
        const ids = new Map(rows.map((r) => [r.url, r.url_id]));
        for (const url of urls) {
          if (!ids.has(url)) {
            throw new StoreStateError(`cannot score ${url}: it is not a fetched page`, { url });
          }
        }
        const list = [...changes];
        await q(
          `UPDATE pages p SET
             page_rank = CASE WHEN d.set_rank THEN d.rank ELSE p.page_rank END,
             score = CASE WHEN d.set_score THEN d.score ELSE p.score END
           FROM unnest($1::bigint[], $2::boolean[], $3::float8[], $4::boolean[], $5::float8[])
             AS d(id, set_rank, rank, set_score, score)
           WHERE p.url_id = d.id`,
          [
            list.map(([url]) => ids.get(url)),
            list.map(([, c]) => c.setRank),
            list.map(([, c]) => c.rank),
            list.map(([, c]) => c.setScore),
            list.map(([, c]) => c.score),
          ],
        );
      });
    },

    async stats(options) {
      const top = v.checkTopHosts('stats options', options);
      return db.read('stats', (q) => statsOf(q, top));
    },

    async setKeywords(keywords) {
      const entries = v.checkKeywords('setKeywords', keywords);
      await db.tx('setKeywords', async (q) => {
        // One writer at a time (readers go on): two processes starting together would
        // both find the table empty and insert the same words.
        await q('LOCK TABLE keywords IN SHARE ROW EXCLUSIVE MODE');
        await q('DELETE FROM keywords');
        if (entries.length === 0) return;
        // A word given twice (a Map and an object cannot, but be safe) keeps its last weight.
        const last = new Map(entries);
        await q(
          'INSERT INTO keywords (word, weight) SELECT * FROM unnest($1::text[], $2::float8[])',
          [[...last.keys()], [...last.values()]],
        );
      });
    },

    async getKeywords() {
      const rows = await db.query<{ word: string; weight: number }>(
        'getKeywords',
        'SELECT word, weight FROM keywords ORDER BY weight DESC, word COLLATE "C"',
      );
      return new Map(rows.map((r) => [r.word, r.weight]));
    },

    async setMeta(key, value) {
      v.checkMetaKey('setMeta', key);
      const json = value === undefined ? undefined : v.metaJson(`setMeta ${key}`, value);
      await db.tx('setMeta', async (q) => {
        if (json === undefined) await q('DELETE FROM meta WHERE key = $1', [key]);
        else {
          await q(
            'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
            [key, json],
          );
        }
      });
    },

    async getMeta<T = unknown>(key: string) {
      v.checkMetaKey('getMeta', key);
      const [row] = await db.query<{ value: string }>(
        'getMeta',
        'SELECT value FROM meta WHERE key = $1',
        [key],
      );
      return row === undefined ? undefined : (JSON.parse(row.value) as T);
    },
  };
}
