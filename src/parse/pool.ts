/**
 * A pool of worker threads that sniff, decode and parse bodies off the main thread,
 * so that fetching (and, in a crawl, scoring and storing) proceeds while pages are
 * parsed on the other cores.
 *
 * Lifecycle: createParsePool() → analyze() any number of times, concurrently →
 * close(). analyze() after close() rejects. A worker that dies fails the requests
 * it held (AbortedError with the cause) and is replaced.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { AbortedError, FocusCrawlError, InvalidOptionError } from '../errors/index.js';
import { startWorker } from '../thread/index.js';
import type { AnalyzedBody } from './analyze.js';
import type { ParseOptions } from './options.js';
import type { ParseRequest } from './worker.js';

const poolOptionsSchema = z.strictObject({
  /**
   * Worker threads.
   * @default max(1, availableParallelism() - 1)
   */
  workers: z.number().int().min(1).max(64).optional(),
  /**
   * Hand the body's memory to the worker instead of copying it. The caller's buffer
   * is unusable afterwards; only for callers that do not keep the body.
   * @default false
   */
  transfer: z.boolean().default(false),
});
export type ParsePoolOptions = z.input<typeof poolOptionsSchema>;

export interface ParsePool {
  analyze(
    body: Uint8Array,
    contentType: string | undefined,
    url: string,
    opts?: ParseOptions,
  ): Promise<AnalyzedBody>;
  /** Requests sent to workers and not answered yet. */
  readonly pending: number;
  close(): Promise<void>;
}

function startPoolWorker(): Worker {
  return startWorker(import.meta.url, 'worker');
}

interface Slot {
  worker: Worker;
  healthy: boolean;
  inFlight: Map<number, { resolve: (v: AnalyzedBody) => void; reject: (e: Error) => void }>;
}

type Reply =
  | { id: number; ok: AnalyzedBody }
  | { id: number; error: { name: string; code?: string; message: string } };

export function createParsePool(options: ParsePoolOptions = {}): ParsePool {
  const parsed = poolOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidOptionError(
      `parse pool: ${issue?.path.join('.') || 'options'}: ${issue?.message}`,
    );
  }
  const o = parsed.data;
  const size = o.workers ?? Math.max(1, availableParallelism() - 1);
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;
  let pending = 0;
  let broken: Error | undefined;

  const spawn = (i: number): Slot => {
    const worker = startPoolWorker();
    const slot: Slot = { worker, inFlight: new Map(), healthy: false };
    worker.on('message', (m: Reply) => {
      slot.healthy = true;
      const p = slot.inFlight.get(m.id);
      if (!p) return;
      slot.inFlight.delete(m.id);
      pending--;
      // An idle pool does not keep the process alive; a busy one does.
      if (slot.inFlight.size === 0) worker.unref();
      if ('ok' in m) p.resolve(m.ok);
      else {
        const e = m.error.code
          ? new FocusCrawlError(m.error.code as FocusCrawlError['code'], m.error.message)
          : new Error(m.error.message);
        p.reject(e);
      }
    });
    const fail = (cause: unknown) => {
      for (const p of slot.inFlight.values()) {
        pending--;
        p.reject(new AbortedError('parse worker stopped before answering', { cause }));
      }
      slot.inFlight.clear();
      // Replace a worker that had worked; one that never answered would fail again.
      if (closed || slots[i] !== slot) return;
      if (slot.healthy) slots[i] = spawn(i);
      else broken = new AbortedError('parse worker could not start', { cause });
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (slot.inFlight.size > 0 || (!closed && slots[i] === slot))
        fail(new Error(`worker exited with code ${code}`));
    });
    worker.unref();
    return slot;
  };
  for (let i = 0; i < size; i++) slots.push(spawn(i));

  return {
    get pending() {
      return pending;
    },
    analyze(body, contentType, url, opts) {
      if (closed) return Promise.reject(new AbortedError('parse pool is closed'));
      if (broken) return Promise.reject(broken);
      // Least-busy worker.
      let slot = slots[0] as Slot;
      for (const s of slots) if (s.inFlight.size < slot.inFlight.size) slot = s;
      const id = nextId++;
      const msg: ParseRequest = { id, body, contentType, url, opts };
      return new Promise<AnalyzedBody>((resolve, reject) => {
        slot.inFlight.set(id, { resolve, reject });
        pending++;
        if (slot.inFlight.size === 1) slot.worker.ref();
        const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
        if (o.transfer && whole && body.buffer instanceof ArrayBuffer) {
          slot.worker.postMessage(msg, [body.buffer]);
        } else {
          slot.worker.postMessage(msg);
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
