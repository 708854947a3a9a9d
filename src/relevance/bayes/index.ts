// Public surface of the naive Bayes link classifier (DESIGN 1.4): link-context features,
// class-conditional densities, the classifier, and cross-validation.

export {
  type DensityKind,
  type FeatureVector,
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
  fitNormal,
  kernelBandwidth,
  kernelLogDensity,
  LOG_SQRT_2PI,
  logSumExp,
  type NormalStats,
  normalLogDensity,
  VARIANCE_FLOOR,
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
