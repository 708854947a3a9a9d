/**
 * One HTTP exchange on an undici dispatcher: a dispatch handler (undici's
 * controller API) that reads the response into a BodyCollector, enforces the
 * total timeout (cut short by what is left of the fetch's `urlTimeoutMs`), and
 * listens to the caller's AbortSignal. Bodies of redirects
 * and of responses that will be retried are read and dropped (to keep the
 * connection alive), or the connection is dropped when they are large.
 */
import type { Dispatcher } from 'undici';
import { TotalTimeoutError } from '../errors/index.js';
import { BodyCollector, type BodyOwner, encodingOf } from './body.js';
import { type FetchBudget, urlTimeoutError } from './budget.js';
import { type TimeoutSettings, toFetchError } from './errors.js';
import { isRedirect } from './redirect.js';
import { type RetryPolicy, statusRetryDelay } from './retry.js';
import { abortReason } from './signal.js';

/** Settings shared by every request of a fetcher. */
export interface ExchangeConfig {
  retry: RetryPolicy;
  timeouts: TimeoutSettings;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  bytesOnWire: number;
  /** When the headers arrived (ms since the epoch). */
  headersAt: number;
  /** Milliseconds to wait before retrying this request, or -1 when this response is final. */
  retryInMs: number;
  /** Which attempt (1-based) gave this response. */
  attempt: number;
}

/** Largest body read and dropped to keep a connection; beyond it the connection is closed. */
const DISCARD_LIMIT = 64 * 1024;
const EMPTY = Buffer.alloc(0);

class CappedAbort extends Error {
  override name = 'CappedAbort';
}
const CAPPED = new CappedAbort('body cap reached');

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  for (const k in h) {
    const v = h[k];
    if (typeof v !== 'string') h[k] = Array.isArray(v) ? v.join(', ') : '';
  }
  return h as Record<string, string>;
}

class Exchange implements Dispatcher.DispatchHandler, BodyOwner {
  resolve!: (r: RawResponse) => void;
  reject!: (e: unknown) => void;
  controller: Dispatcher.DispatchController | null = null;
  settled = false;
  pendingAbort: Error | null = null;
  status = 0;
  headers: Record<string, string> = {};
  headersAt = 0;
  collector: BodyCollector | null = null;
  /** Bytes dropped; -1 while not dropping. */
  dropped = -1;
  retryInMs = -1;
  timer: NodeJS.Timeout | undefined;
  onAbort: (() => void) | undefined;
  /** When the fetch's `urlTimeoutMs` runs out (ms since the epoch). */
  readonly budgetEndsAt: number;
  /** Whether this try's timer is the fetch's `urlTimeoutMs` (shorter than `totalTimeoutMs`). */
  readonly cutByBudget: boolean;
  readonly timeoutMs: number;

