/**
 * Relearning the site model (`relearn`) on a store several processes crawl
 * (coordination.ts): the coordinator alone samples the hosts again and writes the new
 * model; a process that is not the coordinator and finds the site's structure changed
 * holds its unknown links, as a relearn does, until the coordinator's new model is in
 * the store, then takes it (and queues the held links it admits). A model the
 * coordinator writes while this process holds nothing replaces its model at once. A
 * process that becomes the coordinator while it waits samples itself.
 */
import { parseSiteModel, type SiteModel } from '../sitemodel/index.js';
import type { Store } from '../store/index.js';
import type { Coordination, SharedJob } from './coordination.js';
import { META_SITE_MODEL, type Relearner } from './site-filter.js';

interface Waiting {
  examples: readonly string[];
  signal: AbortSignal;
  resolve: (model: SiteModel) => void;
  reject: (e: Error) => void;
}

class SharedRelearner implements Relearner, SharedJob {
  readonly name = 'siteModel';
  readonly #inner: Relearner;
  readonly #store: Store;
  readonly #c: Coordination;
  readonly #replace: (model: SiteModel) => void;
  #waiting: Waiting[] = [];

  constructor(inner: Relearner, store: Store, c: Coordination, replace: (m: SiteModel) => void) {
    this.#inner = inner;
    this.#store = store;
    this.#c = c;
    this.#replace = replace;
    c.join(this);
  }

  async #learnHere(examples: readonly string[], signal: AbortSignal): Promise<SiteModel> {
    const model = await this.#inner.learn(examples, signal);
    await this.#c.published(this.name);
    return model;
  }

  learn(examples: readonly string[], signal: AbortSignal): Promise<SiteModel> {
    if (this.#c.isCoordinator()) return this.#learnHere(examples, signal);
    return new Promise((resolve, reject) => {
      const w: Waiting = { examples, signal, resolve, reject };
      this.#waiting.push(w);
      signal.addEventListener(
        'abort',
        () => {
          this.#waiting = this.#waiting.filter((x) => x !== w);
          reject(new Error('the crawl ended before the coordinator learnt a new model'));
        },
        { once: true },
      );
    });
  }

  queue(urls: readonly string[]): Promise<void> {
    return this.#inner.queue(urls);
  }

  async adopt(): Promise<void> {
    const raw = await this.#store.getMeta(META_SITE_MODEL);
    if (raw === undefined) return;
    const model = parseSiteModel(raw, `store meta ${META_SITE_MODEL}`);
    const waiting = this.#waiting;
    this.#waiting = [];
    if (waiting.length === 0) this.#replace(model);
    for (const w of waiting) w.resolve(model);
  }

  async takeOver(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = [];
    // Sampled in the background: the crawl goes on meanwhile, as with any relearn.
    for (const w of waiting) this.#learnHere(w.examples, w.signal).then(w.resolve, w.reject);
  }
}

/**
 * The relearner of a process among several (module comment); `inner` itself for a
 * store only this process crawls. `replace` puts a model in place of the filter's.
 */
export function shareRelearner(
  inner: Relearner,
  store: Store,
  c: Coordination,
  replace: (model: SiteModel) => void,
): Relearner {
  return c.shared ? new SharedRelearner(inner, store, c, replace) : inner;
}
