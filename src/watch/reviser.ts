/**
 * The revisit loop of an incremental crawl: claims the kept pages that are due
 * (under the crawl's lease), fetches each with its stored validators (a 304 costs no
 * body) through the fetcher the frontier uses too (per-host politeness covers both),
 * within the request budget's revisit share, and records what each found (visit.ts).
 * New URLs a changed page links to join the frontier.
 *
 * Stopping: no revisit starts; those in flight are abandoned and their claims given
 * back, due as before; visits already answered are recorded.
 */

import { type CrawlLease, errorText, type PageRules } from '../crawl/parts.js';
import { AbortedError } from '../errors/index.js';
import type { Fetcher, FetchResult } from '../fetch/index.js';
import type { DueRevisit, VisitOutcome } from '../store/index.js';
import type { RequestBudget } from './budget.js';
import { visitOf } from './visit.js';

/** How often an idle loop looks for pages that became due (an indexed query). */
const POLL_MS = 200;

export interface ReviserParts {
  lease: CrawlLease;
  fetcher: Fetcher;
  budget: RequestBudget;
  /** The crawl's page rules (read each time: they are kept current). */
  rules: () => PageRules;
  /** Revisits in flight at most. */
  concurrency: number;
  /** True while the run is paused (the control channel, crawl/control.ts): none starts. */
  paused: () => boolean;
  /** Keep every changed version's body (`VisitPage.keepVersion`). */
  keepVersions: boolean;
  /** The next due time of a page just visited (the plan's frequency). */
  nextDue: (url: string, at: number) => number | null;
  /** Each recorded visit, with the number of new URLs it queued. */
  visited: (v: VisitOutcome, newUrls: number) => void;
  /** New URLs were queued: the frontier should look. */
  found: () => void;
  warn: (message: string) => void;
}

export class Reviser {
  readonly #p: ReviserParts;
  readonly #abort = new AbortController();
  readonly #queue: DueRevisit[] = [];
  readonly #inFlight = new Set<Promise<void>>();
  #stopped = false;
  #wake: (() => void) | null = null;
  /** New URLs found per page by this run's revisits (the plan's discovery weight). */
  readonly yields = new Map<string, { visits: number; linked: number }>();

  constructor(p: ReviserParts) {
    this.#p = p;
  }

  stop(): void {
    this.#stopped = true;
    this.#abort.abort(new AbortedError('watch stopped'));
    this.#notify();
  }

  /** A plan was written: pages may be due now. */
  poke(): void {
    this.#notify();
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(
        () => {
          this.#wake = null;
          resolve();
        },
        Math.max(0, ms),
      );
      this.#wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  async run(): Promise<void> {
    const { budget, lease } = this.#p;
    while (!this.#stopped) {
      if (this.#queue.length === 0 && this.#inFlight.size < this.#p.concurrency) {
        const got = await lease.claimDue(this.#p.concurrency * 2, Date.now());
        if (this.#stopped) {
          if (got.length > 0) await lease.releaseDue(got.map((d) => d.url));
          break;
        }
        this.#queue.push(...got);
      }
      budget.revisitsWaiting = this.#queue.length;
      while (
        this.#inFlight.size < this.#p.concurrency &&
        this.#queue.length > 0 &&
        !this.#p.paused() &&
        budget.revisitReady()
      ) {
        budget.takeRevisit();
        this.#start(this.#queue.shift() as DueRevisit);
      }
      budget.revisitsWaiting = this.#queue.length;
      const wait = this.#queue.length > 0 ? budget.revisitAt() - Date.now() : POLL_MS;
      await this.#sleep(Math.min(wait, POLL_MS));
    }
    budget.revisitsWaiting = 0;
    const left = this.#queue.splice(0).map((d) => d.url);
    if (left.length > 0) await lease.releaseDue(left);
    await Promise.allSettled([...this.#inFlight]);
  }

  #start(due: DueRevisit): void {
    const conditional = {
      ...(due.etag !== null ? { etag: due.etag } : {}),
      ...(due.lastModified !== null ? { lastModified: due.lastModified } : {}),
    };
    const p = this.#p.fetcher
      .fetch(due.url, { signal: this.#abort.signal, conditional })
      .then(
        (res) => this.#done(due, res, null),
        (err: unknown) => this.#done(due, null, err),
      )
      .catch((e: unknown) => this.#p.warn(`revisit of ${due.url}: ${errorText(e)}`))
      .finally(() => {
        this.#inFlight.delete(p);
        this.#notify();
      });
    this.#inFlight.add(p);
  }

  async #done(due: DueRevisit, res: FetchResult | null, err: unknown): Promise<void> {
    const { lease } = this.#p;
    if (res === null && (this.#stopped || err instanceof AbortedError)) {
      await lease.releaseDue([due.url]);
      return;
    }
    if (res !== null) this.#p.budget.charge(res.attempts - 1);
    const at = Date.now();
    const r = visitOf(
      due,
      res,
      res === null ? errorText(err) : null,
      this.#p.rules(),
      at,
      this.#p.keepVersions,
    );
    const visit: VisitOutcome = {
      ...r.visit,
      dueAt: this.#p.nextDue(due.url, at),
      newUrls: r.newUrls,
    };
    const { refused, added } = await lease.recordVisits([visit]);
    if (refused.size > 0) return;
    if (added > 0) this.#p.found();
    const y = this.yields.get(due.url) ?? { visits: 0, linked: 0 };
    y.visits++;
    y.linked += added;
    this.yields.set(due.url, y);
    this.#p.visited(visit, added);
  }
}
