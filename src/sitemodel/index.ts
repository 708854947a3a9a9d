// Public surface of the site model (DESIGN 1.3): learning, from a sample of one site's
// pages, which URL patterns carry content and which are duplicates or carry nothing;
// the model file; deciding URLs with it. Pure apart from loadSiteModel/writeSiteModel
// (files) and collectSample (fetches through the fetcher it is given).

export { matchPattern, patternOf, urlId } from '../url/index.js';
export {
  type ClusterOptions,
  clusterLayouts,
  DistanceMatrix,
  type Edge,
  type LayoutThreshold,
  meanSilhouette,
  minimumSpanningTree,
} from './cluster.js';
export {
  type CollectedSample,
  type CollectOptions,
  collectSample,
  SAMPLE_PAGES,
  SAMPLE_PER_PATTERN,
  SAMPLE_SETTLE_AT,
} from './collect.js';
export {
  duplicatePartners,
  type PageContent,
  pageContent,
  sameContent,
  templateLines,
} from './content.js';
export { type CopyOptions, type CopyPage, markCopies, shingles } from './copies.js';
export { createDecider, decide, type UrlDecision, type Verdict } from './decide.js';
export { type InducedPattern, inducePatterns } from './induce.js';
export {
  type ClusterClass,
  type ClusterFacts,
  type ClusterKind,
  classifyClusters,
  type Decision,
  informativeness,
  informativenessThreshold,
} from './informativeness.js';
export {
  type CountScale,
  type LayoutCounts,
  type LayoutOptions,
  layoutCounts,
  layoutDistance,
} from './layout.js';
export { learnSiteModel } from './learn.js';
export {
  formatSiteModel,
  loadSiteModel,
  parseSiteModel,
  SITE_MODEL_VERSION,
  type SiteModel,
  type SiteModelCluster,
  type SiteModelPattern,
  siteModelSchema,
  writeSiteModel,
} from './model.js';
export { type LearnOptions, learnOptionsSchema } from './options.js';
export {
  createRequestTally,
  type PatternRequests,
  type RequestsByPattern,
  type RequestTally,
  requestsByPattern,
} from './requests.js';
export {
  type ContentSplit,
  markViewParameters,
  type PatternRole,
  type PatternRoleName,
  type SplitPage,
  splitByContent,
} from './roles.js';
export type { SamplePage, SkippedPages } from './sample.js';
