/**
 * The crawl's link filter from a site model (docs/site-model.md): on the model's hosts
 * a link is followed only when its URL matches a valid pattern; a URL of an invalid
 * pattern (a duplicate view, a page without content) is skipped and counted under the
 * pattern that refused it, and a URL that matches no pattern is skipped and counted as
 * unknown (each URL once). Hosts the model does not cover are left to the crawl's scope.
 *
 * Unknown URLs are what a site whose structure changed produces (a new URL scheme, a
 * new section): past `unknownLimit` distinct ones, `warn` is called once, naming a few.
 * With a `relearn` function (`--relearn`), the filter then asks it for a new model:
 * meanwhile unknown URLs are held (up to MAX_HELD), and once the new model is in place
 * (`replace`) the held ones it takes are handed to `relearn`'s caller to be queued; the
 * count starts again, so a later change is noticed too (at most MAX_RELEARNS a run).
 *
 * What the crawl finds corrects the model as it goes: a finest URL pattern (`patternOf`)
 * taken by a valid pattern whose kept pages keep turning out duplicates of pages kept
 * before (the crawl's duplicate detection: DUP_MIN of them, DUP_SHARE of its pages) is
 * refused from then on (a spelling the sample never met, such as `&start=0` for a
 * discussion's first page, counted under `learntDuplicates`).
 */
import { createDecider, patternOf, type SiteModel, type UrlDecision } from '../sitemodel/index.js';

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
  /** Times the model was learnt again during the crawl (`relearn`). */
  relearns?: number;
  /** Finest patterns refused during the crawl because their pages were duplicates. */
  learntDuplicates?: string[];
}

export const META_SITE_FILTER = 'sitemodel.filter';

/** Unknown URLs held while a model is relearnt. */
export const MAX_HELD = 20_000;
/** Relearns at most in one run. */
export const MAX_RELEARNS = 3;
/** Duplicates that make a finest pattern refused... */
export const DUP_MIN = 5;
/** ...when at least this share of its kept pages are duplicates. */
export const DUP_SHARE = 0.9;

/**
 * Learns the model again from a fresh sample (`examples`: some unknown URLs, the new
 * kind of page) and queues the held URLs the new model takes.
 */
export interface Relearner {
  learn(examples: readonly string[], signal: AbortSignal): Promise<SiteModel>;
  queue(urls: readonly string[]): Promise<void>;
}
/** The site model a run filtered links by, written when it starts (for `status` and the report). */
export const META_SITE_MODEL = 'sitemodel.model';

export class SiteFilter {
  #decide: (url: string) => UrlDecision;
  #hosts: Set<string>;
  readonly #seen = new Set<string>();
  readonly #limit: number;
  readonly #warn: (message: string) => void;
  readonly #relearner: Relearner | undefined;
  #warned = false;
  /** Unknown URLs since the limit was passed, while a relearn runs; null when none runs. */
  #held: string[] | null = null;
  /** Unknown URLs since the model was (re)learnt. */
  #unknownNow = 0;
  /** Pages and duplicates seen per finest pattern of a valid pattern (`observe`). */
  readonly #seenFine = new Map<string, { pages: number; duplicates: number }>();
  /** Finest patterns refused for their duplicates. */
  readonly #learnt = new Set<string>();
  /** The relearn under way, if any (so that a crawl can wait for it). */
  pending: Promise<void> | null = null;
  readonly #stop = new AbortController();
  readonly stats: SiteFilterStats = { valid: 0, refused: {}, unknown: 0, unknownExamples: [] };

  constructor(
    model: SiteModel,
    warn: (message: string) => void,
    unknownLimit = DEFAULT_UNKNOWN_LIMIT,
    relearner?: Relearner,
  ) {
    this.#decide = createDecider(model);
    this.#hosts = new Set(model.hosts);
    this.#limit = unknownLimit;
    this.#warn = warn;
    this.#relearner = relearner;
  }

