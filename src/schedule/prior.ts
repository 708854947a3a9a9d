/**
 * Priors for pages with little history, borrowed from their siblings: pages of one
 * site built from one template (a forum's threads, a shop's products) tend to change
 * at similar rates, so a page seen twice is better guessed from a hundred visits to
 * its siblings than from its own two. {@link urlPattern} gives the grouping key;
 * {@link groupPrior} pools the group's histories into a {@link RatePrior}.
 */
import { InvalidOptionError } from '../errors/index.js';
import { estimateRate, type RatePrior, type Visit } from './estimate.js';

/**
 * The rate assumed when nothing better is known: once a week. A guess; it only has to
 * be in the right range for the first revisits, which then correct it.
 */
export const DEFAULT_RATE_PER_DAY = 1 / 7;

/** Fewest intervals (summed over the siblings) for the group to set the prior. */
export const DEFAULT_MIN_GROUP_INTERVALS = 10;

/** Weight (pseudo-intervals) of a prior pooled from a group. */
export const DEFAULT_GROUP_PRIOR_WEIGHT = 4;

/** Weight (pseudo-intervals) of the {@link DEFAULT_RATE_PER_DAY} fallback: weak. */
export const DEFAULT_FALLBACK_PRIOR_WEIGHT = 1;

/** Options of {@link groupPrior}. */
export interface GroupPriorOptions {
  /** Fewest intervals over all siblings to trust the group (whole number ≥ 1). @default 10 */
  minIntervals?: number;
  /** Weight of a prior taken from the group, in pseudo-intervals (≥ 0). @default 4 */
  weight?: number;
}

/** Result of {@link groupPrior}: a prior, and whether it came from the group. */
export interface GroupPrior extends RatePrior {
  /** 'group' when pooled from the siblings, 'default' for the fallback constant. */
  source: 'group' | 'default';
  /** Intervals (revisits) over all siblings' histories. */
  intervals: number;
}

function checkGroupOptions(
  where: string,
  options: GroupPriorOptions,
): { minIntervals: number; weight: number } {
  const minIntervals = options.minIntervals ?? DEFAULT_MIN_GROUP_INTERVALS;
  if (!Number.isInteger(minIntervals) || minIntervals < 1) {
    throw new InvalidOptionError(
      `${where}: minIntervals must be a whole number ≥ 1, got ${minIntervals}`,
    );
  }
  const weight = options.weight ?? DEFAULT_GROUP_PRIOR_WEIGHT;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw new InvalidOptionError(`${where}: weight must be a finite number ≥ 0, got ${weight}`);
  }
  return { minIntervals, weight };
}

/**
 * A prior for a page from its siblings' visit histories (each oldest first, as for
 * {@link estimateRate}; leave the page's own history out, or it counts twice).
 *
 * Each sibling's rate is estimated alone (no prior), and the rates are averaged
 * weighted by their numbers of intervals: a sibling revisited fifty times says more
 * than one revisited twice. Summing changed intervals over summed days instead would
 * inherit the undercount the estimators correct (a revisit shows at most one change).
 *
 * With fewer than `minIntervals` intervals in all, the group is not trusted and the
 * prior is {@link DEFAULT_RATE_PER_DAY} with weight {@link DEFAULT_FALLBACK_PRIOR_WEIGHT}.
 */
export function groupPrior(
  siblings: readonly (readonly Visit[])[],
  options: GroupPriorOptions = {},
): GroupPrior {
  const { minIntervals, weight } = checkGroupOptions('groupPrior', options);
  const none: RatePrior = { ratePerDay: 0, weight: 0 };
  let intervals = 0;
  let weighted = 0;
  siblings.forEach((history, i) => {
    if (!Array.isArray(history))
      throw new InvalidOptionError(`groupPrior: siblings[${i}] must be an array`);
    if (history.length < 2) return;
    const n = history.length - 1;
    intervals += n;
    weighted += n * estimateRate(history, none).ratePerDay;
  });
  if (intervals < minIntervals) {
    return {
      ratePerDay: DEFAULT_RATE_PER_DAY,
      weight: DEFAULT_FALLBACK_PRIOR_WEIGHT,
      source: 'default',
      intervals,
    };
  }
  return { ratePerDay: weighted / intervals, weight, source: 'group', intervals };
}

/**
 * Each page's prior from the others of its group (`histories`: the group's pages,
 * each oldest first): {@link groupPrior} of the siblings with the page itself left
 * out, so that its own visits do not count twice (once as its history, once in the
 * prior it is shrunk to). Every sibling is estimated once: O(n) for the group.
 */
export function leaveOneOutPriors(
  histories: readonly (readonly Visit[])[],
  options: GroupPriorOptions = {},
): GroupPrior[] {
  const { minIntervals, weight } = checkGroupOptions('leaveOneOutPriors', options);
  const none: RatePrior = { ratePerDay: 0, weight: 0 };
  const own = histories.map((h, i) => {
    if (!Array.isArray(h))
      throw new InvalidOptionError(`leaveOneOutPriors: histories[${i}] must be an array`);
    const n = Math.max(0, h.length - 1);
    return { n, weighted: n > 0 ? n * estimateRate(h, none).ratePerDay : 0 };
  });
  let intervals = 0;
  let weighted = 0;
  for (const o of own) {
    intervals += o.n;
    weighted += o.weighted;
  }
  return own.map((o) => {
    const n = intervals - o.n;
    if (n < minIntervals) {
      return {
        ratePerDay: DEFAULT_RATE_PER_DAY,
        weight: DEFAULT_FALLBACK_PRIOR_WEIGHT,
        source: 'default',
        intervals: n,
      };
    }
    return { ratePerDay: (weighted - o.weighted) / n, weight, source: 'group', intervals: n };
  });
}

/**
 * A grouping key for pages built from one template: host (and port), then the path
 * with every run of digits replaced by `{n}`, then the query's keys without their
 * values, sorted and each once. Scheme, credentials and fragment are left out.
 *
 *   http://forum.test/thread/123?page=2   →  forum.test/thread/{n}?page
 *   https://shop.test/p/42?b=1&a=2&b=3    →  shop.test/p/{n}?a&b
 *
 * Only digits are generalised: they are what ids and dates are made of, while words in
 * a path usually name a section and should keep pages apart.
 */
export function urlPattern(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidOptionError(
      `urlPattern: url must be an absolute URL, got ${JSON.stringify(url)}`,
    );
  }
  const path = parsed.pathname.replace(/[0-9]+/g, '{n}');
  const keys = [...new Set(parsed.searchParams.keys())].sort();
  return `${parsed.host}${path}${keys.length > 0 ? `?${keys.join('&')}` : ''}`;
}
