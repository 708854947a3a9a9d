/** Writing URLs and outcomes inside a SQLite transaction. */
import { InvalidOptionError, StoreStateError } from '../errors/index.js';
import { segmentForIndex } from '../search/segment.js';
import { HostPicker } from './host-claim.js';
import type { KnownCache } from './known-cache.js';
import { DUPLICATE_CODE, STATE_CODE, STATE_NAME } from './schema.js';
import { writeFields } from './sqlite-fields.js';
import { type FoundUrl, type Writes, writeText } from './sqlite-statements.js';
import type { Tally } from './tally.js';
import type {
  ClaimedUrl,
  NewUrl,
  PageScores,
  PriorityChange,
  RedirectStep,
  UrlState,
} from './types.js';
import { type EncodedOutcome, indexesText } from './wire.js';

/** What the writes of one store need besides the transaction's tally. */
export interface UrlIndex {
  w: Writes;
  /**
   * Where a kept page's text for the full-text index goes (segmented): written in the
   * transaction when absent, else handed over (text-queue.ts).
   */
  text?: ((id: number, title: string, text: string, body: boolean) => void) | undefined;
  /** Reads the database: the authority on a URL's state. */
  find(url: string): FoundUrl | undefined;
  hash(url: string): number;
  cache: KnownCache;
}

const VERB: Record<string, string> = {
  complete: 'complete',
  discard: 'discard',
  error: 'fail',
  redirect: 'redirect',
};

export function stateError(verb: string, url: string, state: number | undefined): Error {
  const is = state === undefined ? 'not a known URL' : `${STATE_NAME[state]}`;
  return new StoreStateError(`cannot ${verb} ${url}: it is ${is}, expected processing`, { url });
}

/**
 * Queues the unknown URLs of `items` as waiting and raises the priority (and
 * replaces the value, and the context when one is given) of known waiting ones;
 * returns how many were new. `defaultParent` is the id of the page the items were
 * found on, for items without `parent`.
 */
export function insertUrls(
  ix: UrlIndex,
  t: Tally,
  where: string,
  items: readonly NewUrl[],
  defaultParent: number | null,
): number {
  const now = Date.now();
  let lastParent: string | undefined;
  let lastParentId: number | null = null;
  let added = 0;
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as NewUrl;
    let parentId = defaultParent;
    if (it.parent !== undefined) {
      if (it.parent !== lastParent) {
        const parent = ix.cache.get(it.parent) ?? ix.find(it.parent);
        if (parent === undefined) {
          throw new InvalidOptionError(`${where}[${i}].parent: ${it.parent} is not a known URL`);
        }
        lastParent = it.parent;
        lastParentId = parent.id;
      }
      parentId = lastParentId;
    }
    let known = ix.cache.get(it.url);
    if (known === undefined) {
      known = ix.find(it.url);
      if (known !== undefined) ix.cache.set(it.url, known);
    }
    if (known !== undefined) {
      if (known.state === STATE_CODE.waiting && it.priority > known.priority) {
        ix.w.raise.run(it.priority, it.value ?? 0, it.context ?? null, known.id);
        known.priority = it.priority;
      }
      continue;
    }
    const id = t.nextId ?? ix.w.nextId.get() ?? 1;
    t.nextId = id + 1;
    ix.w.insert.run(
      id,
      it.url,
      ix.hash(it.url),
      it.depth,
      it.priority,
      it.value ?? 0,
      parentId,
      it.anchor ?? null,
      it.context ?? null,
      it.discoveredAt ?? now,
    );
    ix.cache.set(it.url, {
      id,
      url: it.url,
      state: 0,
      depth: it.depth,
      priority: it.priority,
      attempts: 0,
    });
    t.added(it.url);
    added++;
  }
  return added;
}

/**
 * Moves up to `n` waiting URLs to processing under `lease` (null: none) and
 * returns them, best first: of queue `q` when given, and with `hosts` the URLs of
 * hosts still wanted among the best `hosts.scan` (the claim's own query walked).
 * URLs put back by a failed attempt are in reach once their retry time is `now`.
 */
export function claimRows(
  ix: UrlIndex,
  t: Tally,
  n: number,
  q: { index: number; of: number } | undefined,
  hosts: { perHost: number; skip: ReadonlySet<string>; scan: number } | undefined,
  lease: number | null,
  now: number,
): ClaimedUrl[] {
  ix.w.releaseDue.run(now);
  const plain = q === undefined || q.of === 1;
  let rows: ClaimedUrl[];
  if (hosts === undefined) {
    rows = plain ? ix.w.claim.all(n) : ix.w.claimQueue.all(q.of, q.index, n);
  } else {
    const pick = new HostPicker(hosts);
    const scan = plain
      ? ix.w.claim.iterate(hosts.scan)
      : ix.w.claimQueue.iterate(q.of, q.index, hosts.scan);
    rows = [];
    for (const r of scan) {
      if (pick.take(r.url)) rows.push(r);
      if (rows.length >= n) break;
    }
  }
  for (const r of rows) {
    ix.w.claimRow.run(lease, r.id);
    ix.cache.setState(r.url, STATE_CODE.processing);
  }
  t.move('waiting', 'processing', rows.length);
  return rows;
}

