/** Sitemap discovery options: a zod strict object, validated where they enter. See docs/sitemaps.md. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import type { Fetcher } from '../fetch/index.js';
import type { ChangeFreq } from './sitemap-parse.js';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from './sitemap-parse.js';

/** One URL found in a sitemap, as delivered to `onUrls`. */
export interface DiscoveredUrl {
  /** Canonical URL (canonicalizeUrl), in scope. */
  url: string;
  /** `<lastmod>` as written (W3C datetime). */
  lastmod?: string;
  /** `<lastmod>` in ms since the epoch. */
  lastmodMs?: number;
  changefreq?: ChangeFreq;
  /** `<priority>`, 0.0 – 1.0. */
  priority?: number;
  /** The sitemap that listed it. */
  sitemap: string;
}

const fn = <T>(what: string) =>
  z.custom<T>((v) => typeof v === 'function', { message: `expected a function (${what})` });

const fetcherSchema = z.custom<Fetcher>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Fetcher).fetch === 'function' &&
    typeof (v as Fetcher).robotsFor === 'function',
  { message: 'expected a Fetcher (createFetcher from the fetch stage)' },
);

/** Options shared by `discoverSitemaps` and `createSitemapDiscovery`. */
export const discoveryOptionsShape = {
  /**
   * The fetcher every request goes through (robots.txt, politeness, `resolve`). Its
   * `maxBytes` caps each sitemap as received: see docs/sitemaps.md.
   */
  fetcher: fetcherSchema,
  /**
   * Receives the URLs found, in batches; awaited before discovery goes on. An error it
   * throws stops discovery and is thrown to the caller.
   */
  onUrls: fn<(urls: DiscoveredUrl[]) => void | Promise<void>>('urls => void | Promise<void>'),
  /**
   * Decides which URLs are delivered, and which sitemaps on other hosts than the origin
   * are read. Called with canonical URLs.
   * @default same host (name and port) as the origin
   */
  inScope: fn<(url: string) => boolean>('url => boolean').optional(),
  /**
   * How many levels of sitemap indexes are followed below the first sitemaps (those listed
   * in robots.txt, or `/sitemap.xml`). 0 reads only the first sitemaps.
   * @default 2
   */
  maxDepth: z.number().int().min(0).default(2),
  /**
   * Sitemap documents fetched per origin.
   * @default 50
   */
  maxSitemapsPerOrigin: z.number().int().min(1).default(50),
  /**
   * URLs delivered per origin; reading stops there.
   * @default 50000
   */
  maxUrlsPerOrigin: z.number().int().min(1).default(50_000),
  /**
   * Entries read from one sitemap document (the protocol's limit).
   * @default 50000
   */
  maxUrlsPerSitemap: z.number().int().min(1).default(SITEMAP_MAX_URLS),
  /**
   * Largest sitemap document after decompression (the protocol's limit, 50 MiB).
   * @default 52428800
   */
  maxSitemapBytes: z.number().int().min(1).default(SITEMAP_MAX_BYTES),
  /**
   * Most URLs per `onUrls` call; each sitemap document's URLs are delivered before the
   * next document is fetched.
   * @default 1000
   */
  batchSize: z.number().int().min(1).default(1000),
  /**
   * Origins worked on at the same time (the fetcher's politeness still applies per host).
   * @default 4
   */
  originConcurrency: z.number().int().min(1).default(4),
  /**
   * Aborting it stops discovery: requests in flight are aborted and the counts so far
   * are returned (`aborted: true`).
   * @default undefined
   */
  signal: z.instanceof(AbortSignal).optional(),
};

export const discoverSitemapsSchema = z.strictObject({
  ...discoveryOptionsShape,
  /**
   * Origins to discover (`http://host[:port]`); a URL with a path stands for its origin.
   * Repeated origins are read once.
   */
  origins: z.array(
    z.string().refine(isHttpUrl, 'expected an http(s) URL (an origin such as http://host:port)'),
  ),
});

export const sitemapDiscoverySchema = z.strictObject(discoveryOptionsShape);

export type DiscoverSitemapsOptions = z.input<typeof discoverSitemapsSchema>;
export type SitemapDiscoveryOptions = z.input<typeof sitemapDiscoverySchema>;
export type DiscoveryConfig = z.output<typeof sitemapDiscoverySchema>;

/** Validates options; throws InvalidOptionError naming each bad field. */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: string,
): z.output<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid ${where} options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}

function parseHttpUrl(input: string): URL | undefined {
  try {
    const u = new URL(input);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

function isHttpUrl(input: string): boolean {
  return parseHttpUrl(input) !== undefined;
}

/** `http://host[:port]` of an origin given as an origin or any URL of it; InvalidOptionError otherwise. */
export function originOf(input: string): string {
  const u = parseHttpUrl(input);
  if (u === undefined) {
    throw new InvalidOptionError(
      `sitemap discovery: origin ${JSON.stringify(input)} is not an http(s) URL`,
    );
  }
  return u.origin;
}
