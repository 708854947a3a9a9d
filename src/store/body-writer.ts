/**
 * A worker thread that gzips page bodies and writes them to `tmp/` then renames
 * them into place (so a page file is whole or absent). Writes requested in the same
 * tick travel as one message. The worker's code is a few lines of plain JavaScript
 * evaluated in the thread, so it runs the same from sources and from the build.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { gzipSync } = require('node:zlib');
const { writeFileSync, renameSync, rmSync } = require('node:fs');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, items }) => {
  const errors = [];
  const hashes = [];
  for (let i = 0; i < items.length; i++) {
    const { tmp, path, data } = items[i];
    try {
      hashes.push(createHash('md5').update(data).digest('hex'));
      writeFileSync(tmp, gzipSync(data, { level: workerData.level }));
      renameSync(tmp, path);
      errors.push(null);
    } catch (e) {
      try { rmSync(tmp, { force: true }); } catch {}
      errors.push({ message: String(e && e.message), code: e && e.code });
    }
  }
  parentPort.postMessage({ id, errors, hashes });
});
`;

interface Item {
  tmp: string;
  path: string;
  data: Uint8Array;
}

interface Reply {
  id: number;
  errors: ({ message: string; code?: string } | null)[];
  hashes: string[];
}

interface Waiter {
  resolve: (md5: string) => void;
  reject: (e: Error) => void;
}

export class BodyWriter {
  readonly #worker: Worker;
  #nextId = 0;
  #queued: Item[] = [];
  #queuedWaiters: Waiter[] = [];
  readonly #inFlight = new Map<number, Waiter[]>();
  #failure: Error | null = null;

  constructor(level: number) {
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { level } });
    this.#worker.unref();
    this.#worker.on('message', (m: Reply) => {
      const waiters = this.#inFlight.get(m.id) ?? [];
      this.#inFlight.delete(m.id);
      m.errors.forEach((err, i) => {
        const w = waiters[i];
        if (err === null) w?.resolve(m.hashes[i] as string);
        else w?.reject(Object.assign(new Error(err.message), { code: err.code }));
      });
      if (this.#inFlight.size === 0) this.#worker.unref();
    });
    this.#worker.on('error', (e) => this.#fail(e));
    this.#worker.on('exit', (code) => {
      this.#fail(new Error(`the body writer thread exited (code ${code})`));
    });
  }

  #fail(e: Error): void {
    this.#failure ??= e;
    for (const ws of this.#inFlight.values()) for (const w of ws) w.reject(e);
    this.#inFlight.clear();
  }

  /** Writes the gzipped body; resolves to the MD5 (hex) of the uncompressed body. */
  write(tmp: string, path: string, body: Uint8Array): Promise<string> {
    if (this.#failure) return Promise.reject(this.#failure);
    // Send only the body's bytes, not a whole pooled buffer it may sit in.
    const data =
      body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    return new Promise<string>((resolve, reject) => {
      if (this.#queued.length === 0) queueMicrotask(() => this.#send());
      this.#queued.push({ tmp, path, data });
      this.#queuedWaiters.push({ resolve, reject });
    });
  }

  #send(): void {
    const items = this.#queued;
    const waiters = this.#queuedWaiters;
    this.#queued = [];
    this.#queuedWaiters = [];
    if (items.length === 0) return;
    const id = ++this.#nextId;
    this.#inFlight.set(id, waiters);
    this.#worker.ref(); // a pending write keeps the process alive
    this.#worker.postMessage({ id, items });
  }

  async close(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#queued.length > 0) {
      await new Promise((r) => setTimeout(r, 5));
      if (this.#failure) break;
    }
    this.#failure ??= new Error('the body writer is closed');
    await this.#worker.terminate();
  }
}
