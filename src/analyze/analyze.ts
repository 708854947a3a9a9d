/** The analysis of one response, the same on any thread. Pure. */
import { DuplicateDetector } from '../dedup/index.js';
import { type AnalyzedResponse, analyzeResponse, bodyText } from '../page/index.js';
import type { Analysis, AnalysisSetup } from './types.js';

/**
 * The analyser of a run: `analyzeResponse` with its parse options, and the fingerprint
 * of the text the crawl's duplicate check reads.
 */
export function analyzer(setup: AnalysisSetup): (res: AnalyzedResponse) => Analysis {
  const detector = setup.fingerprint ? new DuplicateDetector() : null;
  return (res) => {
    const body = analyzeResponse(res, setup.parse);
    return detector === null
      ? { body }
      : { body, fingerprint: detector.fingerprint(bodyText(body)) };
  };
}
