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
 */
import { AbortedError } from '../errors/index.js';
import { createFetcher, type Fetcher, type FetchResult } from '../fetch/index.js';
import { claimFromQueues, createStrategy, HostDispatch } from '../frontier/index.js';
import type { ClaimedUrl, ClaimOptions, HostClaim, Outcome, StateCounts } from '../store/index.js';
import { createScopeFilter } from '../url/index.js';
import { progressOf, stopMessage, summaryOf, type Tallies } from './figures.js';
import { HostReadiness } from './host-ready.js';
import type { CrawlOptions } from './options.js';
import { failure, type PageRules, pageOutcome } from './page.js';
import { RuleKeeper } from './rules.js';
import { Settler } from './settle.js';
import type { Setup } from './setup.js';
import { abortController, errorText, Wakeup } from './signals.js';
import { SitemapFeed } from './sitemap-feed.js';
import type { CrawlEvents, CrawlRunRecord, CrawlSummary, PageEvent, StopReason } from './types.js';
import { META_RUNS, REFUSED_CODES } from './types.js';

/** Claimed URLs kept per host beyond its free fetch slots (the rest go back to waiting). */
const HOST_BACKLOG = 1;
/** Claimed URLs the fetch queue holds at most for hosts waiting out their delay. */
const MAX_DISPATCH = 1024;
/** Waiting URLs a host-aware claim looks at, at most. */
const CLAIM_SCAN_MAX = 8192;
/** …and at least (a small claim must still reach past the few hosts atop the frontier). */
const CLAIM_SCAN_MIN = 4096;

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
  readonly #rules: PageRules;
  readonly #dispatch: HostDispatch<ClaimedUrl>;
  readonly #wake = new Wakeup();
  readonly #abort = abortController();
  readonly #concurrency: number;
  readonly #perHost: number;
  /** Claims with regard to hosts (no priority gap: time, not fetches, is spent). */
  readonly #hostClaims: boolean;
  readonly #claimBatch: number;
  /** Frontier partitions claimed in turn (multi-queue), 1 otherwise. */
  readonly #queues: number;
  /** The page rules, kept current as the crawl adapts and learns (rules.ts). */
  readonly #keeper: RuleKeeper;
  /** URLs from sitemaps, found in the background (sitemap-feed.ts); null when off. */
  readonly #sitemaps: SitemapFeed | null;
  /** Unreachable hosts' URLs held, redirects (settle.ts). */
  readonly #settle: Settler;
  /** When each host may fetch next (host-ready.ts). */
  readonly #ready: HostReadiness;

  #active = 0;
  #pending: Outcome[] = [];
  #pendingEvents: PageEvent[] = [];
  #committing: Promise<void> | null = null;
  #commitError: unknown = null;
  #reclaim: string[] = [];
  /** The store had nothing to claim; reset by every commit (which may add URLs). */
  #dry = false;
  #stopReason: StopReason | null = null;
  #fetchedTotal: number;
  #counts: StateCounts;
  readonly #run = { fetched: 0, complete: 0, discard: 0, error: 0, redirect: 0, bytes: 0 };
  /** URLs failed without a request being sent, by error code. */
  readonly #refused: Record<string, number> = {};
  readonly #startedAt = Date.now();
  readonly #cpuAtStart = process.cpuUsage();
  #lastTick = { at: Date.now(), fetched: 0 };
  readonly #runRecord: CrawlRunRecord;
  readonly #seedErrors: { url: string; error: string }[] = [];

  constructor(o: CrawlOptions, s: Setup, emit: Emit) {
    this.#o = o;
    this.#s = s;
    this.#emit = emit;
    const m = s.models;
    const strategy = createStrategy(m.strategy, o.strategyOptions);
    this.#queues = strategy.queues ?? 1;
    const inScope = createScopeFilter({
      mode: o.scope,
      seeds: [...s.seeds],
      include: o.include,
      exclude: o.exclude,
    });
    // The limits are the validated fetcher options the fetcher is given too, not defaults
    // of the crawl's own (docs/crawl.md, "One per-host limit").
    this.#fetcher = createFetcher({ ...o.fetcher, scope: inScope });
    this.#concurrency = o.fetcher.concurrency;
    this.#perHost = o.fetcher.perHostConcurrency;
    // Claims stay small: the frontier's order is only as fresh as the last claim.
    this.#claimBatch = Math.max(8, Math.min(this.#concurrency * 2, 1024));
    this.#ready = new HostReadiness(this.#fetcher, this.#wake);
    const gap = priorityGap(o, s);
    this.#hostClaims = gap === Number.POSITIVE_INFINITY;
    this.#dispatch = new HostDispatch(this.#perHost, o.domainDiversity, gap, {
      readyAt: (host, url) => this.#ready.readyAt(host, url),
    });
    this.#keeper = new RuleKeeper(o, s, strategy, inScope);
    this.#rules = this.#keeper.rules;
    this.#sitemaps = SitemapFeed.create(o, s, this.#fetcher, inScope, this.#rules.linkText, {
      changed: () => this.#wake.notify(),
      warn: (m) => this.#emit('warning', m),
    });
    this.#settle = new Settler(
      {
        retryMs: o.hostRetryMs,
        deadAfterMs: o.hostDeadAfterMs,
        timeoutsToPark: o.hostTimeouts,
      },
      () => this.#wake.notify(),
    );
    this.#fetchedTotal = s.fetchedTotal;
    this.#counts = { ...s.counts };
    this.#runRecord = {
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

  /** Stops gracefully: fetches in flight are aborted and their URLs return to waiting. */
  stop(reason: StopReason = 'stopped'): void {
    if (this.#stopReason !== null) return;
    this.#stopReason = reason;
    this.#abort.abort(new AbortedError(`crawl ${reason}`));
    this.#wake.notify();
  }

  /** Budget of fetches not yet spoken for under `maxPages`. */
  #budget(): number {
    if (this.#o.maxPages === undefined) return Number.POSITIVE_INFINITY;
    return (
      this.#o.maxPages -
      this.#fetchedTotal -
      this.#pending.length -
      this.#active -
      this.#dispatch.size -
      (this.#committing ? this.#committingCount : 0) -
      this.#claimingCount
    );
  }
  #committingCount = 0;
  /** A claim sent to the store and not answered yet, and how many URLs it asked for. */
  #claiming: Promise<void> | null = null;
  #claimingCount = 0;

  async run(): Promise<CrawlSummary> {
    const { store } = this.#s;
    const runs = [...this.#s.runs, this.#runRecord];
    await store.setMeta(META_RUNS, runs);
    await this.#keeper.start(this.#emit);
    this.#emit('start', {
      resumed: this.#s.resumed,
      recovered: this.#s.recovered,
      seedsAdded: this.#s.seedsAdded,
      counts: { ...this.#counts },
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
      if (this.#pending.length > 0) void this.#flush();
    }, this.#o.commitIntervalMs);

    let reason: StopReason;
    try {
      reason = await this.#loop();
    } finally {
      clearTimeout(durationTimer);
      clearInterval(tick);
      clearInterval(flushTimer);
      this.#o.signal?.removeEventListener('abort', onAbort);
    }
    try {
      while (this.#active > 0) await this.#wake.wait();
      await this.#flush();
      this.#throwCommitError();
      await this.#reclaimPending;
      this.#reclaim.push(...[...this.#dispatch.drain(), ...this.#settle.drain()].map((c) => c.url));
      if (this.#reclaim.length > 0) {
        const n = await this.#s.lease.reclaim(this.#reclaim);
        this.#counts.processing -= n;
        this.#counts.waiting += n;
      }
      await this.#sitemaps?.close();
      await this.#trim();
      await this.#keeper.close();
      this.#counts = await store.counts();
      this.#runRecord.endedAt = Date.now();
      this.#runRecord.stopReason = reason;
      this.#runRecord.fetched = this.#run.fetched;
      this.#runRecord.requests = this.#fetcher.stats().requests;
      this.#runRecord.refused = { ...this.#refused };
      await store.setMeta(META_RUNS, runs);
      const summary = this.#summary(reason);
      this.#emit('end', summary);
      return summary;
    } finally {
      this.#ready.close();
      await this.#s.lease.close().catch(() => {});
      await this.#fetcher.close();
    }
  }

  async #loop(): Promise<StopReason> {
    const o = this.#o;
    for (;;) {
      this.#throwCommitError();
      if (this.#stopReason !== null) {
        await this.#claiming;
        return this.#stopReason;
      }
      // Start what can start; URLs of unreachable hosts wait with their host.
      const now = Date.now();
      const probes = this.#settle.due(now);
      if (probes.length > 0) this.#dispatch.push(probes);
      while (this.#active < this.#concurrency) {
        const c = this.#dispatch.take();
        if (c === undefined) break;
        const verdict = this.#settle.admit(c, now);
        if (verdict === 'send') {
          this.#start(c);
          continue;
        }
        this.#dispatch.release(c.url);
        if (verdict !== 'held') this.#record(verdict);
      }
      // URLs held back by their host's delay: try again when the first is due.
      if (this.#active < this.#concurrency) this.#ready.wakeAt(this.#dispatch.nextReadyAt);
      const budget = this.#budget();
      // URLs held for unreachable hosts do not keep a spent budget's run going.
      const idle = this.#active === 0 && this.#dispatch.size === 0 && this.#claiming === null;
      if (budget <= 0 && idle) {
        await this.#flush();
        if (o.maxPages !== undefined && this.#fetchedTotal >= o.maxPages) return 'max-pages';
        continue;
      }
      this.#refill(budget);
      if (this.#dry && this.#dispatch.size === 0 && this.#claiming === null) {
        // The frontier is empty for now: what is being fetched or committed may refill it.
        if (this.#pending.length > 0 || this.#committing) {
          await this.#flush();
          continue;
        }
        if (this.#active === 0) {
          // Sitemap URLs fill in once the links run out (sitemap-feed.ts).
          if (await this.#sitemaps?.release()) {
            this.#dry = false;
            continue;
          }
          // Held URLs of unreachable hosts: those that never answered fail now; the
          // others are waited for (their probes wake us).
          if (!this.#sitemaps?.busy && this.#settle.held > 0) {
            const gone = this.#settle.giveUp();
            for (const r of gone) this.#record(r);
            if (gone.length > 0) continue;
          }
          if (!this.#sitemaps?.busy && this.#settle.held === 0) return 'exhausted';
        }
      }
      await this.#wake.wait();
    }
  }

  /**
   * Keeps the dispatch queue filled from the store, in the background: fetches go
   * on starting while the store (perhaps busy with a commit) answers the claim.
   */
  /** Claimed URLs that would only wait: back to waiting, to be claimed again in order. */
  #putBack(urls: ClaimedUrl[]): void {
    if (urls.length === 0) return;
    for (const c of urls) this.#rules.seen.requeued(c.url, c.priority);
    this.#reclaimPending = this.#reclaimPending
      .then(() => this.#s.lease.reclaim(urls.map((c) => c.url)))
      .then(
        (n) => {
          this.#counts.processing -= n;
          this.#counts.waiting += n;
        },
        (e: unknown) => {
          this.#commitError ??= e;
          this.stop('stopped');
        },
      );
  }
  #reclaimPending: Promise<void> = Promise.resolve();
  /** A commit or an ended fetch since the last claim: a claim may find something new. */
  #claimUseful = true;

  #refill(spare: number): void {
    if (this.#claiming !== null) return;
    let budget = spare;
    if (budget <= 0 && this.#dispatch.awaitsClaim && this.#dispatch.size > 0) {
      // The budget is held by URLs worse than links just found: those take their place.
      this.#putBack(this.#dispatch.drain());
      budget = this.#budget();
    }
    if (budget <= 0) {
      this.#dispatch.forgetPromise();
      return;
    }
    // Links found beat every URL here (under a priority gap): claim them now.
    if (!this.#dispatch.awaitsClaim) {
      if (this.#dry) return;
      // Enough here, unless free slots wait on these URLs' hosts alone (busy, or in
      // their delay) while other hosts could fetch: then claim those hosts' URLs too.
      const hostsHold =
        this.#active < this.#concurrency &&
        this.#dispatch.hostsHold &&
        this.#dispatch.size < MAX_DISPATCH;
      if (this.#dispatch.size >= this.#claimBatch / 2 && !hostsHold) return;
      // Nothing new since the last claim: wait for a commit or an ended fetch (never
      // while nothing is in flight, so that the crawl cannot stall).
      if (!this.#claimUseful && (this.#active > 0 || this.#dispatch.size > 0)) return;
    }
    const n = Math.min(
      Math.max(this.#claimBatch - this.#dispatch.size, this.#claimBatch / 2),
      budget,
    );
    this.#claimingCount = n;
    // Anything that happens from now on (a commit, an ended fetch) makes the next claim useful.
    this.#claimUseful = false;
    this.#dispatch.claimStarted();
    // Outcomes not committed yet hold links the claim should see: commit them first.
    const fresh = this.#pending.length > 0;
    this.#claiming = (fresh ? this.#flush().then(() => this.#claim(n)) : this.#claim(n))
      .then(
        (got) => {
          this.#dispatch.claimLanded();
          this.#counts.waiting -= got.length;
          this.#counts.processing += got.length;
          for (const c of got) this.#rules.seen.claimed(c.url);
          if (got.length > 0) {
            const { send, records } = this.#settle.claimed(got);
            this.#dispatch.push(send);
            for (const r of records) this.#record(r);
            // URLs that would only wait behind their host's fetches go back to waiting,
            // so that better links found meanwhile pass them.
            this.#putBack(this.#dispatch.trim(HOST_BACKLOG));
          } else this.#dry = true;
        },
        (e: unknown) => {
          this.#dispatch.claimLanded();
          this.#commitError ??= e;
          this.stop('stopped');
        },
      )
      .finally(() => {
        this.#claiming = null;
        this.#claimingCount = 0;
        this.#wake.notify();
      });
  }

  /**
   * Claims `n` URLs, best first; with several queues, a share from each
   * (frontier/queues.ts). Without a priority gap (time, not fetches, is spent) the
   * claim is host-aware: the best URLs of hosts that do not have their share here
   * already. Under a gap the best come whatever their hosts (other hosts' worse
   * URLs could not start anyway).
   */
  #claim(n: number): Promise<ClaimedUrl[]> {
    const lease = this.#s.lease;
    const hosts: HostClaim | undefined = this.#hostClaims
      ? {
          perHost: this.#perHost,
          skip: this.#dispatch.hostsWithAtLeast(this.#perHost),
          scan: Math.max(CLAIM_SCAN_MIN, Math.min(CLAIM_SCAN_MAX, 32 * n)),
        }
      : undefined;
    const options = (queue?: { index: number; of: number }): ClaimOptions | undefined =>
      queue === undefined && hosts === undefined
        ? undefined
        : { ...(queue === undefined ? {} : { queue }), ...(hosts === undefined ? {} : { hosts }) };
    if (this.#queues === 1) return lease.claim(n, options());
    return claimFromQueues((k, queue) => lease.claim(k, options(queue)), n, this.#queues);
  }

  #start(c: ClaimedUrl): void {
    this.#active++;
    const signal = this.#abort.signal;
    const follow = this.#settle.follow(c.url);
    this.#fetcher.fetch(c.url, { signal, follow }).then(
      (res) => this.#done(c, res, null),
      (err: unknown) => this.#done(c, null, err),
    );
  }

  #done(c: ClaimedUrl, res: FetchResult | null, err: unknown): void {
    this.#active--;
    this.#claimUseful = true;
    this.#dispatch.release(c.url);
    try {
      if (res !== null) this.#run.bytes += res.bytes;
      const stopping = this.#stopReason !== null;
      const settled = this.#settle.ended(c, res, err, stopping, (owner, r, claimed) => {
        const p = pageOutcome(
          owner,
          r,
          this.#s.seeds.has(claimed.url),
          this.#rules,
          r.timings.startedAt,
        );
        this.#sitemaps?.saw(claimed.url);
        this.#s.threshold.observe(p.relevance);
        return p;
      });
      for (const x of settled.records) this.#record(x);
      if (settled.send.length > 0) this.#dispatch.push(settled.send);
      for (const x of settled.reclaim) this.#reclaim.push(x.url);
    } catch (e) {
      this.#record(failure(c, Date.now(), errorText(e), res?.status ?? null));
    } finally {
      if (this.#pending.length >= this.#o.commitBatch) void this.#flush();
      this.#wake.notify();
    }
  }

  #record(r: { outcome: Outcome; event: PageEvent }): void {
    const e = r.event;
    if (e.error !== null && e.status === null) {
      const code = e.error.slice(0, Math.max(0, e.error.indexOf(':')));
      if (REFUSED_CODES.has(code)) this.#refused[code] = (this.#refused[code] ?? 0) + 1;
    }
    this.#pending.push(r.outcome);
    this.#pendingEvents.push(r.event);
    const found = (r.outcome.result as { newUrls?: readonly { priority: number }[] }).newUrls;
    if (found !== undefined) for (const n of found) this.#dispatch.promise(n.priority);
    // The next claim commits it first: its links (or its freed place) count.
    this.#claimUseful = true;
  }

  /** Commits pending outcomes (one commit at a time); resolves when they are stored. */
  #flush(): Promise<void> {
    if (this.#committing)
      return this.#committing.then(() => (this.#pending.length > 0 ? this.#flush() : undefined));
    if (this.#pending.length === 0) return Promise.resolve();
    const batch = this.#pending;
    const events = this.#pendingEvents;
    this.#pending = [];
    this.#pendingEvents = [];
    this.#committingCount = batch.length;
    this.#committing = (async () => {
      try {
        const lost = await this.#s.lease.commit(batch);
        this.#counts.processing -= batch.length - lost.size;
        for (const e of lost.size === 0
          ? events
          : events.filter((_, i) => !lost.has(batch[i]?.url as string))) {
          if (e.error !== null && this.#s.seeds.has(e.url)) {
            this.#seedErrors.push({ url: e.url, error: e.error });
          }
          // The page budget counts responses that ended a URL (docs/crawl.md).
          if (e.status !== null && e.state !== 'redirect') this.#fetchedTotal++;
          if (e.finalUrl !== undefined) this.#counts.redirect++;
          this.#counts[e.state]++;
          this.#run[e.state]++;
          this.#run.fetched++;
          this.#counts.waiting += e.newUrls;
        }
        this.#dry = false;
        this.#claimUseful = true;
        this.#settle.committed(events);
        for (const e of events) this.#emit('page', e);
        await this.#keeper.afterCommit(this.#fetchedTotal);
        if (this.#o.maxFrontier !== undefined && this.#counts.waiting > this.#o.maxFrontier) {
          await this.#trim();
        }
      } catch (e) {
        this.#commitError = e;
        this.stop('stopped');
      } finally {
        this.#committing = null;
        this.#committingCount = 0;
        this.#wake.notify();
      }
    })();
    return this.#committing;
  }

  async #trim(): Promise<void> {
    if (this.#o.maxFrontier === undefined) return;
    const n = await this.#s.store.trimWaiting(this.#o.maxFrontier);
    if (n > 0) this.#counts = await this.#s.store.counts();
  }

  #throwCommitError(): void {
    if (this.#commitError !== null) throw this.#commitError;
  }

  #tallies(): Tallies {
    const fs = this.#fetcher.stats();
    return {
      now: Date.now(),
      startedAt: this.#startedAt,
      counts: this.#counts,
      run: this.#run,
      fetchedTotal: this.#fetchedTotal,
      requests: fs.requests,
      waitedForHost: fs.waited,
      refused: this.#refused,
      lostClaims: this.#s.lease.lostClaims,
      lastTick: this.#lastTick,
      inFlight: fs.inFlight + fs.queued,
    };
  }

  #tick(): void {
    this.#s.store.counts().then(
      (counts) => {
        this.#counts = counts;
      },
      () => {},
    );
    const p = progressOf(this.#tallies());
    this.#lastTick = { at: Date.now(), fetched: this.#run.fetched };
    this.#emit('progress', p);
    this.#runRecord.endedAt = Date.now();
    this.#runRecord.fetched = this.#run.fetched;
    this.#runRecord.requests = this.#fetcher.stats().requests;
    this.#runRecord.refused = { ...this.#refused };
    void this.#s.store.setMeta(META_RUNS, [...this.#s.runs, this.#runRecord]).catch(() => {});
  }

  #summary(reason: StopReason): CrawlSummary {
    const message = stopMessage(reason, this.#counts, this.#o, this.#seedErrors);
    const { resumed, recovered } = this.#s;
    const cpu = process.cpuUsage(this.#cpuAtStart);
    const resources = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    return summaryOf(
      this.#tallies(),
      reason,
      message,
      resumed,
      recovered,
      this.#seedErrors,
      resources,
    );
  }
}
