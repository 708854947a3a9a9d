/** What an incremental crawl (src/watch) lends the crawl engine. */
import type { Fetcher } from '../fetch/index.js';

/** A request budget every fetch start takes one request from (watch/budget.ts). */
export interface RequestGate {
  /** Whether a request may start now. */
  ready(): boolean;
  /** Takes one request. */
  take(): void;
  /** When the next request may start (ms since the epoch). */
  nextAt(): number;
}

/**
 * What an incremental crawl lends the engine (watch/): a fetcher shared with its
 * revisits (so that per-host politeness covers both; the engine does not close it),
 * a request budget, and a run that waits for new URLs instead of ending when the
 * frontier runs dry.
 */
export interface EngineHooks {
  fetcher?: Fetcher;
  gate?: RequestGate;
  /** While it returns true, an empty frontier is polled (every second) instead of ending the run. */
  keepAlive?: () => boolean;
}

/** How often a run kept alive looks for new URLs when its frontier is empty. */
export const KEEP_ALIVE_POLL_MS = 1_000;
