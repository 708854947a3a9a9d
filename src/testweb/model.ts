// The shape of the topical web for one (seed, size): hosts, clusters of pages, hubs and
// hidden regions. Small typed arrays only; pages themselves are generated on demand.
import { hashInts, Rng, rngOf } from './prng.js';
import {
  FILLER,
  GENERAL_HOST_STEMS,
  TOPIC_IDS,
  TOPICS,
  type TopicId,
  topicsOfLang,
} from './topics.js';
import type { WebSize } from './types.js';
import { planVariants, type SitemapStyle } from './variants.js';
import type { LangCode, Vocab } from './vocab.js';

export const PORTAL_HOST = 'portal.test';
/** Pages per cluster: a run of consecutive page ids on one host about one subject. */
export const CLUSTER_SIZE = 20;

export interface SizeSpec {
  pages: number;
  hostsPerTopic: number;
  generalHostsPerLang: number;
  hubsPerTopic: number;
  hiddenPerTopic: number;
}

export const SIZES: Record<WebSize, SizeSpec> = {
  small: {
    pages: 2_000,
    hostsPerTopic: 2,
    generalHostsPerLang: 2,
    hubsPerTopic: 2,
    hiddenPerTopic: 2,
  },
  medium: {
    pages: 20_000,
    hostsPerTopic: 6,
    generalHostsPerLang: 8,
    hubsPerTopic: 5,
    hiddenPerTopic: 4,
  },
  large: {
    pages: 120_000,
    hostsPerTopic: 18,
    generalHostsPerLang: 24,
    hubsPerTopic: 10,
    hiddenPerTopic: 8,
  },
};

/** Share of clusters given to each labelled topic. */
const TOPIC_SHARE = 0.1;

export interface HostInfo {
  index: number;
  name: string;
  lang: LangCode;
  /** The topic a site is devoted to, or null for a general site. */
  topic: TopicId | null;
  sections: readonly string[];
  /** Clusters on this host that ordinary links may point to (hidden ones left out). */
  visibleClusters: number[];
}

export interface Subject {
  index: number;
  lang: LangCode;
  /** Set for a labelled topic's own subject. */
  topic: TopicId | null;
  name: string;
  vocab: Vocab;
  /** For a filler subject next to a topic: that topic. */
  neighbourOf: TopicId | null;
}

/** A relevant cluster reachable only through `bridges` (irrelevant pages), from `entry`. */
export interface HiddenRegion {
  topic: TopicId;
  cluster: number;
  /** Number of irrelevant pages on the only paths into the region (1 or 2). */
  depth: number;
  /** A visible relevant page that links to the first bridge. */
  entry: number;
  /** Irrelevant pages, in path order; the last links into the region. */
  bridges: number[];
}

export interface WebModel {
  seed: number;
  size: WebSize;
  pages: number;
  clusters: number;
  hosts: HostInfo[];
  hostByName: Map<string, HostInfo>;
  subjects: Subject[];
  clusterHost: Uint16Array;
  clusterSubject: Uint8Array;
  clusterHidden: Uint8Array;
  visibleTopicClusters: Record<TopicId, number[]>;
  visibleLangClusters: Record<LangCode, number[]>;
  visibleFillerClusters: Record<LangCode, number[]>;
  hubs: Record<TopicId, number[]>;
  fillerHubs: Record<LangCode, number[]>;
  hubSet: Set<number>;
  hidden: HiddenRegion[];
  /** Extra links of entry and bridge pages (page id → target page ids). */
  extraLinks: Map<number, number[]>;
  /** Pages never chosen as ordinary link targets (the bridges). */
  excluded: Set<number>;
  /** Hosts serving sitemaps (host index → style); see variants.ts. */
  sitemapHosts: Map<number, SitemapStyle>;
  /** Sitemap-only pages (ids from `pages` on) → the visible cluster each belongs with. */
  sitemapOnly: Map<number, number>;
  /** Sitemap-only page ids per sitemap host. */
  sitemapOnlyByHost: Map<number, number[]>;
  /** Hosts with print views and session ids (never sitemap hosts). */
  variantHosts: Set<number>;
}

const EN_SECTIONS = ['news', 'articles', 'blog', 'features', 'guides', 'reviews'];
const ZH_SECTIONS = ['news', 'article', 'zixun', 'pinglun', 'zhuanti', 'blog'];

