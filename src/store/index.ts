// Public surface of the store stage: the Store contract, its SQLite and memory
// implementations. The conformance suite for implementations is in ./conformance.js.
export { createMemoryStore, MemoryStore } from './memory.js';
export { type StoreOptions, type StoreOptionsInput, storeOptionsSchema } from './options.js';
export {
  acquireRunLock,
  RUN_LOCK_FILE,
  type RunLockOwner,
  releaseOwnRunLock,
  runLockOwner,
} from './run-lock.js';
export { SCHEMA_VERSION } from './schema.js';
export { SqliteStore } from './sqlite.js';
export { DB_FILE, openStore } from './sqlite-open.js';
export { openThreadedStore, ThreadedStore, type ThreadedStoreOptions } from './threaded.js';
export {
  type ClaimedUrl,
  type ClaimOptions,
  type FetchedPage,
  type FetchFailure,
  type FinalState,
  type HistoryRecord,
  type HostClaim,
  type HostStats,
  type LinkRecord,
  type NewUrl,
  type Outcome,
  type PageDuplicate,
  type PageLink,
  type PageRecord,
  type PageScores,
  type PriorityChange,
  type RedirectResult,
  type RedirectStep,
  type ScanWaitingOptions,
  SEED_PRIORITY,
  type StateCounts,
  type Store,
  type StoreStats,
  type TextHit,
  type TextSearch,
  URL_STATES,
  type UrlRecord,
  type UrlState,
  type WaitingUrl,
} from './types.js';
