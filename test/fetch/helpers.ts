// Shared set-up for the fetcher's integration tests: the test web and fast fetcher settings.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetcher, type Fetcher, type FetcherOptionsInput } from '../../src/fetch/index.js';
import { type RequestLogEntry, startTestWeb, type TestWeb } from '../../src/testweb/index.js';

export type { TestWeb };

export async function withWeb<T>(fn: (web: TestWeb) => Promise<T>): Promise<T> {
  const web = await startTestWeb({ port: 0 });
  try {
    return await fn(web);
  } finally {
    await web.close();
  }
}

/**
 * A fetcher on the test web (or any server given by a resolve spec) with test-friendly
 * settings: no politeness delay, quick retries.
 */
export function testFetcher(web: { resolve: string }, options: FetcherOptionsInput = {}): Fetcher {
  return createFetcher({
    resolve: [web.resolve],
    delayMs: 0,
    perHostConcurrency: 64,
    concurrency: 64,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 50,
    ...options,
  });
}

export async function using<T>(f: Fetcher, fn: (f: Fetcher) => Promise<T>): Promise<T> {
  try {
    return await fn(f);
  } finally {
    await f.close();
  }
}

/** Log entries for one host, optionally one path, robots.txt excluded unless asked for. */
export function logOf(web: TestWeb, host: string, path?: string): RequestLogEntry[] {
  return web.requests.filter(
    (r) =>
      r.host === host && (path === undefined ? r.path !== '/robots.txt' : r.path.startsWith(path)),
  );
}

/** Gaps in ms between consecutive entries. */
export function gaps(entries: RequestLogEntry[]): number[] {
  return entries.slice(1).map((e, i) => e.ts - entries[i]!.ts);
}

/** A plain HTTP server on 127.0.0.1 that records the request headers it gets. */
export async function recordingServer(): Promise<{
  port: number;
  requests: IncomingHttpHeaders[];
  close: () => Promise<void>;
}> {
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    res.setHeader('content-type', 'text/plain');
    res.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A plain HTTP server on 127.0.0.1 that counts the requests it gets. */
export async function countingServer(): Promise<{
  port: number;
  hits: () => number;
  close: () => Promise<void>;
}> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
