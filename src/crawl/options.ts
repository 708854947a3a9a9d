/** Options of `crawl`: a zod strict object, validated where they enter. See docs/crawl.md. */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
// The fetcher's schema from its own module: the caller's thread of a crawl on a thread of
// its own loads no more of the fetcher than its options.
import { fetcherOptionsSchema, loadCaFile } from '../fetch/options.js';
import { STRATEGY_NAMES, type StrategyName } from '../frontier/names.js';
import type { Topic, TopicInput } from '../relevance/index.js';
import type { Store } from '../store/index.js';
import { parseRetryErrors } from './retry.js';

const count = z.number().int().min(1);
const pattern = z.union([z.string(), z.instanceof(RegExp)]);

/**
 * Most requests a crawl keeps in flight (`fetcher.concurrency`): well past what one
 * process and its polite per-host limits can use; more would only exhaust sockets
 * and file descriptors.
 */
export const MAX_CONCURRENCY = 1024;

/** Kept pages between two re-estimations of the topic vector, by default (adapt.ts). */
export const DEFAULT_ADAPT_INTERVAL_PAGES = 500;

/** The link ordering strategies (src/frontier). */
export const STRATEGIES = STRATEGY_NAMES;
export type { StrategyName };

/**
 * The models (src/relevance): `vsm` and `tfidf` score pages and link text against the
 * topic; `bayes` is the naive Bayes link model (DESIGN 1.4), which scores links.
 */
export const MODELS = ['vsm', 'tfidf', 'bayes'] as const;
export type ModelName = (typeof MODELS)[number];
/** What may judge pages (keep or discard). */
export const PAGE_MODELS = MODELS;
export type PageModelName = ModelName;

