// Ground truth of the sitemaps and of the duplicate variants (print views, session ids).
// Pure: functions of (seed, size); URLs carry no port.
import { modelOf, type WebId } from './facts.js';
import { CLUSTER_SIZE, type HostInfo } from './model.js';
import { pageIdFromPath, pageInfo, pageUrl, planLinks } from './pages.js';
import { CHILD_SITEMAPS, NEWS_SITEMAP, sitemapListedUrls } from './sitemaps.js';
import {
  freshSessionId,
  isSessionId,
  PRINT_PREFIX,
  SESSION_PARAM,
  type SitemapStyle,
} from './variants.js';

export interface SitemapHostInfo {
  host: string;
  /** `robots`: listed in robots.txt, `/sitemap.xml` an index; `plain`: `/sitemap.xml` only. */
  style: SitemapStyle;
  /** Every sitemap file the host serves (the index first). */
  sitemaps: string[];
}

/** The hosts serving sitemaps, in host order. */
export function sitemapHosts(id: WebId = {}): SitemapHostInfo[] {
  const m = modelOf(id);
  return m.hosts
    .filter((h) => m.sitemapHosts.has(h.index))
    .map((h) => {
      const style = m.sitemapHosts.get(h.index) as SitemapStyle;
      const paths =
        style === 'robots' ? ['/sitemap.xml', ...CHILD_SITEMAPS, NEWS_SITEMAP] : ['/sitemap.xml'];
      return { host: h.name, style, sitemaps: paths.map((p) => `http://${h.name}${p}`) };
    });
}

/** Pages linked from nowhere and listed only in their host's sitemap, in id order. */
export function sitemapOnlyUrls(id: WebId = {}): string[] {
  const m = modelOf(id);
  return [...m.sitemapOnly.keys()].sort((a, b) => a - b).map((p) => pageUrl(m, p));
}

/** Every page URL the sitemaps of `host` list (home, visible pages, sitemap-only pages). */
export function sitemapPageUrls(id: WebId, host: string): string[] {
  const m = modelOf(id);
  const h = m.hostByName.get(host);
  return h === undefined ? [] : sitemapListedUrls(m, h);
}

/** The hosts whose pages have print views and session-id links, in host order. */
export function variantHosts(id: WebId = {}): string[] {
  const m = modelOf(id);
  return m.hosts.filter((h) => m.variantHosts.has(h.index)).map((h) => h.name);
}

export interface DuplicateVariant {
  /** A URL serving the same article as `of`. */
  url: string;
  /** The canonical URL of the page. */
  of: string;
}

/**
 * Duplicate variants one link away from the canonical pages, in page order: for every
 * content page of the variant hosts, its print view, then the two session URLs its
 * canonical page links to (itself and the next page of its cluster), at most `limit` in
 * all. A page reached through a session link carries the same session on, so a crawl
 * finds many more: `duplicateOf` recognises them all.
 */
export function duplicateVariants(
  id: WebId = {},
  limit = Number.POSITIVE_INFINITY,
): DuplicateVariant[] {
  const m = modelOf(id);
  const out: DuplicateVariant[] = [];
  for (let c = 0; c < m.clusters && out.length < limit; c++) {
    if (!m.variantHosts.has(m.clusterHost[c] as number)) continue;
    for (let p = c * CLUSTER_SIZE; p < (c + 1) * CLUSTER_SIZE && p < m.pages; p++) {
      const info = pageInfo(m, p);
      const of = `http://${info.host.name}${info.path}`;
      out.push({ url: `http://${info.host.name}${PRINT_PREFIX}${info.path}`, of });
      const q = `?${SESSION_PARAM}=${freshSessionId(m.seed, p)}`;
      const next = pageUrl(m, planLinks(m, info).next);
      out.push({ url: of + q, of }, { url: next + q, of: next });
    }
  }
  return out.slice(0, limit);
}

/**
 * The canonical page URL (no port) of a duplicate variant: a print view or a content page
 * with a session id on a variant host. Undefined for any other URL, canonical pages included.
 */
export function duplicateOf(id: WebId, url: string): string | undefined {
  const m = modelOf(id);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host: HostInfo | undefined = m.hostByName.get(u.hostname);
  if (host === undefined || !m.variantHosts.has(host.index)) return undefined;
  const path = u.pathname;
  if (path.startsWith(`${PRINT_PREFIX}/`)) {
    const p = pageIdFromPath(m, host, path.slice(PRINT_PREFIX.length));
    return p === undefined ? undefined : pageUrl(m, p);
  }
  const p = pageIdFromPath(m, host, path);
  if (p === undefined || !isSessionId(u.searchParams.get(SESSION_PARAM))) return undefined;
  return pageUrl(m, p);
}
