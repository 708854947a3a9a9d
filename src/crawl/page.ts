/**
 * One fetched response → the outcome the store records: relevance, keep or
 * discard (DESIGN 1.1), and for kept pages (and seeds) the links to follow with
 * their priorities. Pure apart from the `seen` cache it consults and fills.
 */
import { createHash } from 'node:crypto';
import type { Analysis } from '../analyze/index.js';
import {
  extractPage,
  type FieldRow,
  fieldRows,
  matchingRuleSets,
  type Rules,
} from '../extract/index.js';
import { decodeBody, sniffContent } from '../fetch/charset/index.js';
import { type FetchResult, validatorsOf } from '../fetch/index.js';
import type { LinkStrategy, ParentInfo } from '../frontier/index.js';
import { judgePage } from '../page/index.js';
import { detach, type ParseOptions } from '../parse/index.js';
import type { LinkSight, RelevanceModel } from '../relevance/index.js';
import type {
  ClaimedUrl,
  FetchedPage,
  FetchFailure,
  NewUrl,
  Outcome,
  PageLink,
  RedirectStep,
} from '../store/index.js';
import { type CopyKeys, LIKELY_COPY_FACTOR, likelyCopies, linkDepth } from '../url/index.js';
import type { CrawlDedup } from './dedup.js';
import { redirectSteps } from './redirects.js';
import { type SeenUrls, sendsAgain } from './seen.js';
import type { FamilyLink, SiblingLinks } from './siblings.js';
import type { PageEvent } from './types.js';

export interface PageRules {
  /** Judges pages: relevance ≥ threshold keeps a page. */
  model: RelevanceModel;
  /** Scores link text (anchor/context) when no `linkScore` is set. */
  linkText: RelevanceModel;
  /** Scores a link in place of `linkText` (the Bayes link model, a PageRank estimate). */
  linkScore?: ((link: LinkSight, parentUrl: string) => number) | undefined;
  /** Keep each new URL's link context in the store (online learning reads it back). */
  keepContext: boolean;
  /** Parse options (the link context window); one object for the whole crawl. */
  parse: ParseOptions;
  /** Sees every judged page: its claimed URL, the verdict, and its links when followed. */
  observe?:
    | ((claimed: ClaimedUrl, kept: boolean, links: readonly { url: string }[] | null) => void)
    | undefined;
  /** The keep/discard threshold in force (it may move between pages). */
  threshold: number;
  strategy: LinkStrategy;
  /** Scope of the crawl: links it rejects are not queued. */
  inScope: (url: string) => boolean;
  maxDepth: number;
  storeBodies: 'kept' | 'all' | 'none';
  /** Give kept pages' text to the store's full-text index. */
  fullText: boolean;
  /** Field extraction rules for kept pages; null when none. */
  extract: Rules | null;
  seen: SeenUrls;
  /** Receives every page's text when the topic vector adapts. */
  collect?: (text: string, kept: boolean) => void;
  /** Tells kept pages that duplicate an earlier kept page (dedup.ts); null when off. */
  dedup: Pick<CrawlDedup, 'check'> | null;
  /** Followed pages' links in page order, when the strategy's links lend each other evidence. */
  siblings?: SiblingLinks | null;
  /** Query keys learnt to change nothing, dropped from links (url/copy-keys.ts); null when off. */
  copyKeys?: CopyKeys | null;
}

export interface PageResult {
  outcome: Outcome;
  /** What the crawl reports of it once committed. */
  event: PageEvent;
  relevance: number;
}

/**
 * The outcome and event of a fetch that did not produce a page; `res`, when a
 * response came through redirects, puts the failure on the final URL. `retryAt`
 * (never with redirects): the attempt failed and the URL goes back to waiting, to be
 * tried again from then.
 */
export function failure(
  claimed: ClaimedUrl,
  fetchedAt: number,
  error: string,
  status: number | null,
  res?: FetchResult,
  retryAt: number | null = null,
): { outcome: Outcome; event: PageEvent } {
  const result: FetchFailure =
    status === null ? { fetchedAt, error } : { fetchedAt, error, status };
  if (res !== undefined) result.fetchMs = Math.round(res.timings.totalMs);
  const redirected = res !== undefined && res.finalUrl !== claimed.url;
  if (redirected) result.redirects = redirectSteps(res);
  else if (retryAt !== null) result.retryAt = retryAt;
  return {
    outcome: { url: claimed.url, state: 'error', result },
    event: {
      url: claimed.url,
      ...(redirected ? { finalUrl: res.finalUrl } : {}),
      state: 'error',
      depth: claimed.depth,
      status,
      relevance: null,
      title: null,
      newUrls: 0,
      error,
      attempt: claimed.attempts + 1,
      ...(result.retryAt != null ? { retryAt: result.retryAt } : {}),
      ...(result.fetchMs === undefined ? {} : { fetchMs: result.fetchMs }),
    },
  };
}

