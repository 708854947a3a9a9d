/**
 * Sitemap discovery for one origin: robots.txt's `Sitemap:` lines (else `/sitemap.xml`),
 * then the sitemaps breadth first, indexes followed to `maxDepth`, every URL canonicalised,
 * checked against `inScope` and delivered in batches. Failures are recorded in the counts,
 * never thrown; only the caller's own callbacks (`onUrls`, `inScope`) can throw.
 */
import {
  AbortedError,
  isFocusCrawlError,
  SitemapError,
  SitemapTooLargeError,
} from '../errors/index.js';
import type { FetchResult } from '../fetch/index.js';
import { canonicalizeUrl } from '../url/index.js';
import type { DiscoveredUrl, DiscoveryConfig } from './options.js';
import { robotsSitemapValues, usableSitemapUrls } from './robots-sitemaps.js';
import { type ParsedSitemap, parseSitemap, parseW3cDatetime } from './sitemap-parse.js';

/** A sitemap that could not be read, a robots.txt value ignored, or a limit reached. */
export interface SitemapDiscoveryError {
  /** The sitemap (or robots.txt, or origin) concerned. */
  url: string;
  error: string;
  /** The FocusCrawlError code, when there is one. */
  code?: string;
}

export interface DiscoverSitemapsResult {
  /** Origins worked on. */
  origins: number;
  /** Origins with no sitemap: none listed in robots.txt and `/sitemap.xml` missing (4xx) or not a sitemap. */
  withoutSitemap: number;
  /** Sitemap documents fetched and read. */
  sitemaps: number;
  /** Page entries read from urlsets. */
  urls: number;
  /** URLs delivered through `onUrls` (canonical, in scope, distinct per origin). */
  inScope: number;
  /** Entries `inScope` rejected. */
  outOfScope: number;
  /** Entries listed again for the same origin. */
  duplicates: number;
  /** Entries without a usable URL, cut off, or past a per-document cap. */
  skipped: number;
  /** Whether the signal stopped discovery before the end. */
  aborted: boolean;
  /** Problems, at most 10,000 (see `errorsDropped`). */
  errors: SitemapDiscoveryError[];
  /** Problems not kept in `errors`. */
  errorsDropped: number;
}

const MAX_ERRORS = 10_000;

export function emptyResult(): DiscoverSitemapsResult {
  return {
    origins: 0,
    withoutSitemap: 0,
    sitemaps: 0,
    urls: 0,
    inScope: 0,
    outOfScope: 0,
    duplicates: 0,
    skipped: 0,
    aborted: false,
    errors: [],
    errorsDropped: 0,
  };
}

/** What one origin's discovery works with. */
export interface RunContext {
  readonly config: DiscoveryConfig;
  readonly counts: DiscoverSitemapsResult;
  /** Aborted by the caller's signal or by a failing callback. */
  readonly signal: AbortSignal;
}

interface Item {
  url: string;
  depth: number;
  /** `/sitemap.xml` tried because robots.txt lists no sitemap. */
  guessed: boolean;
}

function record(ctx: RunContext, url: string, err: unknown): void {
  const c = ctx.counts;
  if (c.errors.length >= MAX_ERRORS) {
    c.errorsDropped++;
    return;
  }
  const error = err instanceof Error ? err.message : String(err);
  c.errors.push(isFocusCrawlError(err) ? { url, error, code: err.code } : { url, error });
}