/** Deletes the worst waiting URLs beyond the best `max`; returns how many. */
export function trimRows(ix: UrlIndex, t: Tally, max: number): number {
  const excess = (ix.w.waitingCount.get() ?? 0) - max;
  if (excess <= 0) return 0;
  ix.cache.clear();
  const dropped = ix.w.trim.run(excess).changes;
  t.move('waiting', null, dropped);
  t.dropped += dropped;
  return dropped;
}

/** Sets the priority (and value) of the waiting URLs among `changes`; returns how many. */
export function reprioritizeRows(ix: UrlIndex, changes: Iterable<PriorityChange>): number {
  let n = 0;
  for (const c of changes) {
    const url = ix.w.reprioritize.get(c.priority, c.value ?? null, c.id);
    if (url === undefined) continue;
    // addUrls compares with the cached priority: keep it in step.
    ix.cache.setState(url, STATE_CODE.waiting, c.priority);
    n++;
  }
  return n;
}

/** Sets the scores of fetched pages; a URL without a page throws `StoreStateError`. */
export function writeScores(ix: UrlIndex, items: readonly PageScores[]): void {
  for (const s of items) {
    const r = ix.w.scores.run({
      id: ix.find(s.url)?.id ?? -1,
      setRank: s.pageRank === undefined ? 0 : 1,
      rank: s.pageRank ?? null,
      setScore: s.score === undefined ? 0 : 1,
      score: s.score ?? null,
    });
    if (r.changes === 0) {
      throw new StoreStateError(`cannot score ${s.url}: it is not a fetched page`, { url: s.url });
    }
  }
}

/** The state checks of `commit`, before anything is written. */
export function checkProcessing(ix: UrlIndex, outcomes: readonly EncodedOutcome[]): void {
  for (const o of outcomes) {
    const row = ix.find(o.url);
    if (row?.state !== STATE_CODE.processing) {
      throw stateError(VERB[o.state] ?? o.state, o.url, row?.state);
    }
  }
}

/** A body written for a page: its file, its MD5, and how to put it in place when staged. */
export interface WrittenBody {
  name: string;
  md5: string;
  /** Moves a staged body (a page reached through a redirect) into place. */
  place?: () => void;
}

/** Records a new URL in `state` like the claimed URL `like`; returns its id. */
function insertLike(
  ix: UrlIndex,
  t: Tally,
  url: string,
  like: FoundUrl,
  state: UrlState,
  at: number,
): number {
  const id = t.nextId ?? ix.w.nextId.get() ?? 1;
  t.nextId = id + 1;
  const code = STATE_CODE[state];
  ix.w.insertLike.run(id, url, ix.hash(url), code, at, like.id);
  const found = { id, url, state: code, depth: like.depth, priority: like.priority, attempts: 0 };
  ix.cache.set(url, found);
  t.added(url, state);
  return id;
}

/**
 * Records the hops of a redirect chain (`steps`, from the claimed URL `row` on):
 * each URL that is the claimed one, unknown or waiting becomes a redirect with a
 * history row; later hops processing or final are left as they are. Returns the
 * ids of the URLs that became redirects, with their targets.
 */
function recordHops(
  ix: UrlIndex,
  t: Tally,
  row: FoundUrl,
  steps: readonly RedirectStep[],
  at: number,
): [number, string][] {
  const out: [number, string][] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i] as RedirectStep;
    const hop = i === 0 ? row : ix.find(step.url);
    if (i > 0 && hop !== undefined && hop.state !== STATE_CODE.waiting) continue;
    const id = hop === undefined ? insertLike(ix, t, step.url, row, 'redirect', at) : hop.id;
    ix.w.setRedirect.run(null, id);
    ix.cache.setState(step.url, STATE_CODE.redirect);
    const depth = hop?.depth ?? row.depth;
    const attempt = (hop?.attempts ?? 0) + 1;
    ix.w.history.run(
      id,
      at,
      step.status,
      STATE_CODE.redirect,
      null,
      depth,
      null,
      step.location,
      attempt,
      null,
      null,
    );
    const from = hop === undefined ? null : (STATE_NAME[hop.state] as UrlState);
    t.fetchedOne(step.url, 'redirect', 0, false, from);
    out.push([id, step.location]);
  }
  return out;
}

/**
 * Records outcomes; `bodies` maps the outcomes' URLs to the body files already
 * written (or staged) and the MD5 of each body (the content hash when the outcome
 * gives none). A page reached through redirects is recorded under its final URL.
 */
