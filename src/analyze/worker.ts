/**
 * Worker-thread side of the analysis pool (pool.ts): decodes and parses each response
 * it is sent, fingerprints its text, and answers with the result. Pure work: no I/O,
 * no state between requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeResponse } from './analyze.js';
import type { AnalysisReply, AnalysisRequest, AnalysisSetup } from './types.js';

const port = parentPort;
if (port) {
  const analyse = analyzeResponse(workerData as AnalysisSetup);
  port.on('message', (m: AnalysisRequest) => {
    let reply: AnalysisReply;
    try {
      reply = { id: m.id, ok: true, analysis: analyse(m) };
    } catch (e) {
      reply = { id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
}
