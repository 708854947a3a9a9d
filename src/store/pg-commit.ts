/**
 * `commit` on the PostgreSQL store: the outcomes of claimed URLs, recorded in one
 * transaction. The bodies are compressed as soon as the call is checked, while the
 * transaction starts; with bodies outside the database (pg-bodies.ts) the pages'
 * bodies are written then too, before the transaction records anything. In the
 * transaction:
 * 1. the URLs the outcomes touch are read (claimed URLs, redirect hops and targets,
 *    new URLs, parents, duplicated pages), and those the commit may change are
 *    locked in id order in one statement: the claimed URLs, and the waiting ones a
 *    redirect may take or a new URL raise;
 * 2. the claims are checked on the locked rows: under a lease, the outcomes whose
 *    claim the lease no longer holds are refused and listed; without one, a URL not
 *    processing throws `StoreStateError` and nothing changes;
 * 3. the outcomes are applied in order, in memory (pg-outcomes.ts), then written in
 *    one statement per table (pg-outcome-writes.ts), the new URLs in url_key order.
 * Every commit takes its locks in these two steps, each in one order: commits wait
 * on each other but never in a cycle.
 *
 * A body reached through a redirect is written outside the database only once the
 * plan keeps its page, inside the transaction before COMMIT: its target may be a
 * page another worker is fetching or has stored, whose body it must not replace.
 */
import { createHash } from 'node:crypto';
import { bodyFileName } from './bodies.js';
import type { Claims } from './contracts.js';
import { checkCommitOptions } from './lease.js';
import { type BodyPlace, packBody } from './pg-bodies.js';
import type { PgDb, Sql } from './pg-db.js';
import { findUrls } from './pg-find.js';
import { writePlan } from './pg-outcome-writes.js';
import { CommitPlan, type PackedBody, textToIndex } from './pg-outcomes.js';
import { chainUrls } from './pg-redirects.js';
import { type PreparedText, prepareText } from './pg-search-index.js';
import { STATE_CODE } from './schema.js';
import { stateError } from './sqlite-urls.js';
import type { Tally } from './tally.js';
import type { CommitResult, LeaseOptions, Outcome } from './types.js';
import { checkOutcomes } from './validate.js';
import { type EncodedOutcome, encodeOutcomes } from './wire.js';

/** The verb of an outcome in messages (as the other stores word them). */
const VERB: Record<string, string> = {
  complete: 'complete',
  discard: 'discard',
  error: 'fail',
  redirect: 'redirect',
};

/** The outcomes' bodies, compressed, by index; and the names already written outside. */
interface Packed {
  bodies: Map<number, PackedBody>;
  written: Set<string>;
}

/**
 * Compresses the bodies of the outcomes that carry one; with a place outside the
 * database, writes those fetched without a redirect (their name is their claimed URL's).
 */
async function packBodies(all: readonly EncodedOutcome[], place: BodyPlace): Promise<Packed> {
  const out: Packed = { bodies: new Map(), written: new Set() };
  await Promise.all(
    all.map(async (o, i) => {
      if (o.state === 'error' || o.state === 'redirect' || o.result.body === undefined) return;
      const body = o.result.body;
      const md5 = createHash('md5').update(body).digest('hex');
      const gz = await packBody(body);
      out.bodies.set(i, { gz, md5 });
      if (place.inTransaction || (o.result.redirects ?? []).length > 0) return;
      const name = bodyFileName(o.url);
      await place.put(name, gz);
      out.written.add(name);
    }),
  );
  return out;
}

/** Segments and tokenises the texts to index, by index (the costly part of indexing). */
function prepareTexts(all: readonly EncodedOutcome[]): Map<number, PreparedText> {
  const out = new Map<number, PreparedText>();
  all.forEach((o, i) => {
    const t = textToIndex(o);
    if (t !== null) out.set(i, prepareText(t.title, t.text));
  });
  return out;
}

/**
 * Reads the stored URLs the outcomes touch and locks, in id order, those the commit
 * may change; returns them by URL (the locked ones as they are once locked).
 */
async function lockTouched(q: Sql, all: readonly EncodedOutcome[]) {
  const claimed = all.map((o) => o.url);
  const chain = new Set<string>();
  // The highest priority each new URL is given: a waiting URL below it may be raised.
  const best = new Map<string, number>();
  const refs = new Set<string>();
  for (const o of all) {
    for (const u of chainUrls(o.result.redirects)) chain.add(u);
    if (o.state !== 'complete' && o.state !== 'discard') continue;
    const p = o.result;
    if (p.duplicate != null) refs.add(p.duplicate.of);
    for (const n of p.newUrls ?? []) {
      best.set(n.url, Math.max(best.get(n.url) ?? Number.NEGATIVE_INFINITY, n.priority));
      if (n.parent !== undefined) refs.add(n.parent);
    }
  }
  const others = new Set([...chain, ...best.keys(), ...refs]);
  for (const u of claimed) others.delete(u);
  const rows = others.size > 0 ? await findUrls(q, [...others]) : new Map();
  const lock = new Set(claimed);
  for (const r of rows.values()) {
    if (r.state !== STATE_CODE.waiting) continue;
    if (chain.has(r.url) || (best.get(r.url) ?? Number.NEGATIVE_INFINITY) > r.priority) {
      lock.add(r.url);
    }
  }
  const locked = await findUrls(q, [...lock], true);
  for (const u of lock) {
    const r = locked.get(u);
    if (r !== undefined) rows.set(u, r);
    else rows.delete(u); // gone meanwhile (trimmed): unknown now
  }
  return rows;
}

/** Records `all` (inside the transaction); returns the refused outcomes' URLs. */
async function apply(
  q: Sql,
  t: Tally,
  all: readonly EncodedOutcome[],
  lease: number | undefined,
  { bodies, written }: Packed,
  texts: ReadonlyMap<number, PreparedText>,
  place: BodyPlace,
): Promise<CommitResult> {
  const refused: string[] = [];
  if (all.length === 0) return { refused };
  const rows = await lockTouched(q, all);
  const kept: number[] = [];
  for (let i = 0; i < all.length; i++) {
    const o = all[i] as EncodedOutcome;
    const row = rows.get(o.url);
    if (lease !== undefined) {
      if (row?.state === STATE_CODE.processing && row.lease_id === lease) kept.push(i);
      else refused.push(o.url);
    } else if (row?.state !== STATE_CODE.processing) {
      throw stateError(VERB[o.state] ?? o.state, o.url, row?.state);
    } else kept.push(i);
  }
  const plan = new CommitPlan(rows.values(), t);
  for (const i of kept) plan.apply(all[i] as EncodedOutcome, bodies.get(i), texts.get(i));
  await writePlan(q, plan, place, written);
  return { refused };
}

export function commitMethods(db: PgDb, place: BodyPlace): Pick<Claims, 'commit'> {
  return {
    // Checks and prepares the texts synchronously, then starts the transaction at once
    // (so that a close called meanwhile waits for it) while the bodies are compressed.
    async commit(outcomes: readonly Outcome[], options?: LeaseOptions): Promise<CommitResult> {
      checkOutcomes('commit', outcomes);
      const lease = checkCommitOptions('commit options', options);
      const all = encodeOutcomes(outcomes);
      const texts = prepareTexts(all);
      const packing = packBodies(all, place);
      packing.catch(() => {}); // awaited in the transaction, which may not start
      return db.tx('commit', async (q, t) => apply(q, t, all, lease, await packing, texts, place));
    },
  };
}
