/**
 * The crawl loop: claims URLs from the store (best first), fetches them through
 * the fetcher (robots.txt, per-host politeness, retries), turns each response into
 * an outcome (page.ts) and commits outcomes in batches. It composes the stages and
 * implements none of them.
 *
 * Stopping: `maxPages` stops claiming once the budget is spoken for and lets the
 * last fetches finish; `durationMs` and `stop()` abort fetches in flight and put
 * their URLs (and the claimed ones not started) back to waiting. Everything
 * fetched is committed before the run ends; a killed run loses only uncommitted
 * fetches, whose URLs the next run recovers from processing.
 *
 * Failures: a transient failure is an attempt, tried again after a back-off
 * (retry.ts; the retry waits in the store, so it survives the run); the run waits
 * for retries due soon, and leaves later ones to a later run. When every fetch
 * fails for `failingStopMs`, the run stops (`failing`, failing.ts).
 */

import { availableParallelism } from 'node:os';
import { type Analysis, AnalysisPool, parseThreadCount } from '../analyze/index.js';
import { AbortedError, OutOfScopeError } from '../errors/index.js';
import type { Fetcher, FetchResult } from '../fetch/index.js';
import { createStrategy, HostDispatch } from '../frontier/index.js';
import type { ClaimedUrl, Outcome } from '../store/index.js';
import { createScopeFilter } from '../url/index.js';
import { Claimer } from './claimer.js';
import { ControlWatch } from './control.js';
import { whenDry } from './dry.js';
import type { EngineHooks } from './engine-hooks.js';
import { Healing } from './healing.js';
import { HostReadiness } from './host-ready.js';
import type { CrawlOptions } from './options.js';
import { failure, type PageRules, pageOutcome } from './page.js';
import { type Figures, Recorder, startFigures } from './recorder.js';
import { queuedRefusal, RuleKeeper } from './rules.js';
import { runFetcher } from './run-fetcher.js';
import { RunLog } from './run-log.js';
import { responseKind, Settler } from './settle.js';
import type { Setup } from './setup.js';
import { abortController, errorText, Wakeup } from './signals.js';
import { META_SITE_FILTER, META_SITE_MODEL, type SiteFilter } from './site-filter.js';
import { siteFilterFor } from './site-model-learn.js';
import { SitemapFeed } from './sitemap-feed.js';
import type { CrawlEvents, CrawlSummary, PageEvent, StopReason } from './types.js';

/**
 * The dispatch's priority gap (options.ts `priorityGap`): 0 under a page budget when
 * pages may be discarded, else none (a crawl that keeps every page, threshold 0, has
 * nothing to save by waiting for the best host).
 */
function priorityGap(o: CrawlOptions, s: Setup): number {
  const keepsAll = s.threshold.kind === 'fixed' && s.threshold.value <= 0;
  const gap = o.priorityGap ?? (o.maxPages === undefined || keepsAll ? 'none' : 0);
  return gap === 'none' ? Number.POSITIVE_INFINITY : gap;
}

type Emit = <K extends keyof CrawlEvents>(name: K, ...args: CrawlEvents[K]) => void;

export class Engine {
  readonly #o: CrawlOptions;
  readonly #s: Setup;
  readonly #emit: Emit;
  readonly #fetcher: Fetcher;
  /** Analysis threads (`parseThreads`); null: pages are analysed on this thread. */
  readonly #analysis: AnalysisPool | null;
  readonly #rules: PageRules;
  readonly #dispatch: HostDispatch<ClaimedUrl>;
  readonly #wake = new Wakeup();
  readonly #abort = abortController();
  readonly #concurrency: number;
  /** The page rules, kept current as the crawl adapts and learns (rules.ts). */
  readonly #keeper: RuleKeeper;
  /** URLs from sitemaps, found in the background (sitemap-feed.ts); null when off. */
  readonly #sitemaps: SitemapFeed | null;
  /** Unreachable hosts' URLs held, redirects (settle.ts). */
  readonly #settle: Settler;
  /** When each host may fetch next (host-ready.ts). */
  readonly #ready: HostReadiness;

