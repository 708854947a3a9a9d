/** Public types of the fetch stage. */

/** The robots.txt rule that decided a verdict. */
export interface RobotsRuleRef {
  readonly directive: 'allow' | 'disallow';
  /** The rule's path pattern, percent-encoding normalised. */
  readonly pattern: string;
  /** 1-based line in robots.txt. */
  readonly line: number;
}

/**
 * What robots.txt says about one URL for our product token.
 *
 * `source` tells how the robots.txt was obtained:
 * - `parsed`: fetched with a 2xx status and parsed;
 * - `missing`: 4xx (except 429), or more than 5 redirects: everything allowed;
 * - `unreachable`: 5xx, 429 or a network error: everything disallowed until `expiresAt`;
 * - `skipped`: not consulted (`skipRobots`, or `obeyRobots: false`).
 *
 * Verdicts are shared between URLs decided by the same rule: treat them as read-only.
 */
export interface RobotsVerdict {
  readonly allowed: boolean;
  /** The robots.txt URL consulted (`<origin>/robots.txt`). */
  readonly robotsUrl: string;
  readonly source: 'parsed' | 'missing' | 'unreachable' | 'skipped';
  /** HTTP status of robots.txt; undefined after a network error or when skipped. */
  readonly status: number | undefined;
  /** The user-agent whose group was obeyed (our product token or `*`); undefined when no group applied. */
  readonly group: string | undefined;
  /** The deciding rule; undefined when no rule matched (or robots.txt was missing/unreachable). */
  readonly rule: RobotsRuleRef | undefined;
  /** The group's Crawl-delay in milliseconds, if any. */
  readonly crawlDelayMs: number | undefined;
  /** `Sitemap:` URLs listed in robots.txt. */
  readonly sitemaps: readonly string[];
  /** Why robots.txt is unreachable (status or network error), when it is. */
  readonly error: string | undefined;
  /** When this robots.txt will be fetched again (ms since the epoch). */
  readonly expiresAt: number;
}

export interface RedirectHop {
  /** The URL that answered with a redirect. */
  url: string;
  status: number;
  /** The canonical absolute URL its `Location` pointed to. */
  location: string;
}

export interface FetchResult {
  /** The URL as requested, canonicalised. */
  url: string;
  /** The URL that gave the final response, after redirects. */
  finalUrl: string;
  /** Redirect hops followed, in order. */
  redirects: RedirectHop[];
  /**
   * The redirect that `FetchInit.follow` declined: `finalUrl` answered it with
   * `status` (3xx) and the body is the redirect's own. Absent otherwise.
   */
  unfollowed?: RedirectHop;
  status: number;
  /**
   * True when the fetch was conditional (`FetchInit.conditional`) and the URL answered
   * `304 Not Modified`: the stored copy is still current. `status` is 304, `body` is
   * empty and `headers` are the 304's (they may carry a new ETag or Last-Modified).
   * Absent otherwise, an unconditional 304 included.
   */
  notModified?: boolean;
  /** Response headers of the final response, lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  contentType: string | undefined;
  /** The body, decompressed, at most `maxBytes` long. */
  body: Buffer;
  /** Whether the body was cut at `maxBytes`. */
  truncated: boolean;
  /** Body bytes received from the network for the final response (before decompression). */
  bytesOnWire: number;
  /** Body bytes after decompression (= body.length). */
  bytes: number;
  /** HTTP requests sent for this fetch: every redirect hop and every retry (robots.txt not counted). */
  attempts: number;
  /** The robots verdict for `finalUrl`. */
  robots: RobotsVerdict;
  timings: {
    /** When the fetch was called (ms since the epoch). */
    startedAt: number;
    /** From `startedAt` to the final response's headers. */
    firstByteMs: number;
    /** From `startedAt` to the end of the body. */
    totalMs: number;
  };
}

export interface HostQueueStats {
  /** Requests to this host in flight. */
  active: number;
  /** Requests waiting for a slot (politeness delay, per-host or global concurrency). */
  queued: number;
}

export interface FetcherStats {
  /** HTTP requests sent (page requests, retries and robots.txt requests). */
  requests: number;
  /** Of which robots.txt requests. */
  robotsRequests: number;
  /** Retries (requests sent again after a network error, timeout, 5xx or 429). */
  retries: number;
  /** Decompressed body bytes kept. */
  bytes: number;
  /** Body bytes received from the network. */
  bytesOnWire: number;
  /** Robots verdicts served from the cache. */
  robotsCacheHits: number;
  /** robots.txt fetches started (cache misses). */
  robotsCacheMisses: number;
  /** Lookups that joined a robots.txt fetch already in flight for the same origin. */
  robotsCacheShared: number;
  /** Origins whose robots.txt is cached. */
  robotsCacheSize: number;
  /** Requests in flight, all hosts. */
  inFlight: number;
  /** Requests waiting for a slot, all hosts. */
  queued: number;
  /**
   * Requests that had to wait for their host before being sent (its delay, its
   * connections in flight, or requests queued before them), since the fetcher was
   * created; waits for the global limit alone are not counted.
   */
  waited: number;
  /** Hosts with requests in flight or waiting. */
  hosts: Record<string, HostQueueStats>;
}

/**
 * Validators of a stored copy of a URL (see `validatorsOf`), for a conditional request:
 * each is sent verbatim; an absent or empty one is not sent.
 */
export interface ConditionalValidators {
  /** Sent as `If-None-Match` (a weak `W/"…"` tag included). */
  etag?: string | undefined;
  /** Sent as `If-Modified-Since`. */
  lastModified?: string | undefined;
}

export interface FetchInit {
  signal?: AbortSignal | undefined;
  /** Do not consult robots.txt for this URL and its redirect hops. */
  skipRobots?: boolean | undefined;
  /**
   * Asked before each redirect is followed, with the hop's canonical target; false
   * stops there: the redirect response itself is returned, with the hop in
   * `unfollowed` (a crawl says no when it already has, or is fetching, the target).
   * It may answer later (a promise), e.g. once it has asked its store.
   * @default every redirect is followed (up to maxRedirects)
   */
  follow?: ((location: string) => boolean | Promise<boolean>) | undefined;
  /**
   * Makes the fetch conditional (a revisit): the validators go with the request for
   * this URL (and its retries), not with a redirect's next hop, since they describe
   * this URL's copy. A 304 answer gives `notModified: true`.
   */
  conditional?: ConditionalValidators | undefined;
}

export interface Fetcher {
  /**
   * Fetches `url` (GET), following redirects, with politeness, robots.txt,
   * retries, timeouts and the byte cap. Throws a FocusCrawlError subclass.
   */
  fetch(url: string, init?: FetchInit): Promise<FetchResult>;
  /** The robots verdict for `url`, fetching robots.txt if it is not cached. Never throws for a disallowed URL. */
  robotsFor(url: string): Promise<RobotsVerdict>;
  /**
   * When a request to `host` (a URL's hostname) may start under the host's delay
   * (`delayMs`, or its robots.txt Crawl-delay when larger): the last start plus the
   * delay, in `Date.now()` milliseconds; in the past (−∞ for a host never fetched)
   * when it may start now. While the host's connections are all in use or requests
   * wait for it here (robots.txt, a sitemap, a redirect's next hop), no sooner than
   * one delay from now.
   */
  readyAt(host: string): number;
  /** Closes every connection. Fetches still running fail. */
  close(): Promise<void>;
  stats(): FetcherStats;
}
