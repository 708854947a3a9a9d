/**
 * Analysis threads (`parseThreads`): the CPU-heavy part of judging a response,
 * decoding, parsing and fingerprinting its text, runs on a pool of worker threads so
 * that a crawl uses more than one core for it; the crawl's thread keeps the frontier,
 * the relevance, the links and the store's traffic (docs/crawl.md, "Threads and memory").
 *
 * Lifecycle: `start` → `analyze` any number of times, concurrently → `close`. A
 * response is sent as a copy of its body (the memory moves to the thread); the
 * answer is what `judgePage` and the duplicate check would compute on the caller's
 * thread, given to them so that they do not compute it again. `analyze` never
 * rejects: when a thread fails (or the pool is closed) it resolves undefined and the
 * caller analyses the page itself, as with no pool; the thread is not replaced. A body
 * over MAX_THREAD_BODY_BYTES is not sent: the caller analyses it too.
 */
import type { Worker } from 'node:worker_threads';
import type { FetchResult } from '../fetch/index.js';
import { type HeapLimits, startWorker } from '../thread/index.js';
import type { Analysis, AnalysisReply, AnalysisRequest, AnalysisSetup } from './types.js';

/** Heap limits of an analysis thread: one page at a time, so little is live. */
export const ANALYSIS_THREAD_HEAP: HeapLimits = {
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 8,
};

/**
 * Bodies larger than this (bytes) are left to the caller's thread, whose heap is twice
 * as large: decoding a body of a few hundred MB (a raised `maxBytes`) needs more than an
 * analysis thread's heap, and V8 then ends the whole process, not the thread (a 300 MB
 * page did so). 16 MiB is eight times the default `maxBytes`.
 */
export const MAX_THREAD_BODY_BYTES = 16 * 1024 * 1024;

interface Thread {
  worker: Worker;
  pending: Map<number, (a: Analysis | undefined) => void>;
  alive: boolean;
}

export class AnalysisPool {
  readonly #threads: Thread[];
  readonly #lost: (message: string) => void;
  #next = 0;
  #closed = false;

  private constructor(n: number, setup: AnalysisSetup, lost: (message: string) => void) {
    this.#lost = lost;
    this.#threads = Array.from({ length: n }, () => this.#spawn(setup));
  }

  /**
   * A pool of `threads` analysis threads for a run of `setup`; null for 0 (the
   * caller analyses on its own thread). `lost` hears of a thread that failed.
   */
  static start(
    threads: number,
    setup: AnalysisSetup,
    lost: (message: string) => void = () => {},
  ): AnalysisPool | null {
    return threads > 0 ? new AnalysisPool(threads, setup, lost) : null;
  }

  /** Threads still at work. */
  get threads(): number {
    return this.#threads.filter((t) => t.alive).length;
  }

  /** The analysis of `res`; undefined when the caller is to analyse it (see the module comment). */
  analyze(res: FetchResult): Promise<Analysis | undefined> {
    if (res.body.length > MAX_THREAD_BODY_BYTES) return Promise.resolve(undefined);
    const t = this.#pick();
    if (t === undefined) return Promise.resolve(undefined);
    const id = this.#next++;
    const body = new Uint8Array(res.body);
    const robots = res.headers['x-robots-tag'];
    const m: AnalysisRequest = {
      id,
      res: {
        body,
        contentType: res.contentType,
        finalUrl: res.finalUrl,
        headers: robots === undefined ? {} : { 'x-robots-tag': robots },
      },
    };
    return new Promise((resolve) => {
      if (t.pending.size === 0) t.worker.ref();
      t.pending.set(id, resolve);
      t.worker.postMessage(m, [body.buffer]);
    });
  }

  /** Stops the threads; analyses not answered resolve undefined. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(
      this.#threads.map((t) => {
        this.#end(t);
        return t.worker.terminate();
      }),
    );
  }

  /** The live thread with the fewest analyses waiting. */
  #pick(): Thread | undefined {
    if (this.#closed) return undefined;
    let best: Thread | undefined;
    for (const t of this.#threads) {
      if (t.alive && (best === undefined || t.pending.size < best.pending.size)) best = t;
    }
    return best;
  }

  #spawn(setup: AnalysisSetup): Thread {
    const worker = startWorker(import.meta.url, 'worker', {
      workerData: setup,
      resourceLimits: ANALYSIS_THREAD_HEAP,
    });
    worker.unref();
    const t: Thread = { worker, pending: new Map(), alive: true };
    worker.on('message', (r: AnalysisReply) => {
      const resolve = t.pending.get(r.id);
      if (resolve === undefined) return;
      t.pending.delete(r.id);
      if (t.pending.size === 0) worker.unref();
      resolve(r.analysis ?? undefined);
    });
    const fail = (message: string) => {
      if (!t.alive || this.#closed) return;
      this.#end(t);
      this.#lost(message);
    };
    worker.on('error', (e) => fail(`an analysis thread failed: ${e.message}`));
    worker.on('exit', (code) => fail(`an analysis thread exited (code ${code})`));
    return t;
  }

  /** Marks `t` ended and lets its waiting callers analyse for themselves. */
  #end(t: Thread): void {
    t.alive = false;
    const waiting = [...t.pending.values()];
    t.pending.clear();
    for (const resolve of waiting) resolve(undefined);
  }
}
