/** What travels between the crawl's thread and an analysis thread (pool.ts, worker.ts). */
import type { TextFingerprint } from '../dedup/index.js';
import type { AnalyzedResponse } from '../page/index.js';
import type { AnalyzedBody, ParseOptions } from '../parse/index.js';

/** What a pool's threads are started with: the same for every page of a run. */
export interface AnalysisSetup {
  /** Parse options of the run (the link context window). */
  parse: ParseOptions | undefined;
  /** Fingerprint the text of each page for duplicate detection. */
  fingerprint: boolean;
}

/**
 * One response to analyse: a copy of its body (the memory moved to the analysis
 * thread), and of its headers only `X-Robots-Tag`.
 */
export interface AnalysisRequest {
  id: number;
  res: AnalyzedResponse;
}

/** A response analysed off the crawl's thread: what `judgePage` and the duplicate check would compute. */
export interface Analysis {
  /** `analyzeResponse` of the response. */
  body: AnalyzedBody;
  /** The fingerprint of its text (`bodyText`); absent when not asked for. */
  fingerprint?: TextFingerprint;
}

/** The analysis of request `id`; null when it threw (the crawl's thread does it again and records the error). */
export interface AnalysisReply {
  id: number;
  analysis: Analysis | null;
}
