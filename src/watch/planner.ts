/**
 * The revisit plan (DESIGN 1.3): from the store's visit histories, each kept page's
 * change rate λ̂ (its own visits shrunk toward its URL pattern's siblings), then each
 * page's revisit frequency under the revisits' share of the budget, maximising the
 * expected freshness Σ w·F(λ, f) (schedule/allocate.ts), then each page's next due
 * time. Pages that change faster than the budget can follow are given up on.
 *
 * A page whose revisits bring new URLs (a list, a board, an index) is worth more
 * than its own freshness: its weight is 1 + the new URLs per revisit it brought this
 * run, at most 4.
 */
import {
  allocateRevisits,
  estimateRate,
  expectedFreshness,
  groupPrior,
  MS_PER_DAY,
  type PlanSummary,
  RATE_DECADES,
  type RatePrior,
  type RevisitPage,
  rateDecade,
  splitBudget,
  urlPattern,
  type Visit,
} from '../schedule/index.js';
import type { RevisitSchedule, Store } from '../store/index.js';

/** The largest weight discovery gives a page. */
const MAX_WEIGHT = 4;
/** Schedules written per store call. */
const BATCH = 500;

/**
 * How revisits are planned: `freshness` (the default) maximises the expected freshness
 * under the budget; `uniform` revisits every kept page in turn, equally often (the
 * usual periodic recrawl); `none` never revisits (the whole budget finds new URLs).
 */
export type RevisitPolicy = 'freshness' | 'uniform' | 'none';
export const REVISIT_POLICIES: readonly RevisitPolicy[] = ['freshness', 'uniform', 'none'];

/** What the plan is given. */
export interface PlanInput {
  policy: RevisitPolicy;
  /** The whole request budget, requests per day. */
  totalPerDay: number;
  /** Share of the budget kept for new URLs while the frontier has some. */
  discoveryShare: number;
  /** First fetch times by URL, kept from one plan to the next (filled as needed). */
  firstFetch: Map<string, number>;
  /** New URLs found per page by this run's revisits (`visits`, `linked`). */
  yields: ReadonlyMap<string, { visits: number; linked: number }>;
  now: number;
}

export type { PlanSummary };
export const META_PLAN = 'watch.plan';

interface Known {
  url: string;
  lastVisitAt: number;
  history: Visit[];
}

/** Every kept page with its visit history, oldest first (the first fetch included). */
async function histories(store: Store, first: Map<string, number>): Promise<Known[]> {
  const pages = new Map<string, Known>();
  for await (const p of store.pages()) {
    if (p.state === 'complete')
      pages.set(p.url, { url: p.url, lastVisitAt: p.fetchedAt, history: [] });
  }
  // A page's first fetch never changes: the history is read again only for pages
  // kept since the last plan.
  if ([...pages.keys()].some((u) => !first.has(u))) {
    for await (const h of store.history()) {
      if (h.state === 'complete' && pages.has(h.url) && !first.has(h.url))
        first.set(h.url, h.fetchedAt);
    }
  }
  const gone = new Set<string>();
  for await (const r of store.revisits()) {
    const k = pages.get(r.url);
    if (k === undefined) continue;
    if (r.goneAt !== null) gone.add(r.url);
    k.lastVisitAt = r.lastVisitAt;
  }
  for (const k of pages.values())
    k.history.push({ at: first.get(k.url) ?? k.lastVisitAt, changed: false });
  for await (const v of store.visits()) {
    const k = pages.get(v.url);
    if (k === undefined || v.change === 'failed' || v.change === 'gone') continue;
    k.history.push({
      at: v.at,
      changed: v.change === 'changed',
      ...(v.lastModifiedMs !== null ? { lastModified: v.lastModifiedMs } : {}),
    });
  }
  for (const u of gone) pages.delete(u);
  return [...pages.values()];
}

/** Every page revisited equally often: the budget over the pages. */
function uniform(pages: readonly RevisitPage[], budgetPerDay: number) {
  const f = pages.length > 0 ? budgetPerDay / pages.length : 0;
  return {
    frequencies: new Map(pages.map((p) => [p.id, f])),
    expectedFreshness:
      pages.length === 0
        ? 1
        : pages.reduce((t, p) => t + expectedFreshness(p.ratePerDay, f), 0) / pages.length,
    givenUp: f > 0 ? [] : pages.filter((p) => p.ratePerDay > 0).map((p) => p.id),
  };
}

/** Plans revisits of every kept page and writes the due times to the store. */
export async function planRevisits(
  store: Store,
  input: PlanInput,
): Promise<{ summary: PlanSummary; frequencies: Map<string, number> }> {
  const known = await histories(store, input.firstFetch);
  const groups = new Map<string, Visit[][]>();
  for (const k of known) {
    const key = urlPattern(k.url);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [k.history]);
    else g.push(k.history);
  }
  const priors = new Map<string, RatePrior>();
  for (const [key, g] of groups) priors.set(key, groupPrior(g));
  const rate = new Map<string, number>();
  const pages: RevisitPage[] = known.map((k) => {
    const prior = priors.get(urlPattern(k.url)) as RatePrior;
    const r = estimateRate(k.history, prior).ratePerDay;
    rate.set(k.url, r);
    const y = input.yields.get(k.url);
    const weight =
      y === undefined || y.visits === 0 ? 1 : Math.min(MAX_WEIGHT, 1 + y.linked / y.visits);
    return { id: k.url, ratePerDay: r, weight };
  });
  const waiting = (await store.counts()).waiting;
  const split = splitBudget({
    totalPerDay: input.policy === 'none' ? 0 : input.totalPerDay,
    // While URLs wait, discovery could use the whole budget; it gets its share of it.
    discoveryDemandPerDay: waiting > 0 ? input.totalPerDay : 0,
    discoveryShare: input.discoveryShare,
  });
  const plan =
    input.policy === 'freshness'
      ? allocateRevisits(pages, split.refreshPerDay)
      : uniform(pages, input.policy === 'none' ? 0 : split.refreshPerDay);
  const items: RevisitSchedule[] = known.map((k) => {
    const f = plan.frequencies.get(k.url) ?? 0;
    const dueAt = f > 0 ? Math.max(input.now, k.lastVisitAt + MS_PER_DAY / f) : null;
    return { url: k.url, dueAt, rate: rate.get(k.url) as number };
  });
  for (let i = 0; i < items.length; i += BATCH)
    await store.scheduleRevisits(items.slice(i, i + BATCH));
  const rates: Record<string, number> = Object.fromEntries(RATE_DECADES.map((d) => [d, 0]));
  for (const r of rate.values()) {
    const d = RATE_DECADES[rateDecade(r)] as string;
    rates[d] = (rates[d] ?? 0) + 1;
  }
  const next = items
    .filter((x): x is RevisitSchedule & { dueAt: number } => x.dueAt !== null)
    .sort((a, b) => a.dueAt - b.dueAt)
    .slice(0, 5)
    .map((x) => ({ url: x.url, dueAt: x.dueAt, rate: x.rate as number }));
  const summary: PlanSummary = {
    at: input.now,
    policy: input.policy,
    pages: known.length,
    scheduled: items.filter((x) => x.dueAt !== null).length,
    givenUp: plan.givenUp.length,
    refreshPerDay: split.refreshPerDay,
    discoveryPerDay: split.discoveryPerDay,
    expectedFreshness: plan.expectedFreshness,
    rates,
    next,
  };
  return { summary, frequencies: plan.frequencies };
}
