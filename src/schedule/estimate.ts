/**
 * Change-rate estimation from a page's visit history (Cho & Garcia-Molina, "Estimating
 * frequency of change"). A page is assumed to change as a Poisson process of rate λ,
 * in changes per day. A revisit only tells whether the page changed at least once
 * since the previous visit, not how many times, so counting changed visits over
 * elapsed time underestimates λ whenever pages change more than once between visits;
 * the estimators below undo that. {@link estimateRate} picks one of them for a
 * history and shrinks it towards a prior while the history is short.
 *
 * Times are ms since the epoch, durations given to the estimators in days, rates in
 * changes per day. Pure: numbers in, numbers out; bad input is a InvalidOptionError naming
 * the argument.
 */
import { InvalidOptionError } from '../errors/index.js';

/** Milliseconds in a day: rates are per day, times are ms since the epoch. */
export const MS_PER_DAY = 86_400_000;

/** Intervals whose longest is within this factor of the shortest count as regular. */
export const REGULAR_TOLERANCE = 1.01;

/**
 * A Last-Modified date this close to its visit (or after it) is taken as stamped with
 * the response time, as many dynamic pages do, rather than as the date of a change:
 * the date is whole seconds, and the answer takes a moment to arrive.
 */
export const LAST_MODIFIED_SLACK_MS = 2_000;

/** HTTP dates have whole seconds: Last-Modified dates closer than this are equal. */
export const LAST_MODIFIED_RESOLUTION_MS = 1_000;

/** One visit to a page. */
export interface Visit {
  /** When the page was fetched, ms since the epoch. */
  at: number;
  /** Whether the content differed from the previous visit (ignored on the first). */
  changed: boolean;
  /** The Last-Modified date the server sent, ms since the epoch, if any. */
  lastModified?: number | undefined;
}

/** One interval between two visits, for {@link irregularRate}. */
export interface IntervalObservation {
  /** Length of the interval in days, > 0. */
  intervalDays: number;
  /** Whether the page was seen to have changed at the end of the interval. */
  changed: boolean;
}

/** A prior belief on a page's rate of change (e.g. groupPrior's, from its siblings). */
export interface RatePrior {
  /** Prior mean rate, changes per day (≥ 0). */
  ratePerDay: number;
  /**
   * Strength of the prior in pseudo-intervals: the prior counts as this many revisits
   * (≥ 0) that agreed with `ratePerDay`. 0 disables shrinkage.
   */
  weight: number;
}

/** Which estimator produced a {@link RateEstimate}. */
export type RateMethod = 'regular' | 'irregular' | 'last-modified' | 'prior';

/** Result of {@link estimateRate}. */
export interface RateEstimate {
  /** Estimated rate of change, changes per day, after shrinkage towards the prior. */
  ratePerDay: number;
  /** The estimator applied to the history; 'prior' when it has no interval. */
  method: RateMethod;
  /** Number of visits in the history, the first included. */
  visits: number;
  /** Number of intervals in which a change was seen. */
  changes: number;
}

function isFiniteNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/**
 * Cho & Garcia-Molina's bias-reduced estimator for `n` visits at a regular interval of
 * `intervalDays` days, `changes` (X) of which saw a change:
 *
 *   λ̂ = −ln((n − X + 0.5) / (n + 0.5)) / I.
 *
 * The halves keep it finite when every visit saw a change (X = n gives ln(2n + 1)/I)
 * and remove most of the bias of the plain maximum-likelihood −ln(1 − X/n)/I. X = 0
 * (or n = 0) gives 0. Changes per day.
 */
export function regularRate(n: number, changes: number, intervalDays: number): number {
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidOptionError(`regularRate: n must be a whole number ≥ 0, got ${n}`);
  }
  if (!Number.isInteger(changes) || changes < 0 || changes > n) {
    throw new InvalidOptionError(
      `regularRate: changes must be a whole number in [0, n = ${n}], got ${changes}`,
    );
  }
  if (!isFiniteNumber(intervalDays) || intervalDays <= 0) {
    throw new InvalidOptionError(
      `regularRate: intervalDays must be a finite number > 0, got ${intervalDays}`,
    );
  }
  if (changes === 0) return 0;
  return -Math.log((n - changes + 0.5) / (n + 0.5)) / intervalDays;
}

