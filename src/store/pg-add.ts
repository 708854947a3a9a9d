/**
 * Queuing URLs in a PostgreSQL store, inside the caller's write transaction: the
 * `addUrls` of the frontier, `addSeeds`, and the new URLs a commit discovers. Set
 * based: one INSERT for the unknown URLs and one UPDATE for the known waiting ones,
 * whatever the number of items.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { Sql } from './pg-db.js';
import { findUrls, urlKey } from './pg-find.js';
import type { Tally } from './tally.js';
import type { NewUrl } from './types.js';

/** One raise of a URL within a call: a priority higher than every earlier one. */
interface Raise {
  priority: number;
  value: number;
  context: string | null;
}

/** A distinct URL of a call: its first item, and the raises of the items after it. */
interface Entry {
  url: string;
  key: string;
  depth: number;
  anchor: string | null;
  discoveredAt: number;
  parentId: number | null;
  /** A parent that is an earlier item of the same call, unknown before it: its id comes after the insert. */
  parentUrl: string | null;
  /** The first item, then each later one whose priority beats all before it. */
  raises: Raise[];
}

/**
 * Groups `items` by URL, in the order of their first item, and finds their parents:
 * an explicit parent must be known, or be an earlier item of the call (as when the
 * items are applied one by one); otherwise `InvalidOptionError` names the item.
 */
async function entries(
  q: Sql,
  where: string,
  items: readonly NewUrl[],
  defaultParent: number | null,
  now: number,
): Promise<Entry[]> {
  const parents = new Set<string>();
  for (const it of items) if (it.parent !== undefined) parents.add(it.parent);
  const known = parents.size > 0 ? await findUrls(q, [...parents]) : new Map();
  const byUrl = new Map<string, Entry>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as NewUrl;
    let parentId = defaultParent;
    let parentUrl: string | null = null;
    if (it.parent !== undefined) {
      const p = known.get(it.parent);
      if (p !== undefined) parentId = p.id;
      else if (byUrl.has(it.parent)) {
        parentId = null;
        parentUrl = it.parent;
      } else {
        throw new InvalidOptionError(`${where}[${i}].parent: ${it.parent} is not a known URL`);
      }
    }
    const raise = { priority: it.priority, value: it.value ?? 0, context: it.context ?? null };
    const e = byUrl.get(it.url);
    if (e === undefined) {
      byUrl.set(it.url, {
        url: it.url,
        key: urlKey(it.url),
        depth: it.depth,
        anchor: it.anchor ?? null,
        discoveredAt: it.discoveredAt ?? now,
        parentId,
        parentUrl,
        raises: [raise],
      });
    } else if (it.priority > (e.raises[e.raises.length - 1] as Raise).priority) {
      e.raises.push(raise);
    }
  }
  return [...byUrl.values()];
}

/** The row a new URL is inserted with: its first item raised by the later ones. */
function settled(e: Entry): Raise {
  const last = e.raises[e.raises.length - 1] as Raise;
  let context: string | null = null;
  for (const r of e.raises) if (r.context !== null) context = r.context;
  return { priority: last.priority, value: last.value, context };
}

// Ids are drawn in the order of the items (discovery order breaks priority ties),
// only for URLs not known yet; rows are inserted in url_key order so that two
// transactions adding the same URLs wait on each other in one order, never in a
// cycle. A URL inserted meanwhile by another transaction is skipped (DO NOTHING)
// and treated as known.
const INSERT = `
WITH d AS (
  SELECT * FROM unnest($1::text[], $2::uuid[], $3::integer[], $4::float8[], $5::float8[],
      $6::bigint[], $7::text[], $8::text[], $9::bigint[]) WITH ORDINALITY
    AS x(url, k, depth, priority, value, parent_id, anchor, context, at, ord)
  WHERE NOT EXISTS (SELECT 1 FROM urls u WHERE u.url_key = x.k)
), n AS MATERIALIZED (
  SELECT nextval('url_ids') AS id, d.* FROM d ORDER BY ord
)
INSERT INTO urls (id, url, url_key, state, depth, priority, value, parent_id, anchor, context,
  discovered_at)
SELECT id, url, k, 0, depth, priority, value, parent_id, anchor, context, at FROM n ORDER BY k
ON CONFLICT (url_key) DO NOTHING
RETURNING id, url`;

