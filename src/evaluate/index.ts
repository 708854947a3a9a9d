// Public surface of the evaluate stage: a crawl measured against ground-truth labels
// (harvest rate, target recall, keep/discard precision and recall), and comparisons
// of several crawls of the same topic, seeds and budget.
export {
  COMPARE_HTML,
  COMPARE_MANIFEST,
  type CompareOptions,
  type CompareResult,
  compareCrawls,
} from './compare.js';
export type { ComparedRun, Comparison } from './compare-types.js';
export { compareRows, formatComparison, formatEvaluation } from './format.js';
export { renderComparison, renderEvaluation } from './html.js';
export {
  type BudgetPoint,
  type CurvePoint,
  DEFAULT_BUDGETS,
  type DecisionScore,
  decisionScore,
  type Evaluation,
  type EvaluationOptions,
  EvaluationTracker,
  evaluateOutcomes,
  evaluateStream,
  MAX_CURVE_POINTS,
  normalizeBudgets,
  type OutcomeInput,
} from './metrics.js';
export {
  mergeOptions,
  parseRunSpec,
  type RunSpec,
  runOptions,
  SHARED_OPTIONS,
  specValue,
  validateRunOptions,
} from './run-spec.js';
export { type CrawlFacts, evaluateStore, type StoreEvaluation } from './store.js';
export { writeEvaluationReport } from './write.js';