/**
 * Left side minus right side of the likelihood equation of {@link irregularRate}:
 * Σ_changed t/(e^{λt} − 1) − Σ_unchanged t, strictly decreasing in λ.
 */
function score(lambda: number, changedDays: readonly number[], unchangedDays: number): number {
  let s = 0;
  for (const t of changedDays) s += t / Math.expm1(lambda * t);
  return s - unchangedDays;
}

/**
 * The maximum-likelihood rate for visits at irregular intervals. An interval of t days
 * saw a change with probability 1 − e^{−λt}, so the log-likelihood is
 * Σ_changed ln(1 − e^{−λt_i}) − λ·Σ_unchanged t_j, and its maximum solves
 *
 *   Σ_changed t_i·e^{−λt_i} / (1 − e^{−λt_i}) = Σ_unchanged t_j.
 *
 * The left side falls from +∞ to 0 as λ grows, so the root is unique when both sides
 * have terms; it is bracketed by doubling and halving from the naive X/T and then
 * bisected (in log λ) to full precision. Changes per day.
 *
 * Edge cases: no interval, or no change seen, gives 0 (the likelihood is largest at
 * λ = 0). When every interval saw a change the likelihood grows without bound in λ;
 * the answer is then capped at what {@link regularRate} gives for X = n on the mean
 * interval t̄, ln(2n + 1)/t̄: finite, growing with the evidence, and on equal
 * intervals the same as the regular estimator.
 */
