// Public surface of the analysis stage: decoding, parsing and fingerprinting responses
// on a pool of threads (`parseThreads`), the crawl's thread keeping the rest.
export { analyzer } from './analyze.js';
export { ANALYSIS_THREAD_HEAP, AnalysisPool } from './pool.js';
export { MAX_AUTO_PARSE_THREADS, parseThreadCount } from './threads.js';
export type { Analysis, AnalysisSetup } from './types.js';
