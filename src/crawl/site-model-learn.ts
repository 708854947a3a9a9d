/**
 * `siteModel: 'learn'` (`--site-model learn`): the crawl learns its site model before it
 * starts, from a sample of the seeds' hosts (sitemodel/collect.ts, through a fetcher of
 * the crawl's own options: robots.txt, delays and User-Agent as the crawl's), and keeps
 * it in the store as `site-model.json`, where a resumed crawl finds it and does not
 * sample again. A store given as an object keeps no file: the model is learnt each run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createFetcher, type FetcherOptionsInput } from '../fetch/index.js';
import {
  collectSample,
  learnSiteModel,
  loadSiteModel,
  type SiteModel,
  writeSiteModel,
} from '../sitemodel/index.js';
import type { Store } from '../store/index.js';
import { createScopeFilter } from '../url/index.js';

/** The file a learnt site model is kept in, in the store's folder. */
export const SITE_MODEL_FILE = 'site-model.json';
/** Pages the sample fetches. */
export const LEARN_SAMPLE_PAGES = 500;

export async function learnOrReuse(
  store: string | Store,
  seeds: readonly string[],
  fetcher: FetcherOptionsInput,
  warn: (message: string) => void,
): Promise<SiteModel> {
  const file = typeof store === 'string' ? join(store, SITE_MODEL_FILE) : undefined;
  if (file !== undefined && existsSync(file)) return loadSiteModel(file);
  const inScope = createScopeFilter({ mode: 'same-host', seeds: [...seeds] });
  const f = createFetcher({ ...fetcher, scope: inScope });
  let sample: Awaited<ReturnType<typeof collectSample>>;
  try {
    sample = await collectSample({ seeds, pages: LEARN_SAMPLE_PAGES, fetcher: f, inScope });
  } finally {
    await f.close();
  }
  const model = learnSiteModel(sample.pages);
  if (file !== undefined) await writeSiteModel(file, model);
  warn(
    `site model learnt from ${sample.requests} pages of ${model.hosts.join(', ')}: ${model.clusters.filter((c) => c.decision === 'valid').length} of ${model.clusters.length} clusters valid${file ? ` (${file})` : ''}`,
  );
  return model;
}
