/** The prepared statements of the SQLite store's writes. */
import type Sqlite from 'better-sqlite3';
import type { ClaimedUrl } from './types.js';

type Database = Sqlite.Database;
type S<P extends unknown[] | object = unknown[], R = unknown> = Sqlite.Statement<P, R>;

export interface ScoreParams {
  id: number;
  setRank: number;
  rank: number | null;
  setScore: number;
  score: number | null;
}

export interface Writes {
  nextId: S<[], number>;
  setNextId: S;
  insert: S;
  /**
   * Records a new URL in a given state, with the depth, priority, value, parent,
   * anchor and context of another (a redirect's hop or target, like the claimed
   * URL): (id, url, hash, state, discovered_at, like id).
   */
  insertLike: S;
  /** Makes a URL a redirect to another: (target id or null, id). */
  setRedirect: S;
  /** Raises a waiting URL: its priority and value together, and its context when given. */
  raise: S;
  /** Sets a waiting URL's priority (and value, when not null): (priority, value, id) → its URL. */
  reprioritize: S<[number, number | null, number], string>;
  claim: S<[number], ClaimedUrl>;
  /** claim of one queue: (of, index, n). */
  claimQueue: S<[number, number, number], ClaimedUrl>;
  /** Puts the waiting URLs whose retry time has come (now) back in reach of `claim`. */
  releaseDue: S<[number]>;
  /** A failed attempt put back: (retry time, id) → the URL's failed attempts, this one included. */
  retry: S<[number, number], number>;
  /** Counts a failed attempt that ended the URL: (id) → its failed attempts. */
  addAttempt: S<[number], number>;
  setState: S;
  /** Claims a waiting URL: (lease id or null, id). */
  claimRow: S;
  requeue: S;
  trim: S;
  counter: S;
  waitingCount: S<[], number>;
  host: S;
  page: S;
  /** The full-text index of kept pages: (url id, title, segmented text). */
  text: S;
  /** The indexed text of a page kept without its body, for snippets: (url id, text, url id). */
  bodilessText: S;
  /** Keeps the indexed text of a page stored without its body: (url id, text). */
  keepText: S;
  links: S;
  /** Deletes a page's extracted fields: (url id). */
  clearFields: S;
  /** An extracted field value: (url id, rule set, field, position, value). */
  field: S;
  /** (url id, fetched at, status, state, relevance, depth, error, location, attempt, retry at, fetch ms) */
  history: S;
  seed: S;
  clearKeywords: S;
  keyword: S;
  setMeta: S;
  deleteMeta: S;
  scores: S<ScoreParams>;
}

/** A row found through the URL index. */
export interface FoundUrl {
  id: number;
  url: string;
  state: number;
  depth: number;
  priority: number;
  /** Failed attempts recorded (read from the database; 0 in the cache's new rows). */
  attempts: number;
}

/** Finds a URL through its hash, telling apart URLs whose hashes collide. */
export function prepareFind(db: Database, hashUrl: (url: string) => number) {
  const stmt = db.prepare<[number], FoundUrl>(
    'SELECT id, url, state, depth, priority, attempts FROM urls WHERE url_hash = ?',
  );
  return (url: string): FoundUrl | undefined => {
    for (const row of stmt.all(hashUrl(url))) if (row.url === url) return row;
    return undefined;
  };
}

/** The columns of a claimed URL, and the tables they come from. */
const CLAIMED =
  'u.id, u.url, u.depth, u.priority, u.value, p.url AS parent, u.context, u.attempts FROM urls u LEFT JOIN urls p ON p.id = u.parent_id';

/**
 * Indexes a kept page's segmented title and text (schema V12: the index keeps no copy).
 * The text is kept in `page_texts` when the page's body is not stored (`body` false;
 * 'look': the page's row says), so that its snippet can be cut from it; a page with a
 * body file gets its snippet from the body, whatever `page_texts` holds.
 */
export function writeText(
  w: Writes,
  id: number,
  title: string,
  text: string,
  body: boolean | 'look',
): void {
  w.text.run(id, title, text);
  if (body === 'look') w.bodilessText.run(id, text, id);
  else if (!body) w.keepText.run(id, text);
}

