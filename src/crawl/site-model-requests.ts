/**
 * A store's site model and the requests its crawl spent, by the model's URL patterns
 * (`focuscrawl status` and the report). The model is the one the last run decided by
 * (meta `sitemodel.model`, written when a run with a model starts), else the learnt one
 * kept in the store's folder (`site-model.json`, stores crawled before the meta was
 * kept). A request is a history row whose fetch sent one: complete, discard, redirect
 * hops, and errors with a status or of the network; not the URLs failed before any
 * request was sent (robots.txt, scope, dead hosts: REFUSED_CODES).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createRequestTally,
  loadSiteModel,
  parseSiteModel,
  type RequestsByPattern,
  type SiteModel,
} from '../sitemodel/index.js';
import type { HistoryRecord, Store } from '../store/index.js';
import { META_SITE_MODEL } from './site-filter.js';
import { SITE_MODEL_FILE } from './site-model-learn.js';
import { REFUSED_CODES } from './types.js';

/**
 * The site model of a store, or null when it has none (or it cannot be read: a
 * diagnostic does not fail for it). `dir` is the store's folder, when there is one.
 */
export async function readStoreSiteModel(
  store: Store,
  dir: string | null,
): Promise<SiteModel | null> {
  try {
    const kept = await store.getMeta(META_SITE_MODEL);
    if (kept !== undefined && kept !== null) {
      return parseSiteModel(kept, `store meta ${META_SITE_MODEL}`);
    }
    if (dir === null) return null;
    const file = join(dir, SITE_MODEL_FILE);
    return existsSync(file) ? await loadSiteModel(file) : null;
  } catch {
    return null;
  }
}

/** Whether a history row's fetch sent a request (see the module's comment). */
export function sentRequest(h: HistoryRecord): boolean {
  if (h.state !== 'error' || h.status !== null || h.error === null) return true;
  const code = /^FC_ERR_[A-Z0-9_]+/.exec(h.error)?.[0];
  return code === undefined || !REFUSED_CODES.has(code);
}

/** The store's requests (its history, one pass) by the patterns of `model`. */
export async function storeRequestsByPattern(
  store: Store,
  model: SiteModel,
): Promise<RequestsByPattern> {
  const tally = createRequestTally(model);
  for await (const h of store.history()) if (sentRequest(h)) tally.add(h.url);
  return tally.result();
}
