/**
 * Checks of what enters a store, shared by every implementation so that all of
 * them refuse the same input with the same `InvalidOptionError`. Written by hand
 * rather than with zod: `addUrls` runs millions of times in a crawl.
 */
import { InvalidOptionError } from '../errors/index.js';
import { queryTerms } from '../search/query.js';
import { checkLeaseId } from './lease.js';
import type {
  ClaimOptions,
  FetchedPage,
  FetchFailure,
  NewUrl,
  Outcome,
  PageLink,
  PageScores,
  PriorityChange,
  RecoverOptions,
  ScanWaitingOptions,
  TextSearch,
} from './types.js';
import {
  checkArray,
  checkFinite,
  checkInt,
  checkOptMs,
  checkOptString,
  checkUrl,
  fail,
  isFiniteNumber,
  isHttpUrl,
  isOptString,
  show,
} from './validate-basics.js';
import { checkFields } from './validate-fields.js';
import { checkRedirectResult, checkRedirects } from './validate-redirects.js';

export { checkInt, checkUrl } from './validate-basics.js';

// The loops below run for every URL and link of a crawl: they test first and build
// the field's name (`commit[3].result.links[7].url`) only to report a failure.

export function checkNewUrls(where: string, items: readonly NewUrl[]): void {
  checkArray(where, items);
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as NewUrl;
    if (
      typeof it === 'object' &&
      it !== null &&
      isHttpUrl(it.url) &&
      Number.isInteger(it.depth) &&
      it.depth >= 0 &&
      isFiniteNumber(it.priority) &&
      (it.value === undefined || isFiniteNumber(it.value)) &&
      (it.parent === undefined || isHttpUrl(it.parent)) &&
      isOptString(it.anchor) &&
      isOptString(it.context) &&
      (it.discoveredAt === undefined || isFiniteNumber(it.discoveredAt))
    ) {
      continue;
    }
    const at = `${where}[${i}]`;
    if (typeof it !== 'object' || it === null) fail(at, `expected an object, got ${show(it)}`);
    checkUrl(`${at}.url`, it.url);
    checkInt(`${at}.depth`, it.depth, 0);
    checkFinite(`${at}.priority`, it.priority);
    if (it.value !== undefined) checkFinite(`${at}.value`, it.value);
    if (it.parent !== undefined) checkUrl(`${at}.parent`, it.parent);
    checkOptString(`${at}.anchor`, it.anchor);
    checkOptString(`${at}.context`, it.context);
    if (it.discoveredAt !== undefined) checkFinite(`${at}.discoveredAt`, it.discoveredAt);
  }
}

function checkLinks(where: string, links: readonly PageLink[]): void {
  checkArray(where, links);
  for (let i = 0; i < links.length; i++) {
    const l = links[i] as PageLink;
    if (typeof l === 'object' && l !== null && isHttpUrl(l.url) && isOptString(l.anchor)) continue;
    checkUrl(`${where}[${i}].url`, l?.url);
    checkOptString(`${where}[${i}].anchor`, l.anchor);
  }
}

/** Checks a page given for `url` (its fields are named by it). */
export function checkPage(where: string, p: FetchedPage, url: string): void {
  if (typeof p !== 'object' || p === null) fail(where, `expected an object, got ${show(p)}`);
  checkFinite(`${where}.fetchedAt`, p.fetchedAt);
  checkInt(`${where}.status`, p.status, 0);
  checkInt(`${where}.bytes`, p.bytes, 0);
  checkFinite(`${where}.relevance`, p.relevance);
  checkOptMs(`${where}.fetchMs`, p.fetchMs);
  checkOptString(`${where}.contentType`, p.contentType);
  checkOptString(`${where}.title`, p.title);
  checkOptString(`${where}.contentHash`, p.contentHash);
  checkOptString(`${where}.etag`, p.etag);
  checkOptString(`${where}.lastModified`, p.lastModified);
  if (p.modifiedAt !== undefined && p.modifiedAt !== null) {
    checkFinite(`${where}.modifiedAt`, p.modifiedAt);
  }
  if (p.body !== undefined && !(p.body instanceof Uint8Array)) {
    fail(`${where}.body`, `expected a Buffer or Uint8Array, got ${show(p.body)}`);
  }
  if (p.links !== undefined) checkLinks(`${where}.links`, p.links);
  if (p.newUrls !== undefined) checkNewUrls(`${where}.newUrls`, p.newUrls);
  checkOptString(`${where}.text`, p.text);
  if (p.simhash !== undefined && p.simhash !== null && !SIMHASH_RE.test(p.simhash)) {
    fail(`${where}.simhash`, `expected 16 hex digits, got ${show(p.simhash)}`);
  }
  if (p.textHash !== undefined && p.textHash !== null && !SIMHASH_RE.test(p.textHash)) {
    fail(`${where}.textHash`, `expected 16 hex digits, got ${show(p.textHash)}`);
  }
  if (p.duplicate !== undefined && p.duplicate !== null) checkDuplicate(`${where}.duplicate`, p);
  if (p.fields !== undefined && p.fields !== null) checkFields(`${where}.fields`, url, p.fields);
}