  constructor(
    readonly url: string,
    readonly cfg: ExchangeConfig,
    readonly maxBytes: number,
    readonly attempt: number,
    readonly signal: AbortSignal | undefined,
    readonly onSent: (() => void) | undefined,
    readonly budget: FetchBudget,
  ) {
    const now = Date.now();
    const left = Math.max(1, budget.remainingMs(now));
    this.budgetEndsAt = now + left;
    this.cutByBudget = left < cfg.timeouts.totalTimeoutMs;
    this.timeoutMs = Math.min(left, cfg.timeouts.totalTimeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Called as the request is written to its connection (after connecting, if new).
    this.onSent?.();
    if (this.pendingAbort !== null) controller.abort(this.pendingAbort);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (this.settled || statusCode < 200) return;
    this.status = statusCode;
    this.headersAt = Date.now();
    const h = flattenHeaders(headers);
    this.headers = h;
    if (isRedirect(statusCode, h['location'])) {
      this.dropped = 0;
      return;
    }
    this.retryInMs = statusRetryDelay(
      statusCode,
      h['retry-after'],
      this.attempt,
      this.cfg.retry,
      this.headersAt,
    );
    // A retry that could only start once the fetch's time is up is not made: this
    // response is the answer (as with a Retry-After beyond maxRetryAfterMs).
    if (this.retryInMs >= 0 && this.headersAt + this.retryInMs >= this.budgetEndsAt) {
      this.retryInMs = -1;
    }
    if (this.retryInMs >= 0) {
      this.dropped = 0;
      return;
    }
    this.collector = new BodyCollector(
      this,
      this.maxBytes,
      encodingOf(h['content-encoding']),
      this.url,
    );
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (this.collector !== null) {
      this.collector.write(chunk);
    } else if (this.dropped >= 0) {
      this.dropped += chunk.length;
      if (this.dropped > DISCARD_LIMIT) {
        this.succeed();
        controller.abort(CAPPED);
      }
    }
  }

  onResponseEnd(): void {
    if (this.settled) return;
    if (this.collector !== null) this.collector.end();
    else this.succeed();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.fail(err);
  }

  bodyDone(err?: Error): void {
    if (err === undefined) this.succeed();
    else this.fail(err);
  }

  bodyCapped(): void {
    this.succeed();
    this.controller?.abort(CAPPED);
  }

  pauseInput(): void {
    this.controller?.pause();
  }

  resumeInput(): void {
    this.controller?.resume();
  }

  /** Ends the exchange from outside (total timeout, caller's signal). */
  abort(reason: Error): void {
    if (this.settled) return;
    this.fail(reason);
    if (this.controller !== null) this.controller.abort(reason);
    else this.pendingAbort = reason;
  }

  #cleanup(): void {
    this.settled = true;
    clearTimeout(this.timer);
    if (this.onAbort !== undefined) this.signal!.removeEventListener('abort', this.onAbort);
  }

  succeed(): void {
    if (this.settled) return;
    this.#cleanup();
    const c = this.collector;
    this.resolve({
      status: this.status,
      headers: this.headers,
      body: c === null ? EMPTY : c.body(),
      truncated: c?.truncated === true,
      bytesOnWire: c === null ? this.dropped : c.wireBytes,
      headersAt: this.headersAt,
      retryInMs: this.retryInMs,
      attempt: this.attempt,
    });
  }

  fail(err: unknown): void {
    if (this.settled) return;
    this.#cleanup();
    this.collector?.destroy();
    this.reject(toFetchError(err, this.url, this.cfg.timeouts));
  }
}

function onTotalTimeout(x: Exchange): void {
  x.abort(
    x.cutByBudget
      ? urlTimeoutError(x.url, x.budget.limitMs, x.budget.requests)
      : new TotalTimeoutError(
          `${x.url}: no complete response within totalTimeoutMs=${x.cfg.timeouts.totalTimeoutMs}`,
          { url: x.url },
        ),
  );
}

/**
 * Sends `GET href` through `dispatcher` to the pool of `origin`, with `headers`
 * (flat: name, value, …). `attempt` (1-based) decides whether a
 * 5xx/429 will be retried (then its body is dropped and `retryInMs` ≥ 0), and
 * `budget`, the fetch's time left, whether the retry can still start in time and
 * how long this try may take. `onSent` is called as the request goes out on its
 * connection. Rejects with a FocusCrawlError.
 */
export function exchange(
  dispatcher: Dispatcher,
  origin: string,
  path: string,
  headers: string[],
  href: string,
  cfg: ExchangeConfig,
  maxBytes: number,
  attempt: number,
  signal: AbortSignal | undefined,
  budget: FetchBudget,
  onSent?: () => void,
): Promise<RawResponse> {
  const x = new Exchange(href, cfg, maxBytes, attempt, signal, onSent, budget);
  const p = new Promise<RawResponse>((resolve, reject) => {
    x.resolve = resolve;
    x.reject = reject;
  });
  if (signal !== undefined) {
    if (signal.aborted) {
      x.fail(abortReason(signal));
      return p;
    }
    x.onAbort = () => x.abort(abortReason(signal));
    signal.addEventListener('abort', x.onAbort, { once: true });
  }
  x.timer = setTimeout(onTotalTimeout, x.timeoutMs, x);
  try {
    dispatcher.dispatch({ origin, path, method: 'GET', headers }, x);
  } catch (err) {
    x.fail(err);
  }
  return p;
}
