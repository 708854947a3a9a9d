/**
 * Failed attempts across runs (docs/crawl.md, "Failures that heal"): which failures
 * are tried again and when, and which URLs in error `retryErrors` puts back. A
 * transient failure (fetch/failure-class.ts) of a URL that has attempts left goes
 * back to waiting in the store with a retry time: `retryBackoffMs` after the first
 * failed attempt, twice that after the second, … (at most `RETRY_DELAY_MAX_MS`),
 * or the server's `Retry-After` when longer. Only the last attempt ends the URL in
 * error. Pure.
 */
import { ErrorCodes, InvalidOptionError } from '../errors/index.js';
// The fetch stage's modules themselves: options.ts reads this, and the caller's thread of
// a crawl on a thread of its own loads no more of the fetcher than that.
import { type FailureInfo, TRANSIENT_CODES } from '../fetch/failure-class.js';
import { parseRetryAfter } from '../fetch/retry.js';
import type { ErrorFilter } from '../store/index.js';

/** The longest wait before a retry, whatever the back-off or `Retry-After` asks. */
export const RETRY_DELAY_MAX_MS = 3_600_000;

/** The longest a run with nothing else to do waits for a retry; later ones are a later run's. */
export const RETRY_WAIT_MAX_MS = 120_000;

/** Milliseconds from failed attempt `attempt` (1-based) to the next: `backoffMs` doubled per attempt. */
export function retryDelayMs(attempt: number, backoffMs: number): number {
  return Math.min(RETRY_DELAY_MAX_MS, backoffMs * 2 ** (attempt - 1));
}

export interface RetryRule {
  /** Attempts a URL gets, the first included (`maxAttempts`); 1: no retry. */
  maxAttempts: number;
  /** The wait after the first failed attempt (`retryBackoffMs`). */
  backoffMs: number;
  /** The wait a site whose robots.txt could not be read needs (the fetcher's `robotsErrorTtlMs`). */
  robotsWaitMs: number;
}

/**
 * When to try a URL again after its failed attempt number `attempts + 1`, or null:
 * the failure ends it (permanent, or its last attempt). `retryAfter`: the response's
 * `Retry-After` header, honoured (up to `RETRY_DELAY_MAX_MS`) when longer than the
 * back-off.
 */
export function retryAt(
  rule: RetryRule,
  attempts: number,
  info: Pick<FailureInfo, 'class' | 'kind'>,
  now: number,
  retryAfter?: string,
): number | null {
  const attempt = attempts + 1;
  if (info.class !== 'transient' || attempt >= rule.maxAttempts) return null;
  let delay = retryDelayMs(attempt, rule.backoffMs);
  if (info.kind === 'robots-unreachable') delay = Math.max(delay, rule.robotsWaitMs);
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== undefined) delay = Math.max(delay, Math.min(asked, RETRY_DELAY_MAX_MS));
  return now + Math.min(delay, RETRY_DELAY_MAX_MS);
}

/** Keywords of `retryErrors`. */
const ALL = 'all';
const TRANSIENT = 'transient';

/**
 * `retryErrors` (`--retry-errors WHICH`) as the store's filter: `all`; `transient`
 * (the transient error codes, 5xx and 429); or a comma list of error codes
 * (`FC_ERR_DNS`), HTTP statuses (`404`) and classes of statuses (`5xx`), mixed as
 * wished. Throws `InvalidOptionError` naming the flag and the item at fault.
 */
export function parseRetryErrors(which: string): ErrorFilter {
  const items = which
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0) throw bad(which, 'give all, transient, or a list of codes');
  const codes = new Set<string>();
  const statuses = new Set<number>();
  const classes = new Set<number>();
  for (const item of items) {
    const lower = item.toLowerCase();
    if (lower === ALL) {
      if (items.length > 1) throw bad(which, '"all" goes alone');
      return {};
    }
    if (lower === TRANSIENT) {
      for (const c of TRANSIENT_CODES) codes.add(c);
      classes.add(5);
      statuses.add(429);
    } else if (/^\d{3}$/.test(item) && Number(item) >= 100 && Number(item) <= 599) {
      statuses.add(Number(item));
    } else if (/^[1-5]xx$/i.test(item)) {
      classes.add(Number(item[0]));
    } else if (item.toUpperCase() in ErrorCodes) {
      codes.add(item.toUpperCase());
    } else {
      throw bad(
        which,
        `"${item}" is not an error code (FC_ERR_DNS), a status (404) or a class (5xx)`,
      );
    }
  }
  return {
    ...(codes.size > 0 ? { codes: [...codes] } : {}),
    ...(statuses.size > 0 ? { statuses: [...statuses] } : {}),
    ...(classes.size > 0 ? { statusClasses: [...classes] } : {}),
  };
}

function bad(which: string, why: string): Error {
  return new InvalidOptionError(`retryErrors (--retry-errors) ${JSON.stringify(which)}: ${why}`);
}
