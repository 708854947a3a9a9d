/**
 * Informativeness of a cluster and the kinds of pages it holds.
 *
 *   inf(S_i) = (N_i / N) · (S_i^avg / S^avg) · (1 − N_i^dup / N_i)
 *
 * the cluster's share of the sample's pages, times its pages' average content size
 * relative to the sample's, times the share of its pages that are not duplicates.
 * Since Σ_i N_i·S_i^avg = N·S^avg, inf(S_i)·N = (N_i − N_i^dup)·S_i^avg / S^avg: the
 * cluster's distinct content counted in average pages.
 *
 * Threshold: a cluster is informative when inf ≥ max(minShare, minContentPages / N):
 * - it carries at least `minShare` (1%) of the sample's distinct content: below that
 *   a kind of page adds next to nothing to what a crawl of the site brings home, and
 *   as the sample grows, a kind of small pages (profiles of a few words each) keeps
 *   its share however many of them there are;
 * - and at least `minContentPages` (2) average pages' worth of it, which matters in
 *   small samples (1% of 50 pages is half a page): one page can be a one-off (the
 *   start page, an about page); a kind seen with two pages' worth of text of its own
 *   is a kind the site is made of.
 *
 * Kinds, cluster by cluster in decreasing informativeness (ties by index):
 * - `list` (valid): its median page links to at least `minListLinks` (3) distinct URLs
 *   of the content patterns of clusters already found valid (those above it: lists
 *   link to where the content is, content pages' links to profiles and the like do
 *   not count), not counting the site's navigation (links on half the pages), and
 *   not all of its pages are duplicates. A list of lists is a list.
 * - `content` (valid): inf ≥ threshold.
 * - `duplicate` (invalid): at least half of its pages are duplicates.
 * - `no-content` (invalid): the rest.
 */
import { InvalidOptionError } from '../errors/index.js';

export type ClusterKind = 'content' | 'list' | 'duplicate' | 'no-content';
export type Decision = 'valid' | 'invalid';

function check(where: string, name: string, x: number, min = 0): void {
  if (!(typeof x === 'number' && Number.isFinite(x) && x >= min)) {
    throw new InvalidOptionError(`${where}: ${name} must be a finite number ≥ ${min}, got ${x}`);
  }
}

/**
 * inf(S_i) = (N_i/N)·(S_i^avg/S^avg)·(1 − N_i^dup/N_i). 0 when the cluster has no pages
 * or the sample no content (S^avg = 0).
 * @example informativeness({ pages: 40, avgSize: 2000, duplicates: 10 }, { pages: 100, avgSize: 1000 }) // 0.6
 */
export function informativeness(
  cluster: { pages: number; avgSize: number; duplicates: number },
  site: { pages: number; avgSize: number },
): number {
  const where = 'informativeness';
  check(where, 'cluster.pages', cluster.pages);
  check(where, 'cluster.avgSize', cluster.avgSize);
  check(where, 'cluster.duplicates', cluster.duplicates);
  check(where, 'site.pages', site.pages, 1);
  check(where, 'site.avgSize', site.avgSize);
  if (cluster.duplicates > cluster.pages) {
    throw new InvalidOptionError(
      `${where}: cluster.duplicates (${cluster.duplicates}) exceeds cluster.pages (${cluster.pages})`,
    );
  }
  if (cluster.pages === 0 || site.avgSize === 0) return 0;
  return (
    (cluster.pages / site.pages) *
    (cluster.avgSize / site.avgSize) *
    (1 - cluster.duplicates / cluster.pages)
  );
}

/** The informativeness threshold max(minShare, minContentPages / N), and why. */
export function informativenessThreshold(
  pages: number,
  minContentPages = 2,
  minShare = 0.01,
): { value: number; rule: string } {
  const where = 'informativenessThreshold';
  check(where, 'pages', pages, 1);
  check(where, 'minContentPages', minContentPages);
  check(where, 'minShare', minShare);
  const byPages = minContentPages / pages;
  const s = minContentPages === 1 ? '' : 's';
  return byPages >= minShare
    ? {
        value: byPages,
        rule: `distinct content worth ${minContentPages} average page${s} of the sample: ${minContentPages} / ${pages} pages (more than the least share, ${minShare})`,
      }
    : {
        value: minShare,
        rule: `the least share of the sample's distinct content, ${minShare} (more than ${minContentPages} average page${s}: ${minContentPages} / ${pages} pages)`,
      };
}

/** What classification needs of a cluster. */
export interface ClusterFacts {
  pages: number;
  duplicates: number;
  informativeness: number;
  /**
   * Per page: for each other cluster (by index), the distinct URLs it links to that
   * match that cluster's content patterns (site navigation left out).
   */
  links: readonly ReadonlyMap<number, number>[];
}

export interface ClusterClass {
  kind: ClusterKind;
  decision: Decision;
  /** Median, over its pages, of links to valid clusters above it. */
  listLinks: number;
}

/** The median of `xs` (the mean of the middle two for an even count); 0 for none. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Kinds and decisions of clusters (see the module comment). */
export function classifyClusters(
  facts: readonly ClusterFacts[],
  options: { threshold: number; minListLinks?: number },
): ClusterClass[] {
  const minListLinks = options.minListLinks ?? 3;
  const order = facts
    .map((_, i) => i)
    .sort((a, b) => facts[b]!.informativeness - facts[a]!.informativeness || a - b);
  const out: ClusterClass[] = facts.map(() => ({
    kind: 'no-content',
    decision: 'invalid',
    listLinks: 0,
  }));
  const valid: number[] = [];
  for (const i of order) {
    const f = facts[i]!;
    const listLinks = median(
      f.links.map((byCluster) => valid.reduce((sum, j) => sum + (byCluster.get(j) ?? 0), 0)),
    );
    let kind: ClusterKind;
    if (f.duplicates < f.pages && listLinks >= minListLinks) kind = 'list';
    else if (f.informativeness >= options.threshold) kind = 'content';
    else if (f.pages > 0 && f.duplicates >= f.pages / 2) kind = 'duplicate';
    else kind = 'no-content';
    const decision: Decision = kind === 'list' || kind === 'content' ? 'valid' : 'invalid';
    if (decision === 'valid') valid.push(i);
    out[i] = { kind, decision, listLinks };
  }
  return out;
}
