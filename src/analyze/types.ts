/** What travels between the crawl's thread and an analysis thread (pool.ts, worker.ts). */
import type { TextFingerprint } from '../dedup/index.js';
import type { AnalyzedBody, ParseOptions } from '../parse/index.js';

/** What a pool's threads are started with: the same for every page of a run. */
export interface AnalysisSetup {
  /** Parse options of the run (the link context window). */
  parse: ParseOptions | undefined;
  /** Fingerprint the text of each page for duplicate detection. */
  fingerprint: boolean;
}

/** One response to analyse. */
export interface AnalysisRequest {
  id: number;
  /** A copy of the body, its memory moved to the analysis thread. */
  body: Uint8Array;
  contentType: string | undefined;
  /** The response's final URL (links resolve against it). */
  url: string;
  /** The response's `X-Robots-Tag`, joined to the page's `<meta name=robots>`. */
  xRobotsTag: string | undefined;
}

/** A response analysed off the crawl's thread: what `judgePage` and the duplicate check would compute. */
export interface Analysis {
  /** `analyzeBody` of the response, with its `X-Robots-Tag`. */
  body: AnalyzedBody;
  /** The fingerprint of the page's text (page text, else decoded text); null when not asked for. */
  fingerprint: TextFingerprint | null;
}

export type AnalysisReply =
  | { id: number; ok: true; analysis: Analysis }
  | { id: number; ok: false; message: string };
