/**
 * `startServer`: the REST API, its event stream and the dashboard over one store
 * (docs/api.md). The caller opens the store (for writing, so that the control routes
 * can write the control value and seeds while a crawl runs) and closes it after the
 * server.
 */
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance } from 'fastify';
import { InvalidOptionError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import { createGuard, type Guard, tokenFor } from './auth.js';
import { errorHandlers } from './errors.js';
import { type EventStreams, eventRoutes } from './events.js';
import { openApi } from './openapi.js';
import { parseServeOptions, type ServeOptions, type ServeOptionsInput } from './options.js';
import { controlRoutes } from './routes-control.js';
import { readRoutes } from './routes-read.js';
import { staticRoutes } from './static.js';
import { StatusSource } from './status.js';

const VERSION: string = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;

/** Largest request body (a list of 10,000 seeds fits). */
const BODY_LIMIT = 8 * 1024 * 1024;

export type StartServerInput = ServeOptionsInput & { store: Store };

export interface Server {
  /** `http://HOST:PORT/`. */
  readonly url: string;
  /** The dashboard's address with the token (`?token=`): what to print and open. */
  readonly dashboardUrl: string;
  readonly host: string;
  readonly port: number;
  /** The token of the control routes (and of every route off loopback). */
  readonly token: string;
  /** True when the token was generated (the caller shows it). */
  readonly tokenGenerated: boolean;
  readonly readOnly: boolean;
  /** The fastify instance (`inject` for tests). */
  readonly app: FastifyInstance;
  /** Ends the event streams and stops listening; the store stays open. */
  close(): Promise<void>;
}

/** The path of a request, without its query. */
const pathOf = (url: string) => url.split('?')[0] ?? url;

/** The API and the dashboard on `store`, not listening yet. */
export function buildApp(
  store: Store,
  o: ServeOptions,
  guard: Guard,
): { app: FastifyInstance; events: EventStreams } {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, forceCloseConnections: true });
  // A control call without a body may still say it is JSON: an empty body is none.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(
        new InvalidOptionError(`body: not JSON (${e instanceof Error ? e.message : String(e)})`),
        undefined,
      );
    }
  });
  errorHandlers(app);
  app.addHook('onRequest', async (req) => {
    guard.host(req);
    const path = pathOf(req.url);
    if (req.method === 'POST' || req.method === 'PUT') guard.control(req);
    else if (path.startsWith('/api/') || path === '/openapi.json') guard.read(req);
  });
  const status = new StatusSource(store);
  app.get('/openapi.json', async () => openApi(VERSION));
  readRoutes(app, store, status, o.storeName);
  controlRoutes(app, store);
  const events = eventRoutes(app, status, o.eventIntervalMs);
  staticRoutes(app);
  return { app, events };
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Serves the API and the dashboard of `store` on `host:port`. Options: `serve/options.ts`
 * (invalid ones throw `InvalidOptionError` naming the field; a host other than loopback
 * without a token is refused unless `generateToken`). A port in use rejects with the
 * system's error (EADDRINUSE).
 */
export async function startServer(input: StartServerInput): Promise<Server> {
  const { store, ...rest } = input;
  if (store === null || typeof store !== 'object' || typeof store.listPages !== 'function') {
    throw new InvalidOptionError('serve.store: expected an open Store');
  }
  const o = parseServeOptions(rest);
  const { token, generated } = tokenFor(o);
  const guard = createGuard(o, token);
  const { app, events } = buildApp(store, o, guard);
  app.addHook('preClose', async () => events.closeAll());
  try {
    await app.listen({ port: o.port, host: o.host });
  } catch (e) {
    await app.close().catch(() => {});
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;
  const url = `http://${urlHost(o.host)}:${port}/`;
  return {
    url,
    dashboardUrl: `${url}?token=${encodeURIComponent(token)}`,
    host: o.host,
    port,
    token,
    tokenGenerated: generated,
    readOnly: o.readOnly,
    app,
    close: async () => {
      events.closeAll();
      await app.close();
    },
  };
}
