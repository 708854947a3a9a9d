// Public surface of incremental revisits: estimating how often a page changes, priors
// from its siblings, the expected freshness of a revisit rate, and the planning of
// revisits under a budget. Pure functions: rates in changes (or revisits) per day,
// times in ms since the epoch.

export {
  allocateRevisits,
  type BudgetSplit,
  type BudgetSplitInput,
  DEFAULT_DISCOVERY_SHARE,
  nextDue,
  type RevisitPage,
  type RevisitPlan,
  splitBudget,
} from './allocate.js';
export {
  type DatedVisit,
  estimateRate,
  type IntervalObservation,
  irregularRate,
  LAST_MODIFIED_SLACK_MS,
  lastModifiedRate,
  MS_PER_DAY,
  type RateEstimate,
  type RateMethod,
  type RatePrior,
  REGULAR_TOLERANCE,
  regularRate,
  type Visit,
} from './estimate.js';
export { expectedFreshness, marginalFreshness } from './freshness.js';
export {
  DEFAULT_FALLBACK_PRIOR_WEIGHT,
  DEFAULT_GROUP_PRIOR_WEIGHT,
  DEFAULT_MIN_GROUP_INTERVALS,
  DEFAULT_RATE_PER_DAY,
  type GroupPrior,
  type GroupPriorOptions,
  groupPrior,
  leaveOneOutPriors,
  urlPattern,
} from './prior.js';
export { type PlanSummary, RATE_DECADES, rateDecade } from './summary.js';
