// The crawl's parts an incremental crawl composes (src/watch/): the engine with its
// hooks, the run's setup and lease, and the page rules that judge a response. Kept
// apart from index.ts, which stays light (a crawl on its own thread loads these there).
export { Engine } from './engine.js';
export type { EngineHooks, RequestGate } from './engine-hooks.js';
export { CrawlLease } from './lease.js';
export { type CrawlOptions, parseCrawlOptions } from './options.js';
export { type PageRules, pageOutcome } from './page.js';
export { runFetcher } from './run-fetcher.js';
export { type Setup, setUp } from './setup.js';
export { errorText } from './signals.js';
