/**
 * The fetcher: composes the pieces, one hop at a time —
 *   address guard → robots.txt → politeness slot → exchange (body cap,
 *   decompression, timeouts) → retry → redirect → next hop.
 * Each piece lives in its own module; this file only wires them.
 */
import { Agent, buildConnector, type Dispatcher, ProxyAgent } from 'undici';
import {
  AbortedError,
  BlockedAddressError,
  DnsError,
  type FocusCrawlError,
  InvalidOptionError,
  InvalidUrlError,
  TlsCertError,
} from '../errors/index.js';
import { canonicalizeUrl } from '../url/index.js';
import { blockedHostKind } from './address.js';
import { FetchBudget, urlTimeoutError } from './budget.js';
import { createConnector, HostResolver, tlsTrust } from './connect.js';
import { hostFailureOf } from './host-failure.js';
import {
  defaultUserAgent,
  type FetcherOptions,
  type FetcherOptionsInput,
  parseFetcherOptions,
} from './options.js';
import { PolitenessScheduler } from './politeness.js';
import { followRedirect, isRedirect, type RedirectPolicy } from './redirect.js';
import { parseRetryAfter } from './retry.js';
import { loadFromResponse, RobotsCache, type RobotsLoad, verdictFor } from './robots/index.js';
import { disallowed, skippedVerdict } from './robots-verdict.js';
import { Router } from './route.js';
import { raceSignal, sleep } from './signal.js';
import { type ExchangeConfig, exchange, type RawResponse } from './transport.js';
import type {
  Fetcher,
  FetcherStats,
  FetchInit,
  FetchResult,
  RedirectHop,
  RobotsVerdict,
} from './types.js';
import { conditionalHeaders, withHeaders } from './validators.js';

/** Redirects followed when fetching robots.txt (RFC 9309: at least five). */
const ROBOTS_MAX_REDIRECTS = 5;
const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const RESERVED_HEADERS = new Set([
  'host',
  'user-agent',
  'accept-encoding',
  'connection',
  'content-length',
  'transfer-encoding',
]);

/**
 * How long a host that answered 429 or 503 is left alone: until the URL's retry
 * (Retry-After, or the retry's backoff), or, with no retry following, its
 * Retry-After at most `capMs`; 0 for other answers.
 */
function hostPause(res: RawResponse, capMs: number): number {
  if (res.status !== 429 && res.status !== 503) return 0;
  if (res.retryInMs >= 0) return res.retryInMs;
  const asked = parseRetryAfter(res.headers['retry-after'], Date.now());
  return asked === undefined ? 0 : Math.min(asked, capMs);
}

export function createFetcher(options?: FetcherOptionsInput): Fetcher {
  return new HttpFetcher(parseFetcherOptions(options));
}

class HttpFetcher implements Fetcher {
  readonly #o: FetcherOptions;
  readonly #cfg: ExchangeConfig;
  readonly #resolver: HostResolver;
  readonly #agent: Agent;
  readonly #proxy: ProxyAgent | undefined;
  readonly #shared: Agent;
  readonly #router: Router;
  readonly #headers: string[];
  readonly #sched: PolitenessScheduler;
  readonly #robots: RobotsCache;
  readonly #redirects: RedirectPolicy;
  /** One fetch call's time, every try, retry wait and redirect hop (`urlTimeoutMs`). */
  readonly #urlTimeoutMs: number;
  #requests = 0;
  #robotsRequests = 0;
  #retries = 0;
  #bytes = 0;
  #bytesOnWire = 0;

