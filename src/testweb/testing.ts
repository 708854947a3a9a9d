// A tiny HTTP client for the test web's own tests: sends to 127.0.0.1 with a Host header;
// and the test web shared by the tests of one file.
import { type IncomingHttpHeaders, request } from 'node:http';
import { after, before } from 'node:test';
import { startTestWeb, type TestWeb, type TestWebOptions } from './server.js';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function rawGet(
  port: number,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: { host, ...options.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error('timeout')));
    }
    req.on('error', reject);
    req.end();
  });
}

/**
 * The test web for the tests of one file: started before them (seed 1, small, unless
 * told), closed after; `web` is the running server, `get` a GET through it to `host`
 * with the body also as text.
 */
export function sharedTestWeb(options: TestWebOptions = { seed: 1, size: 'small' }) {
  let running: TestWeb | undefined;
  before(async () => {
    running = await startTestWeb(options);
  });
  after(async () => {
    await running?.close();
  });
  const fixture = {
    get web(): TestWeb {
      if (running === undefined) throw new Error('the test web is not started yet');
      return running;
    },
    get: async (host: string, path: string, headers?: Record<string, string>) => {
      const r = await rawGet(fixture.web.port, host, path, headers ? { headers } : {});
      return { ...r, text: r.body.toString() };
    },
  };
  return fixture;
}
