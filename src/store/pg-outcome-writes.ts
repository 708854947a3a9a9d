/**
 * Writing a commit plan (pg-outcomes.ts) in set-based statements, one per table
 * whatever the number of outcomes. The new URLs go in one INSERT in url_key order;
 * the stored URLs it changes were locked in id order before the plan was made, so
 * after the INSERT a commit waits on no other.
 */
import type { FieldValue } from './field-types.js';
import { type BodyPlace, putOutside } from './pg-bodies.js';
import type { Sql } from './pg-db.js';
import { putFields } from './pg-fields.js';
import { findUrls, urlKey } from './pg-find.js';
import type { CommitPlan, PlanHistory, PlanPage, PlanUrl } from './pg-outcomes.js';
import { writePageTexts } from './pg-search-index.js';
import { DUPLICATE_CODE, STATE_CODE } from './schema.js';
import type { UrlState } from './types.js';

/** Integer columns whose values the checks allow to be any finite number. */
function int(v: number | null | undefined): number | null {
  return v == null ? null : Math.round(v);
}

const idOf = (r: PlanUrl | number | null | undefined): number | null =>
  r == null ? null : typeof r === 'number' ? r : r.id;

/** PostgreSQL's code of a lock NOWAIT could not take. */
const LOCK_NOT_AVAILABLE = '55P03';

/** A transaction to run again: PostgreSQL's code of a serialization failure (pg-db.ts retries it). */
function rerun(message: string): Error {
  return Object.assign(new Error(message), { code: '40001' });
}