/** The outcome and event of a claimed URL recorded as a redirect to a URL the crawl has. */
export function redirectOutcome(
  claimed: ClaimedUrl,
  steps: RedirectStep[],
  fetchedAt: number,
): { outcome: Outcome; event: PageEvent } {
  return {
    outcome: { url: claimed.url, state: 'redirect', result: { fetchedAt, redirects: steps } },
    event: {
      url: claimed.url,
      state: 'redirect',
      depth: claimed.depth,
      status: steps[0]?.status ?? null,
      relevance: null,
      title: null,
      newUrls: 0,
      error: null,
    },
  };
}

function isHttp(url: string): boolean {
  return url.startsWith('http://') || url.startsWith('https://');
}

/**
 * Builds the outcome of a response. The strategy decides whose links are followed:
 * kept pages' and seeds' always (seeds whatever their relevance), irrelevant
 * pages' only under strategies that tunnel (fish, shark, tunnel). `pre`: the
 * response decoded, parsed and fingerprinted already on an analysis thread.
 */
export function pageOutcome(
  claimed: ClaimedUrl,
  res: FetchResult,
  isSeed: boolean,
  rules: PageRules,
  fetchedAt: number,
  pre?: Analysis,
): PageResult {
  const threshold = rules.threshold;
  // Relevant decides whose links are followed; a page that asks not to be indexed
  // (noindex, none) is judged and followed like any other, but not kept.
  const j = judgePage(
    res,
    { parse: rules.parse, relevance: (p) => rules.model.relevance(p), threshold },
    pre?.body,
  );
  const page = j.analysis.page;
  const { text, title, relevance, relevant, kept } = j;
  // The page's neighbours on the page that linked it, raised by what it lends them.
  const lent = rules.siblings?.lend(claimed.url, relevance, relevant, fetchedAt) ?? [];
  // The validators, kept for the first revisit (only those the response carried).
  const v = validatorsOf(res.headers, fetchedAt);
  const base = {
    fetchedAt,
    fetchMs: Math.round(res.timings.totalMs),
    status: res.status,
    contentType: res.contentType ?? null,
    bytes: res.bytes,
    title: title || null,
    relevance,
    ...(v.etag !== undefined ? { etag: v.etag } : {}),
    ...(v.lastModified !== undefined ? { lastModified: v.lastModified } : {}),
    ...(v.lastModifiedMs !== undefined ? { modifiedAt: v.lastModifiedMs } : {}),
  };
  // Through redirects, the page is the final URL's (the store keeps it there).
  const pageUrl = res.finalUrl;
  const redirects = pageUrl === claimed.url ? undefined : redirectSteps(res);
  const dedup =
    kept && rules.dedup !== null ? rules.dedup.check(pageUrl, text, pre?.fingerprint) : null;
  if (dedup?.duplicate) {
    // A copy whose URL differs from the original's in a session id teaches the key.
    if (dedup.duplicate.kind === 'exact') rules.copyKeys?.observe(pageUrl, dedup.duplicate.of);
    // Recorded as a discard naming the original: no body, no links followed.
    return pageResult(claimed, 'discard', {
      ...base,
      ...(redirects ? { redirects } : {}),
      contentHash: md5Hex(res.body),
      simhash: dedup.simhash,
      textHash: dedup.textHash,
      duplicate: dedup.duplicate,
      ...(lent.length > 0 ? { newUrls: lent } : {}),
    });
  }
  rules.collect?.(text, relevant);
  const parent: ParentInfo = {
    relevance,
    kept: relevant,
    isSeed,
    threshold,
    depth: claimed.depth,
    priority: claimed.priority,
    value: isSeed ? rules.strategy.seedValue : claimed.value,
    links: page?.links.length ?? 0,
  };
  const follow = page !== undefined && j.linksAllowed && rules.strategy.follows(parent);
  rules.observe?.(claimed, relevant, follow ? page.links : null);

  let links: PageLink[] | undefined;
  let newUrls: NewUrl[] | undefined;
  const refresh =
    page === undefined ? undefined : refreshTarget(page.metaRefresh, claimed, rules, fetchedAt);
  if (refresh !== undefined) {
    links = [{ url: refresh.url, anchor: null }];
    newUrls = [refresh];
  }
  if (follow) {
    links ??= [];
    newUrls ??= [];
    const family: FamilyLink[] | null = rules.siblings ? [] : null;
    const familySent = new Set<string>();
    let familyValue = 0;
    const depth = linkDepth(claimed.depth);
    const deepEnough = depth <= rules.maxDepth;
    const textScore = (text: string): number => rules.linkText.relevance({ text });
    const linkScore = rules.linkScore;
    const inPage = new Set<string>(refresh ? [refresh.url] : []);
    const copyKeys = rules.copyKeys ?? null;
    // Keys learnt to change nothing (session ids) are dropped: the page's own URL remains.
    const urls = copyKeys === null ? null : page.links.map((l) => copyKeys.strip(l.url));
    // Links that are a known URL plus a session id wait at a lower priority, lend and
    // borrow nothing: before a copy was fetched to teach the key, they are likely copies.
    const copies =
      urls === null
        ? null
        : likelyCopies(urls, (u) => u === pageUrl || rules.seen.sent(u) !== undefined);
    for (let i = 0; i < page.links.length; i++) {
      const l = page.links[i] as (typeof page.links)[number];
      const url = urls === null ? l.url : (urls[i] as string);
      if (inPage.has(url) || !isHttp(url)) continue;
      inPage.add(url);
      // Anchors are slices of the page's text: copies keep it from living on with them.
      const anchor = l.anchor ? detach(l.anchor) : null;
      links.push({ url, anchor });
      let member: FamilyLink | null = null;
      if (family !== null) {
        member = { url, evidence: Number.NaN };
        family.push(member);
      }
      if (l.nofollow || !deepEnough) continue;
      const copy = copies?.has(url) === true;
      // The best priority this run sent the URL with; a link seen again on a better
      // path is sent again (the store raises its priority); claimed URLs never.
      const sent = rules.seen.sent(url);
      if (sent === Number.POSITIVE_INFINITY || !rules.inScope(url)) continue;
      const context = l.context || l.anchor;
      const score =
        linkScore === undefined
          ? textScore
          : () => linkScore({ url, anchor: l.anchor, context, title }, claimed.url);
      const s = rules.strategy.link(parent, { anchor: l.anchor, context: l.context, url }, score);
      if (copy && s !== null) s.priority *= LIKELY_COPY_FACTOR;
      if (member !== null && !copy && s !== null && s.evidence !== undefined) {
        member.evidence = s.evidence;
        familyValue = s.value;
      }
      // A link left out now may be found again on a better path.
      if (s === null || !sendsAgain(sent, s.priority)) continue;
      rules.seen.addChecked(s.priority);
      if (!copy) familySent.add(url);
      const item: NewUrl = {
        url,
        depth,
        priority: s.priority,
        discoveredAt: fetchedAt,
      };
      if (s.value !== 0) item.value = s.value;
      if (anchor) item.anchor = anchor;
      // What the link model reads, minus the URL: context (anchor included) and title.
      if (rules.keepContext) item.context = detach(title ? `${context}\n${title}` : context);
      newUrls.push(item);
    }
    if (family !== null)
      rules.siblings?.record(res.finalUrl, parent, depth, familyValue, family, familySent);
  }
  if (lent.length > 0) newUrls = newUrls === undefined ? lent : [...newUrls, ...lent];
  const storeBody = rules.storeBodies === 'all' || (rules.storeBodies === 'kept' && kept);
  const result: FetchedPage = {
    ...base,
    ...(redirects ? { redirects } : {}),
    // Stored bodies are hashed by the store (off the crawl's thread).
    ...(storeBody ? { body: res.body } : { contentHash: md5Hex(res.body) }),
    ...(kept && rules.fullText && (text !== '' || title !== '') ? { text } : {}),
    ...(kept && rules.extract !== null ? extractedFields(rules.extract, pageUrl, res) : {}),
    ...(dedup?.simhash ? { simhash: dedup.simhash, textHash: dedup.textHash } : {}),
    ...(links ? { links } : {}),
    ...(newUrls ? { newUrls } : {}),
  };
  return pageResult(claimed, kept ? 'complete' : 'discard', result);
}

