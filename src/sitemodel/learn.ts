/**
 * Learning a site model from a sample of one site's pages (DESIGN 1.3; Cai et al.
 * 2010): layout clusters, their URL patterns, the content split, informativeness,
 * page kinds. docs/site-model.md walks through the steps.
 */
import { LearnError } from '../errors/index.js';
import { matchTarget, parsePattern, patternRegex, specificity } from '../url/index.js';
import { assembleModel, type ClusterSummary } from './assemble.js';
import { clusterLayouts, DistanceMatrix, type LayoutThreshold } from './cluster.js';
import { inducePatterns } from './induce.js';
import {
  type ClusterFacts,
  classifyClusters,
  informativeness,
  informativenessThreshold,
} from './informativeness.js';
import { PatternIds, scaledDistance } from './layout.js';
import type { SiteModel } from './model.js';
import { type LearnOptions, type ResolvedLearnOptions, resolveLearnOptions } from './options.js';
import type { ContentSplit } from './roles.js';
import { type PreparedPage, prepareSample, type SamplePage, type SkippedPages } from './sample.js';
import { splitSample } from './split.js';

/** Layout clusters of the pages, each finest URL pattern in one of them. */
function layoutClusters(
  pages: readonly PreparedPage[],
  o: ResolvedLearnOptions,
): { clusterOf: number[]; count: number; threshold: LayoutThreshold } {
  const ids = new PatternIds();
  const scaled = pages.map((p) => ids.scale(p.layout, o.countScale));
  // Redirects have their target's body: they join their target's cluster afterwards.
  const nodes = pages.flatMap((p, i) => (p.redirectTo === undefined ? [i] : []));
  const matrix = new DistanceMatrix(nodes.length, (a, b) =>
    scaledDistance(scaled[nodes[a]!]!, scaled[nodes[b]!]!),
  );
  const { clusters, threshold } = clusterLayouts(matrix, {
    maxLayouts: o.maxLayouts,
    minSilhouette: o.minSilhouette,
    // One repeated block, present or not: the least by which two templates differ.
    minCut: o.countScale === 'log' ? Math.log1p(o.minRepeat) : o.minRepeat,
  });
  // A finest pattern is one script's URLs: its pages go to the cluster holding most of
  // them (an item's "deleted" notice joins the items; items split by their counts come
  // together). Redirects vote with their targets' clusters, when nothing else does.
  const layoutOf = pages.map(() => -1);
  clusters.forEach((group, c) => {
    for (const m of group) layoutOf[nodes[m]!] = c;
  });
  const votes = new Map<string, { own: Map<number, number>; redirected: Map<number, number> }>();
  pages.forEach((p, i) => {
    let v = votes.get(p.fine);
    if (v === undefined) {
      v = { own: new Map(), redirected: new Map() };
      votes.set(p.fine, v);
    }
    const box = p.redirectTo === undefined ? v.own : v.redirected;
    const c = layoutOf[p.redirectTo ?? i]!;
    box.set(c, (box.get(c) ?? 0) + 1);
  });
  const home = new Map<string, number>();
  for (const [fine, v] of votes) {
    const box = v.own.size > 0 ? v.own : v.redirected;
    home.set(fine, [...box].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0]);
  }
  let moved = 0;
  const raw = pages.map((p, i) => {
    const c = home.get(p.fine)!;
    if (p.redirectTo === undefined && c !== layoutOf[i]) moved++;
    return c;
  });
  const renumber = new Map<number, number>();
  const clusterOf = raw.map((c) => {
    let k = renumber.get(c);
    if (k === undefined) {
      k = renumber.size;
      renumber.set(c, k);
    }
    return k;
  });
  if (moved > 0) {
    threshold.rule +=
      `; ${moved} page${moved === 1 ? '' : 's'} moved to the cluster holding most pages of ` +
      `their finest URL pattern, ${renumber.size} cluster${renumber.size === 1 ? '' : 's'} left`;
  }
  return { clusterOf, count: renumber.size, threshold };
}

/** Links found on at least `share` of the pages (and two): the site's navigation. */
function navigationLinks(pages: readonly PreparedPage[], share: number): Set<string> {
  const n = new Map<string, number>();
  for (const p of pages) for (const l of p.links) n.set(l, (n.get(l) ?? 0) + 1);
  const need = Math.max(2, share * pages.length);
  return new Set([...n].filter(([, k]) => k >= need).map(([l]) => l));
}

/**
 * Per page, per other cluster: distinct non-navigation links to it. A link goes to
 * the cluster of the most specific pattern it matches, induced from each cluster's
 * content pages (a link to a duplicate pattern goes nowhere).
 */
