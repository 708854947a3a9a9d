/**
 * The crawl's outcomes on their way to the store: recorded as fetches end,
 * committed in batches (one commit at a time, under the run's lease), and the
 * figures they move (URLs per state, the page budget's count, this run's tallies,
 * refusals, seeds that failed) kept in step. An outcome the store refuses because
 * its claim was lost moves no figure.
 */
import type { NewUrl, Outcome, StateCounts } from '../store/index.js';
import type { CrawlLease } from './lease.js';
import type { CrawlSummary, PageEvent } from './types.js';
import { REFUSED_CODES } from './types.js';

/** The figures outcomes move; the engine reads them and refreshes `counts`. */
export interface Figures {
  counts: StateCounts;
  /** Responses that ended a URL, over all runs: what `maxPages` counts. */
  fetchedTotal: number;
  run: CrawlSummary['run'];
  /** Failed attempts of this run put back to be tried again (not in `run`: their URLs wait again). */
  retries: number;
  /** URLs in error put back to waiting at the start of the run (`retryErrors`). */
  requeued: number;
  /** URLs failed without a request being sent, by error code. */
  refused: Record<string, number>;
  seedErrors: { url: string; error: string }[];
}

/** A run's figures at its start: the store's counts and outcomes so far, nothing of its own. */
export function startFigures(counts: StateCounts, fetchedTotal: number): Figures {
  return {
    counts: { ...counts },
    fetchedTotal,
    run: { fetched: 0, complete: 0, discard: 0, error: 0, redirect: 0, bytes: 0 },
    retries: 0,
    requeued: 0,
    refused: {},
    seedErrors: [],
  };
}

export class Recorder {
  readonly f: Figures;
  readonly #lease: CrawlLease;
  readonly #seeds: ReadonlySet<string>;
  /** After a batch is stored: its events (refused ones too, for the settler). */
  readonly #after: (events: PageEvent[]) => Promise<void>;
  #pending: Outcome[] = [];
  #events: PageEvent[] = [];
  /** URLs to queue once the pending outcomes are stored (`queue`). */
  #queued: NewUrl[] = [];
  #committing: Promise<void> | null = null;
  #committingCount = 0;
  #error: unknown = null;
  readonly #onError: () => void;

  constructor(
    lease: CrawlLease,
    seeds: ReadonlySet<string>,
    f: Figures,
    after: (events: PageEvent[]) => Promise<void>,
    onError: () => void,
  ) {
    this.#lease = lease;
    this.#seeds = seeds;
    this.f = f;
    this.#after = after;
    this.#onError = onError;
  }

  /** Outcomes recorded and not yet sent to the store. */
  get pending(): number {
    return this.#pending.length;
  }

  /** Outcomes recorded and not yet stored (pending and in the commit under way). */
  get unstored(): number {
    return this.#pending.length + (this.#committing ? this.#committingCount : 0);
  }

  get committing(): boolean {
    return this.#committing !== null;
  }

  record(outcome: Outcome, e: PageEvent): void {
    if (e.error !== null && e.status === null) {
      const code = e.error.slice(0, Math.max(0, e.error.indexOf(':')));
      if (REFUSED_CODES.has(code)) this.f.refused[code] = (this.f.refused[code] ?? 0) + 1;
    }
    this.#pending.push(outcome);
    this.#events.push(e);
  }

  /**
   * A URL to queue with the next commit, outside any page's outcome (the URL a refused
   * copy stands for): the store adds it when it does not have it.
   */
  queue(item: NewUrl): void {
    this.#queued.push(item);
  }

  /** Notes a failure of the crawl's store calls; the first one is thrown by `check`. */
  fail(e: unknown): void {
    this.#error ??= e;
    this.#onError();
  }

  /** Throws the first failure of a commit (or another store call) noted. */
  check(): void {
    if (this.#error !== null) throw this.#error;
  }

  /** Commits pending outcomes (one commit at a time); resolves when they are stored. */
  flush(): Promise<void> {
    if (this.#committing)
      return this.#committing.then(() => (this.#pending.length > 0 ? this.flush() : undefined));
    if (this.#pending.length === 0) return Promise.resolve();
    const batch = this.#pending;
    const events = this.#events;
    const queued = this.#queued;
    this.#pending = [];
    this.#events = [];
    this.#queued = [];
    this.#committingCount = batch.length;
    this.#committing = (async () => {
      try {
        const lost = await this.#lease.commit(batch);
        this.#tally(
          lost.size === 0 ? events : events.filter((_, i) => !lost.has(batch[i]?.url as string)),
        );
        this.f.counts.processing -= batch.length - lost.size;
        if (queued.length > 0) this.f.counts.waiting += await this.#lease.addUrls(queued);
        await this.#after(events);
      } catch (e) {
        this.fail(e);
      } finally {
        this.#committing = null;
        this.#committingCount = 0;
      }
    })();
    return this.#committing;
  }

  #tally(events: readonly PageEvent[]): void {
    const { f } = this;
    for (const e of events) {
      // A seed's last outcome in this run decides whether it failed.
      if (this.#seeds.has(e.url)) {
        const i = f.seedErrors.findIndex((x) => x.url === e.url);
        if (i >= 0) f.seedErrors.splice(i, 1);
        if (e.error !== null) f.seedErrors.push({ url: e.url, error: e.error });
      }
      if (e.retryAt !== undefined) {
        // A failed attempt: its URL waits again, and no response ended it.
        f.retries++;
        f.counts.waiting++;
        continue;
      }
      // The page budget counts responses that ended a URL (docs/crawl.md).
      if (e.status !== null && e.state !== 'redirect') f.fetchedTotal++;
      if (e.finalUrl !== undefined) f.counts.redirect++;
      f.counts[e.state]++;
      f.run[e.state]++;
      f.run.fetched++;
      f.counts.waiting += e.newUrls;
    }
  }
}
