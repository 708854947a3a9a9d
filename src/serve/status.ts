/**
 * The body of `/api/status` and of the `status` events: `focuscrawl status --json`'s
 * figures (gatherStatus), the control value, and the pages per second of the last few
 * seconds as this server saw the store's fetch count move.
 *
 * Gathering the status reads some tables whole (a watched store's history for the
 * revisits' last hour), so every caller (requests and event streams alike) shares one
 * result, gathered again once it is older than `max(1 s, 4 × the time it took)`: the
 * server never spends more than about a fifth of its time on it, whatever the store's size.
 */
import { type Control, readControl } from '../crawl/control.js';
import { gatherStatus, type StatusData } from '../export/index.js';
import type { Store } from '../store/index.js';
import { META_PLAN, META_WATCH } from '../watch/index.js';

/** The window the live pages per second are measured over. */
/** The control value as the API shows it (in the status and the control routes' answers). */
export function controlFields(c: Control): StatusBody['control'] {
  return {
    paused: c.paused,
    stop: c.stop,
    seq: c.seq,
    at: c.at,
    threshold: c.threshold?.value ?? null,
    weights: c.weights?.terms ?? null,
  };
}

export const RATE_WINDOW_MS = 5_000;
/** The shortest time a gathered status is reused. */
export const STATUS_MIN_AGE_MS = 1_000;

export interface StatusBody extends StatusData {
  /** Fetch outcomes per second over the last `RATE_WINDOW_MS` (null until two readings). */
  pagesPerSec: number | null;
  /** `focuscrawl status`'s pages per second: fetched over the runs' crawl time. */
  crawlPagesPerSec: number | null;
  control: Pick<Control, 'paused' | 'stop' | 'seq' | 'at'> & {
    threshold: number | null;
    weights: Record<string, number> | null;
  };
  /** When this status was gathered (ms since the epoch). */
  at: number;
}

export class StatusSource {
  readonly #store: Store;
  readonly #now: () => number;
  #last: StatusBody | null = null;
  #maxAgeMs = STATUS_MIN_AGE_MS;
  #pending: Promise<StatusBody> | null = null;
  /** Readings of the fetch count: [time, fetched]. */
  readonly #readings: [number, number][] = [];

  constructor(store: Store, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** The status, gathered anew when the last one is too old. */
  get(): Promise<StatusBody> {
    const last = this.#last;
    if (last !== null && this.#now() - last.at < this.#maxAgeMs) return Promise.resolve(last);
    this.#pending ??= this.#gather().finally(() => {
      this.#pending = null;
    });
    return this.#pending;
  }

  async #gather(): Promise<StatusBody> {
    const started = this.#now();
    const store = this.#store;
    const revisitMeta = {
      watch: await store.getMeta(META_WATCH),
      plan: await store.getMeta(META_PLAN),
    };
    const data = await gatherStatus(store, { topHosts: 10, topPages: 0, revisitMeta });
    const c = await readControl(store);
    const at = this.#now();
    const body: StatusBody = {
      ...data,
      pagesPerSec: this.#rate(at, data.fetched),
      crawlPagesPerSec: data.pagesPerSec,
      control: controlFields(c),
      at,
    };
    this.#maxAgeMs = Math.max(STATUS_MIN_AGE_MS, 4 * (at - started));
    this.#last = body;
    return body;
  }

  /** Pages per second over the readings of the last window, this one included. */
  #rate(at: number, fetched: number): number | null {
    const r = this.#readings;
    r.push([at, fetched]);
    while (r.length > 2 && (r[0] as [number, number])[0] < at - RATE_WINDOW_MS) r.shift();
    const [t0, f0] = r[0] as [number, number];
    if (r.length < 2 || at <= t0) return null;
    return Math.max(0, ((fetched - f0) * 1000) / (at - t0));
  }
}
