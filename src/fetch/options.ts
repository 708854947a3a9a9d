/** Fetcher options: a zod strict object, validated where they enter. See docs/fetch.md. */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';

/** The largest `maxBytes`: V8's longest string (2^29 − 24 characters), which a decoded page must fit. */
export const MAX_BODY_BYTES = 2 ** 29 - 24;

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export const VERSION = readVersion();
export const DEFAULT_CONTACT_URL = 'https://github.com/focuscrawl/focuscrawl';

/** The default User-Agent: `focuscrawl/<version> (+<contactUrl>)`. */
export function defaultUserAgent(contactUrl: string = DEFAULT_CONTACT_URL): string {
  return `focuscrawl/${VERSION} (+${contactUrl})`;
}

const ms = (min: number) => z.number().int().min(min);
const fn = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'function', { message: `expected a function (${what})` });

const httpUrl = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}, 'expected an http(s) URL');

export const fetcherOptionsSchema = z.strictObject({
  /**
   * The User-Agent header sent.
   * @default `focuscrawl/<version> (+<contactUrl>)`
   */
  userAgent: z.string().min(1).optional(),
  /**
   * Where site owners can learn about the crawler; part of the default User-Agent.
   * @default 'https://github.com/focuscrawl/focuscrawl'
   */
  contactUrl: httpUrl.default(DEFAULT_CONTACT_URL),
  /**
   * Product token matched against robots.txt `User-agent` lines.
   * @default 'focuscrawl'
   */
  robotsAgent: z
    .string()
    .regex(/^[A-Za-z_-]+$/, 'a product token: letters, "_" and "-" only')
    .default('focuscrawl'),
  /**
   * Whether robots.txt is consulted (a call can still pass `skipRobots`).
   * @default true
   */
  obeyRobots: z.boolean().default(true),
  /**
   * Requests in flight across all hosts.
   * @default 16
   */
  concurrency: z.number().int().min(1).default(16),
  /**
   * Requests in flight to one host.
   * @default 1
   */
  perHostConcurrency: z.number().int().min(1).default(1),
  /**
   * Minimum time between the starts of two requests to one host; robots.txt
   * Crawl-delay wins when larger.
   * @default 1000
   */
  delayMs: ms(0).default(1000),
  /**
   * Time to establish the TCP/TLS connection (DNS included).
   * @default 10000
   */
  connectTimeoutMs: ms(1).default(10_000),
  /**
   * Time from sending the request to the response headers (undici headersTimeout).
   * @default 30000
   */
  firstByteTimeoutMs: ms(1).default(30_000),
  /**
   * Time for one whole request, body included (each retry gets its own, within
   * `urlTimeoutMs`).
   * @default 60000
   */
  totalTimeoutMs: ms(1).default(60_000),
  /**
   * Time for one whole fetch call: every try, every wait before a retry and every
   * redirect hop of one URL (waits for robots.txt and for the host's politeness slot
   * not counted). When it runs out the fetch fails with TotalTimeoutError naming it;
   * a retry that could not start before then is not made.
   * @default 2 × totalTimeoutMs (120000 with the defaults)
   */
  urlTimeoutMs: ms(1).optional(),
  /**
   * Body bytes kept after decompression; the rest is not read (`truncated: true`).
   * 10240 reproduces DESIGN 1.4. At most 536,870,888: a page is decoded into one string,
   * and V8's strings are no longer (a larger body failed every page it cut).
   * @default 2097152
   */
  maxBytes: z
    .number()
    .int()
    .min(1)
    .max(MAX_BODY_BYTES)
    .default(2 * 1024 * 1024),
  /**
   * Redirects followed per fetch.
   * @default 5
   */
  maxRedirects: z.number().int().min(0).default(5),
  /**
   * Retries after a network error, a timeout, a 5xx or a 429.
   * @default 2
   */
  retries: z.number().int().min(0).default(2),
  /**
   * Backoff before the first retry (doubling each time, with jitter).
   * @default 1000
   */
  retryBaseDelayMs: ms(0).default(1000),
  /**
   * Longest backoff between retries.
   * @default 30000
   */
  retryMaxDelayMs: ms(0).default(30_000),
  /**
   * Longest Retry-After honoured; a longer one ends the retries (the response is returned).
   * @default 120000
   */
  maxRetryAfterMs: ms(0).default(120_000),
  /**
   * Origins whose robots.txt is cached.
   * @default 1000
   */
  robotsCacheSize: z.number().int().min(1).default(1000),
  /**
   * How long a fetched robots.txt is trusted.
   * @default 86400000 (24 h)
   */
  robotsTtlMs: ms(0).default(86_400_000),
  /**
   * How long an unreachable robots.txt (5xx, 429, network error) disallows its site before it is fetched again.
   * @default 600000 (10 min)
   */
  robotsErrorTtlMs: ms(0).default(600_000),
  /**
   * Bytes of robots.txt read (RFC 9309 asks for at least 500 KiB).
   * @default 1048576
   */
  robotsMaxBytes: z
    .number()
    .int()
    .min(500 * 1024)
    .default(1024 * 1024),
  /**
   * `HOST=IP[:PORT]` mappings (like curl's --connect-to): connect to IP[:PORT]
   * for HOST, keeping the URL and the Host header. `*.test=…` maps every name
   * under `.test`; `*=…` maps every host. Mapped hosts pass the address guard.
   * @default []
   */
  resolve: z.array(z.string()).default([]),
  /**
   * An HTTP(S) proxy URL. Hosts mapped by `resolve` bypass it.
   * @default undefined (direct connections)
   */
  proxy: httpUrl.optional(),
  /**
   * A PEM file of CA certificates trusted for HTTPS in addition to Node's bundled
   * root certificates (a company's or a test CA). Read when the fetcher is made; a
   * file that cannot be read or holds no certificate is refused (FC_ERR_INVALID_OPTION).
   * @default undefined (Node's bundled roots only)
   */
  caFile: z.string().min(1).optional(),
  /**
   * Allow loopback, private, link-local, multicast and metadata addresses.
   * @default false
   */
  allowPrivateAddresses: z.boolean().default(false),
  /**
   * Scope predicate for redirect targets; a redirect it rejects throws OutOfScopeError.
   * @default undefined (every target in scope)
   */
  scope: fn<(url: string) => boolean>('url => boolean').optional(),
  /**
   * Politeness shared with other processes (the workers of one PostgreSQL store):
   * asked once this fetcher's own per-host slot is granted, with the host and its
   * delay (the larger of `delayMs` and robots.txt's Crawl-delay); resolves to 0 when
   * the request may start, else to the ms to wait before asking again.
   * @default undefined (this process's politeness only)
   */
  hostGate: fn<(host: string, delayMs: number) => Promise<number>>(
    '(host, delayMs) => Promise<number>',
  ).optional(),
  /**
   * Told, with `hostGate`, when a request it granted is over (its body read, or
   * failed): the host is free for the next request, a delay from now. Must not throw.
   * @default undefined
   */
  hostDone: fn<(host: string, delayMs: number) => void>('(host, delayMs) => void').optional(),
  /**
   * DNS lookup with dns.lookup's signature.
   * @default dns.lookup
   */
  lookup: fn<LookupFunction>('dns.lookup signature').optional(),
  /**
   * Look host names up in DNS. When false, only hosts mapped by `resolve` (and IP
   * literals) can be reached: any other name fails with `FC_ERR_DNS` at once, with
   * no query sent (for crawls of local mirrors whose pages link to the real web).
   * @default true
   */
  dns: z.boolean().default(true),
  /**
   * Extra request headers (for example accept-language). User-Agent and
   * Accept-Encoding are set by the fetcher.
   * @default {}
   */
  headers: z.record(z.string(), z.string()).default({}),
  /**
   * How long an idle keep-alive connection is kept open.
   * @default 10000
   */
  keepAliveTimeoutMs: ms(1).default(10_000),
});

