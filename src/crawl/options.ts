/** Options of `crawl`: a zod strict object, validated where they enter. See docs/crawl.md. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import type { FetcherOptionsInput } from '../fetch/index.js';
import type { Topic, TopicInput } from '../relevance/index.js';
import type { Store } from '../store/index.js';

const count = z.number().int().min(1);
const pattern = z.union([z.string(), z.instanceof(RegExp)]);

export const STRATEGIES = ['best-first', 'bfs'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

export const crawlOptionsSchema = z.strictObject({
  /**
   * The store: a directory (created with an empty store when missing; an existing
   * one is resumed) or an open `Store`, which the caller closes.
   */
  store: z.union([
    z.string().min(1),
    z.custom<Store>((v) => typeof v === 'object' && v !== null && 'claim' in v, {
      message: 'expected a store directory or a Store',
    }),
  ]),
  /**
   * The topic: a topic file's path, its parsed content (`{ keywords: { word: weight } }`)
   * or a `Topic` from `createTopic`/`loadTopicFile`.
   */
  topic: z.union([z.string().min(1), z.custom<Topic | TopicInput>((v) => typeof v === 'object')]),
  /**
   * Seed URLs, added to the topic's seeds. A resumed crawl may give none.
   * @default []
   */
  seeds: z.array(z.string()).default([]),
  /**
   * Pages scoring at least this are kept and their links followed; 0 keeps every page.
   * @default the topic's threshold, else 0.1 (DESIGN 1.1)
   */
  threshold: z.number().min(0).max(1).optional(),
  /**
   * Frontier order: `best-first` (a link's priority from its page's relevance and
   * its anchor/context relevance) or `bfs` (first in, first out).
   * @default 'best-first'
   */
  strategy: z.enum(STRATEGIES).default('best-first'),
  /**
   * Stop once the store holds this many fetch outcomes (all runs together).
   * @default unlimited
   */
  maxPages: count.optional(),
  /**
   * Links deeper than this (seeds are depth 0) are not queued.
   * @default unlimited
   */
  maxDepth: z.number().int().min(0).optional(),
  /**
   * Stop this run after this many milliseconds.
   * @default unlimited
   */
  durationMs: count.optional(),
  /**
   * Which hosts the seeds admit (see `createScopeFilter`).
   * @default 'any'
   */
  scope: z.enum(['same-host', 'same-domain', 'any']).default('any'),
  /** URL regular expressions; when given, a URL must match one. @default [] */
  include: z.array(pattern).default([]),
  /** URL regular expressions a URL must not match. @default [] */
  exclude: z.array(pattern).default([]),
  /**
   * Keep at most this many waiting URLs, the best ones (DESIGN 1.4).
   * @default unlimited
   */
  maxFrontier: count.optional(),
  /**
   * Stop queuing URLs of a host once this many of its URLs are known.
   * @default unlimited
   */
  maxUrlsPerHost: count.optional(),
  /**
   * Which page bodies go to the page repository (`pages/<md5>.gz`):
   * `kept` (complete pages), `all` (discarded ones too) or `none`.
   * @default 'kept'
   */
  storeBodies: z.enum(['kept', 'all', 'none']).default('kept'),
  /**
   * Fetcher options (`createFetcher`): concurrency, perHostConcurrency, delayMs,
   * resolve, timeouts, maxBytes, userAgent…
   * @default the fetcher's defaults
   */
  fetcher: z.custom<FetcherOptionsInput>((v) => typeof v === 'object' && v !== null).default({}),
  /**
   * Milliseconds between `progress` events.
   * @default 1000
   */
  progressIntervalMs: count.default(1000),
  /**
   * Outcomes committed together in one transaction (at most; a commit also happens
   * every `commitIntervalMs`).
   * @default 256
   */
  commitBatch: count.default(256),
  /** @default 250 */
  commitIntervalMs: count.default(250),
  /** Aborting it stops the crawl gracefully, as `stop()` does. */
  signal: z.instanceof(AbortSignal).optional(),
  /**
   * Run the crawl on a worker thread of its own (and the store on another), with
   * bounded heaps; the caller's thread only receives events. Needs a store
   * directory and options without functions.
   * @default true when `store` is a directory and the options can be copied to a thread
   */
  thread: z.boolean().optional(),
});

export type CrawlOptionsInput = z.input<typeof crawlOptionsSchema>;
export type CrawlOptions = z.output<typeof crawlOptionsSchema>;

export function parseCrawlOptions(input: CrawlOptionsInput): CrawlOptions {
  const r = crawlOptionsSchema.safeParse(input);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid crawl options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}
