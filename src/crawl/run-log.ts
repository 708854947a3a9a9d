/**
 * What a run reports of itself: the record of the run kept in the store's
 * metadata (`META_RUNS`, updated at every progress tick and at the end), the
 * progress snapshots and the end summary (figures.ts), from the figures the
 * outcomes move (recorder.ts) and the fetcher's counts.
 */
import type { FetcherStats } from '../fetch/index.js';
import { progressOf, type StopNote, stopMessage, summaryOf, type Tallies } from './figures.js';
import type { CrawlOptions } from './options.js';
import type { Figures } from './recorder.js';
import type { Setup } from './setup.js';
import type { CrawlProgress, CrawlRunRecord, CrawlSummary, StopReason } from './types.js';
import { META_RUNS } from './types.js';

export class RunLog {
  readonly #o: CrawlOptions;
  readonly #s: Setup;
  readonly #f: Figures;
  readonly #fetcher: () => FetcherStats;
  readonly #startedAt = Date.now();
  readonly #cpuAtStart = process.cpuUsage();
  #lastTick = { at: Date.now(), fetched: 0 };
  readonly #record: CrawlRunRecord;

  constructor(o: CrawlOptions, s: Setup, f: Figures, fetcher: () => FetcherStats) {
    this.#o = o;
    this.#s = s;
    this.#f = f;
    this.#fetcher = fetcher;
    const m = s.models;
    this.#record = {
      startedAt: this.#startedAt,
      endedAt: this.#startedAt,
      fetched: 0,
      stopReason: null,
      strategy: m.strategy,
      model: m.link,
      ...(m.page !== m.link ? { pageModel: m.page } : {}),
      fullText: o.fullText,
    };
  }

  /** Records the run's start among the store's runs. */
  begin(): Promise<void> {
    return this.#save();
  }

  #save(): Promise<void> {
    return this.#s.store.setMeta(META_RUNS, [...this.#s.runs, this.#record]);
  }

  #update(): void {
    const r = this.#record;
    r.endedAt = Date.now();
    r.fetched = this.#f.run.fetched;
    r.requests = this.#fetcher().requests;
    r.refused = { ...this.#f.refused };
    r.retries = this.#f.retries;
  }

  tallies(): Tallies {
    const fs = this.#fetcher();
    return {
      now: Date.now(),
      startedAt: this.#startedAt,
      counts: this.#f.counts,
      run: this.#f.run,
      retries: this.#f.retries,
      requeued: this.#f.requeued,
      fetchedTotal: this.#f.fetchedTotal,
      requests: fs.requests,
      waitedForHost: fs.waited,
      refused: this.#f.refused,
      lostClaims: this.#s.lease.lostClaims,
      lastTick: this.#lastTick,
      inFlight: fs.inFlight + fs.queued,
    };
  }

  /** A progress snapshot; the run's record is saved in the background. */
  progress(): CrawlProgress {
    const p = progressOf(this.tallies());
    this.#lastTick = { at: Date.now(), fetched: this.#f.run.fetched };
    this.#update();
    void this.#save().catch(() => {});
    return p;
  }

  /** Saves the run's record with its stop reason; returns the summary. */
  async end(reason: StopReason, note?: StopNote): Promise<CrawlSummary> {
    this.#update();
    this.#record.stopReason = reason;
    await this.#save();
    const message = stopMessage(reason, this.#f.counts, this.#o, this.#f.seedErrors, note);
    const cpu = process.cpuUsage(this.#cpuAtStart);
    const resources = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    const { resumed, recovered } = this.#s;
    return summaryOf(
      this.tallies(),
      reason,
      message,
      resumed,
      recovered,
      this.#f.seedErrors,
      resources,
    );
  }
}
