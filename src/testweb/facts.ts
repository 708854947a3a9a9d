// Pure access to the topical web by URL: the page list, per-page facts, links and HTML.
import { getModel, type WebModel } from './model.js';
import {
  homeOutLinks,
  homeUrl,
  type PageKind,
  pageIdFromPath,
  pageInfo,
  pageOutLinks,
  pageUrl,
} from './pages.js';
import { type PageView, renderHome, renderPage } from './render.js';
import type { TopicId } from './topics.js';
import type { WebSize } from './types.js';
import { isSessionId, PRINT_PREFIX, SESSION_PARAM } from './variants.js';

export interface WebId {
  /** @default 1 */
  seed?: number;
  /** @default 'small' */
  size?: WebSize;
}

export function modelOf(id: WebId): WebModel {
  return getModel(id.seed ?? 1, id.size ?? 'small');
}

/** URLs (without port) of the topical content pages in a fixed order, at most `limit`. */
export function listPageUrls(id: WebId = {}, limit = Number.POSITIVE_INFINITY): string[] {
  const m = modelOf(id);
  const n = Math.min(m.pages, limit);
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = pageUrl(m, i);
  return out;
}

export interface PageFacts {
  url: string;
  /** Ground-truth topic, or null when the page is off-topic. */
  topic: TopicId | null;
  /** 'home' for a site's home page. */
  kind: PageKind | 'home';
  language: 'en' | 'zh';
  /** In a region reachable only through irrelevant pages. */
  hidden: boolean;
}

type Resolved = { m: WebModel; page: number; view: PageView } | { m: WebModel; home: number };

function resolve(id: WebId, url: string): Resolved | undefined {
  const m = modelOf(id);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = m.hostByName.get(u.hostname);
  if (!host) return undefined;
  if (u.pathname === '/' && u.search === '') return { m, home: host.index };
  const page = pageIdFromPath(m, host, u.pathname);
  if (page !== undefined) {
    const s = u.searchParams.get(SESSION_PARAM);
    return { m, page, view: isSessionId(s) ? { session: s } : {} };
  }
  if (!m.variantHosts.has(host.index) || !u.pathname.startsWith(`${PRINT_PREFIX}/`))
    return undefined;
  const printed = pageIdFromPath(m, host, u.pathname.slice(PRINT_PREFIX.length));
  return printed === undefined ? undefined : { m, page: printed, view: { print: true } };
}

/**
 * Facts about a topical-web URL (content or home page); undefined for other URLs. The
 * query of a content page's URL is ignored (so a session variant gives the facts of its
 * page); print views give undefined (see `duplicateOf`).
 */
export function pageFacts(id: WebId, url: string): PageFacts | undefined {
  const r = resolve(id, url);
  if (!r || ('view' in r && r.view.print === true)) return undefined;
  if ('home' in r) {
    const h = r.m.hosts[r.home]!;
    return {
      url: homeUrl(r.m, r.home),
      topic: h.topic,
      kind: 'home',
      language: h.lang,
      hidden: false,
    };
  }
  const p = pageInfo(r.m, r.page);
  return {
    url: pageUrl(r.m, r.page),
    topic: p.topic,
    kind: p.kind,
    language: p.subject.lang,
    hidden: p.hidden,
  };
}

/**
 * Out-links of a topical-web page to other topical pages and home pages (no port), as
 * canonical page URLs: print-view links and session ids are left out.
 */
export function pageLinksOf(id: WebId, url: string): string[] {
  const r = resolve(id, url);
  if (!r || ('view' in r && r.view.print === true)) return [];
  const targets = 'home' in r ? homeOutLinks(r.m, r.m.hosts[r.home]!) : pageOutLinks(r.m, r.page);
  return targets.map((t) => (t < 0 ? homeUrl(r.m, -1 - t) : pageUrl(r.m, t)));
}

/** The HTML a topical-web URL serves (print views and session variants too), or undefined. */
export function pageHtml(id: WebId, url: string): string | undefined {
  const r = resolve(id, url);
  if (!r) return undefined;
  return 'home' in r ? renderHome(r.m, r.m.hosts[r.home]!) : renderPage(r.m, r.page, r.view);
}
