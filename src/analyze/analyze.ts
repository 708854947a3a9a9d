/** The analysis of one response, the same on any thread. Pure. */
import { DuplicateDetector } from '../dedup/index.js';
import { analyzeBody } from '../parse/index.js';
import type { Analysis, AnalysisRequest, AnalysisSetup } from './types.js';

/** The analyser of a run: `analyzeBody` with its parse options, and the text's fingerprint. */
export function analyzeResponse(
  setup: AnalysisSetup,
): (r: Omit<AnalysisRequest, 'id'>) => Analysis {
  const detector = setup.fingerprint ? new DuplicateDetector() : null;
  return (r) => {
    const opts =
      r.xRobotsTag === undefined ? setup.parse : { ...setup.parse, xRobotsTag: r.xRobotsTag };
    const body = analyzeBody(r.body, r.contentType, r.url, opts);
    const text = body.page?.text ?? body.text ?? '';
    const fingerprint = detector === null ? null : detector.fingerprint(text);
    return { body, fingerprint };
  };
}
