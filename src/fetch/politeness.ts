/**
 * Politeness: a global limit on requests in flight, a per-host limit, and a
 * minimum delay between the STARTS of two requests to the same host
 * (effective delay = max(delayMs, the host's robots.txt Crawl-delay)). A host that
 * answered 429 or 503 is backed off as a whole (`backOff`): none of its requests
 * starts before the time it asked for (Retry-After) or the retry's backoff.
 *
 * Each host has a FIFO of waiters. Granting, releasing and queueing are O(1);
 * a timer exists only while a host has waiters held back by its delay. A
 * request that gets a slot immediately allocates nothing.
 */
import { AbortedError } from '../errors/index.js';
import { abortReason } from './signal.js';

export interface PolitenessOptions {
  /** Requests in flight across all hosts. */
  concurrency: number;
  /** Requests in flight per host. */
  perHostConcurrency: number;
  /** Minimum time between the starts of two requests to one host. */
  delayMs: number;
  now?: () => number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  done: boolean;
}

/** @internal */
export class HostState {
  active = 0;
  lastStartAt = Number.NEGATIVE_INFINITY;
  crawlDelayMs = 0;
  /** No request starts before this (a back-off after 429/503); −∞ when none. */
  notBefore = Number.NEGATIVE_INFINITY;
  /** Live (not cancelled) waiters. */
  waiting = 0;
  queue: Waiter[] = [];
  head = 0;
  timer: NodeJS.Timeout | null = null;
  inGlobalQueue = false;
  constructor(readonly key: string) {}
}

const SWEEP_MIN = 4096;

export class PolitenessScheduler {
  readonly #hosts = new Map<string, HostState>();
  /** Hosts whose head waiter is held back only by the global limit. */
  #globalQueue: HostState[] = [];
  #globalHead = 0;
  #active = 0;
  #queued = 0;
  #waited = 0;
  #sweepAt = SWEEP_MIN;
  #closed = false;
  readonly #o: PolitenessOptions;
  readonly #now: () => number;

  constructor(options: PolitenessOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  #host(key: string): HostState {
    let h = this.#hosts.get(key);
    if (h === undefined) {
      h = new HostState(key);
      this.#hosts.set(key, h);
    }
    return h;
  }

  #delayOf(h: HostState): number {
    return Math.max(h.crawlDelayMs, this.#o.delayMs);
  }

  /** When `h`'s next request may start, by its delay and any back-off. */
  #dueAt(h: HostState): number {
    return Math.max(h.lastStartAt + this.#delayOf(h), h.notBefore);
  }

  /**
   * Holds every request to `host` until `untilMs` (the host answered 429 or 503:
   * its Retry-After, or the retry's backoff). A later back-off extends it, an
   * earlier one changes nothing.
   */
  backOff(host: string, untilMs: number): void {
    const h = this.#host(host);
    if (untilMs > h.notBefore) h.notBefore = untilMs;
  }

