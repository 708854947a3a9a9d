// Ground truth of the topical web: per topic its keywords, seeds, relevant URLs and hidden regions.
import { CLUSTER_SIZE, getModel, PORTAL_HOST, type WebModel } from './model.js';
import { homeUrl, pageUrl } from './pages.js';
import { TOPIC_IDS, TOPICS, type TopicId, topicKeywords } from './topics.js';
import type { WebSize } from './types.js';

export const LABELS_PATH = '/.well-known/focuscrawl/labels.json';

export interface HiddenRegionLabel {
  /** How many irrelevant pages lie on every path into the region. */
  depth: number;
  /** The relevant page where the path through the bridges starts. */
  entry: string;
  /** The irrelevant pages in path order; the last links into the region. */
  bridges: string[];
  /** The region's pages (all relevant to the topic). */
  pages: string[];
}

export interface TopicLabels {
  id: TopicId;
  name: string;
  language: 'en' | 'zh';
  /** Hand-written weighted keywords. */
  keywords: Record<string, number>;
  /** The same keywords as a topic file. */
  topic: { name: string; keywords: Record<string, number> };
  /** Good seed URLs for this topic (hub pages and home pages of devoted sites). */
  seeds: string[];
  /** Every relevant URL reachable by links: home pages, then the pages in page order. */
  relevant: string[];
  /**
   * Relevant pages linked from nowhere, listed only in their host's sitemap. Not in
   * `relevant` (which stays the set a crawl following links can reach); add them when
   * measuring a crawl that reads sitemaps.
   */
  sitemapOnly: string[];
  hiddenRegions: HiddenRegionLabel[];
}

export interface Labels {
  seed: number;
  size: WebSize;
  /** Number of topical content pages. */
  pages: number;
  /** URLs carry no port: crawl with `--resolve '*.test=127.0.0.1:PORT'`. */
  seeds: string[];
  topics: TopicLabels[];
}

function clusterUrls(m: WebModel, cluster: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < CLUSTER_SIZE; i++) out.push(pageUrl(m, cluster * CLUSTER_SIZE + i));
  return out;
}

export function labelsOfModel(m: WebModel): Labels {
  const topics = TOPIC_IDS.map((id): TopicLabels => {
    const t = TOPICS[id];
    const homes = m.hosts.filter((h) => h.topic === id).map((h) => homeUrl(m, h.index));
    const relevant: string[] = [...homes];
    for (let c = 0; c < m.clusters; c++) {
      if (m.subjects[m.clusterSubject[c] as number]?.topic === id)
        relevant.push(...clusterUrls(m, c));
    }
    const sitemapOnly: string[] = [];
    for (const [page, c] of [...m.sitemapOnly].sort((a, b) => a[0] - b[0])) {
      if (m.subjects[m.clusterSubject[c] as number]?.topic === id)
        sitemapOnly.push(pageUrl(m, page));
    }
    return {
      id,
      name: t.name,
      language: t.lang,
      keywords: { ...t.keywords },
      topic: topicKeywords(id),
      seeds: [...m.hubs[id].map((p) => pageUrl(m, p)), ...homes.slice(0, 3)],
      relevant,
      sitemapOnly,
      hiddenRegions: m.hidden
        .filter((h) => h.topic === id)
        .map((h) => ({
          depth: h.depth,
          entry: pageUrl(m, h.entry),
          bridges: h.bridges.map((b) => pageUrl(m, b)),
          pages: clusterUrls(m, h.cluster),
        })),
    };
  });
  return { seed: m.seed, size: m.size, pages: m.pages, seeds: [`http://${PORTAL_HOST}/`], topics };
}

/** Ground-truth labels of the test web with this seed and size. */
export function labels(options: { seed?: number; size?: WebSize } = {}): Labels {
  return labelsOfModel(getModel(options.seed ?? 1, options.size ?? 'small'));
}

export function labelsJson(m: WebModel): string {
  return `${JSON.stringify(labelsOfModel(m), null, 1)}\n`;
}
