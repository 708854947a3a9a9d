/**
 * PageRank of the pages a crawl has discovered, recomputed only when a buffer of new
 * pages fills (DESIGN 1.5), so that a frontier can be ordered by it without paying for a
 * full computation per page.
 *
 * - {@link BufferedPageRank.addPage} records a fetched page's out-links in a
 *   {@link LinkGraph} and counts one page toward the buffer (a page added again replaces
 *   its links and counts again: either way the graph changed).
 * - {@link BufferedPageRank.due} is true once `bufferPages` pages were added since the
 *   last recompute; the caller then calls {@link BufferedPageRank.recompute}, which runs
 *   {@link pageRank} over a CSR snapshot, warm-started from the previous ranks (pages
 *   new since then start at 1), and empties the buffer.
 * - {@link BufferedPageRank.rank}: the rank computed last, divided by the largest rank
 *   R_max of that computation, so in [0, 1]; undefined for a URL not in the graph then.
 * - {@link BufferedPageRank.estimate} for a link just found on page p: its rank when it
 *   has one, otherwise one step of the formula from its parent alone,
 *     ((1 − d) + d · R(p) / N(p)) / R_max, clamped to [0, 1],
 *   with R(p) the parent's last raw rank (1, the mean rank, when it has none) and N(p)
 *   the parent's current out-degree (at least 1: the link was found on it). Before the
 *   first recompute R_max = 1.
 *
 * Synchronous; no state outside the instance (recompute reads the clock only to report
 * its duration).
 */
import { InvalidOptionError } from '../errors/index.js';
import { LinkGraph } from './graph.js';
import { maxRank, type PageRankSettings, pageRank, pageRankSettings } from './pagerank.js';

/** Default number of added pages that triggers a recompute. */
export const DEFAULT_BUFFER_PAGES = 1000;

export interface BufferedPageRankOptions {
  /** d in (0, 1). Default 0.8. */
  damping?: number;
  /** Pages added between two recomputes (whole number ≥ 1). Default 1000. */
  bufferPages?: number;
  /** As {@link pageRank}'s: stop when Σ|ΔR|/N is below it. Default 1e-6. */
  tolerance?: number;
  /** As {@link pageRank}'s. Default 100. */
  maxIterations?: number;
}

/** What one recompute did. */
export interface RecomputeStats {
  /** Power-iteration sweeps. */
  iterations: number;
  /** Whether it converged within maxIterations. */
  converged: boolean;
  /** Nodes and edges of the graph ranked. */
  nodes: number;
  edges: number;
  /** Wall time in milliseconds. */
  ms: number;
}

export class BufferedPageRank {
  readonly #graph = new LinkGraph();
  readonly #settings: PageRankSettings;
  readonly #bufferPages: number;
  #pending = 0;
  /** Raw ranks of the last recompute, one per node known then. */
  #ranks: Float64Array = new Float64Array(0);
  #max = 1;
  #recomputes = 0;

  constructor(options: BufferedPageRankOptions = {}) {
    this.#settings = pageRankSettings(options, 'BufferedPageRank');
    const bufferPages = options.bufferPages ?? DEFAULT_BUFFER_PAGES;
    if (!Number.isInteger(bufferPages) || bufferPages < 1) {
      throw new InvalidOptionError(
        `BufferedPageRank: bufferPages must be a whole number ≥ 1, got ${bufferPages}`,
      );
    }
    this.#bufferPages = bufferPages;
  }

  /** Damping factor d in use. */
  get damping(): number {
    return this.#settings.damping;
  }

  /** Pages added since the last recompute. */
  get pendingPages(): number {
    return this.#pending;
  }

  /** Recomputes done so far. */
  get recomputes(): number {
    return this.#recomputes;
  }

  /** Nodes (URLs seen) and recorded links of the graph now. */
  get nodeCount(): number {
    return this.#graph.nodeCount;
  }
  get edgeCount(): number {
    return this.#graph.edgeCount;
  }

  /** Records fetched page `url` and its out-links; counts it toward the buffer. */
  addPage(url: string, outLinkUrls: Iterable<string>): void {
    this.#graph.setOutLinks(url, outLinkUrls);
    this.#pending++;
  }

  /** Whether `bufferPages` pages were added since the last recompute. */
  due(): boolean {
    return this.#pending >= this.#bufferPages;
  }

  /** Runs PageRank over the graph now, warm-started from the last ranks; empties the buffer. */
  recompute(): RecomputeStats {
    const t0 = performance.now();
    const csr = this.#graph.toCsr();
    const result = pageRank(csr, { ...this.#settings, initial: this.#ranks });
    this.#ranks = result.ranks;
    const max = maxRank(result.ranks);
    this.#max = max > 0 ? max : 1;
    this.#pending = 0;
    this.#recomputes++;
    return {
      iterations: result.iterations,
      converged: result.converged,
      nodes: csr.nodeCount,
      edges: csr.targets.length,
      ms: performance.now() - t0,
    };
  }

  /** Last computed rank of `url` divided by that computation's largest, in [0, 1]. */
  rank(url: string): number | undefined {
    const id = this.#graph.idOf(url);
    if (id === undefined || id >= this.#ranks.length) return undefined;
    return this.#ranks[id]! / this.#max;
  }

  /**
   * A rank in [0, 1] for `url`, a link found on `parentUrl`: its computed rank, or the
   * one-step estimate ((1 − d) + d·R(parent)/N(parent)) / R_max (see the module comment).
   */
  estimate(url: string, parentUrl: string): number {
    const known = this.rank(url);
    if (known !== undefined) return known;
    const parent = this.#graph.idOf(parentUrl);
    let r = 1;
    let n = 1;
    if (parent !== undefined) {
      if (parent < this.#ranks.length) r = this.#ranks[parent]!;
      n = Math.max(1, this.#graph.outDegree(parent));
    }
    const d = this.#settings.damping;
    const e = (1 - d + (d * r) / n) / this.#max;
    return Math.min(1, Math.max(0, e));
  }
}
