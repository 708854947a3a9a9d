/**
 * When each host may take its next fetch, for the fetch queue (frontier/dispatch.ts):
 * the fetcher's politeness schedule (the host's last start plus its delay or
 * robots.txt Crawl-delay), and before a host's first fetch, its robots.txt. A host
 * whose robots.txt is not loaded yet has it loaded here, outside the crawl's fetch
 * slots, and is not ready until it is; afterwards its first page waits out the delay
 * in the queue, not in a slot. A timer wakes the crawl when the first host held back
 * becomes ready.
 */
import type { Fetcher } from '../fetch/index.js';
import type { Wakeup } from './signals.js';

/** Hosts whose robots.txt is remembered as loaded (beyond it, the oldest are forgotten). */
const MAX_HOSTS = 100_000;

export class HostReadiness {
  readonly #fetcher: Fetcher;
  readonly #wake: Wakeup;
  /** Hosts whose robots.txt was asked for: false while loading, true once settled. */
  readonly #robots = new Map<string, boolean>();
  #timer: NodeJS.Timeout | null = null;
  #timerAt = Number.POSITIVE_INFINITY;
  #closed = false;

  constructor(fetcher: Fetcher, wake: Wakeup) {
    this.#fetcher = fetcher;
    this.#wake = wake;
  }

  /** When `url`'s host (`host`) may start a fetch (+∞ while its robots.txt loads). */
  readyAt(host: string, url: string): number {
    const loaded = this.#robots.get(host);
    if (loaded === true) return this.#fetcher.readyAt(host);
    if (loaded === undefined && !this.#closed) this.#load(host, url);
    return Number.POSITIVE_INFINITY;
  }

  #load(host: string, url: string): void {
    if (this.#robots.size >= MAX_HOSTS) {
      const oldest = this.#robots.keys().next().value as string;
      this.#robots.delete(oldest);
    }
    this.#robots.set(host, false);
    // Failures (a dead host, a refused address) are the page fetch's to report.
    void this.#fetcher
      .robotsFor(url)
      .catch(() => undefined)
      .then(() => {
        if (this.#robots.has(host)) this.#robots.set(host, true);
        this.#wake.notify();
      });
  }

  /** Wakes the crawl at `at` (Date.now() ms), unless a wake-up is due sooner. */
  wakeAt(at: number): void {
    if (this.#closed || !Number.isFinite(at) || at >= this.#timerAt) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        this.#timerAt = Number.POSITIVE_INFINITY;
        this.#wake.notify();
      },
      Math.max(0, at - Date.now()),
    );
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
