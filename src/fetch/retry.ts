/**
 * Retry policy. Pure: the fetcher asks, after each attempt, whether and when to
 * try again.
 *
 * - Retried: network errors and timeouts (errors marked `retryable`), 5xx and 429.
 * - Wait before retry n (1-based): exponential backoff with jitter, uniformly
 *   drawn from [e/2, e] where e = min(retryMaxDelayMs, retryBaseDelayMs · 2^(n−1)).
 * - A `Retry-After` header (seconds or an HTTP date) on a 5xx/429 replaces the
 *   backoff; if it asks for more than `maxRetryAfterMs`, the fetcher gives up at
 *   once and returns that response.
 * - When retries run out on a 5xx/429, the last response is returned (its status
 *   visible to the caller); when they run out on an error, the error is thrown.
 */

export interface RetryPolicy {
  retries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxRetryAfterMs: number;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/** Milliseconds to wait as asked by a `Retry-After` value, or undefined when it is invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  if (Number.isNaN(t) || !/[a-z]/i.test(v)) return undefined;
  return Math.max(0, t - now);
}

/** Backoff before retry `n` (1-based), with jitter; `random` returns [0, 1). */
export function backoffMs(n: number, policy: RetryPolicy, random: () => number = Math.random) {
  const e = Math.min(policy.retryMaxDelayMs, policy.retryBaseDelayMs * 2 ** (n - 1));
  return Math.round(e / 2 + (random() * e) / 2);
}

/**
 * After attempt `attempt` (1-based) answered `status`: milliseconds to wait before
 * trying again, or -1 to stop here and keep this response.
 */
export function statusRetryDelay(
  status: number,
  retryAfter: string | undefined,
  attempt: number,
  policy: RetryPolicy,
  now: number,
  random?: () => number,
): number {
  if (attempt > policy.retries || !isRetryableStatus(status)) return -1;
  const asked = parseRetryAfter(retryAfter, now);
  if (asked === undefined) return backoffMs(attempt, policy, random);
  return asked > policy.maxRetryAfterMs ? -1 : asked;
}

/** After attempt `attempt` failed with an error: milliseconds to wait, or -1 to give up. */
export function errorRetryDelay(
  retryable: boolean,
  attempt: number,
  policy: RetryPolicy,
  random?: () => number,
): number {
  if (!retryable || attempt > policy.retries) return -1;
  return backoffMs(attempt, policy, random);
}