export function irregularRate(intervals: readonly IntervalObservation[]): number {
  const changedDays: number[] = [];
  let unchangedDays = 0;
  let totalDays = 0;
  intervals.forEach((v, i) => {
    if (!isFiniteNumber(v?.intervalDays) || v.intervalDays <= 0) {
      throw new InvalidOptionError(
        `irregularRate: intervals[${i}].intervalDays must be a finite number > 0, got ${v?.intervalDays}`,
      );
    }
    if (typeof v.changed !== 'boolean') {
      throw new InvalidOptionError(`irregularRate: intervals[${i}].changed must be a boolean`);
    }
    if (v.changed) changedDays.push(v.intervalDays);
    else unchangedDays += v.intervalDays;
    totalDays += v.intervalDays;
  });
  const n = intervals.length;
  const x = changedDays.length;
  if (x === 0) return 0;
  if (unchangedDays === 0) return Math.log(2 * n + 1) / (totalDays / n);

  let lo = x / totalDays;
  let hi = lo;
  while (score(lo, changedDays, unchangedDays) <= 0) lo /= 2;
  while (score(hi, changedDays, unchangedDays) > 0) hi *= 2;
  // Geometric bisection: the root may lie orders of magnitude from the start.
  for (let k = 0; k < 200 && hi - lo > 1e-15 * hi; k++) {
    const mid = Math.sqrt(lo * hi);
    if (score(mid, changedDays, unchangedDays) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** A visit with a Last-Modified date, for {@link lastModifiedRate}. */
export interface DatedVisit {
  /** When the page was fetched, ms since the epoch. */
  at: number;
  /** The Last-Modified date the server sent, ms since the epoch. */
  lastModified: number;
}

/**
 * Checks that visit times are finite and strictly increasing, and Last-Modified dates
 * finite where present; when `dated`, that every visit has one, otherwise that every
 * visit after the first has a `changed` flag. `where` prefixes the messages.
 */
function checkVisits(where: string, visits: readonly Partial<Visit>[], dated: boolean): void {
  visits.forEach((v, i) => {
    if (!isFiniteNumber(v?.at)) {
      throw new InvalidOptionError(
        `${where}: visits[${i}].at must be a finite time in ms, got ${v?.at}`,
      );
    }
    if (i > 0 && v.at <= visits[i - 1]!.at!) {
      throw new InvalidOptionError(
        `${where}: visits[${i}].at must be later than visits[${i - 1}].at`,
      );
    }
    if (!dated && i > 0 && typeof v.changed !== 'boolean') {
      throw new InvalidOptionError(`${where}: visits[${i}].changed must be a boolean`);
    }
    if ((dated || v.lastModified !== undefined) && !isFiniteNumber(v.lastModified)) {
      throw new InvalidOptionError(
        `${where}: visits[${i}].lastModified must be a finite time in ms, got ${v.lastModified}`,
      );
    }
  });
}

/**
 * Changed intervals and the ms known unchanged, by the rule of lastModifiedRate. With
 * `changed` (one flag per visit, as estimateRate has them), the flags say which
 * intervals changed and the dates only when.
 */
function lastModifiedCounts(
  visits: readonly DatedVisit[],
  changed?: readonly boolean[],
): {
  changes: number;
  unchangedMs: number;
} {
  let changes = 0;
  const first = visits[0];
  let unchangedMs = first === undefined ? 0 : Math.max(0, first.at - first.lastModified);
  for (let i = 1; i < visits.length; i++) {
    const prev = visits[i - 1]!;
    const cur = visits[i]!;
    const intervalMs = cur.at - prev.at;
    if (
      changed?.[i] ??
      Math.abs(cur.lastModified - prev.lastModified) >= LAST_MODIFIED_RESOLUTION_MS
    ) {
      changes++;
      unchangedMs += Math.min(intervalMs, Math.max(0, cur.at - cur.lastModified));
    } else {
      unchangedMs += intervalMs;
    }
  }
  return { changes, unchangedMs };
}

/**
 * The rate from Last-Modified dates (`visits` oldest first, ms). An interval saw a
 * change when its Last-Modified differs from the previous visit's; the date then says
 * the page stayed unchanged from it until the visit. Given the last change at m, the
 * likelihood of an interval (s, a] is λe^{−λ(a − m)} if it changed and e^{−λ(a − s)}
 * if not, whatever happened before m. Its maximum is
 *
 *   λ̂ = X / T,   T = Σ_changed (a_i − m_i) + Σ_unchanged (a_i − a_{i−1})   (in days),
 *
 * the number of distinct changes over the time the page was known to be unchanged.
 * A date after its visit (clock skew) counts as a change at the visit; one before the
 * previous visit counts the whole interval. The first visit's date adds the time from
 * it to the visit, unchanged (T gains a₀ − m₀); what happened at that date (a change,
 * or the page's birth) is not counted. Dates less than
 * {@link LAST_MODIFIED_RESOLUTION_MS} apart are the same date.
 *
 * When every change is dated at its visit, T = 0 and the data bound nothing; the
 * answer is then the all-changed cap of {@link irregularRate}, ln(2n + 1)/t̄. No
 * change (or fewer than two visits) gives 0. Changes per day.
 */
export function lastModifiedRate(visits: readonly DatedVisit[]): number {
  checkVisits('lastModifiedRate', visits, true);
  return rateOf(lastModifiedCounts(visits), visits);
}

/** X / T, 0 without a change, the all-changed cap when T = 0. */
function rateOf(
  c: { changes: number; unchangedMs: number },
  visits: readonly DatedVisit[],
): number {
  const n = visits.length - 1;
  if (c.changes === 0) return 0;
  const spanDays = (visits[n]!.at - visits[0]!.at) / MS_PER_DAY;
  if (c.unchangedMs === 0) return Math.log(2 * n + 1) / (spanDays / n);
  return c.changes / (c.unchangedMs / MS_PER_DAY);
}

/**
 * The history with a Last-Modified date on every visit, when its dates can date its
 * changes (see estimateRate); null otherwise. A visit that found the page unchanged
 * and came without a date (a 304 need not repeat it) keeps the previous visit's.
 */
function datedHistory(history: readonly Visit[]): DatedVisit[] | null {
  let dated = false;
  const out: DatedVisit[] = [];
  for (let i = 0; i < history.length; i++) {
    const v = history[i]!;
    const lastModified =
      v.lastModified ?? (i > 0 && !v.changed ? out[i - 1]?.lastModified : undefined);
    if (lastModified === undefined) return null;
    if (lastModified < v.at - LAST_MODIFIED_SLACK_MS) dated = true;
    out.push({ at: v.at, lastModified });
  }
  return dated ? out : null;
}

/**
 * The estimated rate of change of one page, in changes per day: the one entry point a
 * crawler calls. `history` holds its visits oldest first (the first has no interval
 * before it, so its `changed` is ignored); `prior` is the belief to start from.
 *
 * The estimator: 'last-modified' when every visit has a Last-Modified date (an
 * unchanged visit without one keeps the previous) and one at least lies more than
 * {@link LAST_MODIFIED_SLACK_MS} before its visit (dates all at the visit are
 * response-time stamps and say nothing). The flags then say which intervals changed
 * (the visible text is what freshness is about: a date moved without a change in the
 * text is no change) and the dates when: a changed interval counts as unchanged from
 * its start, or from its visit's date when that is later, up to that date. Else
 * 'regular' on the mean interval when the
 * longest interval is within 1% of the shortest; else 'irregular'. With fewer than two
 * visits: 'prior', the prior's rate as it is.
 *
 * Shrinkage: a Gamma(α, β) prior with Poisson counts has posterior mean
 * (α + changes)/(β + days). Revisits do not count changes, so λ̂·T stands in for the
 * count over the T observed days; taking the prior as `weight` pseudo-intervals of the
 * page's mean interval t̄ at the prior rate (β = weight·t̄, α = ratePerDay·β) gives
 *
 *   λ = (weight·ratePerDay + n·λ̂) / (weight + n),     n = number of intervals.
 */
export function estimateRate(history: readonly Visit[], prior: RatePrior): RateEstimate {
  for (const key of ['ratePerDay', 'weight'] as const) {
    const x = prior?.[key];
    if (!isFiniteNumber(x) || x < 0) {
      throw new InvalidOptionError(
        `estimateRate: prior.${key} must be a finite number ≥ 0, got ${x}`,
      );
    }
  }
  checkVisits('estimateRate', history, false);
  const visits = history.length;
  const n = visits - 1;
  if (n < 1) return { ratePerDay: prior.ratePerDay, method: 'prior', visits, changes: 0 };

  let method: RateMethod;
  let rate: number;
  let changes = 0;
  const dated = datedHistory(history);
  if (dated !== null) {
    method = 'last-modified';
    const c = lastModifiedCounts(
      dated,
      history.map((v) => v.changed),
    );
    changes = c.changes;
    rate = rateOf(c, dated);
  } else {
    const intervals: IntervalObservation[] = [];
    let shortest = Number.POSITIVE_INFINITY;
    let longest = 0;
    for (let i = 1; i <= n; i++) {
      const intervalDays = (history[i]!.at - history[i - 1]!.at) / MS_PER_DAY;
      const changed = history[i]!.changed;
      if (changed) changes++;
      shortest = Math.min(shortest, intervalDays);
      longest = Math.max(longest, intervalDays);
      intervals.push({ intervalDays, changed });
    }
    if (longest <= REGULAR_TOLERANCE * shortest) {
      method = 'regular';
      const meanDays = (history[n]!.at - history[0]!.at) / MS_PER_DAY / n;
      rate = regularRate(n, changes, meanDays);
    } else {
      method = 'irregular';
      rate = irregularRate(intervals);
    }
  }
  const ratePerDay = (prior.weight * prior.ratePerDay + n * rate) / (prior.weight + n);
  return { ratePerDay, method, visits, changes };
}
