/**
 * The revisit plan (DESIGN 1.3): from the store's visit histories, each kept page's
 * change rate λ̂ (its own visits shrunk toward its URL pattern's siblings), then each
 * page's revisit frequency under the revisits' share of the budget, maximising the
 * expected freshness Σ w·F(λ, f) (schedule/allocate.ts), then each page's next due
 * time. Pages that change faster than the budget can follow are given up on.
 *
 * A page's weight is what its freshness is worth (`weightBy`: 1, its relevance or its
 * score). A page whose revisits bring new URLs (a list, a board, an index) is worth more
 * than its own freshness: its weight is multiplied by 1 + the new URLs per revisit it
 * brought this run, at most 4, and it is revisited at least as often as under uniform revisits
 * (the refresh budget over the pages), whatever its rate: a list that changes faster
 * than the budget can follow still announces the new pages.
 *
 * A page not revisited yet is revisited at least as often as under uniform revisits
 * too: its estimate is only its prior, and a prior that says "never changes" would
 * otherwise keep it from ever being measured. Every other page is revisited at least
 * {@link FLOOR_SHARE} as often as under uniform revisits: a page thought never to
 * change, or too fast to follow, is still seen now and then, so that its estimate
 * can change.
 */
import {
  allocateRevisits,
  estimateRate,
  expectedFreshness,
  leaveOneOutPriors,
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
/** Every page's floor, as a share of the uniform revisit rate. */
export const FLOOR_SHARE = 0.1;
/** Discovery that made this share of its budget share lately could use more. */
const SATURATED = 0.9;
/** Schedules written per store call. */
const BATCH = 500;

/**
 * How revisits are planned: `freshness` (the default) maximises the expected freshness
 * under the budget; `uniform` revisits every kept page in turn, equally often (the
 * usual periodic recrawl); `none` never revisits (the whole budget finds new URLs).
 */
export type RevisitPolicy = 'freshness' | 'uniform' | 'none';
export const REVISIT_POLICIES: readonly RevisitPolicy[] = ['freshness', 'uniform', 'none'];

/**
 * What a page's freshness is worth under the `freshness` policy: `none` (every page
 * alike, the default), `relevance` (its relevance to the topic) or `score` (its final
 * score P, relevance with PageRank; its relevance until ranked).
 */
export type RevisitWeight = 'none' | 'relevance' | 'score';
export const REVISIT_WEIGHTS: readonly RevisitWeight[] = ['none', 'relevance', 'score'];

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
  /**
   * Requests per day the frontier made lately (since the last plan); undefined when
   * not known yet. While URLs wait, discovery is offered what fetching them all
   * before the next plan takes, or half again what it made lately when that is more
   * (all of the budget when it took its whole share, or when not known), so that its
   * share is not kept for a frontier that cannot use it (its hosts all waiting out
   * their delays) nor denied to URLs that just arrived.
   */
  recentDiscoveryPerDay?: number | undefined;
  /** Time to the next plan, ms (for the demand of the URLs waiting). */
  planIntervalMs: number;
  /** What a page's freshness is worth. @default 'none' */
  weightBy?: RevisitWeight | undefined;
  /**
   * Whether a page is a list (a site model's `list` kind: the pages that link to the
   * content): a change detector from the start, before its revisits brought new URLs.
   */
  isList?: ((url: string) => boolean) | undefined;
  now: number;
}

export type { PlanSummary };
export const META_PLAN = 'watch.plan';

interface Known {
  url: string;
  lastVisitAt: number;
  history: Visit[];
  relevance: number;
  score: number | null;
}

/** Every kept page with its visit history, oldest first (the first fetch included). */
async function histories(store: Store, first: Map<string, number>): Promise<Known[]> {
  const pages = new Map<string, Known>();
  const dated = new Map<string, number>();
  for await (const p of store.pages()) {
    if (p.state !== 'complete') continue;
    pages.set(p.url, {
      url: p.url,
      lastVisitAt: p.fetchedAt,
      history: [],
      relevance: p.relevance,
      score: p.score,
    });
    if (p.modifiedAt !== null) dated.set(p.url, p.modifiedAt);
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
  for (const k of pages.values()) {
    // The page's Last-Modified as its first fetch found it (revisits keep theirs).
    const lm = dated.get(k.url);
    const at = first.get(k.url) ?? k.lastVisitAt;
    k.history.push({ at, changed: false, ...(lm !== undefined ? { lastModified: lm } : {}) });
  }
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
  const groups = new Map<string, Known[]>();
  for (const k of known) {
    const key = urlPattern(k.url);
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [k]);
    else g.push(k);
  }
  // Each page is shrunk towards its siblings, itself left out.
  const priors = new Map<string, RatePrior>();
  for (const g of groups.values()) {
    const p = leaveOneOutPriors(g.map((k) => k.history));
    g.forEach((k, i) => {
      priors.set(k.url, p[i] as RatePrior);
    });
  }
  const waiting = (await store.counts()).waiting;
  const total = input.policy === 'none' ? 0 : input.totalPerDay;
  const recent = input.recentDiscoveryPerDay;
  const split = splitBudget({
    totalPerDay: total,
    discoveryDemandPerDay:
      waiting === 0
        ? 0
        : recent === undefined || recent >= input.discoveryShare * total * SATURATED
          ? total
          : Math.min(total, Math.max(1.5 * recent, (waiting * MS_PER_DAY) / input.planIntervalMs)),
    discoveryShare: input.discoveryShare,
  });
  const uniformRate = known.length > 0 ? split.refreshPerDay / known.length : 0;
  const rate = new Map<string, number>();
  const pages: RevisitPage[] = known.map((k) => {
    const r = estimateRate(k.history, priors.get(k.url) as RatePrior).ratePerDay;
    rate.set(k.url, r);
    const y = input.yields.get(k.url);
    const detector = (y !== undefined && y.linked > 0) || input.isList?.(k.url) === true;
    const worth =
      input.weightBy === 'relevance'
        ? k.relevance
        : input.weightBy === 'score'
          ? (k.score ?? k.relevance)
          : 1;
    const weight =
      Math.max(0, worth) *
      (y !== undefined && y.linked > 0 ? Math.min(MAX_WEIGHT, 1 + y.linked / y.visits) : 1);
    // A page not revisited yet is known only by its prior: it gets its first revisit
    // at least as soon as uniform revisits would give it, so that a prior too low
    // cannot keep it from ever being measured.
    const unmeasured = k.history.length < 2;
    return {
      id: k.url,
      ratePerDay: r,
      weight,
      minPerDay: (detector || unmeasured ? 1 : FLOOR_SHARE) * uniformRate,
    };
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
