/**
 * Revisit planning: how a day's revisits are shared between pages, when each page is
 * next due, and how a crawl's request budget is split between finding new pages and
 * refreshing known ones.
 *
 * {@link allocateRevisits} maximises the weighted freshness Σ wᵢ·F(λᵢ, fᵢ) of a set of
 * pages under a budget Σ fᵢ = B revisits per day (Cho & Garcia-Molina, "Effective page
 * refresh policies"). F is concave in f, so the optimum is where every revisited page
 * gains the same from one more revisit a day:
 *
 *   wᵢ·∂F/∂f(λᵢ, fᵢ) = μ   for fᵢ > 0,      wᵢ/λᵢ ≤ μ   for fᵢ = 0,
 *
 * wᵢ/λᵢ being the gain of a page's first revisit (∂F/∂f at f = 0⁺ is 1/λ). Pages that
 * change fastest have the smallest first gain, so they are the first to get nothing:
 * revisiting them is paid for and stale again almost at once.
 */
import { InvalidOptionError } from '../errors/index.js';
import { MS_PER_DAY } from './estimate.js';
import { atLeastTwo, expectedFreshness } from './freshness.js';

/** One page to plan revisits for. */
export interface RevisitPage {
  /** Unique id of the page (its URL, say). */
  id: string;
  /** Estimated rate of change, changes per day (≥ 0). */
  ratePerDay: number;
  /** Importance of the page's freshness (≥ 0). @default 1 */
  weight?: number | undefined;
  /**
   * Revisits per day the page gets whatever its gain (≥ 0): a crawler's own floor, to
   * keep estimates current and to notice that a page thought still began to change.
   * When the floors add up to more than the budget, each is cut in proportion. @default 0
   */
  minPerDay?: number | undefined;
}

/** Result of {@link allocateRevisits}. */
export interface RevisitPlan {
  /** Revisits per day for every page id, in the order given. */
  frequencies: Map<string, number>;
  /**
   * μ, the common marginal gain w·∂F/∂f of the revisited pages (days per revisit).
   * With a zero budget, the smallest μ at which no page is revisited, max w/λ; 0 when
   * no page can gain anything.
   */
  multiplier: number;
  /** Σ w·F / Σ w under the plan, in [0, 1]; 1 when the weights sum to 0. */
  expectedFreshness: number;
  /** Ids of pages that change (λ > 0) but get no revisit beyond their floor, in the order given. */
  givenUp: string[];
}

/** Relative width at which the bisections stop. */
const RELATIVE_TOLERANCE = 1e-14;

function checkNonNegative(where: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidOptionError(`${where}: ${name} must be a finite number ≥ 0, got ${value}`);
  }
  return value;
}

/**
 * r with 1 − (1 + r)e^{−r} = y, for y in (0, 1). The left side is increasing in r and
 * at most r²/2, so √(2y) is a lower bound; the upper bound is found by doubling.
 */
