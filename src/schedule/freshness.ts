/**
 * Expected freshness of a page revisited at a fixed rate, and its derivative in that
 * rate (Cho & Garcia-Molina, "Effective page refresh policies").
 *
 * A page changes as a Poisson process of rate λ (changes per day) and is revisited
 * every 1/f days (f revisits per day). Between two revisits the copy we hold is fresh
 * until the first change, so its time-averaged probability of being fresh is
 *
 *   F(λ, f) = (1/I) ∫₀^I e^{−λt} dt = (f/λ)·(1 − e^{−λ/f}),     I = 1/f,
 *
 * a function of r = λ/f alone: F = (1 − e^{−r})/r. Its derivative in f is
 *
 *   ∂F/∂f = (1/λ)·(1 − (1 + r)·e^{−r}),
 *
 * which falls from 1/λ at f → 0⁺ to 0 as f → ∞ (F is concave in f). Both are written
 * in r so that no cancellation happens: F through expm1, and 1 − (1 + r)e^{−r}, which
 * loses every digit for small r when computed directly, through its series.
 */
import { InvalidOptionError } from '../errors/index.js';

/** Below this r = λ/f, g(r) = 1 − (1 + r)e^{−r} comes from its series. */
const SERIES_BELOW = 0.5;

function checkRate(where: string, name: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidOptionError(`${where}: ${name} must be a finite number ≥ 0, got ${value}`);
  }
}

/**
 * (1 − e^{−r})/r for r ≥ 0, with its limit 1 at r = 0. expm1 keeps full precision
 * for small r; the first two terms of its series, 1 − r/2, cover r = 0 and tiny r.
 */
function freshnessOfRatio(r: number): number {
  if (r < 1e-8) return 1 - r / 2;
  if (r === Number.POSITIVE_INFINITY) return 0;
  return -Math.expm1(-r) / r;
}

/**
 * g(r) = 1 − (1 + r)·e^{−r} for r ≥ 0: the probability that a Poisson process of mean
 * r has at least two events. For small r the direct formula subtracts two numbers
 * close to 1, so the alternating series Σ_{k≥2} (−1)^k (k − 1) r^k / k! is used: its
 * terms shrink by more than half each step below r = 0.5, and 30 terms are far more
 * than double precision needs there.
 */
export function atLeastTwo(r: number): number {
  if (r >= SERIES_BELOW) return r === Number.POSITIVE_INFINITY ? 1 : 1 - (1 + r) * Math.exp(-r);
  let sum = 0;
  let power = r; // r^k / k!, starting at k = 1
  for (let k = 2; k <= 30; k++) {
    power *= r / k;
    const term = (k - 1) * power;
    sum += k % 2 === 0 ? term : -term;
    if (term < 1e-17 * sum) break;
  }
  return sum;
}

/**
 * The expected (time-averaged) freshness F(λ, f) = (f/λ)·(1 − e^{−λ/f}) of a page that
 * changes `ratePerDay` times a day on average (Poisson) and is revisited
 * `revisitsPerDay` times a day at a fixed interval. In [0, 1].
 *
 * Limits: a page that never changes (λ = 0) is always fresh, F = 1, however rarely it
 * is revisited (even never); a changing page never revisited (f = 0) is eventually
 * stale, F = 0.
 */
export function expectedFreshness(ratePerDay: number, revisitsPerDay: number): number {
  checkRate('expectedFreshness', 'ratePerDay', ratePerDay);
  checkRate('expectedFreshness', 'revisitsPerDay', revisitsPerDay);
  if (ratePerDay === 0) return 1;
  if (revisitsPerDay === 0) return 0;
  return freshnessOfRatio(ratePerDay / revisitsPerDay);
}

/**
 * ∂F/∂f at (λ, f) = (`ratePerDay`, `revisitsPerDay`): the freshness gained per extra
 * revisit a day, (1/λ)·(1 − (1 + λ/f)·e^{−λ/f}), in days per revisit. Decreasing in f.
 *
 * At f = 0 it is the right derivative 1/λ (for small f, F ≈ f/λ: each revisit buys a
 * fresh copy that lasts about 1/λ days). A page that never changes gains nothing: 0.
 * For large f it behaves as λ/(2f²).
 */
export function marginalFreshness(ratePerDay: number, revisitsPerDay: number): number {
  checkRate('marginalFreshness', 'ratePerDay', ratePerDay);
  checkRate('marginalFreshness', 'revisitsPerDay', revisitsPerDay);
  if (ratePerDay === 0) return 0;
  if (revisitsPerDay === 0) return 1 / ratePerDay;
  const r = ratePerDay / revisitsPerDay;
  // g(r)/λ written as (g(r)/r)/f: for tiny λ the quotient g(r)/r ≈ r/2 stays
  // representable where 1/λ alone would overflow.
  if (r === 0) return 0;
  return atLeastTwo(r) / r / revisitsPerDay;
}
