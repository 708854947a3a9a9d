/**
 * Worker-thread side of the analysis pool (pool.ts): decodes and parses each response
 * it is sent, fingerprints its text, and answers with the result. Pure work: no I/O,
 * no state between requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyzer } from './analyze.js';
import type { Analysis, AnalysisReply, AnalysisRequest, AnalysisSetup } from './types.js';

const port = parentPort;
if (port) {
  const analyse = analyzer(workerData as AnalysisSetup);
  port.on('message', (m: AnalysisRequest) => {
    let analysis: Analysis | null = null;
    try {
      analysis = analyse(m.res);
    } catch {
      // The crawl's thread analyses the page again and records what went wrong.
    }
    port.postMessage({ id: m.id, analysis } satisfies AnalysisReply);
  });
}
