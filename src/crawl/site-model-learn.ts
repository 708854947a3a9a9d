/**
 * `siteModel: 'learn'` (`--site-model learn`): the crawl learns its site model before it
 * starts, from a sample of the seeds' hosts (sitemodel/collect.ts, through a fetcher of
 * the crawl's own options: robots.txt, delays and User-Agent as the crawl's), and keeps
 * it in the store as `site-model.json`, where a resumed crawl finds it and does not
 * sample again. A store given as an object keeps no file: the model is learnt each run.
 * The sample's pages that the model calls valid are handed to the crawl (`primed`,
 * fetch/primed.ts): the crawl takes them from memory instead of asking the site again.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createFetcher,
  type Fetcher,
  type FetcherOptionsInput,
  type FetchResult,
} from '../fetch/index.js';
import { type RelevanceModel, urlTokens } from '../relevance/index.js';
import {
  collectSample,
  createDecider,
  learnSiteModel,
  loadSiteModel,
  parseSiteModel,
  SAMPLE_PAGES,
  SAMPLE_PER_PATTERN,
  type SiteModel,
  writeSiteModel,
} from '../sitemodel/index.js';
import { type Store, storeDirOf } from '../store/index.js';
import { createScopeFilter } from '../url/index.js';
import type { CrawlOptions } from './options.js';
import type { Setup } from './setup.js';
import {
  DEFAULT_UNKNOWN_LIMIT,
  META_SITE_MODEL,
  type Relearner,
  SiteFilter,
} from './site-filter.js';
import { shareRelearner } from './site-model-share.js';

/** The file a learnt site model is kept in, in the store's folder. */
export const SITE_MODEL_FILE = 'site-model.json';

export async function learnOrReuse(
  store: string | Store,
  seeds: readonly string[],
  fetcher: FetcherOptionsInput,
  warn: (message: string) => void,
  open?: Store,
  primed?: Map<string, FetchResult>,
): Promise<SiteModel> {
  const dir = typeof store === 'string' ? storeDirOf(store) : undefined;
  const file = dir !== undefined ? join(dir, SITE_MODEL_FILE) : undefined;
  if (file !== undefined && existsSync(file)) return loadSiteModel(file);
  // A database store keeps its model in its meta: the processes that join the crawl
  // take the one it learnt instead of sampling each its own.
  const kept =
    typeof store === 'string' && dir === undefined
      ? await open?.getMeta(META_SITE_MODEL)
      : undefined;
  if (kept !== undefined) return parseSiteModel(kept, `store meta ${META_SITE_MODEL}`);
  const inScope = createScopeFilter({ mode: 'same-host', seeds: [...seeds] });
  const f = createFetcher({ ...fetcher, scope: inScope });
  let sample: Awaited<ReturnType<typeof collectSample>>;
  const pages: FetchResult[] = [];
  try {
    sample = await collectSample({
      seeds,
      pages: SAMPLE_PAGES,
      perPattern: SAMPLE_PER_PATTERN,
      fetcher: f,
      inScope,
      onResponse: (res) => {
        // A redirect's target as its own answer: the redirect is the crawl's to follow
        // or decline.
        if (primed !== undefined && res.status === 200)
          pages.push(
            res.redirects.length === 0 ? res : { ...res, url: res.finalUrl, redirects: [] },
          );
      },
    });
  } finally {
    await f.close();
  }
  const model = learnSiteModel(sample.pages);
  const decide = createDecider(model);
  for (const res of pages) if (decide(res.url).verdict === 'valid') primed?.set(res.url, res);
  if (file !== undefined) await writeSiteModel(file, model);
  warn(
    `site model learnt from ${sample.requests} pages of ${model.hosts.join(', ')}: ${model.clusters.filter((c) => c.decision === 'valid').length} of ${model.clusters.length} clusters valid${file ? ` (${file})` : ''}`,
  );
  return model;
}

/** What `siteRelearner` needs of the crawl. */
export interface RelearnDeps {
  store: string | Store;
  /** The crawl's store, where the held URLs the new model takes are queued. */
  frontier: Store;
  /** The crawl's seeds: the sample starts from those on the model's hosts. */
  seeds: Iterable<string>;
  /** The crawl's own fetcher: its per-host delays and robots.txt hold for the sample too. */
  fetcher: Fetcher;
  /** The crawl's link model now: a queued URL's priority is its URL words' relevance. */
  linkText: () => RelevanceModel;
  /** Called once URLs were queued. */
  changed: () => void;
  warn: (message: string) => void;
}

/**
 * The crawl's relearner (`relearn`, site-filter.ts): samples the model's hosts again,
 * from their seeds and a few of the URLs the old model did not know, learns a new
 * model, keeps it in the store as site-model.json (a store folder), and queues the
 * held URLs it takes at depth 1.
 */
export function siteRelearner(d: RelearnDeps): Relearner {
  return {
    async learn(examples, signal) {
      const hosts = new Set(examples.map((u) => new URL(u).host));
      const seeds = [...[...d.seeds].filter((s) => hosts.has(new URL(s).host)), ...examples];
      const inScope = createScopeFilter({ mode: 'same-host', seeds });
      const sample = await collectSample({
        seeds,
        pages: SAMPLE_PAGES,
        perPattern: SAMPLE_PER_PATTERN,
        fetcher: d.fetcher,
        inScope,
        signal,
      });
      if (signal.aborted) throw new Error('the crawl ended before the sample was complete');
      const model = learnSiteModel(sample.pages);
      const dir = typeof d.store === 'string' ? storeDirOf(d.store) : undefined;
      const file = dir !== undefined ? join(dir, SITE_MODEL_FILE) : undefined;
      if (file !== undefined) await writeSiteModel(file, model);
      await d.frontier.setMeta(META_SITE_MODEL, model);
      d.warn(
        `site model learnt again from ${sample.requests} pages of ${model.hosts.join(', ')}: ${model.clusters.filter((c) => c.decision === 'valid').length} of ${model.clusters.length} clusters valid${file ? ` (${file})` : ''}`,
      );
      return model;
    },
    async queue(urls) {
      if (urls.length === 0) return;
      await d.frontier.addUrls(
        urls.map((url) => ({
          url,
          depth: 1,
          priority: d.linkText().relevance({ text: urlTokens(url).join(' ') }),
        })),
      );
      d.changed();
    },
  };
}

/**
 * The crawl's link filter for its site model (none without one), with a relearner
 * when `relearn` is on: the crawl's own fetcher, store and link model.
 */
export function siteFilterFor(
  o: CrawlOptions,
  s: Setup,
  fetcher: Fetcher,
  d: Pick<RelearnDeps, 'warn' | 'changed' | 'linkText'>,
): SiteFilter | undefined {
  if (s.siteModel === undefined) return undefined;
  let filter: SiteFilter | undefined;
  // Among several processes, relearning is the coordinator's (site-model-share.ts).
  const relearner = o.relearn
    ? shareRelearner(
        siteRelearner({ ...d, store: o.store, frontier: s.store, seeds: s.seeds, fetcher }),
        s.store,
        s.coordination,
        (m) => filter?.replace(m),
      )
    : undefined;
  filter = new SiteFilter(s.siteModel, d.warn, DEFAULT_UNKNOWN_LIMIT, relearner);
  return filter;
}
