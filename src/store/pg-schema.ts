/**
 * The PostgreSQL schema of a store (docs/scale-out.md) and its forward migrations.
 * A store is one PostgreSQL schema (`?schema=` of the store's URL): several crawls
 * share a database side by side. It keeps what the SQLite store keeps (schema.ts),
 * with the same state codes, shaped for many writers at once:
 * - URL ids come from a sequence (they still grow with discovery and are never
 *   reused); a URL is found through `url_key`, the MD5 of its text as a uuid (16
 *   bytes, one unique index, any URL length).
 * - The totals (`counters`, `hosts`) are spread over slots: each transaction adds
 *   its changes to one slot of its own choosing, so that concurrent writers rarely
 *   wait on one row; readers add the slots up.
 * - Bodies live in `bodies` by default (gzip, stored as they are: no second
 *   compression), under the names a store directory gives its files.
 * - `page_text` and `page_terms` hold the searchable text of kept pages (pg-search.ts).
 * The schema's version is the one row of `schema_info`.
 */

/** The `schema_info.application` of a focuscrawl store. */
export const PG_APPLICATION = 'focuscrawl';

/** Slots the totals are spread over. */
export const COUNTER_SLOTS = 8;

const V1 = `
CREATE TABLE states (code smallint PRIMARY KEY, name text NOT NULL UNIQUE);
INSERT INTO states VALUES (0, 'waiting'), (1, 'processing'), (2, 'complete'), (3, 'discard'),
  (4, 'error'), (5, 'redirect');

CREATE SEQUENCE url_ids;
CREATE TABLE urls (
  id bigint PRIMARY KEY,
  url text NOT NULL,
  url_key uuid NOT NULL UNIQUE,
  state smallint NOT NULL CHECK (state BETWEEN 0 AND 5),
  depth integer NOT NULL,
  priority double precision NOT NULL,
  value double precision NOT NULL DEFAULT 0,
  parent_id bigint,
  anchor text,
  context text,
  discovered_at bigint NOT NULL,
  redirect_id bigint,
  lease_id bigint,
  attempts integer NOT NULL DEFAULT 0,
  retry_at bigint
);
-- claim and trimWaiting walk this one (priority, then discovery order).
CREATE INDEX urls_waiting ON urls (priority DESC, id) WHERE state = 0 AND retry_at IS NULL;
CREATE INDEX urls_retry ON urls (retry_at) WHERE state = 0 AND retry_at IS NOT NULL;
-- recover and closeLease find the processing URLs without scanning the table.
CREATE INDEX urls_processing ON urls (lease_id) WHERE state = 1;
CREATE INDEX urls_state ON urls (state, id);

CREATE TABLE seeds (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  url text PRIMARY KEY,
  added_at bigint NOT NULL
);
CREATE TABLE keywords (word text PRIMARY KEY, weight double precision NOT NULL);
-- JSON values, as text: the crawl's settings, topic, thresholds, models, runs.
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE pages (
  url_id bigint PRIMARY KEY,
  fetched_at bigint NOT NULL,
  status integer NOT NULL,
  content_type text,
  bytes bigint NOT NULL,
  title text,
  relevance double precision NOT NULL,
  content_hash text,
  body_file text,
  page_rank double precision,
  score double precision,
  simhash text,
  text_hash text,
  duplicate_of bigint,
  duplicate_kind smallint,
  duplicate_distance integer,
  etag text,
  last_modified text,
  modified_at bigint
);

-- Compressed bodies (gzip) by name: pages/<md5(url)>.gz, and the kept versions of revisits.
CREATE TABLE bodies (name text PRIMARY KEY, data bytea NOT NULL);
ALTER TABLE bodies ALTER COLUMN data SET STORAGE EXTERNAL;

-- The outgoing links of each fetched page: a JSON array of [to, anchor] pairs.
CREATE TABLE page_links (url_id bigint PRIMARY KEY, links text NOT NULL);

CREATE TABLE history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url_id bigint NOT NULL,
  fetched_at bigint NOT NULL,
  status integer,
  state smallint NOT NULL,
  relevance double precision,
  depth integer NOT NULL,
  error text,
  location text,
  attempt integer NOT NULL DEFAULT 1,
  retry_at bigint,
  fetch_ms integer
);
CREATE INDEX history_time ON history (fetched_at, id);
CREATE INDEX history_url ON history (url_id, id);
CREATE INDEX history_errors ON history (error) WHERE state = 4;

-- Totals kept in step by every transaction, each spread over slots (COUNTER_SLOTS):
-- URLs per state, discovered, dropped, fetched, retries, responses, redirects,
-- bytes, duplicates.
CREATE TABLE counters (
  name text NOT NULL,
  slot smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (name, slot)
);
CREATE TABLE hosts (
  host text NOT NULL,
  slot smallint NOT NULL,
  discovered bigint NOT NULL DEFAULT 0,
  complete bigint NOT NULL DEFAULT 0,
  discard bigint NOT NULL DEFAULT 0,
  error bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  redirect bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (host, slot)
);

-- Each run's pages so far, as its last two renewals reported them (pg-pace.ts), on
-- the database's clock (ms since the epoch): its pace for status.
CREATE TABLE leases (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  pages bigint NOT NULL DEFAULT 0,
  pages_at bigint NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::bigint,
  prev_pages bigint,
  prev_at bigint
);

CREATE TABLE revisits (
  url_id bigint PRIMARY KEY,
  visits integer NOT NULL DEFAULT 0,
  changes integer NOT NULL DEFAULT 0,
  last_visit_at bigint NOT NULL,
  last_change_at bigint,
  etag text,
  last_modified text,
  rate double precision,
  due_at bigint,
  gone_at bigint,
  claimed smallint NOT NULL DEFAULT 0,
  lease_id bigint
);
CREATE INDEX revisits_due ON revisits (due_at, url_id) WHERE due_at IS NOT NULL AND claimed = 0;
CREATE INDEX revisits_claimed ON revisits (lease_id) WHERE claimed = 1;
CREATE TABLE visits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url_id bigint NOT NULL,
  at bigint NOT NULL,
  status integer,
  change smallint NOT NULL,
  content_hash text,
  text_hash text,
  last_modified bigint,
  error text,
  body_file text
);
CREATE INDEX visits_url ON visits (url_id, id);

-- Names in code point order (COLLATE "C"), whatever the database's locale: the order
-- fields() and fieldStats() promise, read straight from the key.
CREATE TABLE fields (
  url_id bigint NOT NULL,
  rule_set text COLLATE "C" NOT NULL,
  field text COLLATE "C" NOT NULL,
  position integer NOT NULL,
  value text,
  PRIMARY KEY (url_id, rule_set, field, position)
);

-- The searchable text of kept pages (pg-search.ts, pg-search-index.ts): title and
-- text as indexed (segmented) and their length in tokens; the key carries the length
-- so that search reads the index's totals from the key alone.
CREATE TABLE page_text (
  url_id bigint NOT NULL,
  title text NOT NULL,
  text text NOT NULL,
  doc_len integer NOT NULL,
  PRIMARY KEY (url_id) INCLUDE (doc_len)
);
-- Their lexemes in parts of one column: positions 1 … core are the part's own, the
-- rest repeat the next part's first tokens (phrases across the cut).
CREATE TABLE page_terms (
  url_id bigint NOT NULL,
  part integer NOT NULL,
  title boolean NOT NULL,
  core integer NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (url_id, part)
);
CREATE INDEX page_terms_tsv ON page_terms USING gin (tsv);

-- Politeness shared by every worker (pg-hosts.ts): when a host's next request may start
-- (ms since the epoch on the database's clock), how many are under way, and until when
-- the latest taker may hold it.
CREATE TABLE host_slots (
  host text PRIMARY KEY,
  next_at bigint NOT NULL,
  active integer NOT NULL DEFAULT 0,
  active_until bigint NOT NULL DEFAULT 0
);

-- Request budgets shared by every process (the budget of watch, pg-pace.ts): a token
-- bucket per name holding at most one token, refilled on the database's clock
-- (refilled_at, ms since the epoch); tokens below 0 are starts already reserved.
CREATE TABLE budget (
  name text PRIMARY KEY,
  tokens double precision NOT NULL,
  refilled_at double precision NOT NULL
);

-- What the workers judged, for the coordinator (pg-coordinator.ts, crawl/coordination.ts):
-- one row a batch, deleted by the coordinator as it takes them.
CREATE TABLE coordination_feed (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  by text NOT NULL,
  at bigint NOT NULL,
  body text NOT NULL
);

CREATE VIEW waiting AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at, attempts, retry_at
  FROM urls WHERE state = 0;
CREATE VIEW processing AS
  SELECT id, url, depth, priority, value, parent_id, anchor, context, discovered_at, lease_id
  FROM urls WHERE state = 1;
CREATE VIEW complete AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 2;
CREATE VIEW discard AS
  SELECT u.id, u.url, p.relevance, u.priority, u.depth, p.fetched_at, p.status, p.title
  FROM urls u JOIN pages p ON p.url_id = u.id WHERE u.state = 3;
CREATE VIEW links AS
  SELECT u.url AS "from", j.value ->> 0 AS "to", j.value ->> 1 AS anchor
  FROM page_links l JOIN urls u ON u.id = l.url_id, json_array_elements(l.links::json) j;
CREATE VIEW error AS
  SELECT u.id, u.url, u.depth, h.fetched_at, h.status, h.error, u.attempts
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  WHERE u.state = 4;
CREATE VIEW redirect AS
  SELECT u.id, u.url, coalesce(t.url, h.location) AS redirect_to, h.fetched_at, h.status
  FROM urls u JOIN history h ON h.id = (SELECT max(id) FROM history WHERE url_id = u.id)
  LEFT JOIN urls t ON t.id = u.redirect_id
  WHERE u.state = 5;
`;