const SIMHASH_RE = /^[0-9a-f]{16}$/;

function checkDuplicate(where: string, p: FetchedPage): void {
  const d = p.duplicate;
  if (typeof d !== 'object' || d === null) fail(where, `expected an object, got ${show(d)}`);
  checkUrl(`${where}.of`, d.of);
  if (d.kind !== 'exact' && d.kind !== 'near') {
    fail(`${where}.kind`, `expected "exact" or "near", got ${show(d.kind)}`);
  }
  checkInt(`${where}.distance`, d.distance, 0);
}

/** Whether the extra fields of a page (text, fingerprint, duplicate) need a full check. */
function extrasOk(p: FetchedPage): boolean {
  return (
    isOptString(p.text) &&
    (p.simhash === undefined || p.simhash === null || SIMHASH_RE.test(p.simhash)) &&
    (p.textHash === undefined || p.textHash === null || SIMHASH_RE.test(p.textHash)) &&
    (p.duplicate === undefined || p.duplicate === null)
  );
}

export function checkFailure(where: string, f: FetchFailure): void {
  if (typeof f !== 'object' || f === null) fail(where, `expected an object, got ${show(f)}`);
  checkFinite(`${where}.fetchedAt`, f.fetchedAt);
  if (typeof f.error !== 'string')
    fail(`${where}.error`, `expected a string, got ${show(f.error)}`);
  if (f.status !== undefined && f.status !== null) checkInt(`${where}.status`, f.status, 0);
  checkOptMs(`${where}.fetchMs`, f.fetchMs);
  if (f.retryAt === undefined || f.retryAt === null) return;
  checkFinite(`${where}.retryAt`, f.retryAt);
  if (f.redirects !== undefined && f.redirects.length > 0)
    fail(`${where}.retryAt`, 'a failure reached through redirects cannot be tried again');
}

function pageFieldsOk(p: FetchedPage): boolean {
  return (
    typeof p === 'object' &&
    p !== null &&
    isFiniteNumber(p.fetchedAt) &&
    Number.isInteger(p.status) &&
    p.status >= 0 &&
    Number.isInteger(p.bytes) &&
    p.bytes >= 0 &&
    isFiniteNumber(p.relevance) &&
    (p.fetchMs === undefined || (isFiniteNumber(p.fetchMs) && p.fetchMs >= 0)) &&
    isOptString(p.contentType) &&
    isOptString(p.title) &&
    isOptString(p.contentHash) &&
    isOptString(p.etag) &&
    isOptString(p.lastModified) &&
    (p.modifiedAt === undefined || p.modifiedAt === null || isFiniteNumber(p.modifiedAt)) &&
    (p.body === undefined || p.body instanceof Uint8Array) &&
    extrasOk(p)
  );
}

export function checkOutcomes(where: string, outcomes: readonly Outcome[]): void {
  checkArray(where, outcomes);
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i] as Outcome;
    if (typeof o === 'object' && o !== null && isHttpUrl(o.url)) {
      if (o.state === 'complete' || o.state === 'discard') {
        const p = o.result;
        if (pageFieldsOk(p)) {
          // The lists build the name of a field at fault only on failure.
          if (p.links !== undefined) checkLinks(`${where}[${i}].result.links`, p.links);
          if (p.newUrls !== undefined) checkNewUrls(`${where}[${i}].result.newUrls`, p.newUrls);
          if (p.redirects !== undefined) {
            checkRedirects(`${where}[${i}].result.redirects`, o.url, p.redirects, false);
          }
          if (p.fields != null) checkFields(`${where}[${i}].result.fields`, o.url, p.fields);
          continue;
        }
      }
    }
    const at = `${where}[${i}]`;
    if (typeof o !== 'object' || o === null) fail(at, `expected an object, got ${show(o)}`);
    checkUrl(`${at}.url`, o.url);
    if (o.state === 'complete' || o.state === 'discard') checkPage(`${at}.result`, o.result, o.url);
    else if (o.state === 'error') checkFailure(`${at}.result`, o.result);
    else if (o.state === 'redirect') checkRedirectResult(`${at}.result`, o.result);
    else
      fail(
        `${at}.state`,
        `expected "complete", "discard", "error" or "redirect", got ${show((o as { state: unknown }).state)}`,
      );
    const steps = o.result.redirects;
    if (steps !== undefined || o.state === 'redirect') {
      checkRedirects(`${at}.result.redirects`, o.url, steps, o.state === 'redirect');
    }
  }
}

