/**
 * The crawl's link filter from a site model (docs/site-model.md): on the model's hosts
 * a link is followed only when its URL matches a valid pattern; a URL of an invalid
 * pattern (a duplicate view, a page without content) is skipped and counted under the
 * pattern that refused it, and a URL that matches no pattern is skipped and counted as
 * unknown (each URL once). Hosts the model does not cover are left to the crawl's scope.
 *
 * Unknown URLs are what a site whose structure changed produces (a new URL scheme, a
 * new section): past `unknownLimit` distinct ones, `warn` is called once, naming a few.
 */
import { createDecider, type SiteModel, type UrlDecision } from '../sitemodel/index.js';

/** Distinct unknown URLs that make the structure-change warning. */
export const DEFAULT_UNKNOWN_LIMIT = 50;

/** What the filter decided so far (kept in the store's meta as `sitemodel.filter`). */
export interface SiteFilterStats {
  /** Links a valid pattern took (each time one is met). */
  valid: number;
  /** Distinct links skipped, by the pattern that refused them. */
  refused: Record<string, number>;
  /** Distinct links on the model's hosts that matched no pattern. */
  unknown: number;
  /** A few of them. */
  unknownExamples: string[];
}

export const META_SITE_FILTER = 'sitemodel.filter';

export class SiteFilter {
  readonly #decide: (url: string) => UrlDecision;
  readonly #hosts: Set<string>;
  readonly #seen = new Set<string>();
  readonly #limit: number;
  readonly #warn: (message: string) => void;
  #warned = false;
  readonly stats: SiteFilterStats = { valid: 0, refused: {}, unknown: 0, unknownExamples: [] };

  constructor(
    model: SiteModel,
    warn: (message: string) => void,
    unknownLimit = DEFAULT_UNKNOWN_LIMIT,
  ) {
    this.#decide = createDecider(model);
    this.#hosts = new Set(model.hosts);
    this.#limit = unknownLimit;
    this.#warn = warn;
  }

  /** The model's decision on `url` (its patterns compiled once, for the crawl and the watch's plan alike). */
  decide(url: string): UrlDecision {
    return this.#decide(url);
  }

  /** Whether a link to `url` is followed. Each URL is counted once. */
  allows(url: string): boolean {
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      return false;
    }
    if (!this.#hosts.has(host)) return true;
    const d = this.#decide(url);
    if (d.verdict === 'valid') {
      this.stats.valid++;
      return true;
    }
    if (this.#seen.has(url)) return false;
    this.#seen.add(url);
    if (d.verdict === 'invalid') {
      const p = d.pattern ?? '(none)';
      this.stats.refused[p] = (this.stats.refused[p] ?? 0) + 1;
      return false;
    }
    this.stats.unknown++;
    if (this.stats.unknownExamples.length < 5) this.stats.unknownExamples.push(url);
    if (!this.#warned && this.stats.unknown >= this.#limit) {
      this.#warned = true;
      this.#warn(
        `site model: ${this.stats.unknown} links match none of its patterns (e.g. ${this.stats.unknownExamples
          .slice(0, 3)
          .join(
            ', ',
          )}): the site's structure may have changed; learn the model again (focuscrawl site-model learn)`,
      );
    }
    return false;
  }
}
