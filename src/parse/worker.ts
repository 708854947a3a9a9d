// Worker-thread side of the parse pool: runs analyzeBody on request.
import { parentPort } from 'node:worker_threads';
import { analyzeBody } from './analyze.js';
import type { ParseOptions } from './options.js';

export interface ParseRequest {
  id: number;
  body: Uint8Array;
  contentType: string | undefined;
  url: string;
  opts: ParseOptions | undefined;
}

const port = parentPort;
if (port) {
  port.on('message', (m: ParseRequest) => {
    try {
      port.postMessage({ id: m.id, ok: analyzeBody(m.body, m.contentType, m.url, m.opts) });
    } catch (e) {
      const err = e as { name?: string; code?: string; message?: string };
      port.postMessage({
        id: m.id,
        error: { name: err.name ?? 'Error', code: err.code, message: err.message ?? String(e) },
      });
    }
  });
}
