// Pure facts about pages of the topical web: subject, label, kind, path and out-links.
// Everything is a function of (model, page id); nothing is stored per page.
import { CLUSTER_SIZE, type HostInfo, pageRng, type Subject, type WebModel } from './model.js';
import type { Rng } from './prng.js';
import { TOPICS, type TopicId, topicsOfLang } from './topics.js';
import type { LangCode } from './vocab.js';

/** hub: many in- and out-links; core/weak: relevant (weak = few keywords);
 *  near: off-topic but mentions a topic keyword once; filler: off-topic. */
export type PageKind = 'hub' | 'core' | 'weak' | 'near' | 'filler';

export interface PageInfo {
  id: number;
  cluster: number;
  host: HostInfo;
  subject: Subject;
  kind: PageKind;
  /** Ground-truth label: the topic the page is relevant to, or null. */
  topic: TopicId | null;
  hidden: boolean;
  /** A weak page whose links to topical pages have generic anchors ("read more"). */
  faint: boolean;
  /** For 'near' pages: the topic whose keyword is mentioned. */
  mentionTopic: TopicId | null;
  path: string;
}

// Purposes of per-page generators.
export const R_KIND = 1;
export const R_TITLE = 2;
export const R_LINKS = 3;
export const R_BODY = 4;

/** Link targets: page ids are ≥ 0; the home page of host h is `homeTarget(h)` (< 0). */
export function homeTarget(hostIndex: number): number {
  return -1 - hostIndex;
}

export function homeHostIndex(target: number): number {
  return -1 - target;
}

/** The cluster of page `id`; a sitemap-only page belongs with the cluster it was given. */
export function clusterOf(m: WebModel, id: number): number {
  return id < m.pages ? Math.floor(id / CLUSTER_SIZE) : (m.sitemapOnly.get(id) ?? -1);
}

export function pageInfo(m: WebModel, id: number): PageInfo {
  const cluster = clusterOf(m, id);
  const host = m.hosts[m.clusterHost[cluster] as number] as HostInfo;
  const subject = m.subjects[m.clusterSubject[cluster] as number] as Subject;
  const hidden = m.clusterHidden[cluster] === 1;
  const rng = pageRng(m, id, R_KIND);
  let kind: PageKind;
  let mentionTopic: TopicId | null = null;
  let faint = false;
  if (m.hubSet.has(id)) kind = 'hub';
  else if (subject.topic !== null) {
    kind = rng.chance(0.2) ? 'weak' : 'core';
    faint = kind === 'weak' && rng.chance(0.5);
  } else if (subject.neighbourOf !== null && rng.chance(0.35)) {
    kind = 'near';
    mentionTopic = subject.neighbourOf;
  } else if (rng.chance(0.04)) {
    kind = 'near';
    mentionTopic = rng.pick(topicsOfLang(subject.lang)).id;
  } else kind = 'filler';
  const section = host.sections[(cluster * 7 + m.seed) % host.sections.length] as string;
  return {
    id,
    cluster,
    host,
    subject,
    kind,
    topic: subject.topic,
    hidden,
    faint,
    mentionTopic,
    path: `/${section}/${id}.html`,
  };
}

/** Parses `/section/ID.html` on `host`; undefined unless that page lives there. */
export function pageIdFromPath(m: WebModel, host: HostInfo, path: string): number | undefined {
  const match = /^\/([a-z]+)\/(\d{1,7})\.html$/.exec(path);
  if (!match) return undefined;
  const id = Number(match[2]);
  const cluster = clusterOf(m, id);
  if (cluster < 0 || m.clusterHost[cluster] !== host.index) return undefined;
  const section = host.sections[(cluster * 7 + m.seed) % host.sections.length];
  return section === match[1] ? id : undefined;
}

export function pageUrl(m: WebModel, id: number): string {
  const p = pageInfo(m, id);
  return `http://${p.host.name}${p.path}`;
}

export function homeUrl(m: WebModel, hostIndex: number): string {
  return `http://${(m.hosts[hostIndex] as HostInfo).name}/`;
}

/** Whether a page is relevant to its topic (home pages: of devoted hosts). */
export function targetTopic(m: WebModel, target: number): TopicId | null {
  if (target < 0) return (m.hosts[homeHostIndex(target)] as HostInfo).topic;
  return (m.subjects[m.clusterSubject[Math.floor(target / CLUSTER_SIZE)] as number] as Subject)
    .topic;
}

// ---------------------------------------------------------------- link planning

function topicTarget(m: WebModel, rng: Rng, topic: TopicId): number {
  const c = rng.pick(m.visibleTopicClusters[topic]);
  return c * CLUSTER_SIZE + rng.int(CLUSTER_SIZE);
}

/** A page of the language: off-topic, except for a small share of topical pages. */
function langTarget(m: WebModel, rng: Rng, lang: LangCode): number {
  const c = rng.pick(
    rng.chance(0.04) ? m.visibleLangClusters[lang] : m.visibleFillerClusters[lang],
  );
  const p = c * CLUSTER_SIZE + rng.int(CLUSTER_SIZE);
  return m.excluded.has(p) ? c * CLUSTER_SIZE : p;
}

function clusterTarget(rng: Rng, info: PageInfo): number {
  const base = info.cluster * CLUSTER_SIZE;
  const p = base + rng.int(CLUSTER_SIZE);
  return p === info.id ? base + ((p - base + 1) % CLUSTER_SIZE) : p;
}

