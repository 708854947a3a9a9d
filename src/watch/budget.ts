/**
 * The request budget of an incremental crawl: a global rate over all hosts (on top
 * of per-host politeness), shared by revisits and the frontier. A token bucket of
 * one request: requests start at most one per `intervalMs`, so no window of any
 * length holds more than its share of the budget plus one request.
 *
 * Revisits come first, up to their own share (`setRevisitRate`, from the revisit
 * plan); a token a revisit does not take goes to the frontier, so budget the
 * revisits leave unused flows back to discovery.
 *
 * Shared (`shared`, a PostgreSQL store's `budget` table): every process watching the
 * store takes its requests from one bucket too. A process holds one start reserved
 * there ahead of need (reserved again as soon as it is taken), so that its gate stays
 * a synchronous question; the processes together stay within the budget, with at most
 * one request more per process in any window (a start reserved before an idle spell
 * and taken after it).
 */
import { InvalidOptionError } from '../errors/index.js';

/** A budget: `requests` per `perMs` milliseconds. */
export interface Budget {
  requests: number;
  perMs: number;
}

const UNITS: Record<string, number> = {
  s: 1_000,
  sec: 1_000,
  second: 1_000,
  m: 60_000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/**
 * Reads a budget written `N/unit` (`30/min`, `2/s`, `1000/hour`, `5000/day`; units
 * s, sec, second, m, min, minute, h, hour, d, day). `where` names the flag or
 * option in the error.
 */
export function parseBudget(text: string, where = '--budget'): Budget {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([a-z]+?)s?\s*$/i.exec(text);
  const unit = m?.[2]?.toLowerCase();
  const perMs = unit === undefined ? undefined : UNITS[unit];
  if (m === null || perMs === undefined) {
    throw new InvalidOptionError(
      `${where}: expected requests per unit such as 30/min, 2/s or 1000/hour, got ${JSON.stringify(text)}`,
    );
  }
  const requests = Number(m[1]);
  if (!(requests > 0))
    throw new InvalidOptionError(`${where}: a budget of ${requests} requests allows nothing`);
  return { requests, perMs };
}

/** Requests per day of a budget. */
export const perDay = (b: Budget): number => (b.requests * 86_400_000) / b.perMs;

/**
 * A budget shared with other processes: takes `count` requests from it and resolves
 * to the ms to wait before the first may start.
 */
export type SharedBudget = (count: number, intervalMs: number) => Promise<number>;

/** How soon a gate waiting for a start reserved in the shared budget looks again. */
const RESERVING_POLL_MS = 20;

/** Revisits the revisits' share may catch up on after a lull (`takeRevisit`). */
export const REVISIT_CREDIT = 20;

export class RequestBudget {
  readonly intervalMs: number;
  readonly #now: () => number;
  /** When the next request may start. */
  #nextAt: number;
  /** When the next revisit may start, under the revisits' own share. */
  #revisitNextAt: number;
  #revisitIntervalMs = Number.POSITIVE_INFINITY;
  /** Revisits ready to start, waiting for a token: the frontier waits behind them. */
  #revisitsWaiting = 0;
  /** Requests started, by kind. */
  readonly taken = { revisit: 0, discovery: 0, extra: 0 };
  readonly #shared: SharedBudget | undefined;
  readonly #warn: (message: string) => void;
  /** The start reserved in the shared budget and not taken yet: when (this clock). */
  #ticketAt: number | undefined;
  #reserving = false;
  #failing = false;

  /**
   * `shared`: the budget of every process on the store, taken from as well; `warn`
   * hears of a failure to reach it (the request then goes by this budget alone).
   */
  constructor(
    budget: Budget,
    now: () => number = Date.now,
    options: { shared?: SharedBudget | undefined; warn?: (message: string) => void } = {},
  ) {
    this.intervalMs = budget.perMs / budget.requests;
    this.#now = now;
    this.#nextAt = now();
    this.#revisitNextAt = this.#nextAt;
    this.#shared = options.shared;
    this.#warn = options.warn ?? (() => {});
    this.#reserve();
  }

  /** Reserves the next start in the shared budget, unless one is held or on its way. */
  #reserve(): void {
    const shared = this.#shared;
    if (shared === undefined || this.#reserving || this.#ticketAt !== undefined) return;
    this.#reserving = true;
    shared(1, this.intervalMs)
      .then(
        (waitMs) => {
          this.#ticketAt = this.#now() + waitMs;
          this.#failing = false;
        },
        (e: unknown) => {
          this.#ticketAt = this.#now();
          this.#failed(e);
        },
      )
      .finally(() => {
        this.#reserving = false;
      });
  }

  /** Warns once per spell of failures to reach the shared budget. */
  #failed(e: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#warn(
      `shared request budget: ${e instanceof Error ? e.message : String(e)} (going by this process's budget alone meanwhile)`,
    );
  }

  /** Whether the shared budget lets a request start now (always, when there is none). */
  #sharedReady(now: number): boolean {
    if (this.#shared === undefined) return true;
    if (this.#ticketAt === undefined) {
      this.#reserve();
      return false;
    }
    return now >= this.#ticketAt;
  }

  /** When the shared budget lets the next request start. */
  #sharedAt(): number {
    if (this.#shared === undefined) return Number.NEGATIVE_INFINITY;
    return this.#ticketAt ?? this.#now() + RESERVING_POLL_MS;
  }

  /** Sets the revisits' share, in requests per day (the plan's refresh budget). */
  setRevisitRate(perDay: number): void {
    this.#revisitIntervalMs = perDay > 0 ? 86_400_000 / perDay : Number.POSITIVE_INFINITY;
    this.#revisitNextAt = Math.min(this.#revisitNextAt, this.#now() + this.#revisitIntervalMs);
  }

  /** How many revisits are ready and waiting for a token (set by the reviser). */
  set revisitsWaiting(n: number) {
    this.#revisitsWaiting = n;
  }

  /** The gate the crawl engine takes from (`RequestGate`). */
  readonly discovery = {
    ready: (): boolean =>
      this.#now() >= this.#nextAt &&
      !(this.#revisitsWaiting > 0 && this.revisitReady()) &&
      this.#sharedReady(this.#now()),
    take: (): void => {
      this.#take();
      this.taken.discovery++;
    },
    nextAt: (): number => Math.max(this.#nextAt, this.#sharedAt()),
  };

  /** Whether a revisit may start now (a token, and the revisits' share allows it). */
  revisitReady(): boolean {
    const now = this.#now();
    return now >= this.#nextAt && now >= this.#revisitNextAt && this.#sharedReady(now);
  }

  /** When the next revisit may start. */
  revisitAt(): number {
    return Math.max(this.#nextAt, this.#revisitNextAt, this.#sharedAt());
  }

  /**
   * Takes a token for a revisit. The revisits' share is paced, but what it left unused
   * while nothing was due stays available for up to {@link REVISIT_CREDIT} revisits:
   * pages fall due unevenly, and a share that could not be spent when nothing was due
   * would otherwise be lost to a frontier that may have nothing to fetch either.
   */
  takeRevisit(): void {
    this.#take();
    const earliest = this.#now() - REVISIT_CREDIT * this.#revisitIntervalMs;
    this.#revisitNextAt = Math.max(this.#revisitNextAt, earliest) + this.#revisitIntervalMs;
    this.taken.revisit++;
  }

  /**
   * Counts requests a fetch made beyond its first (redirect hops, retries): they push
   * the next start back, so that the budget holds over time.
   */
  charge(extra: number): void {
    if (extra <= 0) return;
    this.#nextAt += extra * this.intervalMs;
    this.taken.extra += extra;
    this.#shared?.(extra, this.intervalMs).catch((e: unknown) => this.#failed(e));
  }

  #take(): void {
    this.#nextAt = Math.max(this.#nextAt, this.#now()) + this.intervalMs;
    this.#ticketAt = undefined;
    this.#reserve();
  }
}
