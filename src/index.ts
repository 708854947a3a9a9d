// The focuscrawl library: the public surface of every stage.
export * from './crawl/index.js';
export * from './errors/index.js';
export * from './evaluate/index.js';
export { exportLines, exportStore, formatStatus, gatherStatus } from './export/index.js';
export * from './fetch/index.js';
export * from './frontier/index.js';
export { type InspectOptions, type InspectReport, inspectUrl } from './inspect/index.js';
export * from './labels/index.js';
export {
  type LearnOptions,
  type LearnResult,
  learnedTopicFile,
  learnFromTexts,
  learnTopic,
  type TrainOptions,
  type TrainResult,
  trainFromSources,
} from './learn/index.js';
export * from './parse/index.js';
export * from './ranking/index.js';
export * from './relevance/index.js';
export { buildReport, type ReportOptionsInput, writeReport } from './report/index.js';
export * from './schedule/index.js';
export {
  openApi,
  type ServeOptionsInput,
  type Server,
  type StartServerInput,
  startServer,
} from './serve/index.js';
export {
  type ActivityBucket,
  type Browse,
  type ClaimDueOptions,
  type ClaimedUrl,
  type Claims,
  type CommitResult,
  createMemoryStore,
  DB_FILE,
  type DueRevisit,
  type FetchedPage,
  type FetchFailure,
  type FinalState,
  type Frontier,
  type HistoryRecord,
  type HostStats,
  type Lease,
  type LeaseOwner,
  type Leases,
  type LinkGraph,
  type LinkRecord,
  type LinkRow,
  MemoryStore,
  type NewUrl,
  type Outcome,
  openStore,
  type PageLink as StoredLink,
  type PageQuery,
  type PageRecord,
  type PageRow,
  type PageScores,
  type PageSort,
  type Records,
  type RecordVisitsResult,
  type RevisitRecord,
  type RevisitSchedule,
  type Revisits,
  type RevisitTotals,
  type RunRecords,
  SCHEMA_VERSION,
  SEED_PRIORITY,
  type SearchIndex,
  SqliteStore,
  type StateCounts,
  type Store,
  type StoreOptions,
  type StoreOptionsInput,
  type StoreStats,
  storeOptionsSchema,
  URL_STATES,
  type UrlRecord,
  type UrlState,
  VISIT_CHANGES,
  type VisitChange,
  type VisitOutcome,
  type VisitPage,
  type VisitRecord,
} from './store/index.js';
export {
  describeTestWeb,
  labels as testWebLabels,
  listPageUrls as testWebPageUrls,
  startTestWeb,
  type TestWeb,
  type TestWebOptions,
} from './testweb/index.js';
export * from './text/index.js';
export * from './url/index.js';
export * from './watch/index.js';