  constructor(o: FetcherOptions) {
    this.#o = o;
    this.#resolver = new HostResolver(o.resolve);
    const headers = [
      'user-agent',
      o.userAgent ?? defaultUserAgent(o.contactUrl),
      'accept',
      ACCEPT,
      'accept-encoding',
      'gzip, deflate, br',
    ];
    for (const [name, value] of Object.entries(o.headers)) {
      const n = name.toLowerCase();
      if (RESERVED_HEADERS.has(n)) {
        throw new InvalidOptionError(
          `headers.${name}: this header is set by the fetcher${n === 'user-agent' ? ' (use the userAgent option)' : ''}`,
        );
      }
      if (n === 'accept') headers[3] = value;
      else headers.push(n, value);
    }
    this.#headers = headers;
    this.#cfg = { retry: o, timeouts: o };
    // The CA file read once, for direct connections and the proxy's alike.
    const trust = tlsTrust(o.caFile);
    const common = {
      connections: o.perHostConcurrency,
      pipelining: 1,
      keepAliveTimeout: o.keepAliveTimeoutMs,
      headersTimeout: o.firstByteTimeoutMs,
      bodyTimeout: o.totalTimeoutMs,
    };
    this.#agent = new Agent({
      ...common,
      connect: createConnector({
        connectTimeoutMs: o.connectTimeoutMs,
        resolver: this.#resolver,
        allowPrivateAddresses: o.allowPrivateAddresses,
        lookup: o.lookup,
        dns: o.dns,
        trust,
      }),
    });
    // Plain-HTTP hosts mapped by resolve share one pool per mapped address (see route.ts).
    this.#shared = new Agent({
      ...common,
      connections: o.concurrency,
      connect: buildConnector({ timeout: o.connectTimeoutMs }),
    });
    this.#router = new Router(this.#resolver, this.#shared, headers);
    this.#proxy =
      o.proxy === undefined
        ? undefined
        : new ProxyAgent({
            ...common,
            uri: o.proxy,
            connect: { timeout: o.connectTimeoutMs },
            requestTls: trust,
          });
    this.#sched = new PolitenessScheduler(o);
    this.#robots = new RobotsCache({
      maxEntries: o.robotsCacheSize,
      ttlMs: o.robotsTtlMs,
      errorTtlMs: o.robotsErrorTtlMs,
      productToken: o.robotsAgent,
      load: (robotsUrl) => this.#loadRobots(robotsUrl),
    });
    this.#redirects = { maxRedirects: o.maxRedirects, scope: o.scope };
    // Twice one try's limit by default: a body that times out is retried once, in full.
    this.#urlTimeoutMs = o.urlTimeoutMs ?? 2 * o.totalTimeoutMs;
  }

  async fetch(input: string, init?: FetchInit): Promise<FetchResult> {
    const startedAt = Date.now();
    const url = canonicalizeUrl(input);
    if (url === null) throw new InvalidUrlError(`not an http(s) URL: ${JSON.stringify(input)}`);
    const signal = init?.signal;
    const skipRobots = init?.skipRobots === true || !this.#o.obeyRobots;
    const chain: RedirectHop[] = [];
    const budget = new FetchBudget(this.#urlTimeoutMs, startedAt);
    // The validators describe `url`'s copy: sent with its request (and retries), no further.
    let conditional = conditionalHeaders(init?.conditional, url);
    let current = url;
    let attempts = 0;
    for (;;) {
      const u = new URL(current);
      this.#checkHost(u.hostname, current);
      const path = u.pathname + u.search;
      const origin = u.origin;
      let verdict: RobotsVerdict;
      let crawlDelayMs = -1; // unknown: keep the host's last known Crawl-delay
      if (skipRobots) {
        verdict = skippedVerdict(origin);
      } else {
        const cached = this.#robots.peek(origin);
        // Waiting for robots.txt (its own fetch, with its own time) is not this URL's time.
        verdict =
          cached === undefined
            ? await budget.paused(() => this.#verdict(origin, path, signal))
            : verdictFor(cached, path);
        if (!verdict.allowed) throw disallowed(current, verdict, this.#o.robotsAgent);
        crawlDelayMs = verdict.crawlDelayMs ?? 0;
      }
      const res = await this.#send(
        u,
        origin,
        path,
        current,
        this.#o.maxBytes,
        crawlDelayMs,
        signal,
        budget,
        false,
        conditional,
      );
      attempts += res.attempt;
      const location = res.headers['location'];
      let unfollowed: RedirectHop | undefined;
      if (isRedirect(res.status, location)) {
        const from = current;
        const next = followRedirect(url, chain, from, res.status, location, this.#redirects);
        if (init?.follow === undefined || (await init.follow(next))) {
          current = next;
          conditional = undefined;
          continue;
        }
        unfollowed = chain.pop();
      }
      return {
        url,
        finalUrl: current,
        redirects: chain,
        status: res.status,
        headers: res.headers,
        contentType: res.headers['content-type'],
        body: res.body,
        truncated: res.truncated,
        bytesOnWire: res.bytesOnWire,
        bytes: res.body.length,
        attempts,
        ...(unfollowed === undefined ? {} : { unfollowed }),
        ...(conditional !== undefined && res.status === 304 ? { notModified: true } : {}),
        robots: verdict,
        timings: {
          startedAt,
          firstByteMs: res.headersAt - startedAt,
          totalMs: Date.now() - startedAt,
        },
      };
    }
  }

  async robotsFor(input: string): Promise<RobotsVerdict> {
    const url = canonicalizeUrl(input);
    if (url === null) throw new InvalidUrlError(`not an http(s) URL: ${JSON.stringify(input)}`);
    const u = new URL(url);
    this.#checkHost(u.hostname, url);
    if (!this.#o.obeyRobots) return skippedVerdict(u.origin);
    return this.#verdict(u.origin, u.pathname + u.search, undefined);
  }

  readyAt(host: string): number {
    return this.#sched.readyAt(host);
  }

  async close(): Promise<void> {
    this.#sched.close();
    await Promise.all([this.#agent.destroy(), this.#shared.destroy(), this.#proxy?.destroy()]);
  }

  stats(): FetcherStats {
    return {
      requests: this.#requests,
      robotsRequests: this.#robotsRequests,
      retries: this.#retries,
      bytes: this.#bytes,
      bytesOnWire: this.#bytesOnWire,
      robotsCacheHits: this.#robots.hits,
      robotsCacheMisses: this.#robots.misses,
      robotsCacheShared: this.#robots.shared,
      robotsCacheSize: this.#robots.size,
      inFlight: this.#sched.active,
      queued: this.#sched.queued,
      waited: this.#sched.waited,
      hosts: this.#sched.hostStats(),
    };
  }

  /** Refuses IP literals in refused ranges and localhost names before anything is sent. */
  #checkHost(hostname: string, url: string): void {
    if (this.#o.allowPrivateAddresses) return;
    const kind = blockedHostKind(hostname);
    if (kind === undefined || this.#resolver.match(hostname) !== undefined) return;
    throw new BlockedAddressError(
      `refusing to fetch ${url}: ${hostname} is a ${kind} address (set allowPrivateAddresses, or map the host with resolve)`,
      { url },
    );
  }

  /** The verdict for `path` on `origin`, loading robots.txt if needed. */
  #verdict(origin: string, path: string, signal: AbortSignal | undefined): Promise<RobotsVerdict> {
    const p = this.#robots.get(origin).then((e) => verdictFor(e, path));
    return signal === undefined ? p : raceSignal(p, signal);
  }

  /**
   * Waits for the shared politeness of other processes (`hostGate`), holding the
   * host's own slot: asks the gate until it grants the host (0), sleeping as long as
   * it says between asks. `hostDone` gives the host back once the request is over
   * (its body read, or failed).
   */
  async #sharedSlot(host: string, delayMs: number, signal: AbortSignal | undefined): Promise<void> {
    const gate = this.#o.hostGate as (host: string, delayMs: number) => Promise<number>;
    try {
      for (;;) {
        const wait = await gate(host, delayMs);
        if (wait <= 0) return;
        await sleep(wait, signal);
      }
    } catch (e) {
      this.#sched.release(host);
      throw e;
    }
  }

  /**
   * Sends one hop, retrying as the retry policy and the fetch's `budget` say; each
   * attempt takes a politeness slot for `host` (the budget paused while it waits) and
   * gives it back when its body has been read. `extraHeaders` (flat) are added to
   * this hop's requests (a conditional request's).
   */
  async #send(
    u: URL,
    origin: string,
    path: string,
    href: string,
    maxBytes: number,
    crawlDelayMs: number,
    signal: AbortSignal | undefined,
    budget: FetchBudget,
    robots = false,
    extraHeaders?: string[],
  ): Promise<RawResponse> {
    const host = u.hostname;
    const route = this.#router.mappedHttp(u.protocol, u.host, host, u.port);
    const dispatcher = route?.dispatcher ?? this.#dispatcherFor(host);
    const poolOrigin = route?.origin ?? origin;
    const headers = withHeaders(route?.headers ?? this.#headers, extraHeaders);
    const sched = this.#sched;
    for (let attempt = 1; ; attempt++) {
      if (budget.remainingMs() <= 0) throw urlTimeoutError(href, budget.limitMs, budget.requests);
      if (!sched.tryAcquire(host, crawlDelayMs)) {
        await budget.paused(() => sched.acquire(host, crawlDelayMs, signal));
      }
      const shared = this.#o.hostGate !== undefined;
      const delayMs = Math.max(this.#o.delayMs, crawlDelayMs);
      if (shared) await budget.paused(() => this.#sharedSlot(host, delayMs, signal));
      budget.requests++;
      this.#requests++;
      if (robots) this.#robotsRequests++;
      if (attempt > 1) this.#retries++;
      let res: RawResponse;
      try {
        res = await exchange(
          dispatcher,
          poolOrigin,
          path,
          headers,
          href,
          this.#cfg,
          maxBytes,
          attempt,
          signal,
          budget,
          () => sched.sent(host),
        );
      } catch (err) {
        sched.release(host);
        if (shared) this.#o.hostDone?.(host, delayMs);
        const e = err as FocusCrawlError;
        if (signal?.aborted) throw e;
        const wait = budget.retryAfterError(e, attempt, this.#o);
        if (wait < 0) throw e;
        await sleep(wait, signal);
        continue;
      }
      sched.release(host);
      if (shared) this.#o.hostDone?.(host, delayMs);
      this.#bytes += res.body.length;
      this.#bytesOnWire += res.bytesOnWire;
      // 429/503: the whole host waits, not only this URL's retry (Retry-After, capped at
      // maxRetryAfterMs, or the retry's backoff).
      const pause = hostPause(res, this.#o.maxRetryAfterMs);
      if (pause > 0) sched.backOff(host, Date.now() + pause);
      if (res.retryInMs < 0) return res;
      await sleep(res.retryInMs, signal);
    }
  }

  #dispatcherFor(host: string): Dispatcher {
    if (this.#proxy === undefined || this.#resolver.match(host) !== undefined) return this.#agent;
    return this.#proxy;
  }

  /** Fetches robots.txt (following up to 5 redirects) and says how to read it. */
  async #loadRobots(robotsUrl: string): Promise<RobotsLoad> {
    const seen: string[] = [];
    let current = robotsUrl;
    // robots.txt has a fetch's time of its own, over all its hops.
    const budget = new FetchBudget(this.#urlTimeoutMs);
    try {
      for (;;) {
        const u = new URL(current);
        this.#checkHost(u.hostname, current);
        const path = u.pathname + u.search;
        const max = this.#o.robotsMaxBytes;
        const res = await this.#send(u, u.origin, path, current, max, -1, undefined, budget, true);
        const location = res.headers['location'];
        if (!isRedirect(res.status, location)) {
          return loadFromResponse(res.status, res.body, res.truncated);
        }
        seen.push(current);
        const next = canonicalizeUrl(location, current);
        if (next === null || seen.includes(next) || seen.length > ROBOTS_MAX_REDIRECTS) {
          return { source: 'missing', status: res.status };
        }
        current = next;
      }
    } catch (err) {
      // The host cannot be reached at all (DNS, refused, connect timeout): report that,
      // not a robots verdict, and cache nothing: the crawl parks the host.
      if (
        err instanceof BlockedAddressError ||
        err instanceof TlsCertError ||
        err instanceof AbortedError ||
        (err instanceof DnsError && !err.retryable) ||
        hostFailureOf(err) === 'unreachable'
      ) {
        throw err;
      }
      const message = err instanceof Error ? err.message : String(err);
      return { source: 'unreachable', status: undefined, error: message };
    }
  }
}
