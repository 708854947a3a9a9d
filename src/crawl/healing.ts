/**
 * The engine's side of failures that heal: URLs in error put back at the start
 * (`retryErrors`), the circuit breaker fed with every ended fetch (failing.ts), the
 * wait for failed attempts due soon (retry.ts), and what the run's end says of the
 * URLs left to be tried again.
 */
import { classifyFailure, type FetchResult, isTransientStatus } from '../fetch/index.js';
import type { Store } from '../store/index.js';
import { FailingWatch } from './failing.js';
import type { StopNote } from './figures.js';
import type { CrawlOptions } from './options.js';
import type { Figures } from './recorder.js';
import { parseRetryErrors, RETRY_WAIT_MAX_MS } from './retry.js';
import { errorText } from './signals.js';
import type { StopReason } from './types.js';

export class Healing {
  readonly #o: CrawlOptions;
  readonly #store: Store;
  readonly #watch: FailingWatch;
  /** Why the run stops as `failing`, said when it was decided. */
  #note = '';

  /** `breaker`: whether the circuit breaker may stop the run (`failingStopMs`). */
  constructor(o: CrawlOptions, store: Store, breaker: boolean) {
    this.#o = o;
    this.#store = store;
    this.#watch = new FailingWatch(breaker ? o.failingStopMs : 0);
  }

  /** `retryErrors`: URLs in error back to waiting before the first claim; a warning says how many. */
  async requeue(f: Figures, warnings: string[]): Promise<void> {
    const which = this.#o.retryErrors;
    if (which === undefined) return;
    const n = await this.#store.requeueErrors(parseRetryErrors(which));
    f.requeued = n;
    f.counts = await this.#store.counts();
    const urls = `${n} URL${n === 1 ? '' : 's'}`;
    warnings.push(`${urls} in error put back to waiting (--retry-errors ${which}), attempts reset`);
  }

  /** How a fetch of `url` ended (a response or an error); true when the breaker trips now. */
  ended(url: string, res: FetchResult | null, err: unknown, now: number): boolean {
    if (res !== null && !isTransientStatus(res.status)) this.#watch.succeeded();
    else {
      const status = res?.status ?? null;
      const error = res === null ? errorText(err) : `HTTP ${status}`;
      const info = classifyFailure({ error, status, url: res?.finalUrl ?? url });
      if (info.class === 'transient') this.#watch.failed(info, now);
    }
    return this.tripped(now);
  }

  /** Whether every fetch for `failingStopMs` failed (the message is kept for the summary). */
  tripped(now: number): boolean {
    if (!this.#watch.tripped(now)) return false;
    this.#note = this.#watch.message('window');
    return true;
  }

  /**
   * The time to wait for when only failed attempts are left to claim and the first is
   * due within `RETRY_WAIT_MAX_MS` (a time past: claim now); null when none is due
   * that soon (later ones are a later run's).
   */
  async retryDue(): Promise<number | null> {
    const at = await this.#store.nextRetryAt();
    return at === null || at - Date.now() > RETRY_WAIT_MAX_MS ? null : at;
  }

  /**
   * The run has nothing left to fetch: whether it ends as `failing` because no fetch
   * of it was answered and URLs are left to be tried again (`deadHeld`: URLs of dead
   * hosts held).
   */
  async failedThrough(deadHeld: number): Promise<boolean> {
    if (!this.#watch.nothingAnswered) return false;
    if (deadHeld === 0 && (await this.#store.nextRetryAt()) === null) return false;
    this.#note = this.#watch.message('run');
    return true;
  }

  /** What the summary's message says besides the stop reason: why it failed, when retries are due. */
  async note(reason: StopReason): Promise<StopNote> {
    const retryAt = await this.#store.nextRetryAt();
    return { ...(reason === 'failing' ? { failing: this.#note } : {}), retryAt };
  }
}
