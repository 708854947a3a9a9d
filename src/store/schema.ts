/**
 * The SQLite schema (DESIGN §2) and its forward migrations. The schema version is
 * `PRAGMA user_version`; `PRAGMA application_id` marks the file as a focuscrawl
 * store. States are small integers in `urls.state`; the views `waiting`,
 * `processing`, `complete`, `discard`, `error` show the five queues of DESIGN 1.1.
 */
import type { UrlState } from './types.js';

/** 'FCST' */
export const APPLICATION_ID = 0x46435354;

/** State codes in the `state` columns. */
export const STATE_CODE: Record<UrlState, number> = {
  waiting: 0,
  processing: 1,
  complete: 2,
  discard: 3,
  error: 4,
  redirect: 5,
};
/** Codes of `pages.duplicate_kind`. */
export const DUPLICATE_CODE = { exact: 1, near: 2 } as const;
export const DUPLICATE_KIND: readonly (null | 'exact' | 'near')[] = [null, 'exact', 'near'];

export const STATE_NAME: readonly UrlState[] = [
  'waiting',
  'processing',
  'complete',
  'discard',
  'error',
  'redirect',
];

const V1 = `
CREATE TABLE states (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO states VALUES (0, 'waiting'), (1, 'processing'), (2, 'complete'), (3, 'discard'), (4, 'error');

-- Every known URL. id is taken from counters.next_id: it grows with discovery and
-- is never reused, so it is also the discovery sequence that breaks priority ties.
-- URLs are found through url_hash (a 53-bit hash of url; equal hashes are told
-- apart by url): a far smaller and faster index than one on the text.
CREATE TABLE urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  url_hash INTEGER NOT NULL,
  state INTEGER NOT NULL CHECK (state BETWEEN 0 AND 4),
  depth INTEGER NOT NULL,
  priority REAL NOT NULL,
  parent_id INTEGER,
  anchor TEXT,
  discovered_at INTEGER NOT NULL
);
CREATE INDEX urls_hash ON urls (url_hash);
-- claim and trimWaiting walk this one (entries ordered by priority, then id).
CREATE INDEX urls_waiting ON urls (priority DESC) WHERE state = 0;
-- recover finds the processing URLs without scanning the table.
CREATE INDEX urls_processing ON urls (state) WHERE state = 1;

-- rowid keeps the order in which seeds were given.
CREATE TABLE seeds (url TEXT PRIMARY KEY, added_at INTEGER NOT NULL);
CREATE TABLE keywords (word TEXT PRIMARY KEY, weight REAL NOT NULL) WITHOUT ROWID;
-- JSON values: the crawl's options, topic, start and end times.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE pages (
  url_id INTEGER PRIMARY KEY,
  fetched_at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  content_type TEXT,
  bytes INTEGER NOT NULL,
  title TEXT,
  relevance REAL NOT NULL,
  content_hash TEXT,
  body_file TEXT,
  page_rank REAL,
  score REAL
);

-- The outgoing links of each fetched page: a JSON array of [to, anchor] pairs, one
-- row per page (half the cost of a row per link); the view links shows them as
-- (from, to, anchor) rows.
CREATE TABLE page_links (url_id INTEGER PRIMARY KEY, links TEXT NOT NULL);

-- Every fetch outcome, in the order recorded.
CREATE TABLE history (
  id INTEGER PRIMARY KEY,
  url_id INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  status INTEGER,
  state INTEGER NOT NULL,
  relevance REAL,
  depth INTEGER NOT NULL,
  error TEXT
);
CREATE INDEX history_time ON history (fetched_at);
CREATE INDEX history_url ON history (url_id);

-- Totals kept in step by every transaction: URLs per state, discovered, dropped,
-- fetched, bytes; and the next URL id.
CREATE TABLE counters (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counters (name, n) VALUES
  ('waiting', 0), ('processing', 0), ('complete', 0), ('discard', 0), ('error', 0),
  ('discovered', 0), ('dropped', 0), ('fetched', 0), ('bytes', 0), ('next_id', 1);

CREATE TABLE hosts (
  host TEXT PRIMARY KEY,
  discovered INTEGER NOT NULL DEFAULT 0,
  complete INTEGER NOT NULL DEFAULT 0,
  discard INTEGER NOT NULL DEFAULT 0,
  error INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE VIEW waiting AS
  SELECT id, url, depth, priority, parent_id, anchor, discovered_at FROM urls WHERE state = 0;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, parent_id, anchor, discovered_at FROM urls WHERE state = 1;
CREATE VIEW complete AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 2;
CREATE VIEW discard AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 3;
CREATE VIEW links AS
  SELECT u.url AS "from", j.value ->> 0 AS "to", j.value ->> 1 AS anchor
  FROM page_links l JOIN urls u ON u.id = l.url_id, json_each(l.links) j;
CREATE VIEW error AS
  SELECT u.id, u.url, u.depth, h.fetched_at, h.status, h.error
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  WHERE u.state = 4;
`;

