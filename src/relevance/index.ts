// Public surface of the relevance stage: models, the VSM and TF-IDF formulas, topics,
// keyword learning, thresholds and topic adaptation.
export {
  type AdaptOptions,
  adaptTopic,
  type CollectedTerms,
  cosine as weightCosine,
  createTermCollector,
  DEFAULT_MAX_TERMS,
  type TermCollector,
  type TermCollectorOptions,
} from './adapt.js';
export { ADAPT_DEFAULTS } from './adapt-defaults.js';
export * from './bayes/index.js';
export {
  createRelevanceModel,
  RELEVANCE_MODELS,
  type RelevanceModelName,
} from './factory.js';
export {
  appendCapped,
  MAX_HISTORY,
  META_THRESHOLD,
  META_TOPIC as META_TOPIC_HISTORY,
  type ThresholdChange,
  type ThresholdHistory,
  type ThresholdKind,
  type TopicChange,
  type TopicHistory,
} from './history.js';
export {
  createKeywordModel,
  type KeywordModelOptions,
  type KeywordScore,
  keywordModelOptionsSchema,
} from './keyword-model.js';
export type { PageInput, RelevanceModel, RelevanceScore } from './model.js';
export {
  classWeight,
  DEFAULT_EXPERT_SHARE,
  DEFAULT_TOP_KEYWORDS,
  documentFrequencies,
  documentVector,
  type ExtractInput,
  type ExtractResult,
  extractKeywords,
  IDF_SMOOTHING,
  idfWeight,
  type KeywordSource,
  type LearnedKeyword,
  type MergedKeyword,
  mergeKeywords,
  smoothIdf,
  TERM_TOKENIZE_OPTIONS,
  termCounts,
} from './tfidf.js';
export { createTfidfModel, keywordIdf, type TfidfScore, tfidfRelevance } from './tfidf-model.js';
export { createThreshold, HISTOGRAM_BINS, type ThresholdPolicy } from './threshold.js';
export {
  parseThresholdSpec,
  separatingThreshold,
  THRESHOLD_DEFAULTS,
  type ThresholdOverrides,
  type ThresholdSpec,
  thresholdSpecSchema,
  validateThresholdSpec,
} from './threshold-spec.js';
export {
  createTopic,
  loadTopicFile,
  parseTopic,
  TOPIC_MODELS,
  type Topic,
  type TopicInput,
  type TopicKeyword,
  type TopicModelName,
  topicFileSchema,
} from './topic.js';
export { DEFAULT_THRESHOLD, passesThreshold, vsmRelevance } from './vsm.js';