// The raises of known waiting URLs. Each URL's raises come in rising priority; those
// above its stored priority apply in turn: the highest sets priority and value, and
// the context is the last one given among them (the stored one when none is).
// Rows are locked in id order first, as every multi-row write of the store does.
const RAISE = `
WITH c AS (
  SELECT * FROM unnest($1::uuid[], $2::float8[], $3::float8[], $4::text[]) AS c(k, p, v, ctx)
), m AS (
  SELECT DISTINCT ON (k) k, p, v FROM c ORDER BY k, p DESC
), l AS (
  SELECT u.id FROM urls u JOIN m ON u.url_key = m.k
  WHERE u.state = 0 AND u.priority < m.p ORDER BY u.id FOR UPDATE OF u
)
UPDATE urls u SET priority = m.p, value = m.v,
  context = coalesce((SELECT c.ctx FROM c WHERE c.k = u.url_key AND c.p > u.priority
    AND c.ctx IS NOT NULL ORDER BY c.p DESC LIMIT 1), u.context)
FROM m, l
WHERE u.id = l.id AND u.url_key = m.k AND u.state = 0 AND u.priority < m.p`;

/**
 * Queues the unknown URLs of `items` as waiting and raises the priority (and
 * replaces the value, and the context when one is given) of known waiting ones;
 * returns how many were new. `defaultParent` is the id of the page the items were
 * found on, for items without `parent`. An item repeating an earlier item's URL acts
 * on it as on a known waiting URL.
 */
export async function insertUrls(
  q: Sql,
  t: Tally,
  where: string,
  items: readonly NewUrl[],
  defaultParent: number | null,
): Promise<number> {
  if (items.length === 0) return 0;
  const all = await entries(q, where, items, defaultParent, Date.now());
  const rows = all.map(settled);
  const inserted = await q<{ id: number; url: string }>(INSERT, [
    all.map((e) => e.url),
    all.map((e) => e.key),
    all.map((e) => e.depth),
    rows.map((r) => r.priority),
    rows.map((r) => r.value),
    all.map((e) => e.parentId),
    all.map((e) => e.anchor),
    rows.map((r) => r.context),
    all.map((e) => e.discoveredAt),
  ]);
  const ids = new Map<string, number>();
  for (const r of inserted) {
    ids.set(r.url, r.id);
    t.added(r.url);
  }
  if (inserted.length < all.length) {
    const raises = all
      .filter((e) => !ids.has(e.url))
      .flatMap((e) => e.raises.map((r) => [e, r] as const));
    await q(RAISE, [
      raises.map(([e]) => e.key),
      raises.map(([, r]) => r.priority),
      raises.map(([, r]) => r.value),
      raises.map(([, r]) => r.context),
    ]);
  }
  await linkParents(q, all, ids);
  return inserted.length;
}

/** Sets the parent of new URLs whose parent was an earlier item of the same call. */
async function linkParents(q: Sql, all: readonly Entry[], ids: Map<string, number>): Promise<void> {
  const late = all.filter((e) => e.parentUrl !== null && ids.has(e.url));
  if (late.length === 0) return;
  const missing = late.map((e) => e.parentUrl as string).filter((u) => !ids.has(u));
  const found = missing.length > 0 ? await findUrls(q, missing) : new Map();
  const idOf = (u: string) => ids.get(u) ?? found.get(u)?.id ?? null;
  await q(
    `UPDATE urls u SET parent_id = d.p FROM unnest($1::bigint[], $2::bigint[]) AS d(id, p)
     WHERE u.id = d.id`,
    [late.map((e) => ids.get(e.url)), late.map((e) => idOf(e.parentUrl as string))],
  );
}