const unit = z.number().gt(0).lt(1);
/** Constants of the strategies; each defaults as `DEFAULT_STRATEGY_OPTIONS` says. */
export const strategyOptionsSchema = z.strictObject({
  /** Fish/shark: irrelevant pages in a row a path may cross. @default 3 */
  width: count.optional(),
  /** Shark: decay δ of the inherited score. @default 0.5 */
  decay: unit.optional(),
  /** Shark: weight β of the anchor against its context. @default 0.8 */
  anchorWeight: z.number().min(0).max(1).optional(),
  /** Shark: weight γ of the inherited score against the neighbourhood. @default 0.5 */
  inheritedWeight: z.number().min(0).max(1).optional(),
  /** Tunnel: the seeds' Val. @default 100 */
  seedVal: z.number().positive().optional(),
  /** Tunnel: factor r applied to Val below the threshold. @default 0.5 */
  tunnelFactor: unit.optional(),
  /** Tunnel: times r may apply along a path. @default 4 */
  tunnelSteps: z.number().int().min(0).optional(),
  /** Best-first: discarded pages in a row whose links are followed (0: strict gate). @default 2 */
  exploreSteps: z.number().int().min(0).max(100).optional(),
  /** Best-first: places on either side a judged page lends evidence to (0: off). @default 1 */
  siblingWindow: z.number().int().min(0).max(100).optional(),
  /** Best-first: decay of the lent evidence per place beyond the first. @default 0.8 */
  siblingDecay: z.number().gt(0).max(1).optional(),
  /** Best-first: priority lost per link of depth of the linking page. @default 0.005 */
  depthCost: z.number().min(0).max(1).optional(),
  /** Best-first: priority lost per tenfold of links beyond 100 on the linking page. @default 0.04 */
  crowdCost: z.number().min(0).max(1).optional(),
  /** Multi-queue: number of queues. @default 4 */
  queues: z.number().int().min(1).max(64).optional(),
  /** PageRank: fetched pages between two recomputations. @default 1000 */
  rankBufferPages: count.optional(),
  /** PageRank: damping d. @default 0.8 */
  damping: unit.optional(),
});

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
   * The keep/discard threshold (docs/topics.md): a number in [0, 1] (fixed; 0 keeps
   * every page), `'iterative'` (DESIGN 1.2), `'adaptive'` (DESIGN 1.5), or an object
   * `{ kind, ...parameters }` (e.g. `{ kind: 'iterative', t0: 0.02 }`), unset
   * parameters taking their defaults.
   * @default the topic's threshold, else 0.1 (DESIGN 1.1)
   */
  threshold: z
    .union([
      z.number().min(0).max(1),
      z.enum(['iterative', 'adaptive']),
      z.custom<{ kind: string } & Record<string, unknown>>(
        (v) =>
          typeof v === 'object' && v !== null && typeof (v as { kind?: unknown }).kind === 'string',
        { message: 'expected a number in [0, 1], "iterative", "adaptive" or { kind, ... }' },
      ),
    ])
    .optional(),
  /**
   * Frontier order (docs/strategies.md): `best-first` (a link's priority from its
   * page's relevance and its anchor/context relevance), `bfs` (first in, first
   * out), `dfs` (deepest first), `fish`, `shark` (fish- and shark-search), `tunnel`
   * (DESIGN 1.5 genetic factor), `multi-queue` (DESIGN 1.2), `bayes` (a link's
   * priority is the link model's Pr(+ | context), DESIGN 1.4) or `pagerank` (the
   * target's PageRank among the discovered pages, recomputed every
   * `strategyOptions.rankBufferPages` fetched pages).
   * @default 'bayes' when `model` is 'bayes', else 'best-first'
   */
  strategy: z.enum(STRATEGY_NAMES).optional(),
  /** Constants of the strategy. @default {} (each constant's own default) */
  strategyOptions: strategyOptionsSchema.default({}),
  /**
   * Domain diversity (DESIGN 1.4): any k consecutive fetches come from k different
   * registrable domains while the claimed URLs allow it; 1 turns it off.
   * @default 1
   */
  domainDiversity: count.default(1),
  /**
   * The model: `vsm` (DESIGN 1.1 keyword cosine) or `tfidf` (DESIGN 1.5 cosine with a
   * learned topic vector) score pages and links; `bayes` scores links with the naive
   * Bayes link model of `modelFile` (docs/bayes.md) while `pageModel` judges pages.
   * @default the topic file's `model`, else 'vsm'
   */
  model: z.enum(MODELS).optional(),
  /**
   * A link model file written by `focuscrawl train` (or `writeLinkModelFile`). Needed by
   * `model: 'bayes'` unless `learnEvery` trains one during the crawl, and by
   * `pageModel: 'bayes'`.
   * @default none
   */
  modelFile: z.string().min(1).optional(),
  /**
   * What judges pages when `model` is 'bayes': the keyword models (`vsm`, `tfidf`) or
   * the link model file's classifier on the page's title, text and URL (`bayes`; its
   * Pr(+) is the relevance, and the threshold defaults to 0.5). It stays the file's
   * model while online learning retrains the link scorer.
   * @default the topic file's `model`, else 'vsm' (with `model` 'vsm' or 'tfidf': `model`)
   */
  pageModel: z.enum(PAGE_MODELS).optional(),
  /**
   * Online learning (with `model: 'bayes'`): every this many fetched pages the link
   * model is retrained from the contexts of the links whose targets have been judged
   * since the crawl began (kept = positive), and, under a strategy whose priority is
   * the link score (`bayes`), the waiting URLs are re-scored in the background.
   * @default off
   */
  learnEvery: count.optional(),
  /**
   * Characters of page text read on each side of a link as its context.
   * @default the model file's, else 80
   */
  linkContextChars: z.number().int().min(0).max(10_000).optional(),
  /**
   * Re-estimate the topic vector from the kept pages as the crawl goes (DESIGN 1.5),
   * every `intervalPages` kept pages (500), mixing in `rate` (0.3) of the estimate,
   * at most `maxNewTerms` (5) new terms each time, the drift from the original
   * vector (1 − cosine) held to `maxDrift` (0.2). `true` takes every default.
   * @default false
   */
  adaptTopic: z
    .union([
      z.boolean(),
      z.strictObject({
        intervalPages: count.optional(),
        rate: z.number().gt(0).max(1).optional(),
        maxDrift: z.number().min(0).max(1).optional(),
        maxNewTerms: z.number().int().min(0).optional(),
        minShare: z.number().min(0).max(1).optional(),
        minWeight: z.number().min(0).max(1).optional(),
      }),
    ])
    .default(false),
  /**
   * Stop once the store holds this many fetch outcomes (all runs together).
   * @default unlimited
   */
  maxPages: count.optional(),
  /**
   * A URL starts a fetch only while its priority is within this of the best URL
   * waiting or being fetched (links just found included): when the best URL's host
   * is busy, other hosts' clearly worse URLs wait instead of using up the budget.
   * `'none'`: no gap (every host with a waiting URL fetches).
   * @default 0 when `maxPages` is set (pages are what the crawl spends) and pages may be
   *   discarded (the threshold is not a fixed 0), else 'none'
   */
  priorityGap: z.union([z.number().min(0), z.literal('none')]).optional(),
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
   * A site model (docs/site-model.md): the file it was written to, the model itself,
   * or `'learn'` (learnt from a sample of the seeds' hosts before the crawl starts, and
   * kept in the store as site-model.json for a resumed crawl). On its hosts, links are
   * followed only where a valid pattern takes them.
   * @default none
   */
  siteModel: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  /**
   * Field extraction rules (docs/extract.md): a rule file (JSON or YAML) or the rules
   * themselves. Each kept page whose URL a rule set matches gets its fields in the
   * store's `fields` table, in the same transaction as the page.
   * @default none
   */
  extract: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  /**
   * With `siteModel`: when links matching none of the model's patterns pass the
   * structure-change limit (50), learn the model again from a fresh sample of the
   * hosts (through the crawl's own fetcher, its delays holding), keep it in the store
   * as site-model.json, and follow the links held meanwhile that it takes.
   * @default false
   */
  relearn: z.boolean().default(false),
  /**
   * Crawl on with a topic that differs from the one the store was crawled with. Without
   * it such a resume is refused (`TopicChangedError`): two topics would mix in one store.
   * @default false
   */
  newTopic: z.boolean().default(false),
  /**
   * The settings to record in the store (meta `crawl.settings`) once the run has
   * started: the command line records its flags here so that a resume can reuse them.
   * Any JSON object; the crawl does not read it otherwise.
   * @default none
   */
  settings: z.record(z.string(), z.unknown()).optional(),
  /**
   * Keep at most this many waiting URLs, the best ones (DESIGN 1.4).
   * @default unlimited
   */
  maxFrontier: count.optional(),
  /**
   * An unreachable host (DNS failure, refused or unroutable connection, connect
   * timeout, or `hostTimeouts` timeouts in a row) is parked: its URLs wait with it
   * and one is sent again as a probe after this back-off, doubled after each failed
   * probe. @default 30000
   */
  hostRetryMs: z.number().int().min(0).default(30_000),
  /**
   * A host unreachable this long from its first failure is dead for the run: its
   * URLs are failed together (`FC_ERR_HOST_UNREACHABLE`) without being sent.
   * 0: at the first failure. @default 300000
   */
  hostDeadAfterMs: z.number().int().min(0).default(300_000),
  /** Timeouts in a row that park a host. @default 3 */
  hostTimeouts: count.default(3),
  /**
   * Attempts a URL gets, over all runs, the first included: a transient failure (DNS,
   * refused or reset connection, timeout, 5xx, 429, a host given up) of a URL with
   * attempts left puts it back to waiting, to be tried again after `retryBackoffMs`
   * (doubling per attempt); the last attempt ends it in error. 1: no retry.
   * @default 3
   */
  maxAttempts: count.max(100).default(3),
  /**
   * The wait before the second attempt at a URL; each next one waits twice as long
   * (at most an hour), or as long as a 429's or 503's `Retry-After` asks when longer.
   * @default 10000
   */
  retryBackoffMs: z.number().int().min(0).max(3_600_000).default(10_000),
  /**
   * At the start of the run, put URLs in error back to waiting with their attempts
   * reset: `all`, `transient` (the failures worth trying again), or a comma list of
   * error codes (`FC_ERR_DNS`), HTTP statuses (`404`) and classes (`5xx`).
   * @default none
   */
  retryErrors: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseRetryErrors(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    })
    .optional(),
  /**
   * Stop the run (`failing`) when every fetch of this long failed (at least 3 of
   * them), naming the commonest cause; the URLs stay to be tried again. 0: never.
   * @default 30000
   */
  failingStopMs: z.number().int().min(0).default(30_000),
  /**
   * Which page bodies go to the page repository (`pages/<md5>.gz`):
   * `kept` (complete pages), `all` (discarded ones too) or `none`.
   * @default 'kept'
   */
  storeBodies: z.enum(['kept', 'all', 'none']).default('kept'),
  /**
   * Index the text of kept pages for full-text search (`focuscrawl search`):
   * `kept`, or `none`. Indexing costs about a quarter of the crawl's pages per second
   * and makes the store several times larger (BENCHMARKS.md), so it is asked for. A run
   * with `'kept'` on a store that kept pages without it indexes them first, from their
   * stored bodies (text-backfill.ts).
   * @default 'none'
   */
  fullText: z.enum(['kept', 'none']).default('none'),
  /**
   * When a run ends (not on error), compute PageRank over the crawl's link graph and
   * the final score P = 0.6·relevance + 0.4·PR of kept pages, and store them
   * (`rankStore`; the `rank` command does the same with settable weights, and keeps
   * them in the store: they are used here too, rank-settings.ts). Damping: the kept
   * one, else `strategyOptions.damping`.
   * @default true
   */
  rankOnFinish: z.boolean().default(true),
  /**
   * Whose sitemaps feed the frontier (docs/sitemaps.md): `seeds` (the seeds'
   * hosts), `hosts` (every host a page is fetched from), or `none`. Sitemap URLs
   * in scope are queued at depth 1 once the crawl runs out of links, with the
   * topic's score of their URL's words as priority.
   * @default 'seeds'
   */
  sitemaps: z.enum(['seeds', 'hosts', 'none']).default('seeds'),
  /**
   * Detect duplicates among kept pages (docs/dedup.md): a kept page whose text has
   * the words of a page kept before (exact), or a SimHash within `dedupMaxDistance`
   * bits of one (near), is recorded as its duplicate: discarded, its body not
   * stored, its links not followed.
   * @default true
   */
  dedup: z.boolean().default(true),
  /** Most bits by which two SimHashes of near duplicates differ (0 … 8). @default 3 */
  dedupMaxDistance: z.number().int().min(0).max(8).default(3),
  /**
   * Learn the query keys that change nothing (docs/dedup.md, "URL copies"): once kept
   * pages of 2 different pages of a host turn out exact duplicates whose URLs and their
   * originals' differ only in a key one of them does without, with id-like values (a
   * session id: `?s=d418bb41`, `;jsessionid=…`), that key is dropped from the host's
   * links, and a queued URL that only adds it to a URL the crawl has is not fetched.
   * Needs `dedup`.
   * @default true
   */
  learnCopyKeys: z.boolean().default(true),
  /**
   * Fetcher options (`createFetcher`, docs/fetch.md): concurrency, perHostConcurrency,
   * delayMs, resolve, timeouts, maxBytes, userAgent… Validated and defaulted here, with
   * the crawl's options, by the fetcher's own schema: the crawl reads its limits
   * (`concurrency`, `perHostConcurrency`) from the same values the fetcher is given.
   * @default the fetcher's defaults
   */
  fetcher: fetcherOptionsSchema.prefault({}),
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
   * Threads that decode, parse and fingerprint fetched pages beside the crawl's own
   * thread (docs/design.md, "Threads"): a number (0: none, the crawl's thread does it),
   * or `auto`: one for each core past two, at most 4 (none on a 2-core machine, where
   * the crawl's and the store's threads take both cores).
   * @default 'auto'
   */
  parseThreads: z
    .union([z.number().int().min(0).max(64), z.literal('auto')], {
      error: 'a whole number from 0 to 64, or "auto"',
    })
    .default('auto'),
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

/**
 * Values each valid alone that make no sense in a crawl: refused, naming the options
 * (the command line refuses them earlier, naming its flags).
 */
function checkLimits(o: CrawlOptions): void {
  const { concurrency, perHostConcurrency } = o.fetcher;
  if (concurrency > MAX_CONCURRENCY) {
    throw new InvalidOptionError(
      `invalid crawl options: fetcher.concurrency: at most ${MAX_CONCURRENCY} requests in flight, got ${concurrency}`,
    );
  }
  if (perHostConcurrency > concurrency) {
    throw new InvalidOptionError(
      `invalid crawl options: fetcher.perHostConcurrency (${perHostConcurrency}) is more than fetcher.concurrency (${concurrency}), which caps it`,
    );
  }
}

export function parseCrawlOptions(input: CrawlOptionsInput): CrawlOptions {
  const r = crawlOptionsSchema.safeParse(input);
  if (r.success) {
    checkLimits(r.data);
    // A CA file that cannot be read fails here, before the store is made.
    if (r.data.fetcher.caFile !== undefined) loadCaFile(r.data.fetcher.caFile);
    return r.data;
  }
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid crawl options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}