function hostName(stems: readonly string[], i: number): string {
  const stem = stems[i % stems.length] as string;
  const round = Math.floor(i / stems.length);
  return `${stem}${round === 0 ? '' : `-${round + 1}`}.test`;
}

function buildSubjects(): Subject[] {
  const out: Subject[] = [];
  for (const id of TOPIC_IDS) {
    const t = TOPICS[id];
    out.push({
      index: out.length,
      lang: t.lang,
      topic: id,
      name: id,
      vocab: t.vocab,
      neighbourOf: null,
    });
  }
  for (const lang of ['en', 'zh'] as const) {
    for (const [name, vocab] of Object.entries(FILLER[lang])) {
      const near = topicsOfLang(lang).find((t) => t.neighbour === name);
      out.push({
        index: out.length,
        lang,
        topic: null,
        name,
        vocab,
        neighbourOf: near?.id ?? null,
      });
    }
  }
  return out;
}

const SUBJECTS = buildSubjects();

function shuffle<T>(rng: Rng, a: T[]): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  }
}

function buildModel(seed: number, size: WebSize): WebModel {
  const spec = SIZES[size];
  const rng = new Rng(hashInts(seed, 0x5eed, spec.pages));
  const K = Math.ceil(spec.pages / CLUSTER_SIZE);

  // Hosts: per topic a few devoted sites, per language a few general ones.
  const hosts: HostInfo[] = [];
  const addHost = (name: string, lang: LangCode, topic: TopicId | null) =>
    hosts.push({
      index: hosts.length,
      name,
      lang,
      topic,
      sections: lang === 'en' ? EN_SECTIONS : ZH_SECTIONS,
      visibleClusters: [],
    });
  for (const id of TOPIC_IDS) {
    for (let i = 0; i < spec.hostsPerTopic; i++)
      addHost(hostName(TOPICS[id].hostStems, i), TOPICS[id].lang, id);
  }
  for (const lang of ['en', 'zh'] as const) {
    for (let i = 0; i < spec.generalHostsPerLang; i++)
      addHost(hostName(GENERAL_HOST_STEMS[lang], i), lang, null);
  }
  const devoted = (id: TopicId) => hosts.filter((h) => h.topic === id);
  const general = (lang: LangCode) => hosts.filter((h) => h.topic === null && h.lang === lang);
  const langHosts = (lang: LangCode) => hosts.filter((h) => h.lang === lang);

  // Subjects of clusters: TOPIC_SHARE of them per topic, the rest filler in either language.
  const subj: number[] = [];
  const perTopic = Math.max(
    spec.hubsPerTopic + spec.hiddenPerTopic + 2,
    Math.round(K * TOPIC_SHARE),
  );
  for (let t = 0; t < TOPIC_IDS.length; t++) for (let i = 0; i < perTopic; i++) subj.push(t);
  const fillers = SUBJECTS.filter((s) => s.topic === null);
  while (subj.length < K) subj.push((rng.pick(fillers) as Subject).index);
  shuffle(rng, subj);

  const clusterSubject = Uint8Array.from(subj);
  const clusterHost = new Uint16Array(K);
  const clusterHidden = new Uint8Array(K);
  const seen = new Map<string, number>(); // round-robin first, so that every host gets clusters
  for (let c = 0; c < K; c++) {
    const s = SUBJECTS[clusterSubject[c] as number] as Subject;
    let pool: HostInfo[];
    if (s.topic !== null) pool = rng.chance(0.75) ? devoted(s.topic) : general(s.lang);
    else
      pool = rng.chance(0.7) ? general(s.lang) : langHosts(s.lang).filter((h) => h.topic !== null);
    const key = pool.map((h) => h.index).join(',');
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const host = n < pool.length ? (pool[n] as HostInfo) : rng.pick(pool);
    clusterHost[c] = host.index;
  }

  const topicClusters = (id: TopicId) => {
    const t = TOPIC_IDS.indexOf(id);
    const out: number[] = [];
    for (let c = 0; c < K; c++) if (clusterSubject[c] === t) out.push(c);
    return out;
  };

  // Hidden regions: the last clusters of each topic; hubs: page 0 of the first visible ones.
  const hubs = {} as Record<TopicId, number[]>;
  const visibleTopicClusters = {} as Record<TopicId, number[]>;
  const hiddenPlan: { topic: TopicId; cluster: number; depth: number }[] = [];
  for (const id of TOPIC_IDS) {
    const cs = topicClusters(id);
    const hidden = cs.slice(cs.length - spec.hiddenPerTopic);
    hidden.forEach((c, i) => {
      clusterHidden[c] = 1;
      hiddenPlan.push({ topic: id, cluster: c, depth: (i % 2) + 1 });
    });
    visibleTopicClusters[id] = cs.slice(0, cs.length - spec.hiddenPerTopic);
    hubs[id] = visibleTopicClusters[id].slice(0, spec.hubsPerTopic).map((c) => c * CLUSTER_SIZE);
  }
  const visibleLangClusters: Record<LangCode, number[]> = { en: [], zh: [] };
  const fillerClusters: Record<LangCode, number[]> = { en: [], zh: [] };
  for (let c = 0; c < K; c++) {
    if (clusterHidden[c]) continue;
    const s = SUBJECTS[clusterSubject[c] as number] as Subject;
    visibleLangClusters[s.lang].push(c);
    if (s.topic === null) fillerClusters[s.lang].push(c);
    (hosts[clusterHost[c] as number] as HostInfo).visibleClusters.push(c);
  }
  const fillerHubs: Record<LangCode, number[]> = { en: [], zh: [] };
  for (const lang of ['en', 'zh'] as const) {
    fillerHubs[lang] = fillerClusters[lang]
      .slice(0, spec.hubsPerTopic)
      .map((c) => c * CLUSTER_SIZE);
  }
  const hubSet = new Set<number>([
    ...Object.values(hubs).flat(),
    ...Object.values(fillerHubs).flat(),
  ]);

  // Entry pages and bridges. Bridges sit in filler clusters (never hubs) and are excluded
  // from ordinary link targets, so the only ways into a hidden region pass through them.
  const hiddenRegions: HiddenRegion[] = [];
  const extraLinks = new Map<number, number[]>();
  const excluded = new Set<number>();
  const usedBridgeClusters = new Set<number>();
  for (const plan of hiddenPlan) {
    const lang = TOPICS[plan.topic].lang;
    const vis = visibleTopicClusters[plan.topic];
    const entryCluster = vis[spec.hubsPerTopic % vis.length] as number;
    const entry = entryCluster * CLUSTER_SIZE + 1 + rng.int(CLUSTER_SIZE - 1);
    const bridges: number[] = [];
    for (let i = 0; i < plan.depth; i++) {
      let c: number;
      do c = rng.pick(fillerClusters[lang]);
      while (usedBridgeClusters.has(c) && usedBridgeClusters.size < fillerClusters[lang].length);
      usedBridgeClusters.add(c);
      const b = c * CLUSTER_SIZE + 1 + rng.int(CLUSTER_SIZE - 1);
      bridges.push(b);
      excluded.add(b);
    }
    const first = plan.cluster * CLUSTER_SIZE;
    const chain = [entry, ...bridges, first];
    for (let i = 0; i + 1 < chain.length; i++) {
      const from = chain[i] as number;
      const to = i + 2 === chain.length ? [first, first + 1, first + 2] : [chain[i + 1] as number];
      extraLinks.set(from, [...(extraLinks.get(from) ?? []), ...to]);
    }
    hiddenRegions.push({ ...plan, entry, bridges });
  }

  const variants = planVariants(
    seed,
    spec.pages,
    hosts,
    (c) => (SUBJECTS[clusterSubject[c] as number] as Subject).topic,
  );
  return {
    seed,
    size,
    pages: spec.pages,
    clusters: K,
    hosts,
    hostByName: new Map(hosts.map((h) => [h.name, h])),
    subjects: SUBJECTS,
    clusterHost,
    clusterSubject,
    clusterHidden,
    visibleTopicClusters,
    visibleLangClusters,
    visibleFillerClusters: fillerClusters,
    hubs,
    fillerHubs,
    hubSet,
    hidden: hiddenRegions,
    extraLinks,
    excluded,
    ...variants,
  };
}

const cache = new Map<string, WebModel>();
const CACHE_LIMIT = 8;

/** The model of (seed, size), built once and kept in a small bounded cache. */
export function getModel(seed: number, size: WebSize): WebModel {
  const key = `${seed}/${size}`;
  let m = cache.get(key);
  if (m) return m;
  m = buildModel(seed, size);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(key, m);
  return m;
}

/** A generator for one page and purpose, e.g. `pageRng(model, id, 1)` for its body. */
export function pageRng(model: WebModel, id: number, purpose: number): Rng {
  return rngOf(model.seed, purpose, id);
}