export function prepareWrites(db: Database): Writes {
  return {
    nextId: db.prepare<[], number>("SELECT n FROM counters WHERE name = 'next_id'").pluck(),
    setNextId: db.prepare("UPDATE counters SET n = ? WHERE name = 'next_id'"),
    insert: db.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)',
    ),
    insertLike: db.prepare(
      `INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at)
       SELECT ?, ?, ?, ?, depth, priority, value, parent_id, anchor, context, ? FROM urls WHERE id = ?`,
    ),
    setRedirect: db.prepare('UPDATE urls SET state = 5, redirect_id = ? WHERE id = ?'),
    raise: db.prepare(
      'UPDATE urls SET priority = ?, value = ?, context = coalesce(?, context) WHERE id = ? AND state = 0',
    ),
    reprioritize: db
      .prepare<[number, number | null, number], string>(
        'UPDATE urls SET priority = ?, value = coalesce(?, value) WHERE id = ? AND state = 0 RETURNING url',
      )
      .pluck(),
    // Walks urls_waiting, which leaves out the URLs waiting for their retry time.
    claim: db.prepare<[number], ClaimedUrl>(
      `SELECT ${CLAIMED} WHERE u.state = 0 AND u.retry_at IS NULL ORDER BY u.priority DESC, u.id LIMIT ?`,
    ),
    // Walks urls_waiting in order like claim, skipping the other queues' URLs.
    claimQueue: db.prepare<[number, number, number], ClaimedUrl>(
      `SELECT ${CLAIMED} WHERE u.state = 0 AND u.retry_at IS NULL AND u.id % ? = ? ORDER BY u.priority DESC, u.id LIMIT ?`,
    ),
    // Walks urls_retry from its first entry to the first one still to come.
    releaseDue: db.prepare<[number]>(
      'UPDATE urls SET retry_at = NULL WHERE state = 0 AND retry_at <= ?',
    ),
    retry: db
      .prepare<[number, number], number>(
        'UPDATE urls SET state = 0, attempts = attempts + 1, retry_at = ? WHERE id = ? RETURNING attempts',
      )
      .pluck(),
    addAttempt: db
      .prepare<[number], number>(
        'UPDATE urls SET attempts = attempts + 1 WHERE id = ? RETURNING attempts',
      )
      .pluck(),
    setState: db.prepare('UPDATE urls SET state = ? WHERE id = ?'),
    claimRow: db.prepare('UPDATE urls SET state = 1, lease_id = ? WHERE id = ?'),
    requeue: db.prepare('UPDATE urls SET state = 0, priority = coalesce(?, priority) WHERE id = ?'),
    trim: db.prepare(
      'DELETE FROM urls WHERE id IN (SELECT id FROM urls WHERE state = 0 AND retry_at IS NULL ORDER BY priority ASC, id DESC LIMIT ?)',
    ),
    counter: db.prepare('UPDATE counters SET n = n + ? WHERE name = ?'),
    waitingCount: db.prepare<[], number>("SELECT n FROM counters WHERE name = 'waiting'").pluck(),
    host: db.prepare(
      `INSERT INTO hosts (host, discovered, complete, discard, error, bytes, redirect) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (host) DO UPDATE SET discovered = discovered + excluded.discovered,
         complete = complete + excluded.complete, discard = discard + excluded.discard,
         error = error + excluded.error, bytes = bytes + excluded.bytes,
         redirect = redirect + excluded.redirect`,
    ),
    page: db.prepare(
      `INSERT OR REPLACE INTO pages (url_id, fetched_at, status, content_type, bytes, title, relevance,
         content_hash, body_file, simhash, text_hash, duplicate_of, duplicate_kind, duplicate_distance,
         etag, last_modified, modified_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    text: db.prepare('INSERT OR REPLACE INTO page_text (rowid, title, text) VALUES (?, ?, ?)'),
    bodilessText: db.prepare(
      `INSERT OR REPLACE INTO page_texts (url_id, text) SELECT ?, ?
       WHERE EXISTS (SELECT 1 FROM pages WHERE url_id = ? AND body_file IS NULL)`,
    ),
    keepText: db.prepare('INSERT OR REPLACE INTO page_texts (url_id, text) VALUES (?, ?)'),
    links: db.prepare('INSERT OR REPLACE INTO page_links (url_id, links) VALUES (?, ?)'),
    clearFields: db.prepare('DELETE FROM fields WHERE url_id = ?'),
    field: db.prepare(
      'INSERT INTO fields (url_id, rule_set, field, position, value) VALUES (?, ?, ?, ?, ?)',
    ),
    history: db.prepare(
      'INSERT INTO history (url_id, fetched_at, status, state, relevance, depth, error, location, attempt, retry_at, fetch_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    seed: db.prepare(
      'INSERT INTO seeds (url, added_at) VALUES (?, ?) ON CONFLICT (url) DO NOTHING',
    ),
    clearKeywords: db.prepare('DELETE FROM keywords'),
    keyword: db.prepare('INSERT INTO keywords (word, weight) VALUES (?, ?)'),
    setMeta: db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
    deleteMeta: db.prepare('DELETE FROM meta WHERE key = ?'),
    scores: db.prepare<ScoreParams>(
      `UPDATE pages SET page_rank = iif(@setRank, @rank, page_rank), score = iif(@setScore, @score, score)
       WHERE url_id = @id`,
    ),
  };
}