export type FetcherOptionsInput = z.input<typeof fetcherOptionsSchema>;
export type FetcherOptions = z.output<typeof fetcherOptionsSchema>;

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The PEM certificates of the CA file `path`, each checked to parse. Throws
 * InvalidOptionError naming the file when it cannot be read (the system error as
 * its cause), holds no certificate, or holds a malformed one.
 */
export function loadCaFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new InvalidOptionError(
      `caFile: cannot read the CA file ${path}${typeof code === 'string' ? ` (${code})` : ''}`,
      { cause: e },
    );
  }
  const certs = text.match(PEM_CERT) ?? [];
  if (certs.length === 0) {
    throw new InvalidOptionError(
      `caFile: the CA file ${path} holds no PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)`,
    );
  }
  certs.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch (e) {
      throw new InvalidOptionError(
        `caFile: certificate ${i + 1} of the CA file ${path} is malformed: ${(e as Error).message}`,
        { cause: e },
      );
    }
  });
  return certs;
}

/** Validates options; throws InvalidOptionError naming each bad field. */
export function parseFetcherOptions(input: FetcherOptionsInput | undefined): FetcherOptions {
  const r = fetcherOptionsSchema.safeParse(input ?? {});
  if (r.success) {
    if (r.data.caFile !== undefined) loadCaFile(r.data.caFile);
    return r.data;
  }
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid fetcher options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}
