// What the API tests share: the test web, a store made by a real crawl of it, and a
// server on that store (port 0, loopback).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { crawl } from '../../src/crawl/index.js';
import { type Server, type StartServerInput, startServer } from '../../src/serve/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { webFetcher } from '../web-fetcher.js';

export const MONITOR = (() => {
  const t = labels({ seed: 1, size: 'small' }).topics.find((x) => x.id === 'monitor');
  assert.ok(t);
  return t;
})();

export interface Kit {
  web: TestWeb;
  dir: string;
  store: Store;
  close(): Promise<void>;
}

/**
 * A page of another topic (cooking), seeded beside the monitor topic's seeds so that the
 * store holds discarded pages however well the crawl keeps to its topic.
 */
const OFF_TOPIC_SEED = 'http://daily-chronicle.test/guides/60.html';

/** The test web, and a store a crawl of it made (bodies of every page, full text). */
export async function crawledStore(maxPages = 120): Promise<Kit> {
  const web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  try {
    const dir = join(tempDir('serve'), 'store');
    const summary = await crawl({
      store: dir,
      topic: MONITOR.topic,
      seeds: [...MONITOR.seeds, OFF_TOPIC_SEED],
      maxPages,
      // Above the topic's own, so that pages are discarded too.
      threshold: 0.3,
      storeBodies: 'all',
      fullText: 'kept',
      sitemaps: 'none',
      fetcher: webFetcher(web),
    });
    assert.ok(
      summary.counts.complete > 5 && summary.counts.discard > 0,
      JSON.stringify(summary.counts),
    );
    const store = await openStore(dir);
    return {
      web,
      dir,
      store,
      close: async () => {
        await store.close();
        await web.close();
      },
    };
  } catch (e) {
    // A failed setup must not leave the test web listening (the test file would never end).
    await web.close();
    throw e;
  }
}

/** A server on `store` on a free loopback port. */
export function serve(store: Store, extra: Omit<StartServerInput, 'store'> = {}): Promise<Server> {
  return startServer({ store, port: 0, ...extra });
}

/** A JSON answer, read loosely by the tests (each asserts what it reads). */
// biome-ignore lint/suspicious/noExplicitAny: the tests assert each field they read
export type Json = any;

/** A JSON request through fastify's `inject`. */
export async function call(
  server: Server,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  o: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Json; text: string; headers: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token !== undefined) headers['authorization'] = `Bearer ${o.token}`;
  const r = await server.app.inject({
    method,
    url,
    headers,
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
  let json: unknown = null;
  try {
    json = JSON.parse(r.body);
  } catch {
    json = null;
  }
  return { status: r.statusCode, json, text: r.body, headers: r.headers };
}

/** Asserts a JSON error answer: its status, its code, and that the message matches. */
export function assertError(
  r: { status: number; json: Json },
  status: number,
  code: string,
  message?: RegExp,
): void {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.equal(r.json?.error?.code, code, JSON.stringify(r.json));
  if (message !== undefined) assert.match(r.json.error.message, message);
}
