/** Writing URLs and outcomes inside a SQLite transaction. */
import { InvalidOptionError, StoreStateError } from '../errors/index.js';
import { segmentForIndex } from '../search/segment.js';
import type { KnownCache } from './known-cache.js';
import { DUPLICATE_CODE, STATE_CODE, STATE_NAME } from './schema.js';
import type { FoundUrl, Writes } from './sqlite-statements.js';
import type { Tally } from './tally.js';
import type { NewUrl } from './types.js';
import type { EncodedOutcome } from './wire.js';

/** What the writes of one store need besides the transaction's tally. */
export interface UrlIndex {
  w: Writes;
  /** Reads the database: the authority on a URL's state. */
  find(url: string): FoundUrl | undefined;
  hash(url: string): number;
  cache: KnownCache;
}

const VERB: Record<string, string> = {
  complete: 'complete',
  discard: 'discard',
  error: 'fail',
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
    ix.cache.set(it.url, { id, url: it.url, state: 0, depth: it.depth, priority: it.priority });
    t.added(it.url);
    added++;
  }
  return added;
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

/**
 * Records outcomes; `bodies` maps URLs to the body files already written and the
 * MD5 of each body (the content hash when the outcome gives none).
 */
export function applyOutcomes(
  ix: UrlIndex,
  t: Tally,
  outcomes: readonly EncodedOutcome[],
  bodies: ReadonlyMap<string, { name: string; md5: string }>,
): void {
  const { w } = ix;
  for (const o of outcomes) {
    const row = ix.find(o.url);
    if (row?.state !== STATE_CODE.processing) {
      throw stateError(VERB[o.state] ?? o.state, o.url, row?.state);
    }
    const code = STATE_CODE[o.state];
    w.setState.run(code, row.id);
    ix.cache.setState(o.url, code);
    if (o.state === 'error') {
      const f = o.result;
      w.history.run(row.id, f.fetchedAt, f.status ?? null, code, null, row.depth, f.error);
      t.fetchedOne(o.url, 'error', 0);
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
    w.page.run(
      row.id,
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
    );
    if (o.state === 'complete' && typeof p.text === 'string' && (p.text || p.title)) {
      w.text.run(row.id, segmentForIndex(p.title ?? ''), segmentForIndex(p.text));
    }
    if (p.linksJson !== undefined) w.links.run(row.id, p.linksJson);
    if (p.newUrls !== undefined) insertUrls(ix, t, `commit ${o.url} newUrls`, p.newUrls, row.id);
    w.history.run(row.id, p.fetchedAt, p.status, code, p.relevance, row.depth, null);
    t.fetchedOne(o.url, o.state, p.bytes);
  }
}
