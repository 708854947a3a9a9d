/**
 * A crawl on a worker thread of its own (the default when the store is a
 * directory): fetching, parsing and scoring run there, the store on a second
 * thread, and the caller's thread only receives events. Each thread gets a heap
 * limit, so that garbage does not pile up to a share of the machine's memory
 * before V8 collects it, and the caller's event loop stays free.
 */
import {
  CrawlThreadError,
  type ErrorData,
  errorFromData,
  InvalidOptionError,
} from '../errors/index.js';
import { type HeapLimits, startWorker } from '../thread/index.js';
import type { CrawlOptions } from './options.js';
import type { CrawlEvents, CrawlSummary, PageEvent } from './types.js';

/**
 * Heap limits of the crawl's thread. The crawl's live heap is small and bounded
 * (the frontier is in the store, the seen-URL set in typed arrays outside the
 * heap, caches capped); the old generation's limit leaves a wide margin.
 */
export const CRAWL_THREAD_HEAP: HeapLimits = {
  maxOldGenerationSizeMb: 512,
  maxYoungGenerationSizeMb: 12,
};
/** Heap limits of the store's thread when a crawl opens the store. */
export const STORE_THREAD_HEAP: HeapLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 8,
};

export type ToCrawlThread = { t: 'stop' };
export type FromCrawlThread =
  | {
      t: 'event';
      name: 'start' | 'progress' | 'warning' | 'threshold' | 'topic' | 'end';
      args: unknown[];
    }
  | { t: 'pages'; events: PageEvent[] }
  | { t: 'done'; summary: CrawlSummary }
  | { t: 'error'; error: ErrorData };

type Emit = <K extends keyof CrawlEvents>(name: K, ...args: CrawlEvents[K]) => void;

/**
 * Whether the crawl of options `o` (validated) runs on a thread: `thread` when given,
 * else when the store is a directory and every option can be copied to a thread (no
 * functions).
 */
export function wantsThread(o: CrawlOptions): boolean {
  const { signal: _signal, thread, ...rest } = o;
  if (thread === false) return false;
  if (thread === undefined && typeof o.store !== 'string') return false;
  try {
    structuredClone(rest);
    return typeof o.store === 'string';
  } catch (cause) {
    if (thread === undefined) return false;
    throw new InvalidOptionError(
      'thread: the options hold values that cannot be copied to a thread (a function or a Store object); pass thread: false',
      { cause },
    );
  }
}

export class CrawlThread {
  readonly #stop: () => void;
  readonly done: Promise<CrawlSummary>;

  /** Starts the crawl of options `o`, validated already: the thread runs them unparsed. */
  constructor(o: CrawlOptions, emit: Emit) {
    const { signal, thread: _thread, ...rest } = o;
    const worker = startWorker(import.meta.url, 'crawl-worker', {
      workerData: { ...rest, thread: false } satisfies CrawlOptions,
      resourceLimits: CRAWL_THREAD_HEAP,
    });
    let stopped = false;
    this.#stop = () => {
      if (stopped) return;
      stopped = true;
      worker.postMessage({ t: 'stop' } satisfies ToCrawlThread);
    };
    const onAbort = () => this.#stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) this.#stop();
    this.done = new Promise<CrawlSummary>((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      worker.on('message', (m: FromCrawlThread) => {
        if (m.t === 'pages') for (const e of m.events) emit('page', e);
        else if (m.t === 'event') (emit as (n: string, ...a: unknown[]) => void)(m.name, ...m.args);
        else if (m.t === 'done') settle(() => resolve(m.summary));
        else settle(() => reject(errorFromData(m.error)));
      });
      worker.on('error', (e) => {
        settle(() =>
          reject(
            new CrawlThreadError(
              `the crawl's thread failed: ${e.message}; what was committed is in the store and the same crawl resumes`,
              { cause: e },
            ),
          ),
        );
      });
      worker.on('exit', (code) => {
        settle(() =>
          reject(
            new CrawlThreadError(`the crawl's thread exited (code ${code}) before the crawl ended`),
          ),
        );
      });
    });
  }

  stop(): void {
    this.#stop();
  }
}
