/**
 * Worker-thread side of the threaded store (threaded.ts): owns the SQLite
 * connection and writes page files inline, answering one request at a time in
 * the order they arrive. Iterations are served in chunks through cursors.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorToData } from '../errors/index.js';
import type { StoreOptionsInput } from './options.js';
import type { SqliteStore } from './sqlite.js';
import { openSqliteStore } from './sqlite-open.js';

export interface ThreadInit {
  dir: string;
  options: StoreOptionsInput | undefined;
}

/** A call of a Store method, or a cursor operation (`next`, `end`) of an iteration. */
export interface ThreadRequest {
  id: number;
  op: string;
  args: unknown[];
}

export type ThreadReply =
  | { id: number; ok: unknown }
  | { id: number; error: ReturnType<typeof errorToData> };

/** Queued texts indexed in one transaction while the thread is idle (~15 ms of FTS5). */
const TEXT_CHUNK = 64;

const ITERATIONS = new Set(['history', 'pages', 'urls', 'links', 'revisits', 'visits', 'fields']);

async function serve(store: SqliteStore, port: NonNullable<typeof parentPort>): Promise<void> {
  const cursors = new Map<number, AsyncIterator<unknown>>();
  let nextCursor = 1;

  const call = async (op: string, args: unknown[]): Promise<unknown> => {
    if (ITERATIONS.has(op)) {
      const it = (store[op as 'urls'] as (...a: unknown[]) => AsyncIterable<unknown>)
        .apply(store, args)
        [Symbol.asyncIterator]();
      const cursor = nextCursor++;
      cursors.set(cursor, it);
      return cursor;
    }
    if (op === 'next') {
      const [cursor, max] = args as [number, number];
      const it = cursors.get(cursor);
      if (it === undefined) return { items: [], done: true };
      const items: unknown[] = [];
      while (items.length < max) {
        const r = await it.next();
        if (r.done) {
          cursors.delete(cursor);
          return { items, done: true };
        }
        items.push(r.value);
      }
      return { items, done: false };
    }
    if (op === 'end') {
      const it = cursors.get(args[0] as number);
      cursors.delete(args[0] as number);
      await it?.return?.();
      return undefined;
    }
    const fn = (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[op];
    if (typeof fn !== 'function') throw new Error(`threaded store: unknown call ${op}`);
    return fn.apply(store, args);
  };

  // Kept pages' texts are indexed while no request waits, a chunk at a time, so that a
  // request arriving meanwhile waits for one chunk at most (text-queue.ts).
  let waiting = 0;
  const idle = () => {
    if (waiting > 0 || store.queuedTexts === 0) return;
    try {
      store.indexQueuedTexts(TEXT_CHUNK);
    } catch {
      // A failed write (a full disk) shows on the next commit; the texts taken are left
      // out of the index, which the next run with full text fills from the bodies.
    }
    setImmediate(idle);
  };

  // One request at a time, in order: a request's effects are visible to the next.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: ThreadRequest) => {
    waiting++;
    queue = queue.then(async () => {
      let reply: ThreadReply;
      try {
        reply = { id: m.id, ok: await call(m.op, m.args) };
      } catch (e) {
        reply = { id: m.id, error: errorToData(e) };
      }
      port.postMessage(reply);
      if (--waiting === 0 && m.op !== 'close') setImmediate(idle);
      if (m.op === 'close') port.close();
    });
  });
}

const port = parentPort;
if (port) {
  const init = workerData as ThreadInit;
  openSqliteStore(init.dir, init.options, undefined, 'inline').then(
    (store) => {
      store.deferTextIndex();
      port.postMessage({ id: 0, ok: store.path });
      void serve(store, port);
    },
    (e: unknown) => {
      port.postMessage({ id: 0, error: errorToData(e) });
      port.close();
    },
  );
}