  /**
   * When the next request to `host` may start: the last start plus the delay (−∞ for
   * a host not seen). While the host's connections are all in use or requests wait
   * for it (a sitemap, a redirect's next hop), no sooner than one delay from now.
   */
  readyAt(host: string): number {
    const h = this.#hosts.get(host);
    if (h === undefined) return Number.NEGATIVE_INFINITY;
    const due = this.#dueAt(h);
    if (h.waiting > 0 || h.active >= this.#o.perHostConcurrency)
      return Math.max(due, this.#now() + this.#delayOf(h));
    return due;
  }

  #grant(h: HostState): void {
    h.active++;
    this.#active++;
    h.lastStartAt = this.#now();
  }

  /**
   * Takes a slot for `host` at once if one is free and nobody is waiting for it.
   * `crawlDelayMs` is the host's robots.txt Crawl-delay (0 if none; negative
   * keeps the value last given, as for robots.txt requests themselves).
   */
  tryAcquire(host: string, crawlDelayMs: number): boolean {
    if (this.#closed) return false;
    const h = this.#host(host);
    if (crawlDelayMs >= 0) h.crawlDelayMs = crawlDelayMs;
    if (this.#hostHolds(h) || this.#active >= this.#o.concurrency) return false;
    this.#grant(h);
    return true;
  }

  /** Whether `h` itself holds a request back: waiters ahead, connections in use, or its delay. */
  #hostHolds(h: HostState): boolean {
    return h.waiting > 0 || h.active >= this.#o.perHostConcurrency || this.#now() < this.#dueAt(h);
  }

  /** Waits for a slot for `host` (FIFO per host). Rejects with AbortedError when `signal` aborts. */
  acquire(host: string, crawlDelayMs: number, signal?: AbortSignal): Promise<void> {
    if (this.#closed) return Promise.reject(new AbortedError('the fetcher is closed'));
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const h = this.#host(host);
    if (crawlDelayMs >= 0) h.crawlDelayMs = crawlDelayMs;
    // Waits for the host itself (its delay or its connections), not the global limit.
    if (this.#hostHolds(h)) this.#waited++;
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal, onAbort: undefined, done: false };
      if (signal !== undefined) {
        w.onAbort = () => {
          if (w.done) return;
          w.done = true;
          h.waiting--;
          this.#queued--;
          reject(abortReason(signal));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      h.queue.push(w);
      h.waiting++;
      this.#queued++;
      this.#pump(h);
    });
  }

  /**
   * The request granted to `host` went out now: its delay counts from here. A
   * request granted while its connection was still being set up (a new host, a
   * busy moment) leaves later than granted; counting from the grant would let the
   * next request reach the server less than a delay after it.
   */
  sent(host: string): void {
    const h = this.#hosts.get(host);
    if (h === undefined) return;
    const now = this.#now();
    if (now > h.lastStartAt) h.lastStartAt = now;
  }

  /** Gives back a slot taken by tryAcquire or acquire. */
  release(host: string): void {
    const h = this.#hosts.get(host);
    if (h === undefined) return;
    h.active--;
    this.#active--;
    const gq = this.#globalQueue;
    while (this.#active < this.#o.concurrency && this.#globalHead < gq.length) {
      const g = gq[this.#globalHead++]!;
      g.inGlobalQueue = false;
      this.#pump(g);
    }
    if (this.#globalHead === gq.length) {
      gq.length = 0;
      this.#globalHead = 0;
    }
    this.#pump(h);
    if (this.#hosts.size >= this.#sweepAt) this.#sweep();
  }

  #pump(h: HostState): void {
    while (h.waiting > 0) {
      const w = h.queue[h.head]!;
      if (w.done) {
        this.#shift(h);
        continue;
      }
      if (h.active >= this.#o.perHostConcurrency) return;
      if (this.#active >= this.#o.concurrency) {
        if (!h.inGlobalQueue) {
          h.inGlobalQueue = true;
          this.#globalQueue.push(h);
        }
        return;
      }
      const wait = this.#dueAt(h) - this.#now();
      if (wait > 0) {
        if (h.timer === null) h.timer = setTimeout(onTimer, wait, this, h);
        return;
      }
      this.#shift(h);
      w.done = true;
      h.waiting--;
      this.#queued--;
      if (w.onAbort !== undefined) w.signal!.removeEventListener('abort', w.onAbort);
      this.#grant(h);
      w.resolve();
    }
    // Only cancelled waiters may remain.
    h.queue.length = 0;
    h.head = 0;
  }

  #shift(h: HostState): void {
    h.head++;
    if (h.head === h.queue.length) {
      h.queue.length = 0;
      h.head = 0;
    } else if (h.head >= 1024 && h.head * 2 >= h.queue.length) {
      h.queue = h.queue.slice(h.head);
      h.head = 0;
    }
  }

  /** @internal called by the host's timer. */
  wake(h: HostState): void {
    h.timer = null;
    this.#pump(h);
  }

  /** Drops idle hosts whose delay has passed; amortised O(1) per release. */
  #sweep(): void {
    const now = this.#now();
    for (const [key, h] of this.#hosts) {
      if (
        h.active === 0 &&
        h.waiting === 0 &&
        h.timer === null &&
        !h.inGlobalQueue &&
        now >= this.#dueAt(h)
      ) {
        this.#hosts.delete(key);
      }
    }
    this.#sweepAt = Math.max(SWEEP_MIN, this.#hosts.size * 2);
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queued;
  }

  /** Calls to `acquire` held back by their host (its delay, connections or waiters). */
  get waited(): number {
    return this.#waited;
  }

  /** Hosts with requests in flight or waiting. */
  hostStats(): Record<string, { active: number; queued: number }> {
    const out: Record<string, { active: number; queued: number }> = {};
    for (const h of this.#hosts.values()) {
      if (h.active > 0 || h.waiting > 0) out[h.key] = { active: h.active, queued: h.waiting };
    }
    return out;
  }

  /** Rejects every waiter with AbortedError and stops the timers. */
  close(): void {
    this.#closed = true;
    for (const h of this.#hosts.values()) {
      if (h.timer !== null) clearTimeout(h.timer);
      h.timer = null;
      for (let i = h.head; i < h.queue.length; i++) {
        const w = h.queue[i]!;
        if (w.done) continue;
        w.done = true;
        if (w.onAbort !== undefined) w.signal!.removeEventListener('abort', w.onAbort);
        w.reject(new AbortedError('the fetcher was closed while the request waited for its turn'));
      }
      h.queue = [];
      h.head = 0;
      h.waiting = 0;
    }
    this.#queued = 0;
  }
}

function onTimer(s: PolitenessScheduler, h: HostState): void {
  s.wake(h);
}