/** Whether an error only says that discovery was stopped. */
function stopped(ctx: RunContext, err: unknown): boolean {
  return ctx.signal.aborted || err instanceof AbortedError;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** The sitemaps to start from: robots.txt's usable `Sitemap:` URLs, else `/sitemap.xml`. */
async function firstSitemaps(origin: string, ctx: RunContext): Promise<Item[]> {
  const { fetcher } = ctx.config;
  const robotsUrl = `${origin}/robots.txt`;
  let values: readonly string[] = [];
  try {
    const verdict = await fetcher.robotsFor(`${origin}/`);
    if (verdict.source === 'parsed') values = verdict.sitemaps;
    else if (verdict.source === 'skipped') {
      // The fetcher does not read robots.txt (obeyRobots: false): read it for its sitemaps.
      const r = await fetcher.fetch(robotsUrl, { signal: ctx.signal, skipRobots: true });
      if (r.status >= 200 && r.status < 300) values = robotsSitemapValues(r.body.toString('utf8'));
    }
  } catch (err) {
    // The host cannot be reached at all (blocked address, unknown name): nothing to try.
    if (!stopped(ctx, err)) record(ctx, robotsUrl, err);
    return [];
  }
  const { urls, rejected } = usableSitemapUrls(values);
  for (const v of rejected) {
    record(ctx, robotsUrl, `Sitemap: ${JSON.stringify(v)} is not an absolute http(s) URL; ignored`);
  }
  if (urls.length > 0) return urls.map((url) => ({ url, depth: 0, guessed: false }));
  return [{ url: `${origin}/sitemap.xml`, depth: 0, guessed: true }];
}

/** Fetches and parses one sitemap; undefined (and the problem recorded) when it cannot be read. */
async function readSitemap(item: Item, ctx: RunContext): Promise<ParsedSitemap | undefined> {
  const o = ctx.config;
  let r: FetchResult;
  try {
    r = await o.fetcher.fetch(item.url, { signal: ctx.signal });
  } catch (err) {
    if (!stopped(ctx, err)) record(ctx, item.url, err);
    return undefined;
  }
  const ok = r.status >= 200 && r.status < 300;
  if (!ok && item.guessed && r.status >= 400 && r.status < 500) {
    ctx.counts.withoutSitemap++;
    return undefined;
  }
  if (!ok) {
    const why = `sitemap ${item.url}: HTTP ${r.status}`;
    record(ctx, item.url, new SitemapError(why, { url: item.url }));
    return undefined;
  }
  if (r.truncated && r.body.length >= o.maxSitemapBytes) {
    const why = `sitemap ${item.url} is larger than ${o.maxSitemapBytes} bytes (maxSitemapBytes)`;
    record(ctx, item.url, new SitemapTooLargeError(why, { url: item.url }));
    return undefined;
  }
  try {
    const doc = parseSitemap(r.body, {
      url: item.url,
      maxBytes: o.maxSitemapBytes,
      maxUrls: o.maxUrlsPerSitemap,
      truncated: r.truncated,
    });
    if (r.truncated) {
      const why = `sitemap ${item.url} was cut at ${r.body.length} bytes (the fetcher's maxBytes); its complete entries were read`;
      record(ctx, item.url, new SitemapError(why, { url: item.url }));
    }
    ctx.counts.skipped += doc.skipped;
    return doc;
  } catch (err) {
    if (item.guessed && err instanceof SitemapError) ctx.counts.withoutSitemap++;
    else record(ctx, item.url, err);
    return undefined;
  }
}

function discovered(e: ParsedSitemap['urls'][number], url: string, sitemap: string): DiscoveredUrl {
  const d: DiscoveredUrl = { url, sitemap };
  if (e.lastmod !== undefined) {
    d.lastmod = e.lastmod;
    const ms = parseW3cDatetime(e.lastmod);
    if (ms !== undefined) d.lastmodMs = ms;
  }
  if (e.changefreq !== undefined) d.changefreq = e.changefreq;
  if (e.priority !== undefined) d.priority = e.priority;
  return d;
}

/** Discovers the sitemaps of `origin` (`http://host[:port]`) and delivers their URLs. */
export async function discoverOrigin(origin: string, ctx: RunContext): Promise<void> {
  const o = ctx.config;
  const counts = ctx.counts;
  counts.origins++;
  const originHost = hostOf(origin);
  const inScope = o.inScope ?? ((url: string) => hostOf(url) === originHost);
  /** Sitemaps on other hosts are read only when in scope. */
  const readable = (url: string) => hostOf(url) === originHost || inScope(url);
  const queue: Item[] = [];
  const seen = new Set<string>();
  for (const item of await firstSitemaps(origin, ctx)) {
    seen.add(item.url);
    if (readable(item.url)) queue.push(item);
    else record(ctx, item.url, 'sitemap on another host, out of scope: not read');
  }
  const delivered = new Set<string>();
  let fetched = 0;
  let batch: DiscoveredUrl[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const b = batch;
    batch = [];
    counts.inScope += b.length;
    await o.onUrls(b);
  };

  const urlsFull = () =>
    record(ctx, origin, `maxUrlsPerOrigin (${o.maxUrlsPerOrigin}) reached: reading stopped`);
  while (queue.length > 0 && !ctx.signal.aborted) {
    if (delivered.size >= o.maxUrlsPerOrigin) {
      urlsFull();
      break;
    }
    if (fetched >= o.maxSitemapsPerOrigin) {
      const msg = `maxSitemapsPerOrigin (${o.maxSitemapsPerOrigin}) reached: ${queue.length} sitemaps not read`;
      record(ctx, origin, msg);
      break;
    }
    const item = queue.shift() as Item;
    fetched++;
    const doc = await readSitemap(item, ctx);
    if (doc === undefined) continue;
    counts.sitemaps++;
    if (doc.kind === 'index') {
      let tooDeep = 0;
      let otherHost = 0;
      for (const s of doc.sitemaps) {
        const url = canonicalizeUrl(s.loc);
        if (url === null) counts.skipped++;
        else if (seen.has(url)) continue;
        else if (item.depth >= o.maxDepth) tooDeep++;
        else if (!readable(url)) otherHost++;
        else queue.push({ url, depth: item.depth + 1, guessed: false });
        if (url !== null) seen.add(url);
      }
      if (tooDeep > 0) {
        record(ctx, item.url, `${tooDeep} sitemaps below maxDepth (${o.maxDepth}): not read`);
      }
      if (otherHost > 0) {
        record(ctx, item.url, `${otherHost} sitemaps on other hosts, out of scope: not read`);
      }
      continue;
    }
    let full = false;
    for (const e of doc.urls) {
      if (delivered.size >= o.maxUrlsPerOrigin) {
        full = true;
        break;
      }
      counts.urls++;
      const url = canonicalizeUrl(e.loc);
      if (url === null) counts.skipped++;
      else if (delivered.has(url)) counts.duplicates++;
      else if (!inScope(url)) counts.outOfScope++;
      else {
        delivered.add(url);
        batch.push(discovered(e, url, item.url));
        if (batch.length >= o.batchSize) await flush();
      }
    }
    await flush();
    if (full) {
      urlsFull();
      break;
    }
  }
}