function linksByCluster(
  pages: readonly PreparedPage[],
  clusterOf: readonly number[],
  split: ContentSplit,
  navigation: ReadonlySet<string>,
): Map<number, number>[] {
  const groups = new Map<string, { cluster: number; urls: string[] }>();
  pages.forEach((p, i) => {
    const content = split.patterns.get(p.fine)!.role === 'content';
    const cluster = content ? clusterOf[i]! : -1;
    const key = `${cluster} ${content}`;
    const g = groups.get(key) ?? { cluster, urls: [] };
    g.urls.push(p.url);
    groups.set(key, g);
  });
  const matchers = [...groups.values()]
    .flatMap((g) =>
      inducePatterns(g.urls).map((x) => {
        const parsed = parsePattern(x.pattern);
        return { re: patternRegex(parsed), spec: specificity(parsed), cluster: g.cluster };
      }),
    )
    .sort((a, b) => b.spec - a.spec);
  return pages.map((p, i) => {
    const out = new Map<number, number>();
    for (const l of p.links) {
      if (navigation.has(l)) continue;
      const target = matchTarget(l);
      const c = target === null ? undefined : matchers.find((m) => m.re.test(target));
      if (c === undefined || c.cluster < 0 || c.cluster === clusterOf[i]) continue;
      out.set(c.cluster, (out.get(c.cluster) ?? 0) + 1);
    }
    return out;
  });
}

function skippedText(s: SkippedPages): string {
  const parts = [
    s.status > 0 ? `${s.status} with an HTTP status outside 200–299` : '',
    s.invalidUrl > 0 ? `${s.invalidUrl} not http(s)` : '',
    s.repeated > 0 ? `${s.repeated} repeated` : '',
    s.offSite > 0 ? `${s.offSite} redirected off the site` : '',
  ].filter((x) => x !== '');
  return parts.length === 0 ? '' : ` (left out: ${parts.join(', ')})`;
}

/**
 * Learns a site model from `sample`, pages of one site (see SamplePage).
 * @throws InvalidOptionError for a bad option; LearnError (FC_ERR_LEARN) when the
 *   sample has fewer than `minPages` usable pages, or when every cluster is refused
 *   (a sample too uniform, or without content, to learn from).
 */
export function learnSiteModel(
  sample: readonly SamplePage[],
  options: LearnOptions = {},
): SiteModel {
  const o = resolveLearnOptions(options);
  const { pages, hosts, skipped } = prepareSample(sample, {
    pathDepth: o.pathDepth,
    maxClassTokens: o.maxClassTokens,
    minRepeat: o.minRepeat,
  });
  const n = pages.length;
  if (n < o.minPages) {
    throw new LearnError(
      `site model: ${n} usable page${n === 1 ? '' : 's'} in the sample, at least ${o.minPages} needed${skippedText(skipped)}`,
    );
  }
  const { clusterOf, count, threshold } = layoutClusters(pages, o);

  const { split, contents } = splitSample(pages, o);

  const avgSize = contents.reduce((s, c) => s + c.size, 0) / n;
  const links = linksByCluster(pages, clusterOf, split, navigationLinks(pages, o.templateShare));
  const summaries: ClusterSummary[] = [];
  const facts: ClusterFacts[] = [];
  for (let c = 0; c < count; c++) {
    const pageIds = pages.flatMap((_, i) => (clusterOf[i] === c ? [i] : []));
    const size = pageIds.reduce((s, i) => s + contents[i]!.size, 0) / pageIds.length;
    const duplicates = pageIds.filter((i) => split.duplicate[i]).length;
    const inf = informativeness(
      { pages: pageIds.length, avgSize: size, duplicates },
      { pages: n, avgSize },
    );
    summaries.push({ pageIds, avgSize: size, duplicates, informativeness: inf });
    // Whether a cluster is a list is read from its distinct pages: its duplicates (a
    // session or sort variant of a list) may link only to other duplicates.
    const distinct = pageIds.filter((i) => !split.duplicate[i]);
    facts.push({
      pages: pageIds.length,
      duplicates,
      informativeness: inf,
      links: (distinct.length > 0 ? distinct : pageIds).map((i) => links[i]!),
    });
  }
  const infThreshold = informativenessThreshold(n, o.minContentPages, o.minShare);
  const classes = classifyClusters(facts, {
    threshold: infThreshold.value,
    minListLinks: o.minListLinks,
  });
  if (classes.every((c) => c.decision === 'invalid')) {
    const kinds = new Map<string, number>();
    for (const c of classes) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
    const best = Math.max(...facts.map((f) => f.informativeness));
    throw new LearnError(
      `site model: every cluster was refused (${count} cluster${count === 1 ? '' : 's'}: ` +
        `${[...kinds].map(([k, x]) => `${x} ${k}`).join(', ')}; informativeness at most ` +
        `${best.toPrecision(3)} < threshold ${infThreshold.value.toPrecision(3)}): the sample ` +
        'is too uniform, or holds too little content, to learn from',
    );
  }
  return assembleModel({
    pages,
    clusterOf,
    split,
    summaries,
    classes,
    hosts,
    skipped,
    avgSize,
    thresholds: { layout: threshold, informativeness: infThreshold },
    options: o,
  });
}
