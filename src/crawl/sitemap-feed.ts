/**
 * Sitemaps as a source of discoveries (docs/sitemaps.md). The hosts of the seeds,
 * and with `sitemaps: 'hosts'` every host the crawl fetches a page from, are looked
 * up in the background through the crawl's fetcher (robots.txt, politeness,
 * `resolve`): robots.txt's `Sitemap:` lines, else `/sitemap.xml`, gzipped sitemaps
 * and indexes included. The URLs they list that are in the crawl's scope are held
 * until the crawl runs out of links to fetch, then queued (`release`) as
 * discoveries at depth 1, with the priority the topic gives their URL's words (a
 * sitemap says nothing else about a page's topic): the crawl follows its links
 * first, and the sitemaps fill in what no link led to. Queuing them as they arrive
 * would let the first claims, made while only a seed's links are stored, take a
 * budget's worth of sitemap URLs. The engine calls `release` and asks `busy` before
 * it calls the frontier exhausted, and is told through `changed` when URLs arrive.
 */
import {
  createSitemapDiscovery,
  type DiscoveredUrl,
  type DiscoverSitemapsResult,
  type SitemapDiscovery,
} from '../discover/index.js';
import type { Fetcher } from '../fetch/index.js';
import { type RelevanceModel, urlTokens } from '../relevance/index.js';
import type { NewUrl, Store } from '../store/index.js';
import type { CrawlOptions } from './options.js';
import type { Setup } from './setup.js';

/** Meta key of the last run's sitemap figures. */
export const META_SITEMAPS = 'sitemaps';

/** Sitemap URLs held back in memory; more go to the store at once, below every link. */
const MAX_HELD = 200_000;

/** Errors reported as warnings per run; the rest are counted. */
const MAX_WARNINGS = 5;

export interface SitemapFeedDeps {
  store: Store;
  fetcher: Fetcher;
  seeds: Iterable<string>;
  inScope: (url: string) => boolean;
  /** The priority of a URL found in a sitemap. */
  priority: (url: string) => number;
  /** URLs were queued, or discovery went idle: the frontier may have changed. */
  changed: () => void;
  warn: (message: string) => void;
}

export class SitemapFeed {
  readonly #d: SitemapFeedDeps;
  readonly #discovery: SitemapDiscovery;
  readonly #allHosts: boolean;
  /** URLs found and not queued yet (see `release`). */
  readonly #held: NewUrl[] = [];
  #adding = 0;
  #warned = 0;
  #idle: Promise<unknown> | null = null;

  /**
   * The feed of a crawl, or null when `sitemaps` is `none` or links go no deeper than
   * the seeds. A sitemap URL's priority is the relevance of its URL's words under
   * `linkText`, the model that scores link text.
   */
  static create(
    o: CrawlOptions,
    s: Setup,
    fetcher: Fetcher,
    inScope: (url: string) => boolean,
    linkText: RelevanceModel,
    events: Pick<SitemapFeedDeps, 'changed' | 'warn'>,
  ): SitemapFeed | null {
    if (o.sitemaps === 'none' || (o.maxDepth !== undefined && o.maxDepth < 1)) return null;
    return new SitemapFeed(o.sitemaps === 'hosts', {
      store: s.store,
      fetcher,
      seeds: s.seeds,
      inScope,
      priority: (url) => linkText.relevance({ text: urlTokens(url).join(' ') }),
      ...events,
    });
  }

  private constructor(allHosts: boolean, d: SitemapFeedDeps) {
    this.#d = d;
    this.#allHosts = allHosts;
    this.#discovery = createSitemapDiscovery({
      fetcher: d.fetcher,
      inScope: d.inScope,
      onUrls: (urls) => this.#queue(urls),
    });
  }

  /** Looks up the seeds' hosts. */
  start(): void {
    for (const s of this.#d.seeds) this.#lookUp(s);
  }

  /** A page of `url` was fetched: under `hosts`, its host's sitemaps are looked up once. */
  saw(url: string): void {
    if (this.#allHosts) this.#lookUp(url);
  }

  /** Sitemaps are being read, or their URLs queued. */
  get busy(): boolean {
    return this.#discovery.pending > 0 || this.#adding > 0 || this.#held.length > 0;
  }

  /** Stops discovery (requests in flight are abandoned) and returns the run's figures. */
  async close(): Promise<DiscoverSitemapsResult> {
    const r = await this.#discovery.close();
    await this.#d.store.setMeta(META_SITEMAPS, { ...r, errors: r.errors.slice(0, 20) });
    return r;
  }

  /** Queues the host of `url` (discovery reads each origin once). */
  #lookUp(url: string): void {
    if (this.#discovery.add(url)) this.#watch();
  }

  /** Tells the engine when discovery goes idle, and reports new errors. */
  #watch(): void {
    if (this.#idle !== null) return;
    this.#idle = this.#discovery.idle().then(
      (r) => {
        this.#idle = null;
        for (const e of r.errors.slice(this.#warned, MAX_WARNINGS)) {
          this.#d.warn(`sitemap ${e.url}: ${e.error}`);
        }
        this.#warned = Math.max(this.#warned, Math.min(r.errors.length, MAX_WARNINGS));
        if (this.#discovery.pending > 0) this.#watch();
        this.#d.changed();
      },
      (e: unknown) => {
        this.#idle = null;
        this.#d.warn(`sitemaps: ${(e as Error).message ?? String(e)}`);
        this.#d.changed();
      },
    );
  }

  /**
   * Holds the URLs found until the crawl runs out of links (`release`); past
   * {@link MAX_HELD} held, they go to the store at once, at the bottom of the frontier.
   */
  async #queue(found: DiscoveredUrl[]): Promise<void> {
    const items: NewUrl[] = found.map((f) => ({
      url: f.url,
      depth: 1,
      priority: this.#d.priority(f.url),
    }));
    if (this.#held.length + items.length <= MAX_HELD) {
      for (const it of items) this.#held.push(it);
      this.#d.changed();
      return;
    }
    for (const it of items) it.priority -= 1;
    await this.#add(items);
  }

  /**
   * Queues the URLs held so far (the crawl calls it when no link is left to fetch);
   * resolves with how many were new.
   */
  async release(): Promise<number> {
    let added = 0;
    while (this.#held.length > 0) added += await this.#add(this.#held.splice(0, 5_000));
    return added;
  }

  async #add(items: NewUrl[]): Promise<number> {
    this.#adding++;
    try {
      return await this.#d.store.addUrls(items);
    } finally {
      this.#adding--;
    }
  }
}
