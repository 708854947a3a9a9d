/**
 * Worker-thread side of a crawl on its own thread (thread.ts): runs the crawl here
 * and forwards its events; page events travel in batches. The options arrive as the
 * starting thread's `parseCrawlOptions` returned them, and are not parsed again.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorToData } from '../errors/index.js';
import type { CrawlOptions } from './options.js';
import { runValidated } from './run.js';
import type { FromCrawlThread, ToCrawlThread } from './thread.js';
import type { PageEvent } from './types.js';

/** Page events sent together at most this many, or after this many milliseconds. */
const BATCH = 512;
const BATCH_MS = 50;

const port = parentPort;
if (port) {
  const post = (m: FromCrawlThread) => port.postMessage(m);
  const run = runValidated(workerData as CrawlOptions);
  let pages: PageEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pages.length === 0) return;
    post({ t: 'pages', events: pages });
    pages = [];
  };
  run.on('page', (e) => {
    pages.push(e);
    if (pages.length >= BATCH) flush();
    else timer ??= setTimeout(flush, BATCH_MS);
  });
  for (const name of ['start', 'progress', 'warning', 'threshold', 'topic', 'end'] as const) {
    run.on(name, (...args: unknown[]) => {
      flush();
      post({ t: 'event', name, args });
    });
  }
  port.on('message', (m: ToCrawlThread) => {
    if (m.t === 'stop') void run.stop();
  });
  run.then(
    (summary) => {
      flush();
      post({ t: 'done', summary });
      port.close();
    },
    (e: unknown) => {
      flush();
      post({ t: 'error', error: errorToData(e) });
      port.close();
    },
  );
}
