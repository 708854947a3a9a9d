/**
 * One revisit's answer → what the store records (`VisitOutcome`) and the new URLs
 * its page links to. Whether a page changed is decided on its visible text, not its
 * bytes: a clock, a session id or a CSRF token in the markup is not a change.
 *
 * - 304 (a conditional request answered "not modified"): unchanged, no body.
 * - 404, 410: gone. A redirect elsewhere: gone too, and its target is queued.
 * - Another status, or no answer: failed (counts no visit; due again as planned).
 * - 200: the page is judged again (relevance, links) by the crawl's page rules; it
 *   changed when the hash of its visible text differs from the stored copy's (the
 *   body's md5 when the stored copy has no text hash).
 */
import { createHash } from 'node:crypto';
import { type PageRules, pageOutcome } from '../crawl/parts.js';
import { createFingerprinter } from '../dedup/index.js';
import { bodyTooLarge, type FetchResult, validatorsOf } from '../fetch/index.js';
import { analyzeBody, withResponseHeaders } from '../parse/index.js';
import type { DueRevisit, NewUrl, VisitOutcome } from '../store/index.js';

const fingerprint = createFingerprinter();

/**
 * The hash of a page's visible text (16 hex digits): the near-duplicate
 * fingerprinter's hash of its word sequence (what the crawl stores as a page's
 * `textHash`), or, for a text too short to fingerprint, a SHA-1 of its words.
 */
export function visibleTextHash(text: string): string {
  const f = fingerprint(text);
  if (f.textHash !== null) return f.textHash;
  const words = text.split(/\s+/).filter(Boolean).join(' ');
  return createHash('sha1').update(words).digest('hex').slice(0, 16);
}

function md5(body: Uint8Array): string {
  return createHash('md5').update(body).digest('hex');
}

/** What a revisit found, and the URLs to queue. */
export interface VisitResult {
  visit: Omit<VisitOutcome, 'dueAt' | 'rate'>;
  newUrls: NewUrl[];
  /** The page's links that were new to the crawl, for the revisit plan's discovery value. */
  linked: number;
}

/** A revisit that got no answer (`err`), or an answer (`res`), as a visit. */
export function visitOf(
  due: DueRevisit,
  res: FetchResult | null,
  err: string | null,
  rules: PageRules,
  at: number,
  keepVersions = false,
): VisitResult {
  if (res === null) {
    return {
      visit: { url: due.url, at, status: null, change: 'failed', error: err ?? 'failed' },
      newUrls: [],
      linked: 0,
    };
  }
  const v = validatorsOf(res.headers, at);
  const validators = {
    ...(v.etag !== undefined ? { etag: v.etag } : {}),
    ...(v.lastModified !== undefined ? { lastModified: v.lastModified } : {}),
    ...(v.lastModifiedMs !== undefined ? { lastModifiedMs: v.lastModifiedMs } : {}),
  };
  const base = { url: due.url, at, status: res.status, ...validators };
  if (res.notModified) return { visit: { ...base, change: 'unchanged' }, newUrls: [], linked: 0 };
  if (res.finalUrl !== due.url) {
    // Moved: the page at this URL is gone; its new place is a URL to crawl.
    const target: NewUrl = { url: res.finalUrl, depth: due.depth, priority: 1, parent: due.url };
    return { visit: { ...base, change: 'gone' }, newUrls: [target], linked: 1 };
  }
  if (res.status === 404 || res.status === 410)
    return { visit: { ...base, change: 'gone' }, newUrls: [], linked: 0 };
  if (res.status < 200 || res.status >= 300) {
    return {
      visit: { ...base, change: 'failed', error: `HTTP ${res.status}` },
      newUrls: [],
      linked: 0,
    };
  }
  const cut = bodyTooLarge(res);
  if (cut !== undefined) {
    return {
      visit: { ...base, change: 'failed', error: `${cut.code}: ${cut.message}` },
      newUrls: [],
      linked: 0,
    };
  }
  const contentHash = md5(res.body);
  const a = analyzeBody(
    res.body,
    res.contentType,
    res.finalUrl,
    withResponseHeaders(rules.parse, res.headers),
  );
  const text = a.page?.text ?? a.text;
  // A body that is neither HTML nor text: its bytes are its content.
  const textHash = text === undefined ? contentHash.slice(0, 16) : visibleTextHash(text);
  const changed =
    due.textHash !== null ? textHash !== due.textHash : contentHash !== due.contentHash;
  if (!changed)
    return {
      visit: { ...base, change: 'unchanged', contentHash, textHash },
      newUrls: [],
      linked: 0,
    };
  // Judged again as a page of the crawl (its relevance, its links), never as a
  // duplicate of its own earlier copy.
  const claimed = {
    id: due.id,
    url: due.url,
    depth: due.depth,
    priority: 1,
    value: 0,
    parent: null,
    context: null,
    attempts: 0,
  };
  const p = pageOutcome(claimed, res, false, { ...rules, dedup: null }, at);
  const r = p.outcome.result as { title?: string | null; newUrls?: NewUrl[]; relevance?: number };
  const newUrls = (r.newUrls ?? []).map((n) => ({ ...n, parent: due.url }));
  const storeBody = rules.storeBodies !== 'none';
  return {
    visit: {
      ...base,
      change: 'changed',
      contentHash,
      textHash,
      page: {
        status: res.status,
        contentType: res.contentType ?? null,
        bytes: res.bytes,
        title: r.title ?? null,
        relevance: p.relevance,
        ...(storeBody ? { body: res.body, ...(keepVersions ? { keepVersion: true } : {}) } : {}),
      },
    },
    newUrls,
    linked: newUrls.length,
  };
}
