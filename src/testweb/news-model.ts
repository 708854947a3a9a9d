// news.test's ground truth, pure: articles with known change rates, their Poisson change
// instants, births during the run, and the list pages. Everything is a function of
// (seed, size, URL, t); t is the simulated clock.
import { hashInts, hexId, rngOf } from './prng.js';
import type { WebSize } from './types.js';
import { LANGS, title, type Vocab } from './vocab.js';
import { EN_FILLER } from './words-en.js';

export const NEWS_HOST = 'news.test';
/** News time zero (the server's default clock start): 2024-01-01T00:00:00Z. */
export const NEWS_EPOCH_MS = Date.UTC(2024, 0, 1);
export const NEWS_PER_PAGE = 20;
export const NEWS_COUNTS: Record<WebSize, number> = { small: 200, medium: 200, large: 1_000 };
export const NEWS_SECTIONS = ['local', 'business', 'tech', 'sport', 'travel', 'health'] as const;
export type NewsSection = (typeof NEWS_SECTIONS)[number];
/** Change rates of changing articles are log-uniform in [MIN, MAX] changes per day. */
export const NEWS_MIN_RATE = 1 / 30;
export const NEWS_MAX_RATE = 20;

const DAY_MS = 86_400_000;
const NEVER_SHARE = 0.15;
/** Share of articles born after the epoch (within LATE_DAYS), the rest within EARLY_DAYS before. */
const LATE_SHARE = 0.2;
const LATE_DAYS = 30;
const EARLY_DAYS = 60;

const SECTION_VOCAB: Record<NewsSection, Vocab> = {
  local: EN_FILLER['town'] as Vocab,
  business: EN_FILLER['finance'] as Vocab,
  tech: EN_FILLER['software'] as Vocab,
  sport: EN_FILLER['sports'] as Vocab,
  travel: EN_FILLER['travel'] as Vocab,
  health: EN_FILLER['health'] as Vocab,
};

/** 'etag': ETag + If-None-Match; 'last-modified': Last-Modified + If-Modified-Since; 'none'. */
export type NewsValidator = 'etag' | 'last-modified' | 'none';
const VALIDATORS: readonly NewsValidator[] = ['etag', 'last-modified', 'none'];

export interface NewsArticle {
  id: number;
  /** 'http://news.test/article/ID' (no port). */
  url: string;
  section: NewsSection;
  title: string;
  /** Changes per day (a Poisson process from birth on); 0 for articles that never change. */
  ratePerDay: number;
  /** Publication time (ms, whole seconds): 404 and unlisted before it. */
  birth: number;
  /** `id % 3` picks it: a third of the articles each. */
  validator: NewsValidator;
}

const N_ARTICLE = 0xe0;
const N_EVENTS = 0xe1;
const N_TITLE = 0xe2;
export const N_TEXT = 0xe3;
export const N_UPDATE = 0xe4;

/** Facts of article `id` (they do not depend on the size: sizes only add articles). */
export function newsArticle(seed: number, id: number): NewsArticle {
  const rng = rngOf(seed, N_ARTICLE, id);
  const section = NEWS_SECTIONS[rng.int(NEWS_SECTIONS.length)] as NewsSection;
  const never = rng.chance(NEVER_SHARE);
  const u = rng.next();
  const ratePerDay = never
    ? 0
    : Math.exp(Math.log(NEWS_MIN_RATE) + u * (Math.log(NEWS_MAX_RATE) - Math.log(NEWS_MIN_RATE)));
  const late = rng.chance(LATE_SHARE);
  const days = late ? rng.next() * LATE_DAYS : -rng.next() * EARLY_DAYS;
  const birth = NEWS_EPOCH_MS + Math.round((days * DAY_MS) / 1000) * 1000;
  return {
    id,
    url: `http://${NEWS_HOST}/article/${id}`,
    section,
    title: title(rngOf(seed, N_TITLE, id), LANGS.en, SECTION_VOCAB[section]),
    ratePerDay,
    birth,
    validator: VALIDATORS[id % 3] as NewsValidator,
  };
}

export function sectionVocab(section: NewsSection): Vocab {
  return SECTION_VOCAB[section];
}

/** Every article of the site (born or not yet), by id. */
export function newsArticles(seed: number, size: WebSize): NewsArticle[] {
  const out: NewsArticle[] = [];
  for (let id = 0; id < NEWS_COUNTS[size]; id++) out.push(newsArticle(seed, id));
  return out;
}

/**
 * Calls `visit` with each change instant (ms, whole seconds, strictly increasing) of the
 * article up to `upTo`: exponential gaps from its birth on, drawn from a generator seeded
 * by (seed, article), so the instants do not depend on when or how often one asks.
 */
function eachChange(seed: number, a: NewsArticle, upTo: number, visit: (at: number) => void): void {
  if (a.ratePerDay === 0 || upTo <= a.birth) return;
  const rng = rngOf(seed, N_EVENTS, a.id);
  const ratePerMs = a.ratePerDay / DAY_MS;
  let at = a.birth;
  for (;;) {
    at += Math.max(1000, Math.round(rng.exp(ratePerMs) / 1000) * 1000);
    if (at > upTo) return;
    visit(at);
  }
}

export interface VersionState {
  /** Change events ≤ t; -1 before birth. */
  version: number;
  /** Time of the version's change event, or the birth for version 0. */
  since: number;
}

export function versionState(seed: number, a: NewsArticle, t: number): VersionState {
  if (t < a.birth) return { version: -1, since: a.birth };
  let version = 0;
  let since = a.birth;
  eachChange(seed, a, t, (at) => {
    version++;
    since = at;
  });
  return { version, since };
}