/**
 * Version 2: the number a crawl strategy keeps with each URL (fish-search depth
 * budget, shark-search inherited score, tunnelling Val). Adding a column with a
 * constant default rewrites no row: existing URLs read as 0. The views of the
 * frontier show it. No index: claims by queue (id % of) walk urls_waiting.
 */
const V2 = `
ALTER TABLE urls ADD COLUMN value REAL NOT NULL DEFAULT 0;
DROP VIEW waiting;
DROP VIEW processing;
CREATE VIEW waiting AS
  SELECT id, url, depth, priority, value, parent_id, anchor, discovered_at FROM urls WHERE state = 0;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, value, parent_id, anchor, discovered_at FROM urls WHERE state = 1;
`;

/**
 * Version 3: the text around the link that led to each URL, for a link classifier
 * that rescores the frontier later. A nullable column without a default rewrites no
 * row either: existing URLs read as null, and a URL added without a context stores
 * a null (a byte of the row's header). No index: `scanWaiting` walks the primary
 * key. The views of the frontier show it.
 */
const V3 = `
ALTER TABLE urls ADD COLUMN context TEXT;
DROP VIEW waiting;
DROP VIEW processing;
CREATE VIEW waiting AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at FROM urls WHERE state = 0;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at FROM urls WHERE state = 1;
`;

/**
 * Version 4: duplicates, fingerprints and full-text search.
 * - `pages.simhash`, `pages.text_hash`: the text's SimHash and the hash of its words
 *   (16 hex digits each), so that a resumed crawl rebuilds its duplicate detector
 *   from the store.
 * - `pages.duplicate_of` / `duplicate_kind` (1 exact, 2 near) / `duplicate_distance`:
 *   a page recorded as a duplicate of a kept page, and the counters `dup_exact`,
 *   `dup_near`.
 * - `page_text`: an FTS5 table of the kept pages' titles and texts, rowid = url id.
 *   Text is stored with each character of Chinese (and other unspaced scripts) set
 *   apart as a token of its own (search/segment.ts), so that a query's run of them
 *   is matched as a phrase; `porter unicode61` folds case and diacritics and stems
 *   English words, alike for pages and queries; combining marks (M*) are token
 *   characters, so that Thai vowels and tones stay with their letters.
 */
const V4 = `
ALTER TABLE pages ADD COLUMN simhash TEXT;
ALTER TABLE pages ADD COLUMN text_hash TEXT;
ALTER TABLE pages ADD COLUMN duplicate_of INTEGER;
ALTER TABLE pages ADD COLUMN duplicate_kind INTEGER;
ALTER TABLE pages ADD COLUMN duplicate_distance INTEGER;
INSERT INTO counters (name, n) VALUES ('dup_exact', 0), ('dup_near', 0);
CREATE VIRTUAL TABLE page_text USING fts5(title, text, tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
`;

