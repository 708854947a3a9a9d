// Public surface of the naive Bayes link classifier (DESIGN 1.4): link-context features,
// class-conditional densities, the classifier, and cross-validation.

export {
  type DensityKind,
  type FeatureVector,
  type KernelSample,
  logistic,
  type NaiveBayesJson,
  type NaiveBayesModel,
  type NaiveBayesOptions,
  naiveBayesFromJSON,
  type TermClassStats,
  trainNaiveBayes,
} from './classifier.js';
export {
  BANDWIDTH_RULES,
  type BandwidthRule,
  compactSample,
  fitNormal,
  kernelBandwidth,
  kernelLogDensity,
  LOG_SQRT_2PI,
  logSumExp,
  type NormalStats,
  normalLogDensity,
  VARIANCE_FLOOR,
  weightedKernelLogDensity,
} from './density.js';
export {
  contextDocumentFrequencies,
  contextTermWeight,
  contextWeights,
} from './features.js';
export {
  type ClassificationMetrics,
  classificationMetrics,
  type Fold,
  seededRandom,
  stratifiedFolds,
} from './folds.js';
export {
  type DocumentSight,
  documentTermCounts,
  type LinkSight,
  linkTermCounts,
  urlTokens,
} from './link-features.js';
export {
  crossValidateLinkModel,
  DEFAULT_CONTEXT_CHARS,
  evaluateLinkModel,
  LINK_MODEL_FORMAT,
  LINK_MODEL_VERSION,
  LinkModel,
  type LinkModelJson,
  type LinkModelOptions,
  type TermCounts,
  type TrainingMetrics,
  trainLinkModel,
} from './link-model.js';
export { parseLinkModel, readLinkModelFile, writeLinkModelFile } from './model-file.js';
export { linkModelPageJudge } from './page-model.js';
export {
  binaryEntropy,
  DEFAULT_MAX_TERMS,
  DEFAULT_MIN_DOCS,
  informationGain,
  selectVocabulary,
  type VocabularyOptions,
} from './vocabulary.js';