/** Version of article `id` at simulated time `t`: its change events ≤ t; -1 before birth. */
export function newsVersionAt(seed: number, id: number, t: number): number {
  return versionState(seed, newsArticle(seed, id), t).version;
}

/** The ETag article `id` sends for `version`. */
export function newsETag(seed: number, id: number, version: number): string {
  return `"${version}-${hexId(hashInts(seed, N_EVENTS, id, version), 12)}"`;
}

// ---- list pages -------------------------------------------------------------------------

const orderCache = new Map<string, NewsArticle[]>();

/** Articles of the site in birth order (oldest first; ties by id), cached per (seed, size). */
export function birthOrder(seed: number, size: WebSize): NewsArticle[] {
  const key = `${seed}|${size}`;
  let order = orderCache.get(key);
  if (!order) {
    if (orderCache.size >= 16) orderCache.clear();
    order = newsArticles(seed, size).sort((a, b) => a.birth - b.birth || a.id - b.id);
    orderCache.set(key, order);
  }
  return order;
}

/** Members of a list (all articles, or one section's) in birth order. */
function listMembers(seed: number, size: WebSize, section: NewsSection | null): NewsArticle[] {
  const all = birthOrder(seed, size);
  return section === null ? all : all.filter((a) => a.section === section);
}

/** Articles of a list born by `t`, newest first. */
export function listAt(
  seed: number,
  size: WebSize,
  section: NewsSection | null,
  t: number,
): NewsArticle[] {
  return listMembers(seed, size, section)
    .filter((a) => a.birth <= t)
    .reverse();
}

export function listPages(items: number): number {
  return Math.max(1, Math.ceil(items / NEWS_PER_PAGE));
}

export type NewsPath =
  | { kind: 'list'; section: NewsSection | null; page: number }
  | { kind: 'article'; id: number };

/** What a path (and its `page` parameter) names; undefined for anything else. */
export function parseNewsPath(pathname: string, pageParam: string | null): NewsPath | undefined {
  const m = /^\/article\/(0|[1-9]\d{0,8})$/.exec(pathname);
  if (m) return { kind: 'article', id: Number(m[1]) };
  let section: NewsSection | null = null;
  if (pathname !== '/') {
    const s = /^\/section\/([a-z]+)$/.exec(pathname)?.[1];
    if (!s || !(NEWS_SECTIONS as readonly string[]).includes(s)) return undefined;
    section = s as NewsSection;
  }
  if (pageParam !== null && !/^[1-9]\d{0,5}$/.test(pageParam)) return undefined;
  return { kind: 'list', section, page: pageParam === null ? 1 : Number(pageParam) };
}

function parseNewsUrl(url: string): NewsPath | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.hostname !== NEWS_HOST) return undefined;
  return parseNewsPath(u.pathname, u.searchParams.get('page'));
}

export function listPath(section: NewsSection | null, page: number): string {
  const base = section === null ? '/' : `/section/${section}`;
  return page === 1 ? base : `${base}?page=${page}`;
}

// ---- ground truth by URL ----------------------------------------------------------------

/**
 * The URLs (no port) that answer 200 at `t`: `/` and its pages, each section and its
 * pages, and every article born by `t`.
 */
export function newsPagesAt(seed: number, size: WebSize, t: number): string[] {
  const out: string[] = [];
  for (const section of [null, ...NEWS_SECTIONS]) {
    const pages = listPages(listAt(seed, size, section, t).length);
    for (let k = 1; k <= pages; k++) out.push(`http://${NEWS_HOST}${listPath(section, k)}`);
  }
  for (const a of birthOrder(seed, size)) if (a.birth <= t) out.push(a.url);
  return out;
}

/**
 * A key of what the page at `url` shows at `t` (its visible text, not the markup noise
 * that changes on every request): equal keys, equal text. null when the URL answers 404
 * at `t`. A stored copy fetched at `t0` is fresh at `t` iff the keys at `t0` and `t` agree.
 */
export function newsFingerprint(
  seed: number,
  size: WebSize,
  url: string,
  t: number,
): string | null {
  const p = parseNewsUrl(url);
  if (!p) return null;
  if (p.kind === 'article') {
    if (p.id >= NEWS_COUNTS[size]) return null;
    const v = newsVersionAt(seed, p.id, t);
    return v < 0 ? null : `article/${p.id}@${v}`;
  }
  const n = listAt(seed, size, p.section, t).length;
  if (p.page > listPages(n)) return null;
  return `${listPath(p.section, p.page)}@${n}`;
}

/**
 * The instants in (from, to] (ms, ascending, distinct) at which the page at `url` changes:
 * for an article its birth (the page appears) and its change events; for a list page the
 * births of its articles from the one that makes the page exist on. [] for other URLs.
 */
export function newsChangeTimes(
  seed: number,
  size: WebSize,
  url: string,
  from: number,
  to: number,
): number[] {
  const p = parseNewsUrl(url);
  const out: number[] = [];
  if (!p || to <= from) return out;
  if (p.kind === 'article') {
    if (p.id >= NEWS_COUNTS[size]) return out;
    const a = newsArticle(seed, p.id);
    if (a.birth > from && a.birth <= to) out.push(a.birth);
    eachChange(seed, a, to, (at) => {
      if (at > from) out.push(at);
    });
    return out;
  }
  const members = listMembers(seed, size, p.section);
  for (let j = (p.page - 1) * NEWS_PER_PAGE; j < members.length; j++) {
    const b = (members[j] as NewsArticle).birth;
    if (b > from && b <= to && out[out.length - 1] !== b) out.push(b);
  }
  return out;
}
