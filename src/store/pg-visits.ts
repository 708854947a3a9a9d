/**
 * `recordVisits` on PostgreSQL: the visits of claimed pages recorded in one
 * transaction. The claims are locked first (in url id order) and checked there:
 * without a lease every visit must be claimed (else `StoreStateError`, nothing
 * recorded); under a lease the visits it no longer holds are refused. Then, for the
 * held ones: their new URLs queued (as `addUrls` queues them, pg-add.ts), then,
 * set-based, the visit rows, the revisit records, the replaced pages and their
 * bodies (compressed before the transaction; written before it too when they live
 * outside the database, pg-bodies.ts).
 */
import { InvalidOptionError, StoreStateError } from '../errors/index.js';
import { bodyFileName } from './bodies.js';
import { insertUrls } from './pg-add.js';
import { type BodyPlace, packBody, putOutside } from './pg-bodies.js';
import type { Sql } from './pg-db.js';
import { findUrls, urlKey } from './pg-find.js';
import type { RecordVisitsResult, VisitChange, VisitOutcome } from './revisit-types.js';
import type { Tally } from './tally.js';

const CHANGE_CODE: Record<VisitChange, number> = { unchanged: 0, changed: 1, gone: 2, failed: 3 };

/**
 * The key a kept version's body is filed under: its URL and the visit's time; its
 * body name is `bodyFileName` of it, as the SQLite store names the version's file
 * (sqlite-revisit-api.ts `versionKey`), so that both stores agree on the names.
 */
export const versionKey = (url: string, at: number): string => `${url}#version-${at}`;

/** Compressed bodies of the visits, by URL, made before the transaction. */
export interface PackedVisitBodies {
  body: Map<string, { name: string; gz: Buffer }>;
  version: Map<string, { name: string; gz: Buffer }>;
}

/** Compresses the visits' bodies; writes them when `place` is outside the database. */
export async function packVisitBodies(
  visits: readonly VisitOutcome[],
  place: BodyPlace,
): Promise<PackedVisitBodies> {
  const out: PackedVisitBodies = { body: new Map(), version: new Map() };
  await Promise.all(
    visits.map(async (v) => {
      const body = v.page?.body;
      if (body === undefined) return;
      const gz = await packBody(body);
      out.body.set(v.url, { name: bodyFileName(v.url), gz });
      if (v.page?.keepVersion)
        out.version.set(v.url, { name: bodyFileName(versionKey(v.url, v.at)), gz });
    }),
  );
  if (!place.inTransaction) {
    await putOutside(
      place,
      [...out.body.values(), ...out.version.values()].map((b) => [b.name, b.gz] as const),
    );
  }
  return out;
}

interface ClaimRow {
  url_id: number;
  url: string;
  claimed: number;
  lease_id: number | null;
}

interface HeldVisit {
  v: VisitOutcome;
  /** Its index in the call. */
  i: number;
  id: number;
}

/**
 * The visits whose claim `lease` holds (without a lease, every visit must be claimed:
 * `StoreStateError`), the others' URLs pushed to `refused`; the claims read with
 * `lock` are locked until the transaction ends.
 */
async function heldVisits(
  q: Sql,
  all: readonly VisitOutcome[],
  lease: number | undefined,
  refused: string[],
  lock: boolean,
): Promise<HeldVisit[]> {
  const claims = new Map<string, ClaimRow>();
  for (const r of await q<ClaimRow & Record<string, unknown>>(
    `SELECT r.url_id, u.url, r.claimed, r.lease_id
     FROM revisits r JOIN urls u ON u.id = r.url_id
     WHERE u.url_key = ANY($1::uuid[]) ORDER BY r.url_id${lock ? ' FOR UPDATE OF r' : ''}`,
    [all.map((v) => urlKey(v.url))],
  ))
    claims.set(r.url, r);
  const held: HeldVisit[] = [];
  all.forEach((v, i) => {
    const row = claims.get(v.url);
    const claimed = row !== undefined && row.claimed === 1;
    if (lease === undefined) {
      if (!claimed)
        throw new StoreStateError(
          `cannot record a visit of ${v.url}: it is not claimed for a revisit`,
          { url: v.url },
        );
    } else if (!claimed || row.lease_id !== lease) {
      refused.push(v.url);
      return;
    }
    held.push({ v, i, id: (row as ClaimRow).url_id });
  });
  return held;
}

/**
 * Before writing bodies outside the database, the visits the transaction is to
 * record: held by `lease`, their new URLs' parents known (or queued by an earlier
 * visit of the call), else the errors the transaction would throw, so that a call
 * that fails or a visit refused leaves the stored bodies as they were. The
 * transaction checks again: a claim taken back meanwhile is refused there.
 */
export async function visitsToRecord(
  q: Sql,
  all: readonly VisitOutcome[],
  lease: number | undefined,
): Promise<VisitOutcome[]> {
  const held = await heldVisits(q, all, lease, [], false);
  const parents = new Set<string>();
  for (const { v } of held) for (const n of v.newUrls ?? []) if (n.parent) parents.add(n.parent);
  const known = parents.size > 0 ? await findUrls(q, [...parents]) : new Map();
  const queued = new Set<string>();
  for (const { v, i } of held) {
    v.newUrls?.forEach((n, j) => {
      if (n.parent !== undefined && !queued.has(n.parent) && !known.has(n.parent)) {
        throw new InvalidOptionError(
          `recordVisits[${i}].newUrls[${j}].parent: ${n.parent} is not a known URL`,
        );
      }
      queued.add(n.url);
    });
  }
  return held.map((h) => h.v);
}