/**
 * A page's `<meta http-equiv=refresh>` target, followed as a redirect is: with the
 * page's own priority, value and depth, whatever its relevance; undefined when none,
 * out of scope, or already sent as well or better.
 */
function refreshTarget(
  target: string | undefined,
  claimed: ClaimedUrl,
  rules: PageRules,
  discoveredAt: number,
): NewUrl | undefined {
  if (target === undefined || !isHttp(target) || target === claimed.url) return undefined;
  if (!rules.inScope(target)) return undefined;
  if (!sendsAgain(rules.seen.sent(target), claimed.priority)) return undefined;
  rules.seen.addChecked(claimed.priority);
  const item: NewUrl = {
    url: target,
    depth: claimed.depth,
    priority: claimed.priority,
    discoveredAt,
  };
  if (claimed.value !== 0) item.value = claimed.value;
  return item;
}

/** The outcome of a fetched page and the event the crawl reports of it. */
function pageResult(
  claimed: ClaimedUrl,
  state: 'complete' | 'discard',
  result: FetchedPage,
): PageResult {
  return {
    outcome: { url: claimed.url, state, result },
    event: {
      url: claimed.url,
      ...(result.redirects ? { finalUrl: result.redirects.at(-1)?.location as string } : {}),
      state,
      depth: claimed.depth,
      status: result.status,
      relevance: result.relevance,
      title: result.title ?? null,
      newUrls: result.newUrls?.length ?? 0,
      error: null,
      ...(result.fetchMs === undefined ? {} : { fetchMs: result.fetchMs }),
    },
    relevance: result.relevance,
  };
}

/** The kept page's fields by the rule sets that match its URL (none: nothing to add). */
function extractedFields(rules: Rules, url: string, res: FetchResult): { fields?: FieldRow[] } {
  if (
    matchingRuleSets(rules, url).length === 0 ||
    sniffContent(res.contentType, res.body) !== 'html'
  )
    return {};
  const html = decodeBody(res.body, res.contentType).text;
  return { fields: fieldRows(extractPage(rules, { url, html })) };
}

function md5Hex(body: Uint8Array): string {
  return createHash('md5').update(body).digest('hex');
}
