/**
 * `watch(crawlOptions, watchOptions)`: an incremental crawl (DESIGN 1.3). It goes on
 * with the frontier (new URLs) and revisits the kept pages as often as the plan says
 * they are worth (planner.ts), both within one request budget over all hosts
 * (budget.ts) and one fetcher (per-host politeness over both), until the duration
 * ends or it is stopped. Like a crawl it resumes: the estimates live in the store.
 *
 * Returns a `WatchRun`: the crawl's events (`page`, `progress`, `warning`, …) plus
 * `revisit` (every recorded revisit), `changed` (those that found a change) and
 * `plan` (each new revisit plan); awaiting it gives the summary.
 */
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { CrawlEvents, CrawlOptionsInput, CrawlSummary } from '../crawl/index.js';
import { CrawlLease, Engine, parseCrawlOptions, runFetcher, setUp } from '../crawl/parts.js';
import { InvalidOptionError } from '../errors/index.js';
import { MS_PER_DAY } from '../schedule/index.js';
import type { VisitChange, VisitOutcome } from '../store/index.js';
import { createScopeFilter } from '../url/index.js';
import { type Budget, parseBudget, perDay, RequestBudget } from './budget.js';
import {
  META_PLAN,
  type PlanSummary,
  planRevisits,
  REVISIT_POLICIES,
  REVISIT_WEIGHTS,
  type RevisitPolicy,
  type RevisitWeight,
} from './planner.js';
import { Reviser } from './reviser.js';

export const watchOptionsSchema = z.strictObject({
  /** Requests over all hosts: `30/min`, or `{ requests, perMs }`. */
  budget: z.union([
    z.string(),
    z.strictObject({ requests: z.number().positive(), perMs: z.number().positive() }),
  ]),
  /** How long to watch, ms. @default until stopped */
  durationMs: z.number().int().positive().optional(),
  /** Share of the budget kept for new URLs while the frontier has some. @default 0.5 */
  discoveryShare: z.number().min(0).max(1).default(0.5),
  /** How often the revisit plan is made again, ms. @default 60000 */
  planIntervalMs: z.number().int().positive().default(60_000),
  /** How revisits are planned (planner.ts `RevisitPolicy`). @default 'freshness' */
  policy: z.enum(REVISIT_POLICIES as [RevisitPolicy, ...RevisitPolicy[]]).default('freshness'),
  /** What a page's freshness is worth to the plan (planner.ts `RevisitWeight`). @default 'none' */
  weightBy: z.enum(REVISIT_WEIGHTS as [RevisitWeight, ...RevisitWeight[]]).default('none'),
  /** Keep the body of every version a revisit finds (the newest replaces the stored one either way). @default false */
  keepVersions: z.boolean().default(false),
  /** Revisits in flight at most. @default 4 */
  revisitConcurrency: z.number().int().min(1).max(256).default(4),
});
export type WatchOptionsInput = z.input<typeof watchOptionsSchema>;
export type WatchOptions = z.output<typeof watchOptionsSchema>;

/** Parses watch options; an invalid one throws `InvalidOptionError` naming it. */
export function parseWatchOptions(input: WatchOptionsInput): WatchOptions & { rate: Budget } {
  const r = watchOptionsSchema.safeParse(input);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InvalidOptionError(
      `watch option ${i?.path.join('.') || '(options)'}: ${i?.message}`,
      { cause: r.error },
    );
  }
  const b = r.data.budget;
  return { ...r.data, rate: typeof b === 'string' ? parseBudget(b, 'budget') : b };
}

/** The last watch's settings, kept in the store for `status`. */
export interface WatchRecord {
  budget: Budget;
  policy: RevisitPolicy;
  discoveryShare: number;
  startedAt: number;
}
export const META_WATCH = 'watch.run';

/** One recorded revisit, as reported. */
export interface VisitEvent {
  url: string;
  at: number;
  status: number | null;
  change: VisitChange;
  newUrls: number;
  dueAt: number | null;
}

export interface WatchSummary {
  stopReason: 'duration' | 'stopped';
  elapsedMs: number;
  /** The frontier's run. */
  crawl: CrawlSummary;
  revisits: Record<VisitChange, number> & { newUrls: number };
  /** Requests started: revisits, frontier fetches, and extra requests (redirect hops, retries). */
  requests: { revisit: number; discovery: number; extra: number };
  budget: Budget;
  plan: PlanSummary | null;
}

export interface WatchEvents extends CrawlEvents {
  revisit: [VisitEvent];
  changed: [VisitEvent];
  plan: [PlanSummary];
  watchEnd: [WatchSummary];
}

export class WatchRun extends EventEmitter<WatchEvents> implements PromiseLike<WatchSummary> {
  readonly #done: Promise<WatchSummary>;
  readonly #stop = new AbortController();

  constructor(crawlInput: CrawlOptionsInput, watchInput: WatchOptionsInput) {
    super();
    this.#done = this.#run(crawlInput, watchInput);
    this.#done.catch(() => {});
  }

  /** Stops: revisits in flight are given back, the frontier's run ends gracefully. */
  stop(): Promise<WatchSummary> {
    this.#stop.abort();
    return this.#done;
  }