export interface LinkPlan {
  /** Links inside the paragraphs. */
  inline: number[];
  /** The "related articles" list. */
  related: number[];
  /** The "popular" box (hubs). */
  popular: number[];
  /** The next page of the cluster (keeps every cluster strongly connected). */
  next: number;
  /** Links only entry and bridge pages have (see HiddenRegion). */
  extra: number[];
}

/** Out-links of content page `id`, grouped as rendered. */
export function planLinks(m: WebModel, info: PageInfo): LinkPlan {
  const rng = pageRng(m, info.id, R_LINKS);
  const lang = info.subject.lang;
  const topic = info.topic;
  const base = info.cluster * CLUSTER_SIZE;
  const next = base + ((info.id - base + 1) % CLUSTER_SIZE);
  const extra = m.extraLinks.get(info.id) ?? [];
  const langTopics = topicsOfLang(lang);
  if (info.kind === 'hub') {
    const related: number[] = [];
    if (topic !== null) {
      // Topic hub j links to the first page of every visible cluster ≡ j (mod hubs), so the
      // whole visible topic is reachable from the hubs.
      const hubs = m.hubs[topic];
      const j = hubs.indexOf(info.id);
      const vis = m.visibleTopicClusters[topic];
      for (let k = j; k < vis.length; k += hubs.length)
        related.push((vis[k] as number) * CLUSTER_SIZE);
      while (related.length < 55) related.push(topicTarget(m, rng, topic));
      for (let i = 0; i < 5; i++) related.push(langTarget(m, rng, lang));
    } else {
      for (let i = 0; i < 50; i++) related.push(langTarget(m, rng, lang));
      for (const t of langTopics) related.push(rng.pick(m.hubs[t.id]));
    }
    const popular = (topic !== null ? m.hubs[topic] : m.fillerHubs[lang]).filter(
      (h) => h !== info.id,
    );
    return { inline: [], related, popular: popular.slice(0, 6), next, extra };
  }
  const inline: number[] = [];
  const related: number[] = [];
  const nInline = rng.range(5, 9);
  const nRelated = rng.range(12, 24);
  if (topic !== null) {
    for (let i = 0; i < nInline; i++) {
      inline.push(rng.chance(0.7) ? clusterTarget(rng, info) : topicTarget(m, rng, topic));
    }
    for (let i = 0; i < nRelated; i++) {
      const r = rng.next();
      related.push(
        r < 0.45
          ? clusterTarget(rng, info)
          : r < 0.8
            ? topicTarget(m, rng, topic)
            : langTarget(m, rng, lang),
      );
    }
    const popular = [
      rng.pick(m.hubs[topic]),
      rng.pick(m.hubs[topic]),
      rng.pick(m.fillerHubs[lang]),
    ];
    return { inline, related, popular, next, extra };
  }
  for (let i = 0; i < nInline; i++) {
    inline.push(rng.chance(0.6) ? clusterTarget(rng, info) : langTarget(m, rng, lang));
  }
  for (let i = 0; i < nRelated; i++) {
    related.push(rng.chance(0.5) ? clusterTarget(rng, info) : langTarget(m, rng, lang));
  }
  const t = rng.pick(langTopics).id;
  const popular = [rng.pick(m.fillerHubs[lang]), rng.pick(m.fillerHubs[lang]), rng.pick(m.hubs[t])];
  return { inline, related, popular, next, extra };
}

/** Every out-link target of content page `id` (home pages as negative targets). */
export function pageOutLinks(m: WebModel, id: number): number[] {
  const info = pageInfo(m, id);
  const p = planLinks(m, info);
  return [homeTarget(info.host.index), ...p.inline, ...p.related, ...p.popular, p.next, ...p.extra];
}

/** The latest-articles list of a host's home page (visible pages of the host). */
export function homeLinks(m: WebModel, host: HostInfo): number[] {
  const rng = pageRng(m, host.index, 0x40e);
  const out: number[] = [];
  const vis = host.visibleClusters;
  // First page of each visible cluster (up to 20), then random visible pages.
  for (let i = 0; i < vis.length && out.length < 20; i++)
    out.push((vis[i] as number) * CLUSTER_SIZE);
  while (out.length < 40 && vis.length > 0) {
    const p = rng.pick(vis) * CLUSTER_SIZE + 1 + rng.int(CLUSTER_SIZE - 1);
    if (!m.excluded.has(p)) out.push(p);
  }
  return out;
}

/** Homes of other hosts in the same language, linked from a host's home page. */
export function homeNeighbours(m: WebModel, host: HostInfo): number[] {
  const same = m.hosts.filter((h) => h.lang === host.lang && h.index !== host.index);
  const rng = pageRng(m, host.index, 0x40f);
  const out = new Set<number>();
  for (let i = 0; i < Math.min(6, same.length); i++) out.add(rng.pick(same).index);
  return [...out];
}

/** Every out-link target of the home page of `host` (page ids and other homes). */
export function homeOutLinks(m: WebModel, host: HostInfo): number[] {
  return [...homeLinks(m, host), ...homeNeighbours(m, host).map(homeTarget)];
}

/** Topics a visible page is labelled with: its own, for pages and devoted-host homes. */
export function topicOfHome(host: HostInfo): TopicId | null {
  return host.topic;
}

export function topicName(id: TopicId): string {
  return TOPICS[id].name;
}
