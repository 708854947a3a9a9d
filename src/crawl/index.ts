// Public surface of the crawl stage: `crawl(options)`, its options, events and summary.

export { LEASE_MS } from './lease.js';
export {
  type CrawlOptions,
  type CrawlOptionsInput,
  crawlOptionsSchema,
  MODELS,
  type ModelName,
  PAGE_MODELS,
  STRATEGIES,
  type StrategyName,
  strategyOptionsSchema,
} from './options.js';
export { type ReextractSummary, reextract } from './reextract.js';
export { CrawlRun, crawl } from './run.js';
export {
  DEFAULT_UNKNOWN_LIMIT,
  META_SITE_FILTER,
  META_SITE_MODEL,
  SiteFilter,
  type SiteFilterStats,
} from './site-filter.js';
export {
  readStoreSiteModel,
  sentRequest,
  storeRequestsByPattern,
} from './site-model-requests.js';
export { resolveTopic } from './topic.js';
export {
  type CrawlEvents,
  type CrawlProgress,
  type CrawlRunRecord,
  type CrawlSummary,
  META_CRAWL,
  META_RUNS,
  META_SETTINGS,
  META_TOPIC,
  type PageEvent,
  REFUSED_CODES,
  type StopReason,
  type StoredTopic,
} from './types.js';