  /** Stops a relearn under way (the crawl is ending) and waits for it. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.pending;
  }

  /**
   * Tells the filter what a kept (or duplicate) page of `url` turned out to be; a
   * finest pattern whose pages are mostly duplicates is refused from then on.
   */
  observe(url: string, duplicate: boolean): void {
    let fine: string;
    try {
      if (!this.#hosts.has(new URL(url).host) || this.#decide(url).verdict !== 'valid') return;
      fine = patternOf(url);
    } catch {
      return;
    }
    const c = this.#seenFine.get(fine) ?? { pages: 0, duplicates: 0 };
    c.pages++;
    if (duplicate) c.duplicates++;
    this.#seenFine.set(fine, c);
    if (this.#learnt.has(fine) || c.duplicates < DUP_MIN || c.duplicates < DUP_SHARE * c.pages)
      return;
    this.#learnt.add(fine);
    this.stats.learntDuplicates = [...this.#learnt];
    this.#warn(
      `site model: ${c.duplicates} of the ${c.pages} pages of ${fine} kept so far were duplicates of pages kept before: its links are refused from now on`,
    );
  }

  /** Puts `model` in place of the current one. */
  replace(model: SiteModel): void {
    this.#decide = createDecider(model);
    this.#hosts = new Set(model.hosts);
  }

  /** The model's decision on `url` (its patterns compiled once, for the crawl and the watch's plan alike). */
  decide(url: string): UrlDecision {
    return this.#decide(url);
  }

  /**
   * For a URL of the model's hosts: the pattern that refuses it (invalid, or valid
   * but of a finest pattern found to give duplicates: `observe`); null when it is
   * followed; undefined when no pattern knows it.
   */
  #refusedBy(url: string): string | null | undefined {
    const d = this.#decide(url);
    if (d.verdict === 'unknown') return undefined;
    if (d.verdict === 'invalid') return d.pattern ?? '(none)';
    const fine = this.#learnt.size === 0 ? null : fineOf(url);
    return fine !== null && this.#learnt.has(fine)
      ? `${fine} (duplicates found while crawling)`
      : null;
  }

  /**
   * The pattern that refuses `url`, a URL queued before the model refused it (its
   * finest pattern found to give duplicates since, or a model learnt again); null when
   * it is still followed. Counted with the refused links.
   */
  refusesQueued(url: string): string | null {
    const host = hostAndPort(url);
    if (host === null || !this.#hosts.has(host)) return null;
    const p = this.#refusedBy(url);
    if (p == null) return null;
    this.stats.refused[p] = (this.stats.refused[p] ?? 0) + 1;
    return p;
  }

  /** Whether a link to `url` is followed. Each URL is counted once. */
  allows(url: string): boolean {
    const host = hostAndPort(url);
    if (host === null) return false;
    if (!this.#hosts.has(host)) return true;
    const p = this.#refusedBy(url);
    if (p === null) {
      this.stats.valid++;
      return true;
    }
    if (this.#seen.has(url)) return false;
    this.#seen.add(url);
    if (p !== undefined) {
      this.stats.refused[p] = (this.stats.refused[p] ?? 0) + 1;
      return false;
    }
    this.stats.unknown++;
    this.#unknownNow++;
    if (this.stats.unknownExamples.length < 5) this.stats.unknownExamples.push(url);
    if (this.#held !== null) {
      if (this.#held.length < MAX_HELD) this.#held.push(url);
      return false;
    }
    if (!this.#warned && this.#unknownNow >= this.#limit) {
      this.#warned = true;
      const relearn = this.#relearner !== undefined && (this.stats.relearns ?? 0) < MAX_RELEARNS;
      this.#warn(
        `site model: ${this.#unknownNow} links match none of its patterns (e.g. ${this.stats.unknownExamples
          .slice(-3)
          .join(', ')}): the site's structure may have changed; ${
          relearn
            ? 'learning the model again from a fresh sample'
            : 'learn the model again (focuscrawl site-model learn, or --relearn)'
        }`,
      );
      if (relearn) {
        this.#held = [url];
        this.pending = this.#relearn(url);
      }
    }
    return false;
  }

  async #relearn(example: string): Promise<void> {
    const relearner = this.#relearner!;
    const held = this.#held ?? [];
    try {
      const examples = [...new Set([example, ...this.stats.unknownExamples])];
      const model = await relearner.learn(examples, this.#stop.signal);
      if (this.#stop.signal.aborted)
        throw new Error('the crawl ended before the sample was complete');
      this.replace(model);
      this.stats.relearns = (this.stats.relearns ?? 0) + 1;
      this.#held = null;
      this.#unknownNow = 0;
      this.#warned = false;
      // The held URLs were skipped as unknown: the new model judges them again (those
      // it does not know either stay skipped, counted once).
      const taken: string[] = [];
      for (const u of held) {
        const d = this.#decide(u);
        if (d.verdict === 'valid') {
          this.stats.valid++;
          taken.push(u);
        } else if (d.verdict === 'invalid') {
          const p = d.pattern ?? '(none)';
          this.stats.refused[p] = (this.stats.refused[p] ?? 0) + 1;
        }
      }
      await relearner.queue(taken);
    } catch (e) {
      this.#held = null;
      this.#warn(`site model: learning it again failed, the old one stays: ${String(e)}`);
    } finally {
      this.pending = null;
    }
  }
}

/**
 * The host of `url` with its port, as a site model names hosts (url/'s `hostOf` leaves
 * the port out); null when it does not parse.
 */
function hostAndPort(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** The finest pattern of a URL; '' for one that has none. */
function fineOf(url: string): string {
  try {
    return patternOf(url);
  } catch {
    return '';
  }
}
