/**
 * The link graph PageRank runs on (DESIGN 1.1, 1.5), kept compact: no object per edge.
 *
 * - {@link CsrGraph}: a directed graph in compressed sparse row form. The out-links of
 *   node v are `targets[offsets[v] .. offsets[v + 1])`; node ids are 0 .. nodeCount − 1.
 *   Memory: 4 bytes per edge + 4 bytes per node.
 * - {@link csrFromEdges}: builds one from parallel `from`/`to` id arrays in O(nodes +
 *   edges) with a stable counting sort. A page's link to itself is dropped, and a page
 *   linking to the same target several times counts as one link (N(v) in the formula is
 *   the number of distinct other pages v links to). Targets keep their first-seen order.
 * - {@link LinkGraph}: the growing graph of a crawl. URLs are interned to dense node ids
 *   (a page is a node as soon as it is seen, as a link target or as a fetched page); a
 *   fetched page's out-links are recorded once, and recording them again replaces them.
 *   The same self-link and duplicate rules apply. Out-links live in one growable
 *   Uint32Array (a block per page, compacted when replaced blocks leave too much unused
 *   room), with three Uint32Array entries per node. {@link LinkGraph.toCsr} takes an
 *   O(nodes + edges) snapshot.
 */
import { type FocusCrawlError, InvalidOptionError } from '../errors/index.js';

/** A directed graph in CSR form: out-edges of v are `targets[offsets[v]..offsets[v+1])`. */
export interface CsrGraph {
  readonly nodeCount: number;
  /** nodeCount + 1 entries, non-decreasing, offsets[0] = 0, offsets[nodeCount] = edge count. */
  readonly offsets: Uint32Array;
  /** Target node id of each out-edge, grouped by source. */
  readonly targets: Uint32Array;
}

/** Number of edges of a CSR graph. */
export function csrEdgeCount(graph: CsrGraph): number {
  return graph.offsets[graph.nodeCount] ?? 0;
}

const MAX_IDS = 0xffffffff;

function badId(nodeCount: number, what: string, i: number, value: unknown): FocusCrawlError {
  return new InvalidOptionError(
    `csrFromEdges: ${what}[${i}] = ${value} is not a node id in [0, ${nodeCount})`,
  );
}

/**
 * The CSR graph of the edges from[i] → to[i] over nodes 0 .. nodeCount − 1.
 * Self-links (from[i] = to[i]) are dropped; duplicate edges from the same page count once.
 * Throws InvalidOptionError for a bad node count, arrays of different lengths or an id
 * out of range.
 */
export function csrFromEdges(
  nodeCount: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
): CsrGraph {
  if (!Number.isInteger(nodeCount) || nodeCount < 0 || nodeCount > MAX_IDS) {
    throw new InvalidOptionError(
      `csrFromEdges: nodeCount must be a whole number in [0, ${MAX_IDS}], got ${nodeCount}`,
    );
  }
  const m = from.length;
  if (to.length !== m) {
    throw new InvalidOptionError(
      `csrFromEdges: from and to must have the same length, got ${m} and ${to.length}`,
    );
  }
  if (m > MAX_IDS) {
    throw new InvalidOptionError(`csrFromEdges: at most ${MAX_IDS} edges, got ${m}`);
  }
  // Count out-degrees (self-links left out), then place each edge after its source's
  // predecessors: a stable counting sort by source.
  const offsets = new Uint32Array(nodeCount + 1);
  for (let i = 0; i < m; i++) {
    const f = from[i]!;
    const t = to[i]!;
    // (x >>> 0) === x: a whole number in [0, 2³²); also false for NaN and undefined.
    if (f >>> 0 !== f || f >= nodeCount) throw badId(nodeCount, 'from', i, f);
    if (t >>> 0 !== t || t >= nodeCount) throw badId(nodeCount, 'to', i, t);
    if (f !== t) offsets[f + 1]!++;
  }
  for (let v = 0; v < nodeCount; v++) offsets[v + 1]! += offsets[v]!;
  const targets = new Uint32Array(offsets[nodeCount]!);
  const fill = offsets.slice(0, nodeCount);
  for (let i = 0; i < m; i++) {
    const f = from[i]!;
    const t = to[i]!;
    if (f !== t) targets[fill[f]!++] = t;
  }
  // Drop repeated targets within each source's run, compacting in place. `seenBy[t]` holds
  // 1 + the last source that kept t, so one pass over the edges suffices.
  const seenBy = fill.fill(0);
  let w = 0;
  let start = 0;
  for (let v = 0; v < nodeCount; v++) {
    const end = offsets[v + 1]!;
    const mark = v + 1;
    offsets[v] = w;
    for (let k = start; k < end; k++) {
      const t = targets[k]!;
      if (seenBy[t] !== mark) {
        seenBy[t] = mark;
        targets[w++] = t;
      }
    }
    start = end;
  }
  offsets[nodeCount] = w;
  return { nodeCount, offsets, targets: w === targets.length ? targets : targets.slice(0, w) };
}