/** Draws the ids of the new URLs, in the order they were found (discovery order). */
async function drawIds(q: Sql, created: readonly PlanUrl[]): Promise<void> {
  const rows = await q<{ id: number }>(
    "SELECT nextval('url_ids') AS id FROM generate_series(1, $1::integer)",
    [created.length],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  created.forEach((u, i) => {
    u.id = ids[i] as number;
  });
}

// Rows in url_key order, so that two commits adding the same URLs wait on each other
// in one order, never in a cycle. A URL added meanwhile by another transaction is
// skipped (DO NOTHING).
const INSERT = `
INSERT INTO urls (id, url, url_key, state, depth, priority, value, parent_id, anchor, context,
  discovered_at, redirect_id, attempts)
SELECT * FROM unnest($1::bigint[], $2::text[], $3::uuid[], $4::smallint[], $5::integer[],
  $6::float8[], $7::float8[], $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::bigint[],
  $13::integer[]) AS d(id, url, k, state, depth, priority, value, parent_id, anchor, context, at,
  redirect_id, attempts)
ORDER BY k
ON CONFLICT (url_key) DO NOTHING
RETURNING id`;

/**
 * Inserts the new URLs of `plan` and counts them. A URL another transaction added
 * meanwhile is taken as known: when the plan only queued it, its raises are applied
 * to the stored row instead; when the plan did more with it (a hop, a target), the
 * plan no longer holds and the transaction runs again.
 */
async function insertNew(q: Sql, plan: CommitPlan): Promise<void> {
  const created = plan.created;
  if (created.length === 0) return;
  await drawIds(q, created);
  const keyed = created.map((u) => [urlKey(u.url), u] as const);
  const col = <T>(f: (u: PlanUrl) => T) => keyed.map(([, u]) => f(u));
  const rows = await q<{ id: number }>(INSERT, [
    col((u) => u.id),
    col((u) => u.url),
    keyed.map(([k]) => k),
    col((u) => u.state),
    col((u) => u.depth),
    col((u) => u.priority),
    col((u) => u.value),
    col((u) => idOf(u.parent)),
    col((u) => u.anchor),
    col((u) => u.context),
    col((u) => int(u.discoveredAt)),
    col((u) => idOf(u.redirectTo)),
    col((u) => u.attempts),
  ]);
  const inserted = new Set(rows.map((r) => r.id));
  const lost = created.filter((u) => !inserted.has(u.id));
  for (const u of created) {
    if (inserted.has(u.id)) plan.t.added(u.url, u.addedAs as UrlState);
  }
  if (lost.length > 0) await takeKnown(q, lost, created, inserted);
}

/** New URLs of the plan another transaction added first (see `insertNew`). */
async function takeKnown(
  q: Sql,
  lost: readonly PlanUrl[],
  created: readonly PlanUrl[],
  inserted: ReadonlySet<number>,
): Promise<void> {
  const mine = created.filter((u) => inserted.has(u.id)).map((u) => u.id);
  const stored = await findUrls(
    q,
    lost.map((u) => u.url),
  );
  const drawn: number[] = [];
  const real: number[] = [];
  for (const u of lost) {
    const row = stored.get(u.url);
    if (u.state !== STATE_CODE.waiting || row === undefined) {
      throw rerun(`${u.url} was added by another transaction meanwhile`);
    }
    drawn.push(u.id);
    real.push(row.id);
    u.id = row.id;
  }
  // New URLs whose parent or target was one of them point at the stored row.
  await q(
    `WITH m AS (SELECT * FROM unnest($2::bigint[], $3::bigint[]) AS m(drawn, real))
     UPDATE urls u SET
       parent_id = coalesce((SELECT real FROM m WHERE m.drawn = u.parent_id), u.parent_id),
       redirect_id = coalesce((SELECT real FROM m WHERE m.drawn = u.redirect_id), u.redirect_id)
     WHERE u.id = ANY($1::bigint[])
       AND (u.parent_id = ANY($2::bigint[]) OR u.redirect_id = ANY($2::bigint[]))`,
    [mine, drawn, real],
  );
  // Their raises apply in turn to the stored rows still waiting, as to known URLs: the
  // highest above the stored priority sets priority and value, the last context given
  // among those above replaces the stored one.
  const raised = lost.filter((u) => {
    const row = stored.get(u.url);
    const top = Math.max(...(u.raises ?? []).map((r) => r.priority));
    return row !== undefined && row.state === STATE_CODE.waiting && row.priority < top;
  });
  if (raised.length === 0) return;
  // This commit's INSERT is done: waiting now for another transaction could close a
  // cycle. A row locked by another is left to a new run of the transaction, which
  // locks it with the others, in order, before its INSERT.
  try {
    await q('SELECT id FROM urls WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE NOWAIT', [
      raised.map((u) => u.id),
    ]);
  } catch (e) {
    if ((e as { code?: string }).code === LOCK_NOT_AVAILABLE)
      throw rerun('a URL to raise is locked');
    throw e;
  }
  const raises = raised.flatMap((u) => (u.raises ?? []).map((r, i) => [u.id, r, i] as const));
  await q(RAISE, [
    raises.map(([id]) => id),
    raises.map(([, r]) => r.priority),
    raises.map(([, r]) => r.value),
    raises.map(([, r]) => r.context),
    raises.map(([, , i]) => i),
  ]);
}

const RAISE = `
WITH c AS (
  SELECT * FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::text[], $5::integer[])
    AS c(id, p, v, ctx, ord)
), m AS (
  SELECT DISTINCT ON (id) id, p, v FROM c ORDER BY id, p DESC
)
UPDATE urls u SET priority = m.p, value = m.v,
  context = coalesce((SELECT c.ctx FROM c WHERE c.id = u.id AND c.p > u.priority
    AND c.ctx IS NOT NULL ORDER BY c.ord DESC LIMIT 1), u.context)
FROM m WHERE u.id = m.id AND u.state = 0 AND u.priority < m.p`;

const CHANGE = `
UPDATE urls u SET state = d.state, attempts = d.attempts, priority = d.priority, value = d.value,
  context = d.context,
  retry_at = CASE WHEN d.set_retry THEN d.retry_at ELSE u.retry_at END,
  redirect_id = CASE WHEN d.set_redirect THEN d.redirect_id ELSE u.redirect_id END
FROM unnest($1::bigint[], $2::smallint[], $3::integer[], $4::float8[], $5::float8[], $6::text[],
    $7::boolean[], $8::bigint[], $9::boolean[], $10::bigint[])
  AS d(id, state, attempts, priority, value, context, set_retry, retry_at, set_redirect, redirect_id)
WHERE u.id = d.id`;

/** Writes the stored URLs the plan changed (all locked by this transaction). */
async function writeChanges(q: Sql, changed: ReadonlySet<PlanUrl>): Promise<void> {
  if (changed.size === 0) return;
  const rows = [...changed].sort((a, b) => a.id - b.id);
  const col = <T>(f: (u: PlanUrl) => T) => rows.map(f);
  await q(CHANGE, [
    col((u) => u.id),
    col((u) => u.state),
    col((u) => u.attempts),
    col((u) => u.priority),
    col((u) => u.value),
    col((u) => u.context),
    col((u) => u.retryAt !== undefined),
    col((u) => int(u.retryAt)),
    col((u) => u.redirectTo !== undefined),
    col((u) => idOf(u.redirectTo)),
  ]);
}

const PAGE_COLUMNS = [
  'fetched_at',
  'status',
  'content_type',
  'bytes',
  'title',
  'relevance',
  'content_hash',
  'body_file',
  'simhash',
  'text_hash',
  'duplicate_of',
  'duplicate_kind',
  'duplicate_distance',
  'etag',
  'last_modified',
  'modified_at',
];

// A page recorded again replaces the whole row, its scores included (as INSERT OR
// REPLACE does in the SQLite store).
const PAGES = `
INSERT INTO pages (url_id, ${PAGE_COLUMNS.join(', ')})
SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::text[], $5::bigint[],
  $6::text[], $7::float8[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[],
  $13::smallint[], $14::integer[], $15::text[], $16::text[], $17::bigint[])
ON CONFLICT (url_id) DO UPDATE SET ${PAGE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')},
  page_rank = NULL, score = NULL`;

async function writePages(q: Sql, rows: readonly PlanPage[]): Promise<void> {
  if (rows.length === 0) return;
  const pages = [...rows].sort((a, b) => a.at.id - b.at.id);
  const col = <T>(f: (r: PlanPage) => T) => pages.map(f);
  await q(PAGES, [
    col((r) => r.at.id),
    col((r) => int(r.page.fetchedAt)),
    col((r) => r.page.status),
    col((r) => r.page.contentType ?? null),
    col((r) => r.page.bytes),
    col((r) => r.page.title ?? null),
    col((r) => r.page.relevance),
    col((r) => r.hash),
    col((r) => r.body),
    col((r) => r.page.simhash ?? null),
    col((r) => r.page.textHash ?? null),
    col((r) => idOf(r.dupOf)),
    col((r) => (r.page.duplicate == null ? null : DUPLICATE_CODE[r.page.duplicate.kind])),
    col((r) => r.page.duplicate?.distance ?? null),
    col((r) => r.page.etag ?? null),
    col((r) => r.page.lastModified ?? null),
    col((r) => int(r.page.modifiedAt)),
  ]);
}

/** The outgoing links of pages (JSON as wire.ts encodes them), replacing earlier ones. */
async function writeLinks(q: Sql, links: ReadonlyMap<PlanUrl, string>): Promise<void> {
  if (links.size === 0) return;
  const rows = [...links].sort((a, b) => a[0].id - b[0].id);
  await q(
    `INSERT INTO page_links (url_id, links) SELECT * FROM unnest($1::bigint[], $2::text[])
     ON CONFLICT (url_id) DO UPDATE SET links = excluded.links`,
    [rows.map(([u]) => u.id), rows.map(([, l]) => l)],
  );
}

/** Replaces the extracted fields of pages. */
function writeFields(q: Sql, fields: ReadonlyMap<PlanUrl, readonly FieldValue[]>): Promise<void> {
  return putFields(
    q,
    [...fields].map(([u, fs]) => [u.id, fs] as const),
  );
}

// In the order given: history ids follow the order of the outcomes.
const HISTORY = `
INSERT INTO history (url_id, fetched_at, status, state, relevance, depth, error, location, attempt,
  retry_at, fetch_ms)
SELECT a, b, c, d, e, f, g, h, i, j, k
FROM unnest($1::bigint[], $2::bigint[], $3::integer[], $4::smallint[], $5::float8[], $6::integer[],
    $7::text[], $8::text[], $9::integer[], $10::bigint[], $11::integer[]) WITH ORDINALITY
  AS x(a, b, c, d, e, f, g, h, i, j, k, ord)
ORDER BY ord`;

async function writeHistory(q: Sql, h: readonly PlanHistory[]): Promise<void> {
  if (h.length === 0) return;
  await q(HISTORY, [
    h.map((r) => r.at.id),
    h.map((r) => int(r.fetchedAt)),
    h.map((r) => r.status),
    h.map((r) => r.state),
    h.map((r) => r.relevance),
    h.map((r) => r.depth),
    h.map((r) => r.error),
    h.map((r) => r.location),
    h.map((r) => r.attempt),
    h.map((r) => int(r.retryAt)),
    h.map((r) => int(r.fetchMs)),
  ]);
}

/** Rows of bodies per INSERT (two parameters each, far below PostgreSQL's 65,535). */
const BODY_ROWS = 1000;

/**
 * Stores compressed bodies by name, replacing any of the same names. Each body is a
 * parameter of its own, sent in binary (in an array it would go as hex text, twice
 * its size).
 */
async function putBodies(q: Sql, bodies: ReadonlyMap<string, Buffer>): Promise<void> {
  const all = [...bodies].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (let from = 0; from < all.length; from += BODY_ROWS) {
    const chunk = all.slice(from, from + BODY_ROWS);
    const values = chunk.map((_, i) => `($${2 * i + 1}, $${2 * i + 2}::bytea)`).join(', ');
    await q(
      `INSERT INTO bodies (name, data) VALUES ${values}
       ON CONFLICT (name) DO UPDATE SET data = excluded.data`,
      chunk.flat(),
    );
  }
}

/**
 * Writes `plan` (inside the commit's transaction); its bodies go to `place`, but for
 * those `written` there before the transaction.
 */
export async function writePlan(
  q: Sql,
  plan: CommitPlan,
  place: BodyPlace,
  written: ReadonlySet<string>,
): Promise<void> {
  await insertNew(q, plan);
  await writeChanges(q, plan.changed);
  await writePages(q, plan.pages);
  await writeLinks(q, plan.links);
  await writeFields(q, plan.fields);
  const texts = plan.texts.map(([u, text]) => ({ urlId: u.id, text }));
  await writePageTexts(q, texts, true);
  await writeHistory(q, plan.history);
  if (place.inTransaction) await putBodies(q, plan.bodies);
  else
    await putOutside(
      place,
      [...plan.bodies].filter(([name]) => !written.has(name)),
    );
}
