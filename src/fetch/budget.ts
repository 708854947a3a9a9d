/**
 * One fetch call's time (`urlTimeoutMs`): every try, every wait before a retry and
 * every redirect hop of one URL draw on it; waits for robots.txt and for the host's
 * politeness slot do not (they are the crawler's own pacing, shared with other URLs),
 * so the budget is paused around them. It also counts the tries whose body timed out:
 * such a body is retried once at most.
 */
import { type FocusCrawlError, TotalTimeoutError } from '../errors/index.js';
import { errorRetryDelay, type RetryPolicy } from './retry.js';

export class FetchBudget {
  readonly limitMs: number;
  /** Requests sent for this fetch so far (every try of every hop). */
  requests = 0;
  /** Tries of this fetch that ended with TotalTimeoutError (a body that drips or never ends). */
  bodyTimeouts = 0;
  #spentMs = 0;
  /** When the running stretch began (ms since the epoch), or -1 while paused. */
  #since: number;

  constructor(limitMs: number, now: number = Date.now()) {
    this.limitMs = limitMs;
    this.#since = now;
  }

  /** Milliseconds left; 0 or less when the budget is spent. */
  remainingMs(now: number = Date.now()): number {
    const running = this.#since < 0 ? 0 : now - this.#since;
    return this.limitMs - this.#spentMs - running;
  }

  /** Stops the clock (a wait that is not this URL's own). */
  pause(now: number = Date.now()): void {
    if (this.#since < 0) return;
    this.#spentMs += now - this.#since;
    this.#since = -1;
  }

  /** Starts the clock again. */
  resume(now: number = Date.now()): void {
    if (this.#since < 0) this.#since = now;
  }

  /**
   * After try `attempt` (1-based, of one hop) failed with `err`: milliseconds to wait
   * before the next try, or -1 to give up and throw `err`. Beyond the retry policy, a
   * body that timed out (TotalTimeoutError) is retried once in the whole fetch, and no
   * retry is made that could not start before the time runs out. Says in `err`'s
   * message how many tries were made and, when the budget stopped them, why.
   */
  retryAfterError(
    err: FocusCrawlError,
    attempt: number,
    policy: RetryPolicy,
    random?: () => number,
  ): number {
    if (err instanceof TotalTimeoutError) this.bodyTimeouts++;
    const left = this.remainingMs();
    // The fetch's own time ran out: its error says so already.
    if (left <= 0) return -1;
    let wait = errorRetryDelay(err.retryable, attempt, policy, random);
    let why = '';
    if (wait >= 0 && this.bodyTimeouts > 1) {
      wait = -1;
      why = '; a body that timed out is retried once';
    } else if (wait >= left) {
      wait = -1;
      why = `; no time left for a retry within urlTimeoutMs=${this.limitMs}`;
    }
    if (wait < 0 && (attempt > 1 || why !== '')) {
      err.message += ` (after ${attempt === 1 ? '1 attempt' : `${attempt} attempts`}${why})`;
    }
    return wait;
  }

  /** Pauses the clock while `p` runs (a politeness or robots.txt wait). */
  async paused<T>(p: () => Promise<T>): Promise<T> {
    this.pause();
    try {
      return await p();
    } finally {
      this.resume();
    }
  }
}

/** The error of a fetch whose `urlTimeoutMs` ran out, after `attempts` requests. */
export function urlTimeoutError(
  url: string,
  limitMs: number,
  attempts: number,
  cause?: unknown,
): FocusCrawlError {
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  return new TotalTimeoutError(
    `${url}: no complete response within urlTimeoutMs=${limitMs}, the time of the whole fetch (${tries}, their retry waits and redirect hops)`,
    cause === undefined ? { url } : { url, cause },
  );
}
