// Public surface of link ranking: the compact link graph, PageRank in the form of
// DESIGN 1.1, and its buffered recomputation during a crawl (DESIGN 1.5).

export {
  BufferedPageRank,
  type BufferedPageRankOptions,
  DEFAULT_BUFFER_PAGES,
  type RecomputeStats,
} from './buffered.js';
export { type CsrGraph, csrEdgeCount, csrFromEdges, LinkGraph } from './graph.js';
export {
  DEFAULT_DAMPING,
  DEFAULT_MAX_ITERATIONS,
  DEFAULT_TOLERANCE,
  maxRank,
  normalizeRanks,
  type PageRankOptions,
  type PageRankResult,
  pageRank,
} from './pagerank.js';
