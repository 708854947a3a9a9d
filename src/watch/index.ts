// Public surface of incremental crawling (DESIGN 1.3): `watch`, its options, events
// and summary, the request budget, and the revisit plan's summary.
export { type Budget, parseBudget, perDay, RequestBudget } from './budget.js';
export {
  META_PLAN,
  type PlanSummary,
  REVISIT_POLICIES,
  REVISIT_WEIGHTS,
  type RevisitPolicy,
  type RevisitWeight,
} from './planner.js';
export { visibleTextHash } from './visit.js';
export {
  META_WATCH,
  parseWatchOptions,
  type VisitEvent,
  type WatchEvents,
  type WatchOptions,
  type WatchOptionsInput,
  type WatchRecord,
  WatchRun,
  type WatchSummary,
  watch,
  watchOptionsSchema,
} from './watch.js';
