/**
 * Starting worker threads whose code is a module of this package, alike from the
 * build (`.js`) and from the TypeScript sources (tests run through tsx, which Node 20
 * does not register in workers by itself).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker module `name` (without extension) that sits beside the module
 * whose `import.meta.url` is `base`.
 */
export function startWorker(base: string, name: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const entry = JSON.stringify(new URL(`./${name}.ts`, base).href);
  return new Worker(
    `import('tsx/esm/api').then((m) => { m.register(); return import(${entry}); });`,
    { ...options, eval: true },
  );
}

/**
 * Heap limits of a worker thread (MiB). A thread of its own is how a library bounds
 * its heap: V8 otherwise lets garbage grow to a share of the machine's memory
 * before it collects.
 */
export interface HeapLimits {
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
}
