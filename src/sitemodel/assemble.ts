/**
 * The model's patterns and the model itself, from what learning found.
 *
 * Patterns are induced (induce.ts) from the URLs of each cluster's pages of one role
 * (content; or duplicates of one original). A pattern so induced may be wider than
 * the sample allows: `/{w}/{n}` from `/a/1`, `/b/2` also matches `/plain/3`, a
 * duplicate. So the model is checked against its own sample: every sample URL must
 * be decided by a pattern of its own cluster and role; a pattern that decides a URL
 * of another is replaced by the finest patterns it was induced from, and the check
 * repeats until it holds.
 */
import type { LayoutThreshold } from './cluster.js';
import { createDecider } from './decide.js';
import { inducePatterns } from './induce.js';
import type { ClusterClass } from './informativeness.js';
import { SITE_MODEL_VERSION, type SiteModel, type SiteModelCluster } from './model.js';
import type { ResolvedLearnOptions } from './options.js';
import type { ContentSplit, PatternRoleName } from './roles.js';
import type { PreparedPage, SkippedPages } from './sample.js';

export interface ClusterSummary {
  /** Page indices. */
  pageIds: number[];
  avgSize: number;
  duplicates: number;
  informativeness: number;
}

export interface AssembleInput {
  pages: readonly PreparedPage[];
  clusterOf: readonly number[];
  split: ContentSplit;
  summaries: readonly ClusterSummary[];
  classes: readonly ClusterClass[];
  hosts: string[];
  skipped: SkippedPages;
  avgSize: number;
  thresholds: { layout: LayoutThreshold; informativeness: { value: number; rule: string } };
  options: ResolvedLearnOptions;
}

interface Entry {
  pattern: string;
  cluster: number;
  role: PatternRoleName;
  /** Finest pattern of the original, for a duplicate. */
  originalFine: string | undefined;
  urls: string[];
  fines: Set<string>;
}

function round(x: number): number {
  return x === 0 ? 0 : Number(x.toPrecision(4));
}

function entriesOf(input: AssembleInput): Entry[] {
  const groups = new Map<
    string,
    { cluster: number; role: PatternRoleName; of?: string; urls: string[] }
  >();
  input.pages.forEach((p, i) => {
    const r = input.split.patterns.get(p.fine)!;
    const cluster = input.clusterOf[i]!;
    const key = `${cluster}\u0000${r.role}\u0000${r.duplicateOf ?? ''}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        cluster,
        role: r.role,
        urls: [],
        ...(r.duplicateOf === undefined ? {} : { of: r.duplicateOf }),
      };
      groups.set(key, g);
    }
    g.urls.push(p.url);
  });
  const fineOf = new Map(input.pages.map((p) => [p.url, p.fine]));
  return [...groups.values()].flatMap((g) =>
    inducePatterns(g.urls).map((x) => ({
      pattern: x.pattern,
      cluster: g.cluster,
      role: g.role,
      originalFine: g.of,
      urls: x.urls,
      fines: new Set(x.urls.map((u) => fineOf.get(u)!)),
    })),
  );
}

function build(input: AssembleInput, entries: readonly Entry[], ids: readonly number[]): SiteModel {
  const o = input.options;
  const patternOfFine = new Map<string, string>();
  for (const e of entries) for (const f of e.fines) patternOfFine.set(f, e.pattern);
  const order = input.summaries.map((_, c) => c).sort((a, b) => ids[a]! - ids[b]!);
  const clusters: SiteModelCluster[] = order.map((c) => {
    const s = input.summaries[c]!;
    const k = input.classes[c]!;
    const mine = entries
      .filter((e) => e.cluster === c)
      .sort(
        (a, b) =>
          (a.role === 'content' ? 0 : 1) - (b.role === 'content' ? 0 : 1) ||
          b.urls.length - a.urls.length ||
          (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0),
      );
    // Examples: in turn from each content pattern, then from the duplicates.
    const examples: string[] = [];
    for (const role of ['content', 'duplicate']) {
      const sorted = mine.filter((e) => e.role === role).map((e) => [...e.urls].sort());
      for (let r = 0; examples.length < o.examples; r++) {
        const before = examples.length;
        for (const urls of sorted) {
          if (examples.length < o.examples && r < urls.length) examples.push(urls[r]!);
        }
        if (examples.length === before) break;
      }
    }
    return {
      id: ids[c]!,
      kind: k.kind,
      decision: k.decision,
      informativeness: round(s.informativeness),
      pages: s.pageIds.length,
      avgSize: Math.round(s.avgSize),
      duplicates: s.duplicates,
      listLinks: k.listLinks,
      patterns: mine.map((e) => ({
        pattern: e.pattern,
        pages: e.urls.length,
        role: e.role,
        ...(e.originalFine === undefined
          ? {}
          : { duplicateOf: patternOfFine.get(e.originalFine) ?? e.originalFine }),
      })),
      examples,
    };
  });
  const t = input.thresholds;
  return {
    version: SITE_MODEL_VERSION,
    hosts: input.hosts,
    learnedAt: (o.now ?? new Date()).toISOString(),
    sample: {
      pages: input.pages.length,
      skipped: input.skipped,
      avgSize: Math.round(input.avgSize),
      thresholds: {
        layout: { value: round(t.layout.value), rule: t.layout.rule },
        informativeness: { value: round(t.informativeness.value), rule: t.informativeness.rule },
        hamming: o.maxHamming,
        listLinks: o.minListLinks,
      },
      settings: {
        pathDepth: o.pathDepth,
        maxClassTokens: o.maxClassTokens,
        minRepeat: o.minRepeat,
        countScale: o.countScale,
        minSilhouette: o.minSilhouette,
        maxLayouts: o.maxLayouts,
        templateShare: o.templateShare,
        minDupShare: o.minDupShare,
        minContentPages: o.minContentPages,
        minShare: o.minShare,
      },
    },
    clusters,
  };
}

/** The site model: patterns induced and checked against the sample, clusters numbered. */
export function assembleModel(input: AssembleInput): SiteModel {
  // Cluster ids: larger clusters first, then by their first URL.
  const firstUrl = input.summaries.map((s) => s.pageIds.map((i) => input.pages[i]!.url).sort()[0]!);
  const ids: number[] = [];
  input.summaries
    .map((_, c) => c)
    .sort(
      (a, b) =>
        input.summaries[b]!.pageIds.length - input.summaries[a]!.pageIds.length ||
        (firstUrl[a]! < firstUrl[b]! ? -1 : 1),
    )
    .forEach((c, k) => {
      ids[c] = k + 1;
    });

  const fineOf = new Map(input.pages.map((p) => [p.url, p.fine]));
  let entries = entriesOf(input);
  for (;;) {
    const model = build(input, entries, ids);
    const decider = createDecider(model);
    const refine = new Set<Entry>();
    input.pages.forEach((p, i) => {
      const want = ids[input.clusterOf[i]!]!;
      const role = input.split.patterns.get(p.fine)!.role;
      const d = decider(p.url);
      if (d.cluster === want && d.role === role) return;
      const culprit = entries.find(
        (e) => e.pattern === d.pattern && ids[e.cluster] === d.cluster && e.role === d.role,
      );
      if (culprit !== undefined && culprit.fines.size > 1) refine.add(culprit);
    });
    if (refine.size === 0) return model;
    entries = entries.flatMap((e) => {
      if (!refine.has(e)) return [e];
      return [...e.fines].sort().map((fine) => ({
        ...e,
        pattern: fine,
        urls: e.urls.filter((u) => fineOf.get(u) === fine),
        fines: new Set([fine]),
      }));
    });
  }
}