function inverseAtLeastTwo(y: number): number {
  let lo = Math.sqrt(2 * y);
  let hi = Math.max(2 * lo, 1);
  while (atLeastTwo(hi) < y) {
    lo = hi;
    hi *= 2;
  }
  for (let k = 0; k < 200 && hi - lo > RELATIVE_TOLERANCE * hi; k++) {
    const mid = (lo + hi) / 2;
    if (atLeastTwo(mid) < y) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The f ≥ 0 with w·∂F/∂f(λ, f) = μ, or 0 when even the first revisit gains no more
 * than μ. Since w·∂F/∂f = (w/λ)·g(λ/f) with g(r) = 1 − (1 + r)e^{−r}, the bisection on
 * f is done on r = λ/f, where it is scale-free: f = λ / g⁻¹(μλ/w).
 */
function frequencyAt(mu: number, ratePerDay: number, weight: number): number {
  if (ratePerDay === 0 || weight === 0) return 0;
  const y = (mu * ratePerDay) / weight;
  if (y >= 1) return 0;
  return ratePerDay / inverseAtLeastTwo(y);
}

interface Active {
  index: number;
  ratePerDay: number;
  weight: number;
  min: number;
}

/** Σ max(floor, f(μ)) over the active pages. */
function totalAt(mu: number, active: readonly Active[]): number {
  let sum = 0;
  for (const p of active) sum += Math.max(p.min, frequencyAt(mu, p.ratePerDay, p.weight));
  return sum;
}

/**
 * Revisit frequencies fᵢ ≥ 0 (revisits per day) with Σ fᵢ = `budgetPerDay` that
 * maximise Σ wᵢ·F(λᵢ, fᵢ) (see the module comment for the optimality condition).
 *
 * For a given μ every fᵢ follows from the condition by bisection; Σ fᵢ(μ) falls as μ
 * grows, from +∞ to 0 at μ = max w/λ, so μ is found by bisection (on log μ) until
 * Σ fᵢ = budget; the frequencies are then scaled by the last tiny mismatch so that
 * they sum to the budget exactly.
 *
 * Pages that never change (λ = 0) are always fresh and get 0 revisits beyond their
 * floor (`minPerDay`), as do pages of weight 0. With floors the optimum is
 * fᵢ = max(floorᵢ, fᵢ(μ)), μ again by bisection; the floors come off the budget first
 * (cut in proportion when they exceed it). When no page can gain anything, the budget
 * beyond the floors is left unused.
 */
export function allocateRevisits(pages: readonly RevisitPage[], budgetPerDay: number): RevisitPlan {
  checkNonNegative('allocateRevisits', 'budgetPerDay', budgetPerDay);
  if (!Array.isArray(pages))
    throw new InvalidOptionError('allocateRevisits: pages must be an array');
  const seen = new Set<string>();
  const active: Active[] = [];
  const weights: number[] = [];
  const mins = new Float64Array(pages.length);
  pages.forEach((p, i) => {
    if (typeof p?.id !== 'string') {
      throw new InvalidOptionError(`allocateRevisits: pages[${i}].id must be a string`);
    }
    if (seen.has(p.id))
      throw new InvalidOptionError(`allocateRevisits: pages[${i}].id ${p.id} repeats`);
    seen.add(p.id);
    const rate = checkNonNegative('allocateRevisits', `pages[${i}].ratePerDay`, p.ratePerDay);
    const weight = checkNonNegative('allocateRevisits', `pages[${i}].weight`, p.weight ?? 1);
    weights.push(weight);
    mins[i] = checkNonNegative('allocateRevisits', `pages[${i}].minPerDay`, p.minPerDay ?? 0);
    if (rate > 0 && weight > 0) active.push({ index: i, ratePerDay: rate, weight, min: mins[i]! });
  });

  let floors = 0;
  for (const m of mins) floors += m;
  const f = new Float64Array(pages.length);
  if (floors > 0) {
    const cut = Math.min(1, budgetPerDay / floors);
    for (let i = 0; i < f.length; i++) f[i] = mins[i]! * cut;
    if (cut < 1) for (const p of active) p.min *= cut;
  }
  let multiplier = 0;
  for (const p of active) multiplier = Math.max(multiplier, p.weight / p.ratePerDay);
  const activeFloors = active.reduce((t, p) => t + p.min, 0);
  const left = budgetPerDay - Math.min(floors, budgetPerDay);
  if (active.length > 0 && left > 0) {
    // The active pages share their floors and what the floors leave.
    const share = left + activeFloors;
    let hi = multiplier; // Σ max(floor, f(hi)) = Σ floors < share
    let lo = hi / 2;
    while (totalAt(lo, active) < share) {
      hi = lo;
      lo /= 2;
    }
    for (let k = 0; k < 200 && hi - lo > RELATIVE_TOLERANCE * hi; k++) {
      const mid = Math.sqrt(lo * hi);
      if (totalAt(mid, active) < share) hi = mid;
      else lo = mid;
    }
    multiplier = Math.sqrt(lo * hi);
    // The last tiny mismatch is shared by the pages above their floors.
    let above = 0;
    for (const p of active) {
      f[p.index] = Math.max(p.min, frequencyAt(multiplier, p.ratePerDay, p.weight));
      above += f[p.index]! - p.min;
    }
    const scale = above > 0 ? (share - activeFloors) / above : 1;
    for (const p of active) f[p.index] = p.min + (f[p.index]! - p.min) * scale;
  }

  const frequencies = new Map<string, number>();
  const givenUp: string[] = [];
  let weightSum = 0;
  let freshSum = 0;
  pages.forEach((p, i) => {
    const fi = f[i]!;
    frequencies.set(p.id, fi);
    if (fi <= mins[i]! && p.ratePerDay > 0) givenUp.push(p.id);
    weightSum += weights[i]!;
    freshSum += weights[i]! * expectedFreshness(p.ratePerDay, fi);
  });
  return {
    frequencies,
    multiplier,
    expectedFreshness: weightSum > 0 ? freshSum / weightSum : 1,
    givenUp,
  };
}

/** Inputs of {@link splitBudget}, all in requests per day. */
export interface BudgetSplitInput {
  /** Requests per day the crawl may make in all (≥ 0). */
  totalPerDay: number;
  /**
   * Requests per day discovery can use now: 0 when the frontier is empty; a simple
   * choice is the number of URLs waiting (at most that many fetches in the next day).
   */
  discoveryDemandPerDay: number;
  /**
   * Requests per day refreshing can usefully spend, e.g. the known pages times the
   * highest revisit rate worth paying for. @default Infinity (takes whatever is left)
   */
  refreshDemandPerDay?: number | undefined;
  /** Share of the total reserved for discovery while it has demand, in [0, 1]. @default 0.5 */
  discoveryShare?: number | undefined;
}

/** Result of {@link splitBudget}, requests per day; the three sum to the total. */
export interface BudgetSplit {
  discoveryPerDay: number;
  refreshPerDay: number;
  /** What neither side can use. */
  idlePerDay: number;
}

/** Default share of the request budget reserved for discovering new URLs. */
export const DEFAULT_DISCOVERY_SHARE = 0.5;

/**
 * Splits a request budget between discovery (fetching new URLs from the frontier) and
 * refreshing (revisiting known pages):
 *
 * 1. discovery gets what it can use, up to `discoveryShare` of the total;
 * 2. refreshing gets what it can use of the rest (all of it by default, so all of the
 *    total when the frontier is empty);
 * 3. what refreshing leaves flows back to discovery, up to its demand;
 * 4. anything still left is idle.
 *
 * Neither side can starve the other: each is sure of its share while it has work, and
 * neither share is wasted while the other side could use it.
 */
export function splitBudget(input: BudgetSplitInput): BudgetSplit {
  const total = checkNonNegative('splitBudget', 'totalPerDay', input.totalPerDay);
  const discoveryDemand = checkNonNegative(
    'splitBudget',
    'discoveryDemandPerDay',
    input.discoveryDemandPerDay,
  );
  const refreshDemand = input.refreshDemandPerDay ?? Number.POSITIVE_INFINITY;
  if (typeof refreshDemand !== 'number' || Number.isNaN(refreshDemand) || refreshDemand < 0) {
    throw new InvalidOptionError(
      `splitBudget: refreshDemandPerDay must be a number ≥ 0 (or Infinity), got ${refreshDemand}`,
    );
  }
  const share = input.discoveryShare ?? DEFAULT_DISCOVERY_SHARE;
  if (typeof share !== 'number' || !(share >= 0 && share <= 1)) {
    throw new InvalidOptionError(
      `splitBudget: discoveryShare must be a number in [0, 1], got ${share}`,
    );
  }
  let discovery = Math.min(discoveryDemand, share * total);
  const refresh = Math.min(refreshDemand, total - discovery);
  discovery += Math.min(total - discovery - refresh, discoveryDemand - discovery);
  return {
    discoveryPerDay: discovery,
    refreshPerDay: refresh,
    idlePerDay: total - discovery - refresh,
  };
}

/**
 * The time a page is next due, ms since the epoch: one revisit interval (1/f days)
 * after `lastVisitAt` (ms), f = `revisitsPerDay`. Infinity when f = 0 (not revisited).
 */
export function nextDue(lastVisitAt: number, revisitsPerDay: number): number {
  if (typeof lastVisitAt !== 'number' || !Number.isFinite(lastVisitAt)) {
    throw new InvalidOptionError(
      `nextDue: lastVisitAt must be a finite time in ms, got ${lastVisitAt}`,
    );
  }
  checkNonNegative('nextDue', 'revisitsPerDay', revisitsPerDay);
  if (revisitsPerDay === 0) return Number.POSITIVE_INFINITY;
  return lastVisitAt + MS_PER_DAY / revisitsPerDay;
}