function grown(a: Uint32Array, min: number): Uint32Array {
  if (a.length >= min) return a;
  let cap = Math.max(a.length * 2, 16);
  while (cap < min) cap *= 2;
  const b = new Uint32Array(cap);
  b.set(a);
  return b;
}

/**
 * The link graph of a crawl, growing as pages are fetched. Every URL (fetched page or
 * link target) gets a dense node id in order of first sight.
 */
export class LinkGraph {
  readonly #ids = new Map<string, number>();
  readonly #urls: string[] = [];
  /** Per node: start of its out-link block in #log, and the block's length (out-degree). */
  #start: Uint32Array = new Uint32Array(16);
  #degree: Uint32Array = new Uint32Array(16);
  /** Per node: the stamp of the last setOutLinks call that listed it (duplicate check). */
  #stamp: Uint32Array = new Uint32Array(16);
  #gen = 0;
  /** Out-link blocks of all pages, back to back; #logLength entries in use. */
  #log: Uint32Array = new Uint32Array(64);
  #logLength = 0;
  #edgeCount = 0;
  #scratch: Uint32Array = new Uint32Array(64);

  /** Number of nodes (URLs seen). */
  get nodeCount(): number {
    return this.#urls.length;
  }

  /** Number of recorded out-links (after dropping self-links and duplicates). */
  get edgeCount(): number {
    return this.#edgeCount;
  }

  /** The node id of `url`, interning it when new. */
  nodeId(url: string): number {
    const known = this.#ids.get(url);
    if (known !== undefined) return known;
    const id = this.#urls.length;
    if (id >= MAX_IDS) throw new InvalidOptionError(`LinkGraph: more than ${MAX_IDS} URLs`);
    this.#ids.set(url, id);
    this.#urls.push(url);
    if (id >= this.#start.length) {
      this.#start = grown(this.#start, id + 1);
      this.#degree = grown(this.#degree, id + 1);
      this.#stamp = grown(this.#stamp, id + 1);
    }
    return id;
  }

  /** The node id of `url`, or undefined when it was never seen. */
  idOf(url: string): number | undefined {
    return this.#ids.get(url);
  }

  /** The URL of node `id`, or undefined for an id not in use. */
  urlOf(id: number): string | undefined {
    return this.#urls[id];
  }

  /** Distinct other pages node `id` links to (0 for a page not fetched, or unknown id). */
  outDegree(id: number): number {
    return id >= 0 && id < this.#urls.length ? this.#degree[id]! : 0;
  }

  /** The out-link node ids of node `id`, in first-seen order (a copy). */
  outLinks(id: number): Uint32Array {
    const d = this.outDegree(id);
    if (d === 0) return new Uint32Array(0);
    const s = this.#start[id]!;
    return this.#log.slice(s, s + d);
  }

