// Which topical hosts serve sitemaps and which serve duplicate variants (print views and
// session ids), and the sitemap-only pages. Planned from the seed with a generator of its
// own, after the rest of the model, so the pages, links and labels of the other hosts are
// exactly what they would be without this plan.
import { hashInts, hexId, Rng } from './prng.js';

/** How a sitemap host announces its sitemaps. */
export type SitemapStyle =
  /** `Sitemap:` lines in robots.txt; `/sitemap.xml` is an index of child sitemaps. */
  | 'robots'
  /** No robots.txt line; `/sitemap.xml` is a plain urlset. */
  | 'plain';

export interface VariantPlan {
  /** Sitemap hosts (host index → style). */
  sitemapHosts: Map<number, SitemapStyle>;
  /** Sitemap-only page id (≥ the web's page count) → the visible cluster it belongs with. */
  sitemapOnly: Map<number, number>;
  /** Sitemap-only page ids of each sitemap host, ascending. */
  sitemapOnlyByHost: Map<number, number[]>;
  /** Hosts whose pages link to print views and carry session ids in some links. */
  variantHosts: Set<number>;
}

/** What the plan needs to know of a host (see HostInfo in model.ts). */
export interface PlanHost {
  index: number;
  lang: string;
  topic: string | null;
  visibleClusters: readonly number[];
}

/** Sitemap-only pages per sitemap host: between these bounds. */
const SITEMAP_ONLY_MIN = 3;
const SITEMAP_ONLY_MAX = 6;

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  }
  return a;
}

/**
 * Variant hosts: a third (rounded up) of the general sites of each language. Sitemap
 * hosts: a third (rounded up) of the other topical hosts, alternately `robots` and
 * `plain`. Each sitemap host gets 3–6 sitemap-only pages, each belonging with one of the
 * host's visible clusters of the host's own subject (its topic, or filler on a general
 * site), so their text, topic and language are like the host's.
 */
export function planVariants(
  seed: number,
  pages: number,
  hosts: readonly PlanHost[],
  clusterSubjectTopic: (cluster: number) => string | null,
): VariantPlan {
  const rng = new Rng(hashInts(seed, 0x517e, pages));
  const variantHosts = new Set<number>();
  for (const lang of ['en', 'zh']) {
    const general = hosts.filter((h) => h.topic === null && h.lang === lang);
    for (const h of shuffled(rng, general).slice(0, Math.ceil(general.length / 3)))
      variantHosts.add(h.index);
  }
  const rest = hosts.filter((h) => !variantHosts.has(h.index) && h.visibleClusters.length > 0);
  const chosen = shuffled(rng, rest).slice(0, Math.ceil(hosts.length / 3));
  const sitemapHosts = new Map<number, SitemapStyle>();
  const sitemapOnly = new Map<number, number>();
  const sitemapOnlyByHost = new Map<number, number[]>();
  let next = pages;
  // Host order (not shuffle order) for the ids, so they ascend with the host index.
  const order = [...chosen].sort((a, b) => a.index - b.index);
  chosen.forEach((h, i) => {
    sitemapHosts.set(h.index, i % 2 === 0 ? 'robots' : 'plain');
  });
  for (const h of order) {
    const own = h.visibleClusters.filter((c) => clusterSubjectTopic(c) === h.topic);
    const pool = own.length > 0 ? own : h.visibleClusters;
    const n = rng.range(SITEMAP_ONLY_MIN, SITEMAP_ONLY_MAX);
    const ids: number[] = [];
    for (let k = 0; k < n; k++) {
      sitemapOnly.set(next, rng.pick(pool));
      ids.push(next++);
    }
    sitemapOnlyByHost.set(h.index, ids);
  }
  return { sitemapHosts, sitemapOnly, sitemapOnlyByHost, variantHosts };
}

/** Session ids are 8 lower-case hex digits, in the `s` query parameter. */
export const SESSION_PARAM = 's';
const SESSION_RE = /^[0-9a-f]{8}$/;

export function isSessionId(s: string | null | undefined): s is string {
  return s !== null && s !== undefined && SESSION_RE.test(s);
}

/** The session a canonical page (no session in its URL) starts: its links carry it. */
export function freshSessionId(seed: number, pageId: number): string {
  return hexId(hashInts(seed, 0x5e55, pageId), 8);
}

/** Print views live at `/print` + the page's own path. */
export const PRINT_PREFIX = '/print';