/**
 * Version 5: redirects. The target of an HTTP redirect is the page: the URLs that
 * redirected are kept in a sixth state, `redirect` (5), and point to their target.
 * - `urls.state`'s CHECK allowed 0 … 4 only, and SQLite cannot alter a CHECK: the
 *   table is rebuilt (same columns in the same order, plus `redirect_id`, the id of
 *   the target), its rows copied with their ids, its indexes and the views that
 *   read it recreated. A target trimmed from the frontier leaves `redirect_id`
 *   pointing at no row; `history.location` keeps its URL.
 * - `history.location`: the target (`Location`) of a redirect row.
 * - `history_errors`: error rows by text, for `stats().errors` without a scan.
 * - counters `redirect` (URLs in the state), `redirects` (redirect rows) and
 *   `responses` (rows that record a response which ended a URL: complete,
 *   discard, error with a status), the last computed from the history.
 * - `hosts.redirect`: redirect rows by host.
 * - the view `redirect`: each redirect URL, its target, when and with which status.
 */
const V5 = `
DROP VIEW waiting;
DROP VIEW processing;
DROP VIEW complete;
DROP VIEW discard;
DROP VIEW links;
DROP VIEW error;
CREATE TABLE urls_v5 (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,
  url_hash INTEGER NOT NULL,
  state INTEGER NOT NULL CHECK (state BETWEEN 0 AND 5),
  depth INTEGER NOT NULL,
  priority REAL NOT NULL,
  parent_id INTEGER,
  anchor TEXT,
  discovered_at INTEGER NOT NULL,
  value REAL NOT NULL DEFAULT 0,
  context TEXT,
  redirect_id INTEGER
);
INSERT INTO urls_v5 (id, url, url_hash, state, depth, priority, parent_id, anchor, discovered_at, value, context)
  SELECT id, url, url_hash, state, depth, priority, parent_id, anchor, discovered_at, value, context FROM urls;
DROP TABLE urls;
ALTER TABLE urls_v5 RENAME TO urls;
CREATE INDEX urls_hash ON urls (url_hash);
CREATE INDEX urls_waiting ON urls (priority DESC) WHERE state = 0;
CREATE INDEX urls_processing ON urls (state) WHERE state = 1;

INSERT INTO states VALUES (5, 'redirect');
ALTER TABLE history ADD COLUMN location TEXT;
CREATE INDEX history_errors ON history (error) WHERE state = 4;
INSERT INTO counters (name, n) VALUES
  ('redirect', 0), ('redirects', 0),
  ('responses', (SELECT count(*) FROM history WHERE state IN (2, 3) OR (state = 4 AND status IS NOT NULL)));
ALTER TABLE hosts ADD COLUMN redirect INTEGER NOT NULL DEFAULT 0;

CREATE VIEW waiting AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at FROM urls WHERE state = 0;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at FROM urls WHERE state = 1;
CREATE VIEW complete AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 2;
CREATE VIEW discard AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 3;
CREATE VIEW links AS
  SELECT u.url AS "from", j.value ->> 0 AS "to", j.value ->> 1 AS anchor
  FROM page_links l JOIN urls u ON u.id = l.url_id, json_each(l.links) j;
CREATE VIEW error AS
  SELECT u.id, u.url, u.depth, h.fetched_at, h.status, h.error
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  WHERE u.state = 4;
CREATE VIEW redirect AS
  SELECT u.id, u.url, coalesce(t.url, h.location) AS redirect_to, h.fetched_at, h.status
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  LEFT JOIN urls t ON t.id = u.redirect_id
  WHERE u.state = 5;
`;

/**
 * Version 6: claims with owners and leases. `leases` holds each open lease (its
 * owner: host, pid, start; and its expiry); `urls.lease_id` the lease a processing
 * URL was claimed under (null: claimed without one, or stale once the URL left
 * processing: it is read only together with state 1). AUTOINCREMENT: a closed
 * lease's id is never handed out again, so a late commit under it cannot match a
 * newer lease. The view `processing` shows the lease.
 */