/** Records `all` (checked) in the transaction of `q`, bodies packed by `packVisitBodies`. */
export async function recordVisitsTx(
  q: Sql,
  t: Tally,
  all: readonly VisitOutcome[],
  lease: number | undefined,
  packed: PackedVisitBodies,
  place: BodyPlace,
): Promise<RecordVisitsResult> {
  const refused: string[] = [];
  if (all.length === 0) return { refused, added: 0 };
  const held = await heldVisits(q, all, lease, refused, true);
  if (held.length === 0) return { refused, added: 0 };

  // Visit by visit, as the SQLite store queues them: a URL queued by an earlier visit
  // is known to the later ones (as a parent, or raised).
  let added = 0;
  for (const { v, i, id } of held) {
    if (v.newUrls !== undefined)
      added += await insertUrls(q, t, `recordVisits[${i}].newUrls`, v.newUrls, id);
  }

  const col = <T>(g: (v: VisitOutcome, id: number) => T) => held.map((h) => g(h.v, h.id));
  await q(
    `INSERT INTO visits (url_id, at, status, change, content_hash, text_hash, last_modified,
       error, body_file)
     SELECT id, at, status, change, ch, th, lm, error, bf
     FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::smallint[], $5::text[], $6::text[],
       $7::bigint[], $8::text[], $9::text[]) WITH ORDINALITY
       AS d(id, at, status, change, ch, th, lm, error, bf, ord)
     ORDER BY ord`,
    [
      col((_, id) => id),
      col((v) => v.at),
      col((v) => v.status),
      col((v) => CHANGE_CODE[v.change]),
      col((v) => v.contentHash ?? null),
      col((v) => v.textHash ?? null),
      col((v) => v.lastModifiedMs ?? null),
      col((v) => (v.change === 'failed' ? (v.error ?? 'failed') : null)),
      col((v) => packed.version.get(v.url)?.name ?? null),
    ],
  );

  // A failed visit only moves the due time (and λ̂); the others count as answered.
  await q(
    `UPDATE revisits r SET claimed = 0, lease_id = NULL,
       visits = r.visits + CASE WHEN d.failed THEN 0 ELSE 1 END,
       changes = r.changes + CASE WHEN d.changed THEN 1 ELSE 0 END,
       last_visit_at = CASE WHEN d.failed THEN r.last_visit_at ELSE d.at END,
       last_change_at = CASE WHEN d.changed THEN d.at ELSE r.last_change_at END,
       etag = CASE WHEN NOT d.failed AND d.set_etag THEN d.etag ELSE r.etag END,
       last_modified = CASE WHEN NOT d.failed AND d.set_lm THEN d.lm ELSE r.last_modified END,
       rate = CASE WHEN d.set_rate THEN d.rate ELSE r.rate END,
       due_at = CASE WHEN d.gone THEN NULL ELSE d.due END,
       gone_at = CASE WHEN d.gone THEN d.at ELSE r.gone_at END
     FROM unnest($1::bigint[], $2::bool[], $3::bool[], $4::bool[], $5::bigint[], $6::bool[],
       $7::text[], $8::bool[], $9::text[], $10::bool[], $11::float8[], $12::bigint[])
       AS d(id, failed, changed, gone, at, set_etag, etag, set_lm, lm, set_rate, rate, due)
     WHERE r.url_id = d.id`,
    [
      col((_, id) => id),
      col((v) => v.change === 'failed'),
      col((v) => v.change === 'changed'),
      col((v) => v.change === 'gone'),
      col((v) => v.at),
      col((v) => v.etag !== undefined),
      col((v) => v.etag ?? null),
      col((v) => v.lastModified !== undefined),
      col((v) => v.lastModified ?? null),
      col((v) => v.rate !== undefined),
      col((v) => v.rate ?? null),
      col((v) => v.dueAt),
    ],
  );

  // A changed visit with its new copy replaces the page's fetch fields and its body.
  const pages = held.filter((h) => h.v.change === 'changed' && h.v.page !== undefined);
  if (pages.length > 0) {
    const p = <T>(g: (v: VisitOutcome) => T) => pages.map((h) => g(h.v));
    await q(
      `UPDATE pages p SET fetched_at = d.at, status = d.status, content_type = d.ct,
         bytes = d.bytes, title = d.title, relevance = d.rel, content_hash = d.ch,
         text_hash = d.th, body_file = coalesce(d.bf, p.body_file)
       FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::text[], $5::bigint[], $6::text[],
         $7::float8[], $8::text[], $9::text[], $10::text[])
         AS d(id, at, status, ct, bytes, title, rel, ch, th, bf)
       WHERE p.url_id = d.id`,
      [
        pages.map((h) => h.id),
        p((v) => v.at),
        p((v) => v.page?.status),
        p((v) => v.page?.contentType ?? null),
        p((v) => v.page?.bytes),
        p((v) => v.page?.title ?? null),
        p((v) => v.page?.relevance),
        p((v) => v.contentHash ?? null),
        p((v) => v.textHash ?? null),
        p((v) => packed.body.get(v.url)?.name ?? null),
      ],
    );
  }

  if (!place.inTransaction) return { refused, added }; // written before the transaction
  const bodies: { name: string; gz: Buffer }[] = [];
  for (const { v } of held) {
    const b = packed.body.get(v.url);
    if (b !== undefined) bodies.push(b);
    const k = packed.version.get(v.url);
    if (k !== undefined) bodies.push(k);
  }
  // Sorted by name: two transactions writing the same bodies lock them in one order.
  bodies.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const b of bodies) await place.put(b.name, b.gz, q);
  return { refused, added };
}
