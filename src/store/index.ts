// Public surface of the store stage: the Store's contracts (contracts.ts), its SQLite
// and memory implementations, leases. The conformance suites are in ./conformance.js.

export type {
  ActivityBucket,
  Browse,
  LinkRow,
  PageQuery,
  PageRow,
  PageSort,
} from './browse.js';
export {
  type CheckOptions,
  type CheckPart,
  type CheckProblem,
  type CheckReport,
  checkStore,
} from './check.js';
export type {
  Claims,
  ExtractedFields,
  Frontier,
  Leases,
  LinkGraph,
  Records,
  Revisits,
  RunRecords,
  SearchIndex,
  Store,
} from './contracts.js';
export type {
  FieldRecord,
  FieldStats,
  FieldsOptions,
  FieldValue,
  PageFields,
} from './field-types.js';
export { leaseLost, pidAlive, thisProcess } from './lease.js';
export { DB_FILE, isPgLocation } from './location.js';
export { createMemoryStore, MemoryStore } from './memory.js';
export { connectStore, storeDirOf, storeExists } from './open.js';
export { type StoreOptions, type StoreOptionsInput, storeOptionsSchema } from './options.js';
export { PgStore } from './pg.js';
export type { FeedRow, PgCoordinator } from './pg-coordinator.js';
export { openPgStore, parsePgLocation } from './pg-open.js';
export type {
  ClaimDueOptions,
  DueRevisit,
  RecordVisitsResult,
  RevisitRecord,
  RevisitSchedule,
  RevisitTotals,
  VisitChange,
  VisitOutcome,
  VisitPage,
  VisitRecord,
} from './revisit-types.js';
export { VISIT_CHANGES } from './revisit-types.js';
export {
  acquireRunLock,
  RUN_LOCK_FILE,
  type RunLockOwner,
  releaseOwnRunLock,
  runLockOwner,
} from './run-lock.js';
export { SCHEMA_VERSION } from './schema.js';
export { SqliteStore } from './sqlite.js';
export { openStore } from './sqlite-open.js';
export { errorCode } from './tally.js';
export type {
  PageText,
  TextCoverage,
  UnindexedPage,
  UnindexedPagesOptions,
} from './text-types.js';
export { openThreadedStore, ThreadedStore, type ThreadedStoreOptions } from './threaded.js';
export {
  type ClaimedUrl,
  type ClaimOptions,
  type CommitResult,
  type ErrorFilter,
  type FetchedPage,
  type FetchFailure,
  type FinalState,
  type HistoryRecord,
  type HostClaim,
  type HostStats,
  type Lease,
  type LeaseOptions,
  type LeaseOwner,
  type LinkRecord,
  type NewUrl,
  type Outcome,
  type PageDuplicate,
  type PageLink,
  type PageRecord,
  type PageScores,
  type PriorityChange,
  type RecoverOptions,
  type RedirectResult,
  type RedirectStep,
  type ScanWaitingOptions,
  SEED_PRIORITY,
  type StateCounts,
  type StoreStats,
  type TextHit,
  type TextSearch,
  URL_STATES,
  type UrlRecord,
  type UrlState,
  type WaitingUrl,
} from './types.js';