const V6 = `
CREATE TABLE leases (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
ALTER TABLE urls ADD COLUMN lease_id INTEGER;
DROP VIEW processing;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at, lease_id FROM urls WHERE state = 1;
`;

/**
 * Version 7: revisits (DESIGN 1.3). `revisits` holds each kept page's revisit record
 * (counts, validators, λ̂, next due time, a revisit claim in flight and its lease);
 * `visits` every revisit recorded (change: 0 unchanged, 1 changed, 2 gone, 3 failed;
 * `body_file`: the body of that version, when versions are kept).
 */
const V7 = `
CREATE TABLE revisits (
  url_id INTEGER PRIMARY KEY,
  visits INTEGER NOT NULL DEFAULT 0,
  changes INTEGER NOT NULL DEFAULT 0,
  last_visit_at INTEGER NOT NULL,
  last_change_at INTEGER,
  etag TEXT,
  last_modified TEXT,
  rate REAL,
  due_at INTEGER,
  gone_at INTEGER,
  claimed INTEGER NOT NULL DEFAULT 0,
  lease_id INTEGER
);
CREATE INDEX revisits_due ON revisits (due_at, url_id) WHERE due_at IS NOT NULL AND claimed = 0;
CREATE TABLE visits (
  id INTEGER PRIMARY KEY,
  url_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  status INTEGER,
  change INTEGER NOT NULL,
  content_hash TEXT,
  text_hash TEXT,
  last_modified INTEGER,
  error TEXT,
  body_file TEXT
);
CREATE INDEX visits_url ON visits (url_id, id);
`;

/**
 * Version 8: the validators of a page's first fetch (`FetchedPage.etag`,
 * `lastModified`, `modifiedAt`), so that its first revisit is conditional and the
 * change-rate estimate sees its first Last-Modified. Nullable columns without a
 * default rewrite no row: pages kept before read as null. A revisit's newer
 * validators stay in `revisits`; `claimDue` falls back to these when it has none.
 */
const V8 = `
ALTER TABLE pages ADD COLUMN etag TEXT;
ALTER TABLE pages ADD COLUMN last_modified TEXT;
ALTER TABLE pages ADD COLUMN modified_at INTEGER;
`;

/**
 * Version 9: fields extracted from pages (docs/extract.md), one row per value:
 * `position` orders a field's values, a null `value` says the rule set matched
 * the page but the field got nothing. The key leads with the page, so that a
 * page's fields are replaced by one range delete and `fields()` walks the key in
 * discovery order; WITHOUT ROWID keeps the rows in that key alone. A page kept
 * before the upgrade has no fields.
 */
const V9 = `
CREATE TABLE fields (
  url_id INTEGER NOT NULL,
  rule_set TEXT NOT NULL,
  field TEXT NOT NULL,
  position INTEGER NOT NULL,
  value TEXT,
  PRIMARY KEY (url_id, rule_set, field, position)
) WITHOUT ROWID;
`;

/**
 * Version 10: failed attempts and their retries.
 * - `urls.attempts`: failed attempts recorded for the URL (URLs in error before the
 *   upgrade count one); `urls.retry_at`: a waiting URL put back by a failed attempt is
 *   not claimed before this time. The claim's index, `urls_waiting`, leaves such URLs
 *   out, so that a claim never walks past them: `urls_retry` finds those due, which a
 *   claim puts back in reach (clearing `retry_at`) before it looks.
 * - `history.attempt` (1 for every row before the upgrade), `history.retry_at` (the
 *   retry time of a failed attempt's row), `history.fetch_ms` (how long the fetch
 *   took, when the crawler said; null for rows before the upgrade and redirect hops).
 * - the counter `retries` (error rows of failed attempts put back).
 * - the views `waiting` and `error` show the attempts (and the retry time).
 */