export function checkUrlList(where: string, urls: readonly string[]): void {
  checkArray(where, urls);
  urls.forEach((u, i) => {
    checkUrl(`${where}[${i}]`, u);
  });
}

/** Checks `{ priority }` options (and `lease` with `lease` true: `reclaim`). */
export function checkPriorityOption(
  where: string,
  options: { priority?: number; lease?: number } | undefined,
  lease = false,
): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    fail(where, `expected an object, got ${show(options)}`);
  for (const k of Object.keys(options))
    if (k !== 'priority' && !(lease && k === 'lease')) fail(where, `unknown option "${k}"`);
  if (options.priority !== undefined) checkFinite(`${where}.priority`, options.priority);
  const id = (options as { lease?: unknown }).lease;
  if (lease && id !== undefined) checkLeaseId(`${where}.lease`, id);
}

const CLAIM_KEYS = new Set(['queue', 'hosts', 'lease', 'now']);

/** Checks `claim` options; returns the queue to claim from, if any. */
export function checkClaimOptions(
  where: string,
  options: ClaimOptions | undefined,
): { index: number; of: number } | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null)
    fail(where, `expected an object, got ${show(options)}`);
  for (const k of Object.keys(options))
    if (!CLAIM_KEYS.has(k)) fail(where, `unknown option "${k}"`);
  if (options.lease !== undefined) checkLeaseId(`${where}.lease`, options.lease);
  if (options.now !== undefined) checkFinite(`${where}.now`, options.now);
  const q = options.queue;
  if (q === undefined) return undefined;
  if (typeof q !== 'object' || q === null)
    fail(`${where}.queue`, `expected { index, of }, got ${show(q)}`);
  for (const k of Object.keys(q)) {
    if (k !== 'index' && k !== 'of') fail(`${where}.queue`, `unknown field "${k}"`);
  }
  checkInt(`${where}.queue.of`, q.of, 1);
  checkInt(`${where}.queue.index`, q.index, 0);
  if (q.index >= q.of) {
    fail(`${where}.queue.index`, `expected an integer below of (${q.of}), got ${q.index}`);
  }
  return q;
}

/** Checks `ClaimOptions.hosts`; returns it with its defaults (undefined when absent). */
export function checkHostClaim(
  where: string,
  options: ClaimOptions | undefined,
  n: number,
): { perHost: number; skip: ReadonlySet<string>; scan: number } | undefined {
  const h = options?.hosts;
  if (h === undefined) return undefined;
  if (typeof h !== 'object' || h === null)
    fail(`${where}.hosts`, `expected { perHost, skip?, scan? }, got ${show(h)}`);
  for (const k of Object.keys(h)) {
    if (k !== 'perHost' && k !== 'skip' && k !== 'scan')
      fail(`${where}.hosts`, `unknown field "${k}"`);
  }
  checkInt(`${where}.hosts.perHost`, h.perHost, 1);
  if (h.scan !== undefined) checkInt(`${where}.hosts.scan`, h.scan, 1);
  const skip = h.skip ?? [];
  if (!Array.isArray(skip) || skip.some((x) => typeof x !== 'string'))
    fail(`${where}.hosts.skip`, `expected an array of host names, got ${show(skip)}`);
  return { perHost: h.perHost, skip: new Set(skip), scan: h.scan ?? 32 * n };
}

/** Checks `recover` options; returns the time leases are judged at. */
export function checkRecoverOptions(where: string, options: RecoverOptions | undefined): number {
  if (options === undefined) return Date.now();
  if (typeof options !== 'object' || options === null)
    fail(where, `expected an object, got ${show(options)}`);
  for (const k of Object.keys(options)) if (k !== 'now') fail(where, `unknown option "${k}"`);
  if (options.now === undefined) return Date.now();
  checkInt(`${where}.now`, options.now, 0);
  return options.now;
}