  /**
   * Records the out-links of the fetched page `fromUrl`, replacing any recorded before.
   * Self-links are dropped and a target listed several times counts once. Returns the
   * page's node id.
   */
  setOutLinks(fromUrl: string, toUrls: Iterable<string>): number {
    const from = this.nodeId(fromUrl);
    if (this.#gen === MAX_IDS) {
      this.#stamp.fill(0);
      this.#gen = 0;
    }
    const gen = ++this.#gen;
    let k = 0;
    for (const url of toUrls) {
      const t = this.nodeId(url);
      if (t === from || this.#stamp[t] === gen) continue;
      this.#stamp[t] = gen;
      if (k === this.#scratch.length) this.#scratch = grown(this.#scratch, k + 1);
      this.#scratch[k++] = t;
    }
    const old = this.#degree[from]!;
    let s = this.#start[from]!;
    if (k > old) {
      // Longer than the old block: a new block at the end, unless the old one is last.
      if (old === 0 || s + old !== this.#logLength) s = this.#logLength;
      this.#log = grown(this.#log, s + k);
    }
    this.#log.set(this.#scratch.subarray(0, k), s);
    this.#logLength = Math.max(this.#logLength, s + k);
    this.#start[from] = s;
    this.#degree[from] = k;
    this.#edgeCount += k - old;
    const unused = this.#logLength - this.#edgeCount;
    if (unused > 1024 && unused > this.#edgeCount) this.#compact();
    return from;
  }

  /** Rewrites the out-link log without the room left by replaced blocks. */
  #compact(): void {
    const log = new Uint32Array(Math.max(64, this.#edgeCount * 2));
    let w = 0;
    for (let v = 0; v < this.#urls.length; v++) {
      const d = this.#degree[v]!;
      const s = this.#start[v]!;
      this.#start[v] = w;
      for (let k = 0; k < d; k++) log[w++] = this.#log[s + k]!;
    }
    this.#log = log;
    this.#logLength = w;
  }

  /** A CSR snapshot of the graph as it is now (later changes do not affect it). */
  toCsr(): CsrGraph {
    const n = this.#urls.length;
    const offsets = new Uint32Array(n + 1);
    const targets = new Uint32Array(this.#edgeCount);
    let w = 0;
    for (let v = 0; v < n; v++) {
      offsets[v] = w;
      const d = this.#degree[v]!;
      const s = this.#start[v]!;
      for (let k = 0; k < d; k++) targets[w++] = this.#log[s + k]!;
    }
    offsets[n] = w;
    return { nodeCount: n, offsets, targets };
  }
}

/**
 * Checks that `graph` is a well-formed CSR graph (`nodeCount + 1` offsets rising from
 * 0, every target a node id) and returns its edge count; `where` names the caller in
 * the `InvalidOptionError` otherwise.
 */
export function checkCsrGraph(graph: CsrGraph, where: string): number {
  const { nodeCount: n, offsets, targets } = graph;
  if (!Number.isInteger(n) || n < 0 || offsets.length !== n + 1) {
    throw new InvalidOptionError(
      `${where}: graph must have nodeCount + 1 offsets, got nodeCount ${n} and ${offsets.length} offsets`,
    );
  }
  const m = offsets[n] as number;
  if (offsets[0] !== 0 || m > targets.length) {
    throw new InvalidOptionError(
      `${where}: graph offsets must run from 0 to at most targets.length (${targets.length})`,
    );
  }
  for (let v = 0; v < n; v++) {
    if ((offsets[v] as number) > (offsets[v + 1] as number)) {
      throw new InvalidOptionError(`${where}: graph offsets decrease at node ${v}`);
    }
  }
  for (let k = 0; k < m; k++) {
    if ((targets[k] as number) >= n) {
      throw new InvalidOptionError(
        `${where}: graph targets[${k}] = ${targets[k]} is not a node id in [0, ${n})`,
      );
    }
  }
  return m;
}
