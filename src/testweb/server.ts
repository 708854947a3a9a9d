// The test web's HTTP server: one loopback port, virtual hosts told apart by the Host header.
import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { charsetHandler, charsetHostNames, parseCharsetHost } from './charsets.js';
import { FORUM_HOSTS, forumHandler } from './forum.js';
import { hostileHosts } from './hostile.js';
import { htmlReply, notFound, simplePage } from './html.js';
import { overTls, plainHttpReply, tlsFront, tlsOptionsSchema, tuneServer } from './https.js';
import { JOBS_HOST, jobsHandler } from './jobs.js';
import { LABELS_PATH, labelsJson } from './labels.js';
import { getModel, PORTAL_HOST } from './model.js';
import { movedHosts } from './moved.js';
import { NEWS_HOST, newsHandler } from './news.js';
import { PHPBB_HOSTS, phpbbHandler } from './phpbb.js';
import { specialHosts } from './special.js';
import { mediaHosts, slowHost } from './special-media.js';
import { portalHandler, topicalHandler } from './topical.js';
import type { Ctx, Handler, Reply, RequestLogEntry, SimClock, WebSize, WebState } from './types.js';

/** Default simulated time: 2024-01-01T00:00:00Z. */
export const DEFAULT_CLOCK_START_MS = Date.UTC(2024, 0, 1);

const OptionsSchema = z.strictObject({
  /** TCP port on 127.0.0.1; 0 picks a free one. @default 0 */
  port: z.number().int().min(0).max(65535).default(0),
  /** Seed of every generated page. @default 1 */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  /** Size of the topical web (see docs/testweb.md). @default 'small' */
  size: z.enum(['small', 'medium', 'large']).default('small'),
  /** Append every request as one JSON line to this file. @default undefined (no file) */
  logFile: z.string().min(1).optional(),
  /** Most entries kept in `web.requests` (oldest dropped first); 0 keeps none. @default 1_000_000 */
  maxLogEntries: z.number().int().min(0).default(1_000_000),
  /** Initial simulated time (ms since the Unix epoch). @default Date.UTC(2024, 0, 1) */
  clockStartMs: z.number().int().default(DEFAULT_CLOCK_START_MS),
  /** Simulated ms per real ms; 0 keeps the clock still until `clock.set()`. @default 0 */
  clockSpeed: z.number().min(0).default(0),
  /**
   * Simulated instant from which forum.test and bbs.forum.test use another URL scheme
   * (docs/testweb.md, "The forums' redesign"). @default undefined (never)
   */
  forumRedesignMs: z.number().int().optional(),
});

const ExtraOptions = z.strictObject({
  /**
   * Serve HTTPS too, on the same port: each connection is TLS or plain HTTP by its
   * first byte. @default undefined (plain HTTP only)
   */
  tls: tlsOptionsSchema.optional(),
  /**
   * Hosts that answer plain HTTP with a 301 to the same URL on https:// (`tls` needed),
   * but for /robots.txt, which allows everything over plain HTTP. @default []
   */
  httpsOnlyHosts: z.array(z.string().min(1)).default([]),
});

const AllOptions = OptionsSchema.extend(ExtraOptions.shape).refine(
  (o) => o.tls !== undefined || o.httpsOnlyHosts.length === 0,
  { message: 'httpsOnlyHosts needs tls', path: ['httpsOnlyHosts'] },
);

export type TestWebOptions = z.input<typeof AllOptions>;

export interface TestWeb {
  readonly port: number;
  readonly seed: number;
  readonly size: WebSize;
  /** 'http://HOST:PORT' */
  origin(host: string): string;
  /** Absolute URL of `path` on `host`, through this web's port. */
  url(host: string, path?: string): string;
  /** '*.test=127.0.0.1:PORT', ready for the fetcher's resolve option (HTTP and HTTPS alike). */
  readonly resolve: string;
  /** Whether the port serves HTTPS too (the `tls` option). */
  readonly https: boolean;
  /** Absolute https:// URL of `path` on `host`, through this web's port. */
  httpsUrl(host: string, path?: string): string;
  /** Every host name served. */
  readonly hosts: readonly string[];
  /** Request log (oldest first). */
  readonly requests: RequestLogEntry[];
  clearLog(): void;
  /** Simulated time used by the forums and news.test. */
  readonly clock: SimClock;
  close(): Promise<void>;
}

