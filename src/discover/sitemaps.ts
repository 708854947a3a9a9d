/**
 * Sitemap discovery: for each origin, robots.txt's `Sitemap:` lines (else `/sitemap.xml`),
 * indexes followed to a bounded depth, URLs filtered by scope, canonicalised and delivered
 * in batches. Two entry points:
 *
 * - `discoverSitemaps(options)`: a list of origins, resolved with the counts when done;
 * - `createSitemapDiscovery(options)`: a background worker for a crawl — `add(origin)`
 *   whenever a host is first seen (the seeds' hosts at the start), `idle()` to wait,
 *   `close()` to stop.
 *
 * Every request goes through the caller's fetcher (robots.txt rules, politeness,
 * `resolve`). Failures of sitemaps are recorded in `errors`, never thrown; an error thrown
 * by the caller's `onUrls` or `inScope` stops discovery and rejects `idle()` (and
 * `discoverSitemaps`). See docs/sitemaps.md.
 */
import {
  type DiscoverSitemapsOptions,
  type DiscoveryConfig,
  discoverSitemapsSchema,
  originOf,
  parseOptions,
  type SitemapDiscoveryOptions,
  sitemapDiscoverySchema,
} from './options.js';
import {
  type DiscoverSitemapsResult,
  discoverOrigin,
  emptyResult,
  type RunContext,
} from './origin.js';

/** A background sitemap discovery (see the module notes). */
export interface SitemapDiscovery {
  /**
   * Queues an origin (`http://host[:port]`, or any URL of it); returns false when it was
   * queued before (each origin is read once per discovery) or the discovery is closed.
   * Throws InvalidOptionError for a value that is not an http(s) URL.
   */
  add(origin: string): boolean;
  /** Resolves with the counts once nothing is queued or running; rejects if a callback threw. */
  idle(): Promise<DiscoverSitemapsResult>;
  /** The counts so far (a copy). */
  stats(): DiscoverSitemapsResult;
  /** Origins queued and not started, and running. */
  readonly pending: number;
  /** Stops: requests in flight are aborted, queued origins dropped; resolves with the counts. */
  close(): Promise<DiscoverSitemapsResult>;
}

function snapshot(c: DiscoverSitemapsResult): DiscoverSitemapsResult {
  return { ...c, errors: [...c.errors] };
}

class Discovery implements SitemapDiscovery {
  readonly #ctx: RunContext;
  readonly #abort = new AbortController();
  readonly #queue: string[] = [];
  readonly #added = new Set<string>();
  readonly #concurrency: number;
  #running = 0;
  #failure: { error: unknown } | undefined;
  #closed = false;
  #waiters: { resolve: (r: DiscoverSitemapsResult) => void; reject: (e: unknown) => void }[] = [];
  readonly #onCallerAbort = () => this.#stop();

  constructor(config: DiscoveryConfig) {
    const counts = emptyResult();
    this.#ctx = { config, counts, signal: this.#abort.signal };
    this.#concurrency = config.originConcurrency;
    const signal = config.signal;
    if (signal?.aborted) this.#stop();
    else signal?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get pending(): number {
    return this.#queue.length + this.#running;
  }

  add(origin: string): boolean {
    const o = originOf(origin);
    if (this.#closed || this.#abort.signal.aborted || this.#added.has(o)) return false;
    this.#added.add(o);
    this.#queue.push(o);
    this.#pump();
    return true;
  }

  idle(): Promise<DiscoverSitemapsResult> {
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#settle();
    });
  }

  stats(): DiscoverSitemapsResult {
    return snapshot(this.#ctx.counts);
  }

  async close(): Promise<DiscoverSitemapsResult> {
    this.#closed = true;
    this.#stop();
    try {
      return await this.idle();
    } catch {
      return this.stats();
    }
  }

  /** Stops listening to the caller's signal (the discovery is done with). */
  release(): void {
    this.#ctx.config.signal?.removeEventListener('abort', this.#onCallerAbort);
  }

  #stop(): void {
    if (!this.#abort.signal.aborted) {
      this.#ctx.counts.aborted = this.#queue.length > 0 || this.#running > 0;
      this.#abort.abort();
    }
    this.#queue.length = 0;
    this.release();
    this.#settle();
  }

  #pump(): void {
    while (this.#running < this.#concurrency && this.#queue.length > 0) {
      if (this.#abort.signal.aborted) {
        this.#queue.length = 0;
        break;
      }
      const origin = this.#queue.shift() as string;
      this.#running++;
      discoverOrigin(origin, this.#ctx).then(
        () => this.#done(),
        (error: unknown) => {
          // Only the caller's callbacks throw: stop everything and report it.
          this.#failure ??= { error };
          this.#stop();
          this.#done();
        },
      );
    }
    this.#settle();
  }

  #done(): void {
    this.#running--;
    this.#pump();
  }

  #settle(): void {
    if (this.#running > 0 || (this.#queue.length > 0 && !this.#abort.signal.aborted)) return;
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    for (const w of waiters) {
      if (this.#failure !== undefined) w.reject(this.#failure.error);
      else w.resolve(snapshot(this.#ctx.counts));
    }
  }
}

/**
 * A background discovery: origins are added as the crawl meets them and worked on
 * `originConcurrency` at a time. Options are validated here (InvalidOptionError).
 */
export function createSitemapDiscovery(options: SitemapDiscoveryOptions): SitemapDiscovery {
  return new Discovery(parseOptions(sitemapDiscoverySchema, options, 'sitemap discovery'));
}

/**
 * Discovers the sitemaps of `options.origins` and delivers their URLs through `onUrls`;
 * resolves with the counts. Rejects only for invalid options or when a callback throws.
 */
export async function discoverSitemaps(
  options: DiscoverSitemapsOptions,
): Promise<DiscoverSitemapsResult> {
  const { origins, ...rest } = parseOptions(discoverSitemapsSchema, options, 'discoverSitemaps');
  const d = new Discovery(rest);
  try {
    for (const o of origins) d.add(o);
    return await d.idle();
  } finally {
    d.release();
  }
}

export type { DiscoverSitemapsResult, SitemapDiscoveryError } from './origin.js';
