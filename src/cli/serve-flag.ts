// `--serve [PORT]` of `crawl` and `watch`: the store served (focuscrawl serve, on
// loopback) while the run goes on, from its start to its end.

import { CliUsageError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import { connectStore } from '../store/open.js';
import type { FlagSpec, Parsed } from './args.js';
import type { Io } from './index.js';
import { asIoError } from './system-errors.js';

/** The port `--serve` alone takes (DEFAULT_SERVE_PORT of src/serve). */
export const SERVE_FLAG_PORT = 8080;

export const serveFlag: FlagSpec = { serve: { type: 'string' } };

export const serveFlagHelp = `  --serve [PORT]               serve the store while the run goes on: the API and the
                               dashboard of focuscrawl serve on 127.0.0.1:PORT (default
                               ${SERVE_FLAG_PORT}; 0 for any free port); its address, with the
                               token of the control routes, is printed when the run starts`;

/** `argv` with a `--serve` that has no port given one (`--serve=8080`): its value is optional. */
export function withServeDefault(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (a === '--serve' && !/^\d+$/.test(argv[i + 1] ?? '')) out.push(`--serve=${SERVE_FLAG_PORT}`);
    else out.push(a);
  }
  return out;
}

/** The port of `--serve` (undefined without it). */
export function servePort(p: Parsed, cmd: string): number | undefined {
  const v = p.values['serve'];
  if (v === undefined || v === false) return undefined;
  const text = String(v === true ? SERVE_FLAG_PORT : v);
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --serve expects a port number 0 … 65535, got "${text}"`,
    );
  }
  return n;
}

/** What runs a crawl: its `start` event says the store is ready. */
interface Startable {
  once(event: 'start', listener: () => void): unknown;
}

export interface Serving {
  /** Stops serving and closes the server's store handle. */
  close(): Promise<void>;
}

/**
 * Serves `store` from `run`'s start while it goes on. A server that cannot start (the
 * port in use) is said, and the run goes on without it.
 */
export function serveWhile(
  port: number | undefined,
  run: Startable,
  store: string,
  io: Io,
): Serving {
  if (port === undefined) return { close: async () => {} };
  let started: Promise<{ close(): Promise<void> } | null> = Promise.resolve(null);
  run.once('start', () => {
    started = (async () => {
      let handle: Store | null = null;
      try {
        const { startServer } = await import('../serve/index.js');
        handle = await connectStore(store);
        const server = await startServer({ store: handle, port, storeName: store });
        io.err(`serving the dashboard and the API at ${server.dashboardUrl}`);
        const h = handle;
        return {
          close: async () => {
            await server.close();
            await h.close();
          },
        };
      } catch (e) {
        await handle?.close().catch(() => {});
        const err = asIoError(e, { flag: '--serve', value: String(port) });
        const text = err instanceof Error ? err.message : String(err);
        io.err(`warning: not serving: ${text}`);
        return null;
      }
    })();
  });
  return {
    close: async () => {
      const s = await started;
      await s?.close();
    },
  };
}