/** Checks `scanWaiting` options; returns the id to start after and the limit. */
export function checkScanOptions(
  where: string,
  options: ScanWaitingOptions,
): { afterId: number; limit: number } {
  if (typeof options !== 'object' || options === null)
    fail(where, `expected { afterId?, limit }, got ${show(options)}`);
  for (const k of Object.keys(options)) {
    if (k !== 'afterId' && k !== 'limit') fail(where, `unknown option "${k}"`);
  }
  checkInt(`${where}.limit`, options.limit, 1);
  const afterId = options.afterId === undefined ? 0 : options.afterId;
  checkInt(`${where}.afterId`, afterId, 0);
  return { afterId, limit: options.limit };
}

/** Checks the items of `reprioritize`; returns them by id (of an id given twice, the last). */
export function checkPriorityChanges(
  where: string,
  items: readonly PriorityChange[],
): Map<number, PriorityChange> {
  checkArray(where, items);
  const byId = new Map<number, PriorityChange>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as PriorityChange;
    if (
      typeof it !== 'object' ||
      it === null ||
      !Number.isInteger(it.id) ||
      it.id < 1 ||
      !isFiniteNumber(it.priority) ||
      !(it.value === undefined || isFiniteNumber(it.value))
    ) {
      const at = `${where}[${i}]`;
      if (typeof it !== 'object' || it === null) fail(at, `expected an object, got ${show(it)}`);
      checkInt(`${at}.id`, it.id, 1);
      checkFinite(`${at}.priority`, it.priority);
      if (it.value !== undefined) checkFinite(`${at}.value`, it.value);
    }
    byId.set(it.id, it);
  }
  return byId;
}

export function checkKeywords(
  where: string,
  keywords: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
): [string, number][] {
  if (typeof keywords !== 'object' || keywords === null)
    fail(where, `expected a map of weights, got ${show(keywords)}`);
  const entries = keywords instanceof Map ? [...keywords.entries()] : Object.entries(keywords);
  for (const [word, weight] of entries) {
    if (typeof word !== 'string' || word.length === 0)
      fail(where, 'keywords must be non-empty strings');
    checkFinite(`${where}[${JSON.stringify(word)}]`, weight);
  }
  return entries as [string, number][];
}

export function checkMetaKey(where: string, key: unknown): asserts key is string {
  if (typeof key !== 'string' || key.length === 0)
    fail(where, `expected a non-empty string key, got ${show(key)}`);
}

/** The JSON text of a meta value; throws when the value has no JSON form. */
export function metaJson(where: string, value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (e) {
    throw new InvalidOptionError(`${where}: the value cannot be written as JSON`, { cause: e });
  }
  if (text === undefined) fail(where, `the value cannot be written as JSON (${typeof value})`);
  return text;
}

export function checkScores(where: string, items: readonly PageScores[]): void {
  checkArray(where, items);
  items.forEach((s, i) => {
    checkUrl(`${where}[${i}].url`, s?.url);
    if (s.pageRank != null) checkFinite(`${where}[${i}].pageRank`, s.pageRank);
    if (s.score != null) checkFinite(`${where}[${i}].score`, s.score);
  });
}

export function checkTopHosts(where: string, options: { topHosts?: number } | undefined): number {
  if (options === undefined || options.topHosts === undefined) return 10;
  checkInt(`${where}.topHosts`, options.topHosts, 0);
  return options.topHosts;
}

/**
 * `search` options with their defaults, and the query's terms (`queryTerms`); a
 * query without a word is refused.
 */
export function checkSearch(
  where: string,
  o: TextSearch,
): Required<TextSearch> & { terms: string[] } {
  if (typeof o !== 'object' || o === null) fail(where, `expected an object, got ${show(o)}`);
  if (typeof o.query !== 'string')
    fail(`${where}.query`, `expected a string, got ${show(o.query)}`);
  const limit = o.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    fail(`${where}.limit`, `expected an integer 1 … 1000, got ${show(o.limit)}`);
  }
  const scoreWeight = o.scoreWeight ?? 0.3;
  if (typeof scoreWeight !== 'number' || !(scoreWeight >= 0 && scoreWeight <= 1)) {
    fail(`${where}.scoreWeight`, `expected a number in [0, 1], got ${show(o.scoreWeight)}`);
  }
  const terms = queryTerms(o.query);
  if (terms.length === 0) fail(`${where}.query`, `${show(o.query)} has no word to search for`);
  return { query: o.query, limit, scoreWeight, terms };
}
