/**
 * The crawl's circuit breaker: whether every fetch for a while failed, and why, in
 * words a person can act on ("every fetch in the last 30 s failed: cannot resolve
 * portal.test — is a --resolve missing?"). A fetch fails when it ends in a transient
 * failure (fetch/failure-class.ts: no name, no connection, no answer in time, 5xx,
 * 429); any other response (a 404 included: the server answers) is a success, and
 * permanent refusals (robots.txt, scope) are neither. The watch trips once the
 * failures since the last success span `windowMs` and number at least
 * `minFailures`, so that one slow failure does not stop a crawl. Pure: the caller
 * passes the time.
 */
import { describeFailure, type FailureInfo } from '../fetch/index.js';

/** Failures in a row, at least, before the breaker trips. */
export const FAILING_MIN_FAILURES = 3;

export class FailingWatch {
  readonly #windowMs: number;
  readonly #min: number;
  /** When the failures since the last success began; null after a success (or before any failure). */
  #since: number | null = null;
  #count = 0;
  /** The failures since the last success by kind and code: where they happened. */
  readonly #causes = new Map<string, { info: FailureInfo; count: number; where: Set<string> }>();
  /** Whether a fetch of this run succeeded. */
  #answered = false;
  /** Whether a fetch of this run failed. */
  #failed = false;

  /** `windowMs`: 0 turns the breaker off (`failures` and `message` still work). */
  constructor(windowMs: number, minFailures = FAILING_MIN_FAILURES) {
    this.#windowMs = windowMs;
    this.#min = minFailures;
  }

  /** A fetch got a response that is not a transient failure. */
  succeeded(): void {
    this.#answered = true;
    this.#since = null;
    this.#count = 0;
    this.#causes.clear();
  }

  /** A fetch failed transiently at `now`. */
  failed(info: FailureInfo, now: number): void {
    this.#failed = true;
    this.#since ??= now;
    this.#count++;
    const key = `${info.kind} ${info.code}`;
    let c = this.#causes.get(key);
    if (c === undefined) {
      c = { info, count: 0, where: new Set() };
      this.#causes.set(key, c);
    }
    c.count++;
    if (info.where !== '') c.where.add(info.where);
  }

  /** Whether every fetch of the last `windowMs` failed (at least `minFailures` of them). */
  tripped(now: number): boolean {
    return (
      this.#windowMs > 0 &&
      this.#since !== null &&
      this.#count >= this.#min &&
      now - this.#since >= this.#windowMs
    );
  }

  /** Whether fetches of this run failed and none succeeded. */
  get nothingAnswered(): boolean {
    return this.#failed && !this.#answered;
  }

  /** The commonest cause of the failures since the last success; '' when there are none. */
  cause(): string {
    let best: { info: FailureInfo; count: number; where: Set<string> } | undefined;
    for (const c of this.#causes.values()) if (best === undefined || c.count > best.count) best = c;
    if (best === undefined) return '';
    return describeFailure(best.info.kind, best.info.code, [...best.where]);
  }

  /** `every fetch in the last 30 s failed: …` (`window`) or `every fetch of this run failed: …` (`run`). */
  message(span: 'window' | 'run'): string {
    const head =
      span === 'window'
        ? `every fetch in the last ${duration(this.#windowMs)} failed`
        : 'every fetch of this run failed';
    const cause = this.cause();
    return cause === '' ? head : `${head}: ${cause}`;
  }
}

/** `30 s`, `2 min`, `500 ms`. */
function duration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  return s < 120 || s % 60 !== 0 ? `${s} s` : `${s / 60} min`;
}