const V10 = `
ALTER TABLE urls ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE urls ADD COLUMN retry_at INTEGER;
UPDATE urls SET attempts = 1 WHERE state = 4;
ALTER TABLE history ADD COLUMN attempt INTEGER NOT NULL DEFAULT 1;
ALTER TABLE history ADD COLUMN retry_at INTEGER;
ALTER TABLE history ADD COLUMN fetch_ms INTEGER;
DROP INDEX urls_waiting;
CREATE INDEX urls_waiting ON urls (priority DESC) WHERE state = 0 AND retry_at IS NULL;
CREATE INDEX urls_retry ON urls (retry_at) WHERE state = 0 AND retry_at IS NOT NULL;
INSERT INTO counters (name, n) VALUES ('retries', 0);
DROP VIEW waiting;
DROP VIEW error;
CREATE VIEW waiting AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at, attempts, retry_at
  FROM urls WHERE state = 0;
CREATE VIEW error AS
  SELECT u.id, u.url, u.depth, h.fetched_at, h.status, h.error, u.attempts
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  WHERE u.state = 4;
`;

/**
 * The host of `url` in SQL: what follows `://` up to the first `/`, `:`, `?` or `#`
 * (an IPv6 address: up to its `]`). The same as `hostOf` for the canonical URLs a
 * crawl stores. Part of version 11: never edit it.
 */
const AFTER_SCHEME = "substr(url, instr(url, '://') + 3)";
const HOST_SQL = `CASE WHEN substr(${AFTER_SCHEME}, 1, 1) = '[' THEN substr(${AFTER_SCHEME}, 1, instr(${AFTER_SCHEME}, ']'))
  ELSE substr(${AFTER_SCHEME}, 1, min(${['/', ':', '?', '#']
    .map((c) => `instr(${AFTER_SCHEME} || '${c}', '${c}')`)
    .join(', ')}) - 1) END`;

/**
 * Version 11: browsing (`listPages`, browse.ts). Pages in order of their relevance,
 * fetch time and final score, through an index each (ending with the URL id, the
 * rowid); `urls.host`, a virtual column (computed when read: no row is rewritten);
 * and the URLs in final states by host and by state (partial indexes: the crawl's
 * inserts of new URLs pay nothing for them).
 */
const V11 = `
ALTER TABLE urls ADD COLUMN host TEXT GENERATED ALWAYS AS (${HOST_SQL}) VIRTUAL;
CREATE INDEX urls_host ON urls (host) WHERE state >= 2;
CREATE INDEX urls_final ON urls (state) WHERE state >= 2;
CREATE INDEX pages_relevance ON pages (relevance);
CREATE INDEX pages_fetched ON pages (fetched_at);
CREATE INDEX pages_score ON pages (score);
`;

/**
 * Version 12: the full-text index keeps no copy of the text. `page_text` becomes a
 * contentless FTS5 table (`content=''`, `contentless_delete=1`: rows can still be
 * replaced when a page is indexed again): its index and BM25 are unchanged, but it no
 * longer stores each kept page's text beside the index, which doubled a full-text
 * crawl's store and was a fifth of its cost. Snippets are cut from the text again:
 * from the page's stored body, parsed as the crawl parsed it, or, for a page kept
 * without its body (`storeBodies: 'none'`), from `page_texts`, which keeps the indexed
 * text of those pages only.
 */
const V12 = `
CREATE VIRTUAL TABLE page_text_v12 USING fts5(title, text, content = '', contentless_delete = 1, tokenize = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'");
INSERT INTO page_text_v12 (rowid, title, text) SELECT rowid, title, text FROM page_text;
CREATE TABLE page_texts (url_id INTEGER PRIMARY KEY, text TEXT NOT NULL);
INSERT INTO page_texts (url_id, text)
  SELECT t.rowid, t.text FROM page_text t JOIN pages p ON p.url_id = t.rowid WHERE p.body_file IS NULL;
DROP TABLE page_text;
ALTER TABLE page_text_v12 RENAME TO page_text;
`;

/**
 * MIGRATIONS[v] brings a store from version v to v + 1; each runs in the same
 * transaction as the version bump. Append only: never edit a released step.
 */
export const MIGRATIONS: readonly string[] = [V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;