  #active = 0;
  /** Outcomes on their way to the store, and the figures they move (recorder.ts). */
  readonly #rec: Recorder;
  readonly #f: Figures;
  #reclaim: string[] = [];
  /** Claims from the store in the background (claimer.ts). */
  readonly #claimer: Claimer;
  #stopReason: StopReason | null = null;
  /** The run's record, progress and summary (run-log.ts). */
  readonly #log: RunLog;
  /** Retries, URLs in error put back, and the circuit breaker (healing.ts). */
  readonly #heal: Healing;

  readonly #hooks: EngineHooks;
  /** Pause, stop, threshold and weights asked through the store (control.ts). */
  #control: ControlWatch | null = null;
  /** The site model's link filter and its counts, when the crawl has one. */
  readonly siteFilter: SiteFilter | undefined;

  constructor(o: CrawlOptions, s: Setup, emit: Emit, hooks: EngineHooks = {}) {
    this.#o = o;
    this.#s = s;
    this.#emit = emit;
    this.#hooks = hooks;
    const m = s.models;
    const strategy = createStrategy(m.strategy, o.strategyOptions);
    const inScope = createScopeFilter({
      mode: o.scope,
      seeds: [...s.seeds],
      include: o.include,
      exclude: o.exclude,
    });
    // The limits are the validated fetcher options the fetcher is given too, not defaults
    // of the crawl's own (docs/crawl.md, "One per-host limit").
    this.#fetcher = hooks.fetcher ?? runFetcher(o.fetcher, inScope, s);
    this.#concurrency = o.fetcher.concurrency;
    this.#ready = new HostReadiness(this.#fetcher, this.#wake);
    const gap = priorityGap(o, s);
    this.#dispatch = new HostDispatch(o.fetcher.perHostConcurrency, o.domainDiversity, gap, {
      readyAt: (host, url) => this.#ready.readyAt(host, url),
    });
    // Links are followed where the scope and the site model both admit them; the
    // fetcher's scope (redirect targets) is the crawl's alone.
    this.siteFilter = siteFilterFor(o, s, this.#fetcher, {
      warn: (m) => this.#emit('warning', m),
      changed: () => this.#wake.notify(),
      linkText: () => this.#rules.linkText,
    });
    const filter = this.siteFilter;
    const follow = filter === undefined ? inScope : (u: string) => inScope(u) && filter.allows(u);
    this.#keeper = new RuleKeeper(o, s, strategy, follow);
    this.#rules = this.#keeper.rules;
    this.#analysis = AnalysisPool.start(
      parseThreadCount(o.parseThreads, availableParallelism()),
      { parse: this.#rules.parse, fingerprint: o.dedup },
      (m) => this.#emit('warning', `${m}: the crawl's thread analyses its pages`),
    );
    this.#sitemaps = SitemapFeed.create(o, s, this.#fetcher, follow, this.#rules.linkText, {
      changed: () => this.#wake.notify(),
      warn: (m) => this.#emit('warning', m),
    });
    this.#settle = new Settler(
      {
        retryMs: o.hostRetryMs,
        deadAfterMs: o.hostDeadAfterMs,
        timeoutsToPark: o.hostTimeouts,
      },
      {
        maxAttempts: o.maxAttempts,
        backoffMs: o.retryBackoffMs,
        robotsWaitMs: o.fetcher.robotsErrorTtlMs,
      },
      () => this.#wake.notify(),
    );
    // A crawl kept alive (watch/) goes on whatever fails: its revisits may still answer.
    this.#heal = new Healing(o, s.store, hooks.keepAlive === undefined);
    this.#f = startFigures(s.counts, s.fetchedTotal);
    this.#rec = new Recorder(
      s.lease,
      s.seeds,
      this.#f,
      (events) => this.#committed(events),
      () => this.stop('stopped'),
    );
    this.#claimer = new Claimer({
      lease: s.lease,
      dispatch: this.#dispatch,
      settle: this.#settle,
      rec: this.#rec,
      seen: () => this.#rules.seen,
      concurrency: this.#concurrency,
      perHost: o.fetcher.perHostConcurrency,
      queues: strategy.queues ?? 1,
      hostClaims: gap === Number.POSITIVE_INFINITY,
      active: () => this.#active,
      budget: () => this.#budget(),
      flush: () => this.#flush(),
      record: (r) => this.#record(r),
      wake: () => this.#wake.notify(),
    });
    this.#log = new RunLog(o, s, this.#f, () => this.#fetcher.stats());
  }

  /** Stops gracefully: fetches in flight are aborted and their URLs return to waiting. */
  stop(reason: StopReason = 'stopped'): void {
    if (this.#stopReason !== null) return;
    this.#stopReason = reason;
    this.#abort.abort(new AbortedError(`crawl ${reason}`));
    this.#wake.notify();
  }

  /** Paused through the control channel (control.ts): no request starts. */
  get paused(): boolean {
    return this.#control?.paused === true;
  }

  /** The page rules in force (kept current as the crawl adapts and learns). */
  get rules(): PageRules {
    return this.#rules;
  }

  /** New URLs may be waiting in the store (added by a revisit): claim again. */
  poke(): void {
    this.#claimer.dry = false;
    this.#claimer.useful = true;
    this.#wake.notify();
  }

  /** Budget of fetches not yet spoken for under `maxPages`. */
  #budget(): number {
    if (this.#o.maxPages === undefined) return Number.POSITIVE_INFINITY;
    return (
      this.#o.maxPages -
      this.#f.fetchedTotal -
      this.#rec.unstored -
      this.#active -
      this.#dispatch.size -
      this.#claimer.asked
    );
  }

  async run(): Promise<CrawlSummary> {
    const { store } = this.#s;
    await this.#log.begin();
    // The model this run decides by, kept so that status and the report can find it (by
    // the coordinator, when several processes crawl the store).
    if (this.#s.siteModel !== undefined && this.#s.coordination.isCoordinator())
      await store.setMeta(META_SITE_MODEL, this.#s.siteModel);
    await this.#heal.requeue(this.#f, this.#s.warnings);
    await this.#keeper.start(this.#emit);
    this.#control = await ControlWatch.forRun(this.#s, this.#keeper, () => this.#f.fetchedTotal, {
      wake: () => this.#wake.notify(),
      stop: () => this.stop('stopped'),
      warn: (m) => this.#emit('warning', m),
    });
    this.#emit('start', {
      resumed: this.#s.resumed,
      recovered: this.#s.recovered,
      seedsAdded: this.#s.seedsAdded,
      counts: { ...this.#f.counts },
    });
    for (const w of this.#s.warnings) this.#emit('warning', w);
    this.#sitemaps?.start();

    const onAbort = () => this.stop('stopped');
    this.#o.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.#o.signal?.aborted) this.stop('stopped');
    const durationTimer =
      this.#o.durationMs !== undefined
        ? setTimeout(() => this.stop('duration'), this.#o.durationMs)
        : undefined;
    const tick = setInterval(() => this.#tick(), this.#o.progressIntervalMs);
    const flushTimer = setInterval(() => {
      if (this.#rec.pending > 0) void this.#flush();
    }, this.#o.commitIntervalMs);

    let reason: StopReason;
    try {
      reason = await this.#loop();
    } finally {
      clearTimeout(durationTimer);
      clearInterval(tick);
      clearInterval(flushTimer);
      this.#o.signal?.removeEventListener('abort', onAbort);
      await this.#control?.close();
    }
    try {
      while (this.#active > 0) await this.#wake.wait();
      // Dead hosts' URLs: one failed attempt each, for a later run to try again.
      for (const r of this.#settle.dead()) this.#record(r);
      await this.#flush();
      this.#rec.check();
      await this.#claimer.putBackDone();
      this.#reclaim.push(...[...this.#dispatch.drain(), ...this.#settle.drain()].map((c) => c.url));
      if (this.#reclaim.length > 0) {
        const n = await this.#s.lease.reclaim(this.#reclaim);
        this.#f.counts.processing -= n;
        this.#f.counts.waiting += n;
      }
      await this.#sitemaps?.close();
      await this.siteFilter?.close();
      await this.#trim();
      await this.#keeper.close();
      if (this.siteFilter !== undefined && this.#s.coordination.isCoordinator())
        await store.setMeta(META_SITE_FILTER, this.siteFilter.stats);
      this.#f.counts = await store.counts();
      const summary = await this.#log.end(reason, await this.#heal.note(reason));
      this.#emit('end', summary);
      return summary;
    } finally {
      this.#ready.close();
      await this.#s.lease.close().catch(() => {});
      if (this.#hooks.fetcher === undefined) await this.#fetcher.close();
      await this.#analysis?.close();
    }
  }

  async #loop(): Promise<StopReason> {
    const o = this.#o;
    for (;;) {
      this.#rec.check();
      if (this.#stopReason !== null) {
        await this.#claimer.landed();
        return this.#stopReason;
      }
      // Start what can start; URLs of unreachable hosts wait with their host.
      const now = Date.now();
      const probes = this.#settle.due(now);
      if (probes.length > 0) this.#dispatch.push(probes);
      const gate = this.#hooks.gate;
      // Paused (control.ts): nothing starts, and no timer is set for what waits.
      const paused = this.#control?.paused === true;
      while (!paused && this.#active < this.#concurrency) {
        if (gate !== undefined && !gate.ready()) {
          if (this.#dispatch.size > 0) this.#ready.wakeAt(gate.nextAt());
          break;
        }
        const c = this.#dispatch.take();
        if (c === undefined) break;
        // Queued before the site model refused its pattern, or before a key it
        // copies by was learnt: not fetched (seeds are, whatever the model says).
        const refused = this.#s.seeds.has(c.url)
          ? null
          : queuedRefusal(c, this.siteFilter, this.#rules);
        if (refused !== null) {
          this.#dispatch.release(c.url);
          const e = new OutOfScopeError(`${c.url}: ${refused.reason}`);
          this.#record(failure(c, now, errorText(e), null));
          if (refused.queue !== null) this.#rec.queue(refused.queue);
          continue;
        }
        if (this.#settle.admit(c, now) === 'send') {
          gate?.take();
          this.#start(c);
          continue;
        }
        this.#dispatch.release(c.url);
      }
      // URLs held back by their host's delay: try again when the first is due.
      if (!paused && this.#active < this.#concurrency)
        this.#ready.wakeAt(this.#dispatch.nextReadyAt);
      const budget = this.#budget();
      // URLs held for unreachable hosts do not keep a spent budget's run going.
      const idle = this.#active === 0 && this.#dispatch.size === 0 && !this.#claimer.busy;
      if (budget <= 0 && idle) {
        await this.#flush();
        if (o.maxPages !== undefined && this.#f.fetchedTotal >= o.maxPages) return 'max-pages';
        continue;
      }
      this.#claimer.refill(budget);
      if (this.#claimer.dry && this.#dispatch.size === 0 && !this.#claimer.busy) {
        // The frontier is empty for now (dry.ts).
        const step = await whenDry({
          claimer: this.#claimer,
          rec: this.#rec,
          sitemaps: this.#sitemaps,
          heal: this.#heal,
          settle: this.#settle,
          ready: this.#ready,
          wake: this.#wake,
          lease: this.#s.lease,
          active: this.#active,
          flush: () => this.#flush(),
          keepAlive: this.#hooks.keepAlive,
        });
        if (step === 'again') continue;
        if (step !== 'wait') return step;
      }
      await this.#wake.wait();
    }
  }

  #start(c: ClaimedUrl): void {
    this.#active++;
    const signal = this.#abort.signal;
    const follow = this.#follow(c.url);
    const pool = this.#analysis;
    this.#fetcher.fetch(c.url, { signal, follow }).then(
      (res) =>
        pool === null || responseKind(res) !== 'page'
          ? this.#done(c, res, null)
          : pool.analyze(res).then((pre) => this.#done(c, res, null, pre)),
      (err: unknown) => this.#done(c, null, err),
    );
  }

  /**
   * The `follow` hook of the fetch of `url`. This run's own claims and targets are
   * known to it; a store that earlier runs (or other workers) filled is asked too, so
   * that a redirect to a page already fetched (or being fetched) stops there and is
   * recorded as a redirect to it, not fetched and counted again.
   */
  #follow(url: string): (location: string) => boolean | Promise<boolean> {
    const ours = this.#settle.follow(url);
    if (!this.#s.resumed && !this.#s.coordination.shared) return ours;
    return async (location) => {
      if (!ours(location)) return false;
      const row = await this.#s.store.pageRow(location);
      return row === null || row.state === 'waiting';
    };
  }

  /** The fetch of `c` ended; `pre`: its response analysed on an analysis thread. */
  #done(c: ClaimedUrl, res: FetchResult | null, err: unknown, pre?: Analysis): void {
    this.#active--;
    this.#claimer.useful = true;
    this.#dispatch.release(c.url);
    try {
      if (res !== null) this.#f.run.bytes += res.bytes;
      const stopping = this.#stopReason !== null;
      const aborted = stopping && err instanceof AbortedError;
      if (!aborted && this.#heal.ended(c.url, res, err, Date.now())) this.stop('failing');
      const settled = this.#settle.ended(c, res, err, stopping, (owner, r, claimed) => {
        const p = pageOutcome(
          owner,
          r,
          this.#s.seeds.has(claimed.url),
          this.#rules,
          r.timings.startedAt,
          pre,
        );
        this.#sitemaps?.saw(claimed.url);
        this.#s.threshold.observe(p.relevance);
        const dup = 'duplicate' in p.outcome.result && p.outcome.result.duplicate != null;
        if (p.outcome.state === 'complete' || dup) this.siteFilter?.observe(r.finalUrl, dup);
        return p;
      });
      for (const x of settled.records) this.#record(x);
      if (settled.send.length > 0) this.#dispatch.push(settled.send);
      for (const x of settled.reclaim) this.#reclaim.push(x.url);
    } catch (e) {
      this.#record(failure(c, Date.now(), errorText(e), res?.status ?? null));
    } finally {
      if (this.#rec.pending >= this.#o.commitBatch) void this.#flush();
      this.#wake.notify();
    }
  }

  #record(r: { outcome: Outcome; event: PageEvent }): void {
    this.#rec.record(r.outcome, r.event);
    const found = (r.outcome.result as { newUrls?: readonly { priority: number }[] }).newUrls;
    if (found !== undefined) for (const n of found) this.#dispatch.promise(n.priority);
    // The next claim commits it first: its links (or its freed place) count.
    this.#claimer.useful = true;
  }

  /** After a batch of outcomes is stored. */
  async #committed(events: PageEvent[]): Promise<void> {
    this.#claimer.dry = false;
    this.#claimer.useful = true;
    this.#settle.committed(events);
    for (const e of events) this.#emit('page', e);
    await this.#keeper.afterCommit(this.#f.fetchedTotal);
    if (this.#o.maxFrontier !== undefined && this.#f.counts.waiting > this.#o.maxFrontier) {
      await this.#trim();
    }
  }

  #flush(): Promise<void> {
    return this.#rec.flush().finally(() => this.#wake.notify());
  }

  async #trim(): Promise<void> {
    if (this.#o.maxFrontier === undefined) return;
    const n = await this.#s.store.trimWaiting(this.#o.maxFrontier);
    if (n > 0) this.#f.counts = await this.#s.store.counts();
  }

  #tick(): void {
    if (this.#stopReason === null && this.#heal.tripped(Date.now())) this.stop('failing');
    this.#s.store.counts().then(
      (counts) => {
        this.#f.counts = counts;
      },
      () => {},
    );
    this.#emit('progress', this.#log.progress());
  }
}