export function applyOutcomes(
  ix: UrlIndex,
  t: Tally,
  outcomes: readonly EncodedOutcome[],
  bodies: ReadonlyMap<string, WrittenBody>,
): void {
  const { w } = ix;
  for (const o of outcomes) {
    const row = ix.find(o.url);
    if (row?.state !== STATE_CODE.processing) {
      throw stateError(VERB[o.state] ?? o.state, o.url, row?.state);
    }
    const at = o.result.fetchedAt;
    if (o.state === 'error' && o.result.retryAt != null) {
      // A failed attempt (never with redirects): back to waiting until its retry time.
      const f = o.result;
      const attempt = w.retry.get(f.retryAt as number, row.id) as number;
      ix.cache.setState(o.url, STATE_CODE.waiting);
      const status = f.status ?? null;
      w.history.run(
        row.id,
        at,
        status,
        STATE_CODE.error,
        null,
        row.depth,
        f.error,
        null,
        attempt,
        f.retryAt,
        f.fetchMs ?? null,
      );
      t.retried(o.url);
      continue;
    }
    const steps = o.result.redirects ?? [];
    const hops = recordHops(ix, t, row, steps, at);
    const last = steps[steps.length - 1];
    const url = last === undefined ? o.url : last.location;
    const known = last === undefined ? row : ix.find(url);
    let id: number | undefined;
    let depth = row.depth;
    let attempts = 0;
    let from: UrlState | null = null;
    if (o.state === 'redirect') {
      if (known === undefined) insertLike(ix, t, url, row, 'waiting', at);
    } else if (known === undefined) {
      id = insertLike(ix, t, url, row, o.state, at);
    } else if (
      known.state === STATE_CODE.processing
        ? last === undefined
        : known.state === STATE_CODE.waiting
    ) {
      id = known.id;
      depth = known.depth;
      attempts = known.attempts;
      from = STATE_NAME[known.state] as UrlState;
      w.setState.run(STATE_CODE[o.state], id);
      ix.cache.setState(url, STATE_CODE[o.state]);
    }
    for (const [hopId, to] of hops) {
      w.setRedirect.run((ix.cache.get(to) ?? ix.find(to))?.id ?? null, hopId);
    }
    // The target is processing or final: the page is dropped.
    if (id === undefined || o.state === 'redirect') continue;
    const code = STATE_CODE[o.state];
    if (o.state === 'error') {
      const f = o.result;
      const attempt = w.addAttempt.get(id) as number;
      const ms = f.fetchMs ?? null;
      w.history.run(id, at, f.status ?? null, code, null, depth, f.error, null, attempt, null, ms);
      t.fetchedOne(url, 'error', 0, f.status != null, from);
      continue;
    }
    const p = o.result;
    const body = bodies.get(o.url);
    const dup = p.duplicate ?? null;
    let dupOf: number | null = null;
    if (dup !== null) {
      dupOf = (ix.cache.get(dup.of) ?? ix.find(dup.of))?.id ?? null;
      if (dupOf === null) {
        throw new InvalidOptionError(`commit ${o.url} duplicate.of: ${dup.of} is not a known URL`);
      }
      t.duplicate(dup.kind);
    }
    body?.place?.();
    w.page.run(
      id,
      p.fetchedAt,
      p.status,
      p.contentType ?? null,
      p.bytes,
      p.title ?? null,
      p.relevance,
      p.contentHash ?? body?.md5 ?? null,
      body?.name ?? null,
      p.simhash ?? null,
      p.textHash ?? null,
      dupOf,
      dup === null ? null : DUPLICATE_CODE[dup.kind],
      dup?.distance ?? null,
      p.etag ?? null,
      p.lastModified ?? null,
      p.modifiedAt ?? null,
    );
    if (p.indexed !== undefined || indexesText(o)) {
      const [title, text] = p.indexed ?? [
        segmentForIndex(p.title ?? ''),
        segmentForIndex(p.text as string),
      ];
      const hasBody = body !== undefined;
      if (ix.text !== undefined) ix.text(id, title, text, hasBody);
      else writeText(w, id, title, text, hasBody);
    }
    if (o.state === 'complete' && p.fields != null) writeFields(w, id, p.fields);
    if (p.linksJson !== undefined) w.links.run(id, p.linksJson);
    if (p.newUrls !== undefined) insertUrls(ix, t, `commit ${o.url} newUrls`, p.newUrls, id);
    const attempt = attempts + 1;
    const ms = p.fetchMs ?? null;
    w.history.run(
      id,
      p.fetchedAt,
      p.status,
      code,
      p.relevance,
      depth,
      null,
      null,
      attempt,
      null,
      ms,
    );
    t.fetchedOne(url, o.state, p.bytes, true, from);
  }
}
