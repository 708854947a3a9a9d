// Public surface of link ranking: the compact link graph, PageRank in the form of
// DESIGN 1.1, its buffered recomputation during a crawl (DESIGN 1.5), HITS, the final
// score P of DESIGN 1.1, and the ranking of a crawl store.

export {
  BufferedPageRank,
  type BufferedPageRankOptions,
  DEFAULT_BUFFER_PAGES,
  type RecomputeStats,
} from './buffered.js';
export {
  DEFAULT_W1,
  DEFAULT_W2,
  DEFAULT_WEIGHTS,
  type FinalScoreOptions,
  type FinalWeights,
  finalScore,
  finalScores,
  finalWeights,
} from './final.js';
export { type CsrGraph, csrEdgeCount, csrFromEdges, LinkGraph } from './graph.js';
export { type HitsOptions, type HitsResult, hits } from './hits.js';
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
export {
  DEFAULT_RANK_BATCH,
  META_RANKING,
  RANK_ALGORITHMS,
  type RankAlgorithm,
  type RankedPage,
  type RankingSummary,
  type RankStoreOptions,
  type RankStoreSettings,
  rankedBefore,
  rankStore,
  rankStoreSettings,
  storedRanking,
  topPagesByScore,
} from './rank-store.js';