/**
 * The host of `urls.url` (what follows `://` up to the first `/`, `:`, `?` or `#`; an
 * IPv6 address with its brackets): the expression `urls_host` indexes, which a query
 * must write exactly so. Part of version 2: never edit it.
 */
export const PG_HOST_SQL = "substring(u.url from '^[a-z]+://(\\[[^]]*\\]|[^/:?#]*)')";

/**
 * Version 2: browsing (`listPages`, browse.ts, pg-browse.ts). Pages in order of their
 * relevance, fetch time and final score, through an index each ending with the URL
 * id; and the URLs of a host, indexed for the final states only, so that the crawl's
 * inserts of new URLs pay nothing for it. (`urls_state (state, id)` of version 1
 * serves the URLs of a state in id order.)
 */
const V2 = `
CREATE INDEX urls_host ON urls ((${PG_HOST_SQL.replace('u.url', 'url')}), id) WHERE state >= 2;
CREATE INDEX pages_relevance ON pages (relevance, url_id);
CREATE INDEX pages_fetched ON pages (fetched_at, url_id);
CREATE INDEX pages_score ON pages (score, url_id);
`;

/**
 * PG_MIGRATIONS[v] brings a store from version v to v + 1, in the transaction that
 * records the new version. Append only: never edit a released step.
 */
export const PG_MIGRATIONS: readonly string[] = [V1, V2];

/** The PostgreSQL schema version this code writes. */
export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;
