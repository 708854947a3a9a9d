/**
 * Layout clusters: single linkage, cut at a threshold measured on the sample.
 *
 * Single linkage puts two pages in one cluster when a chain of pages leads from one
 * to the other with no step longer than the threshold t. Its merge heights are the
 * edges of a minimum spanning tree (MST) of the pages under the layout distance, so
 * each t between two consecutive distinct edge lengths gives one clustering: the
 * MST with its edges longer than t cut.
 *
 * Which t is measured, not set. Each candidate cut (the longest edge alone, the two
 * longest, …, up to `maxLayouts` − 1 distinct lengths, none shorter than `minCut`;
 * an edge of length 0, two pages of the same layout, is never cut) is scored by the
 * mean silhouette of the clusters it leaves (Rousseeuw 1987): for page i, a(i) is its
 * mean distance to the other pages of its cluster, b(i) the least mean distance to
 * the pages of another cluster, s(i) = (b(i) − a(i)) / max(a(i), b(i)) (0 for a page
 * alone in its cluster). The cut with the highest mean silhouette wins, t being the
 * middle of the gap it cuts: (longest edge kept + shortest edge cut) / 2. A mean
 * silhouette below `minSilhouette` (0.25: below it, Kaufman & Rousseeuw's reading is
 * "no substantial structure") means the sample has one layout: no edge is cut, t is
 * the longest edge.
 *
 * `minCut` keeps the silhouette from splitting one layout by its counts alone: pages
 * with 3 and with 4 paragraphs differ by 0.22, and where several pages share each
 * count, cutting between the counts leaves clusters of identical pages, a(i) = 0,
 * s(i) = 1. The site model passes the distance one repeated block makes on its own:
 * a pattern found `minRepeat` times against not at all, ℓ(minRepeat) − ℓ(0) (ln 3 ≈
 * 1.10 with the defaults), the least by which two templates can differ.
 *
 * Why not the largest gap between consecutive edges: the distances between layouts
 * spread over a range (a form page is nearer a profile page than an article page),
 * and a page of one layout may be far from its fellows by its counts alone (two
 * messages or seven). The silhouette compares each page's own cluster with the nearest other.
 */
import { InvalidOptionError } from '../errors/index.js';

/** One MST edge: pages `a` and `b`, `w` apart. */
export interface Edge {
  a: number;
  b: number;
  w: number;
}

/** The measured layout threshold and why it was chosen. */
export interface LayoutThreshold {
  /** Pages joined by a chain of steps no longer than this share a cluster. */
  value: number;
  /** Longest MST edge kept (0 for fewer than two pages). */
  below: number;
  /** Shortest MST edge cut; null when none is. */
  above: number | null;
  /** Mean silhouette of the chosen clusters; null when nothing is cut. */
  silhouette: number | null;
  /** The rule and the measured numbers, in words. */
  rule: string;
}

export interface ClusterOptions {
  /** Most clusters a candidate cut may leave (2 … 1000). @default 50 */
  maxLayouts?: number;
  /** Least mean silhouette of a cut (−1 … 1). @default 0.25 */
  minSilhouette?: number;
  /** Shortest edge that may be cut (≥ 0). @default 0 */
  minCut?: number;
}

/** Distances of n points, condensed: the pair (i, j), i < j, at i·n − i(i+1)/2 + j − i − 1. */
export class DistanceMatrix {
  private readonly d: Float64Array;

  constructor(
    readonly n: number,
    distance: (i: number, j: number) => number,
  ) {
    this.d = new Float64Array((n * (n - 1)) / 2);
    let k = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.d[k++] = distance(i, j);
  }

  get(i: number, j: number): number {
    if (i === j) return 0;
    const a = Math.min(i, j);
    const b = Math.max(i, j);
    return this.d[a * this.n - (a * (a + 1)) / 2 + b - a - 1]!;
  }
}

/**
 * A minimum spanning tree by Prim's algorithm (O(n²)). Deterministic: ties go to the
 * lower index. Edges in the order they were added.
 */
export function minimumSpanningTree(n: number, distance: (i: number, j: number) => number): Edge[] {
  const best = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n).fill(-1);
  const done = new Uint8Array(n);
  const edges: Edge[] = [];
  let current = 0;
  for (let step = 0; step < n; step++) {
    done[current] = 1;
    if (from[current]! >= 0) edges.push({ a: from[current]!, b: current, w: best[current]! });
    let next = -1;
    for (let j = 0; j < n; j++) {
      if (done[j]) continue;
      const d = distance(current, j);
      if (d < best[j]!) {
        best[j] = d;
        from[j] = current;
      }
      if (next < 0 || best[j]! < best[next]!) next = j;
    }
    if (next < 0) break;
    current = next;
  }
  return edges;
}

/** Union-find over 0 … n − 1 (path halving, union to the lower root: deterministic). */
export class DisjointSets {
  private readonly parent: Int32Array;

  constructor(n: number) {
    this.parent = Int32Array.from({ length: n }, (_, i) => i);
  }

  find(x: number): number {
    const p = this.parent;
    while (p[x] !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }

  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }

  /** The sets, each sorted, in order of their smallest element. */
  groups(): number[][] {
    const by = new Map<number, number[]>();
    for (let i = 0; i < this.parent.length; i++) {
      const r = this.find(i);
      let g = by.get(r);
      if (g === undefined) {
        g = [];
        by.set(r, g);
      }
      g.push(i);
    }
    return [...by.values()].sort((x, y) => x[0]! - y[0]!);
  }
}

/**
 * Mean silhouette of a clustering (`labels[i]` = cluster of point i, 0 … k − 1). A
 * point alone in its cluster scores 0; so does every point when there is one cluster.
 */
export function meanSilhouette(d: DistanceMatrix, labels: readonly number[]): number {
  const n = d.n;
  const k = Math.max(-1, ...labels) + 1;
  if (n === 0 || k < 2) return 0;
  const size = new Float64Array(k);
  for (const l of labels) size[l]!++;
  const sums = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const own = labels[i]!;
    if (size[own]! < 2) continue;
    sums.fill(0);
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += d.get(i, j);
    const a = sums[own]! / (size[own]! - 1);
    let b = Number.POSITIVE_INFINITY;
    for (let c = 0; c < k; c++) if (c !== own && size[c]! > 0) b = Math.min(b, sums[c]! / size[c]!);
    const m = Math.max(a, b);
    total += m === 0 ? 0 : (b - a) / m;
  }
  return total / n;
}

function cut(n: number, edges: readonly Edge[], t: number): number[][] {
  const sets = new DisjointSets(n);
  for (const e of edges) if (e.w <= t) sets.union(e.a, e.b);
  return sets.groups();
}

function labelsOf(n: number, groups: readonly number[][]): number[] {
  const labels = new Array<number>(n).fill(0);
  groups.forEach((g, c) => {
    for (const i of g) labels[i] = c;
  });
  return labels;
}

const r4 = (x: number) => Number(x.toPrecision(4));

/**
 * Layout clusters of the `d.n` points of a distance matrix: the MST cut where the mean
 * silhouette is highest (see the module comment). Clusters in order of their first point.
 * @throws InvalidOptionError for options out of range.
 */
export function clusterLayouts(
  d: DistanceMatrix,
  options: ClusterOptions = {},
): { clusters: number[][]; threshold: LayoutThreshold; edges: Edge[] } {
  const maxLayouts = options.maxLayouts ?? 50;
  const minSilhouette = options.minSilhouette ?? 0.25;
  const minCut = options.minCut ?? 0;
  if (!(Number.isInteger(maxLayouts) && maxLayouts >= 2 && maxLayouts <= 1000)) {
    throw new InvalidOptionError(
      `clusterLayouts: maxLayouts must be an integer in 2 … 1000, got ${maxLayouts}`,
    );
  }
  if (!(Number.isFinite(minCut) && minCut >= 0)) {
    throw new InvalidOptionError(
      `clusterLayouts: minCut must be a finite number ≥ 0, got ${minCut}`,
    );
  }
  if (!(minSilhouette >= -1 && minSilhouette <= 1)) {
    throw new InvalidOptionError(
      `clusterLayouts: minSilhouette must be in −1 … 1, got ${minSilhouette}`,
    );
  }
  const n = d.n;
  const edges = minimumSpanningTree(n, (i, j) => d.get(i, j));
  const lengths = [...new Set(edges.map((e) => e.w))].sort((a, b) => b - a);
  const longest = lengths[0] ?? 0;
  const one = (rule: string) => ({
    clusters: n === 0 ? [] : [Array.from({ length: n }, (_, i) => i)],
    threshold: { value: longest, below: longest, above: null, silhouette: null, rule },
    edges,
  });
  if (longest === 0) {
    return one(
      n < 2 ? 'fewer than two pages: one cluster' : 'every page has the same layout: one cluster',
    );
  }
  let best:
    | { score: number; t: number; below: number; above: number; groups: number[][] }
    | undefined;
  if (longest < minCut) {
    return one(
      `no single-linkage edge (longest ${r4(longest)}) is as long as the shortest cut, ` +
        `${r4(minCut)}: one layout`,
    );
  }
  for (let c = 0; c < lengths.length && lengths[c]! > 0 && lengths[c]! >= minCut; c++) {
    const above = lengths[c]!;
    const below = lengths[c + 1] ?? 0;
    const t = (above + below) / 2;
    const groups = cut(n, edges, t);
    if (groups.length > maxLayouts) break;
    const score = meanSilhouette(d, labelsOf(n, groups));
    if (best === undefined || score > best.score) best = { score, t, below, above, groups };
  }
  if (best === undefined || best.score < minSilhouette) {
    const s = best === undefined ? '' : ` (best ${r4(best.score)}, cutting at ${r4(best.t)})`;
    return one(
      `no cut of the single-linkage tree (longest edge ${r4(longest)}) reaches a mean silhouette ` +
        `of ${minSilhouette}${s}: one layout`,
    );
  }
  const k = best.groups.length;
  return {
    clusters: best.groups,
    threshold: {
      value: best.t,
      below: best.below,
      above: best.above,
      silhouette: best.score,
      rule:
        `single linkage cut between the edges ${r4(best.below)} and ${r4(best.above)}` +
        (minCut > 0 ? ` (edges shorter than ${r4(minCut)} are never cut), ` : ', ') +
        `the cut with the highest mean silhouette, ${r4(best.score)} (≥ ${minSilhouette}): ${k} clusters`,
    },
    edges,
  };
}