  async #run(crawlInput: CrawlOptionsInput, watchInput: WatchOptionsInput): Promise<WatchSummary> {
    await Promise.resolve();
    const w = parseWatchOptions(watchInput);
    const o = parseCrawlOptions(crawlInput);
    if (o.durationMs !== undefined) {
      throw new InvalidOptionError(
        "watch: give the duration as the watch option durationMs, not the crawl's",
      );
    }
    const t0 = Date.now();
    const emit = this.emit.bind(this) as (name: string, ...args: unknown[]) => boolean;
    const s = await setUp(o);
    const inScope = createScopeFilter({
      mode: o.scope,
      seeds: [...s.seeds],
      include: o.include,
      exclude: o.exclude,
    });
    const fetcher = runFetcher(o.fetcher, inScope, s);
    const budget = new RequestBudget(w.rate, Date.now, {
      shared: s.takeBudget,
      warn: (m) => emit('warning', m),
    });
    const lease = await CrawlLease.open(s.store);
    await s.store.setMeta(META_WATCH, {
      budget: w.rate,
      policy: w.policy,
      discoveryShare: w.discoveryShare,
      startedAt: t0,
    } satisfies WatchRecord);
    let stopReason: WatchSummary['stopReason'] = 'stopped';
    let stopping = false;
    const engine = new Engine(o, s, (name, ...args) => emit(name, ...args), {
      fetcher,
      gate: budget.discovery,
      keepAlive: () => !stopping,
    });
    let freqs = new Map<string, number>();
    const counts: WatchSummary['revisits'] = {
      unchanged: 0,
      changed: 0,
      gone: 0,
      failed: 0,
      newUrls: 0,
    };
    const reviser = new Reviser({
      lease,
      fetcher,
      budget,
      rules: () => engine.rules,
      concurrency: w.revisitConcurrency,
      paused: () => engine.paused,
      keepVersions: w.keepVersions,
      nextDue: (url, at) => {
        const f = freqs.get(url) ?? 0;
        return f > 0 ? at + MS_PER_DAY / f : null;
      },
      visited: (v: VisitOutcome, newUrls) => {
        counts[v.change]++;
        counts.newUrls += newUrls;
        const e: VisitEvent = {
          url: v.url,
          at: v.at,
          status: v.status,
          change: v.change,
          newUrls,
          dueAt: v.dueAt,
        };
        emit('revisit', e);
        if (v.change === 'changed') emit('changed', e);
      },
      found: () => engine.poke(),
      warn: (m) => emit('warning', m),
    });
    // With a site model, its list pages are the change detectors from the start.
    const filter = engine.siteFilter;
    const isList =
      filter === undefined ? undefined : (url: string) => filter.decide(url).kind === 'list';
    let plan: PlanSummary | null = null;
    const firstFetch = new Map<string, number>();
    let planning: Promise<void> = Promise.resolve();
    let lastPlan: { at: number; discovery: number } | undefined;
    const replan = () => {
      planning = planning
        .then(async () => {
          if (stopping) return;
          const now = Date.now();
          const made = budget.taken.discovery;
          const recent =
            lastPlan === undefined || now <= lastPlan.at
              ? undefined
              : ((made - lastPlan.discovery) * MS_PER_DAY) / (now - lastPlan.at);
          lastPlan = { at: now, discovery: made };
          const r = await planRevisits(s.store, {
            policy: w.policy,
            totalPerDay: perDay(w.rate),
            discoveryShare: w.discoveryShare,
            yields: reviser.yields,
            firstFetch,
            recentDiscoveryPerDay: recent,
            planIntervalMs: w.planIntervalMs,
            weightBy: w.weightBy,
            isList,
            now,
          });
          plan = r.summary;
          freqs = r.frequencies;
          budget.setRevisitRate(r.summary.refreshPerDay);
          await s.store.setMeta(META_PLAN, r.summary);
          emit('plan', r.summary);
          reviser.poke();
        })
        .catch((e: unknown) => {
          emit('warning', `revisit plan: ${e instanceof Error ? e.message : String(e)}`);
        });
    };
    const finish = (reason: WatchSummary['stopReason']) => {
      if (stopping) return;
      stopping = true;
      stopReason = reason;
      reviser.stop();
    };
    this.#stop.signal.addEventListener('abort', () => finish('stopped'), { once: true });
    o.signal?.addEventListener('abort', () => finish('stopped'), { once: true });
    const timer =
      w.durationMs === undefined ? undefined : setTimeout(() => finish('duration'), w.durationMs);
    const planTimer = setInterval(replan, w.planIntervalMs);
    try {
      replan();
      await planning;
      const engineDone = engine.run();
      const reviserDone = reviser.run();
      await reviserDone;
      engine.stop('stopped');
      const crawl = await engineDone;
      await planning;
      const summary: WatchSummary = {
        stopReason,
        elapsedMs: Date.now() - t0,
        crawl,
        revisits: counts,
        requests: { ...budget.taken },
        budget: w.rate,
        plan,
      };
      emit('watchEnd', summary);
      return summary;
    } finally {
      clearTimeout(timer);
      clearInterval(planTimer);
      await lease.close().catch(() => {});
      await fetcher.close();
      try {
        if (s.ownsStore) await s.store.close();
      } finally {
        s.unlock();
      }
    }
  }

  get done(): Promise<WatchSummary> {
    return this.#done;
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting a run gives its summary, by design
  then<A = WatchSummary, B = never>(
    onFulfilled?: ((value: WatchSummary) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#done.then(onFulfilled, onRejected);
  }
}

/** Starts an incremental crawl; see `WatchOptionsInput` and `WatchEvents`. */
export function watch(crawlOptions: CrawlOptionsInput, watchOptions: WatchOptionsInput): WatchRun {
  return new WatchRun(crawlOptions, watchOptions);
}
