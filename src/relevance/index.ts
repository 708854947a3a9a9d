// Public surface of the relevance stage: models, the VSM formula, thresholds, topics.
export {
  createKeywordModel,
  type KeywordModelOptions,
  type KeywordScore,
  keywordModelOptionsSchema,
} from './keyword-model.js';
export type { PageInput, RelevanceModel, RelevanceScore } from './model.js';
export {
  createTopic,
  loadTopicFile,
  parseTopic,
  type Topic,
  type TopicInput,
  type TopicKeyword,
  topicFileSchema,
} from './topic.js';
export { DEFAULT_THRESHOLD, passesThreshold, vsmRelevance } from './vsm.js';