function makeClock(startMs: number, speed: number): SimClock {
  let base = startMs;
  let realBase = Date.now();
  return {
    now: () => (speed > 0 ? Math.floor(base + (Date.now() - realBase) * speed) : base),
    set(ms: number) {
      if (!Number.isFinite(ms)) throw new InvalidOptionError(`clock.set: not a number: ${ms}`);
      base = Math.floor(ms);
      realBase = Date.now();
    },
    advance(ms: number) {
      this.set(this.now() + ms);
    },
    httpMs(t: number) {
      const real = speed > 0 ? realBase + (t - base) / speed : t;
      return Math.floor(real / 1000) * 1000;
    },
  };
}

const COUNTER_LIMIT = 100_000;

function parseOptions(options: TestWebOptions): z.output<typeof AllOptions> {
  const r = AllOptions.safeParse(options);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.join('.') || '(options)';
  throw new InvalidOptionError(`startTestWeb: option ${where}: ${issue?.message ?? 'invalid'}`, {
    cause: r.error,
  });
}

/** Starts the test web on 127.0.0.1. */
export async function startTestWeb(options: TestWebOptions = {}): Promise<TestWeb> {
  const opts = parseOptions(options);
  const clock = makeClock(opts.clockStartMs, opts.clockSpeed);
  const counters = new Map<string, number>();
  const state: WebState = {
    seed: opts.seed,
    size: opts.size,
    clock,
    forumRedesignMs: opts.forumRedesignMs,
    bump(key) {
      if (counters.size >= COUNTER_LIMIT && !counters.has(key)) counters.clear();
      const n = (counters.get(key) ?? 0) + 1;
      counters.set(key, n);
      return n;
    },
  };
  const model = getModel(opts.seed, opts.size);
  const routes = new Map<string, Handler>();
  for (const [h, fn] of Object.entries(specialHosts)) routes.set(h, fn);
  for (const [h, fn] of Object.entries(mediaHosts)) routes.set(h, fn);
  for (const [h, fn] of Object.entries(movedHosts)) routes.set(h, fn);
  for (const [h, fn] of Object.entries(hostileHosts)) routes.set(h, fn);
  routes.set('slow.test', slowHost(send));
  for (const h of charsetHostNames()) {
    const [cs, decl] = parseCharsetHost(h)!;
    routes.set(h, charsetHandler(cs, decl));
  }
  for (const h of FORUM_HOSTS) routes.set(h, forumHandler(h));
  for (const h of PHPBB_HOSTS) routes.set(h, phpbbHandler(h));
  routes.set(JOBS_HOST, jobsHandler);
  routes.set(NEWS_HOST, newsHandler);
  routes.set(PORTAL_HOST, portalHandler(model));
  const topical = topicalHandler(model);
  for (const h of model.hosts) routes.set(h.name, topical);
  const hosts = [...routes.keys()].sort();

  const requests: RequestLogEntry[] = [];
  let logStream: WriteStream | undefined;
  if (opts.logFile !== undefined) {
    logStream = createWriteStream(opts.logFile, { flags: 'a' });
    logStream.on('error', () => {}); // a failing log file must not take the web down
  }
  const logging = logStream !== undefined || opts.maxLogEntries > 0;
  const httpsOnly = new Set(opts.httpsOnlyHosts);
  let labels: Buffer | undefined;

  function send(ctx: Ctx, reply: Reply): void {
    const res = ctx.res;
    if (res.destroyed || res.headersSent) return;
    const body =
      reply.body === undefined
        ? undefined
        : typeof reply.body === 'string'
          ? Buffer.from(reply.body)
          : reply.body;
    const headers = { ...reply.headers };
    // The server's clock is the simulated one: its Date says so (as a real server's
    // Date says its own clock), so that Last-Modified reads against it.
    headers['date'] ??= new Date(clock.httpMs(clock.now())).toUTCString();
    if (body !== undefined) headers['content-length'] = body.length;
    ctx.entry.status = reply.status;
    res.writeHead(reply.status, headers);
    if (body === undefined || ctx.method === 'HEAD') {
      res.end();
      return;
    }
    ctx.entry.bytes = body.length;
    res.end(body);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const rawHost = (req.headers.host ?? '').toLowerCase();
    const colon = rawHost.lastIndexOf(':');
    const host = colon > 0 && !rawHost.endsWith(']') ? rawHost.slice(0, colon) : rawHost;
    const path = req.url ?? '/';
    const q = path.indexOf('?');
    const entry: RequestLogEntry = {
      ts: Date.now(),
      host,
      method: req.method ?? 'GET',
      path,
      status: 0,
      userAgent: req.headers['user-agent'] ?? '',
      bytes: 0,
    };
    if (overTls(req)) entry.tls = true;
    if (opts.maxLogEntries > 0) {
      if (requests.length >= opts.maxLogEntries) {
        requests.splice(0, Math.max(1, Math.floor(opts.maxLogEntries / 10)));
      }
      requests.push(entry);
    }
    if (logging) {
      res.once('close', () => {
        entry.status = res.headersSent ? res.statusCode : 0;
        if (logStream) logStream.write(`${JSON.stringify(entry)}\n`);
      });
    }
    let query: URLSearchParams | undefined;
    const search = q < 0 ? '' : path.slice(q + 1);
    const ctx: Ctx = {
      host,
      method: entry.method,
      path,
      pathname: q < 0 ? path : path.slice(0, q),
      search,
      get query() {
        query ??= new URLSearchParams(search);
        return query;
      },
      req,
      res,
      state,
      entry,
    };
    let reply: Reply | null;
    try {
      if (httpsOnly.has(host) && !overTls(req)) {
        reply = plainHttpReply(host, path);
      } else if (ctx.pathname === LABELS_PATH) {
        labels ??= Buffer.from(labelsJson(model));
        reply = { status: 200, headers: { 'content-type': 'application/json' }, body: labels };
      } else {
        const handler = routes.get(host);
        reply = handler ? handler(ctx) : unknownHost(host, hosts);
      }
    } catch (err) {
      reply = htmlReply(simplePage('Internal error', [String(err)]), 500);
    }
    if (reply) send(ctx, reply);
  }

  const server = createServer({ keepAlive: true }, handle);
  tuneServer(server);
  const front = opts.tls === undefined ? undefined : tlsFront(opts.tls, server, handle);
  const listening = front?.server ?? server;
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject);
    listening.listen(opts.port, '127.0.0.1', () => {
      listening.off('error', reject);
      resolve();
    });
  });
  const port = (listening.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    port,
    seed: opts.seed,
    size: opts.size,
    origin: (host) => `http://${host}:${port}`,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    resolve: `*.test=127.0.0.1:${port}`,
    https: front !== undefined,
    httpsUrl: (host, path = '/') => `https://${host}:${port}${path}`,
    hosts,
    requests,
    clearLog() {
      requests.length = 0;
    },
    clock,
    close() {
      closing ??= new Promise<void>((resolve) => {
        listening.close(() => {
          if (logStream) logStream.end(() => resolve());
          else resolve();
        });
        server.closeAllConnections();
        front?.closeAll();
      });
      return closing;
    },
  };
}

function unknownHost(host: string, hosts: readonly string[]): Reply {
  if (host === '127.0.0.1' || host === 'localhost') {
    return htmlReply(
      simplePage(
        'focuscrawl test web',
        ['Use a *.test host name (Host header) to reach a site of the test web.'],
        hosts.map((h) => [`http://${h}/`, h] as const),
      ),
    );
  }
  return notFound(`The test web has no host named ${host}.`);
}
