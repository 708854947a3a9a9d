/**
 * Responses already fetched, handed to a fetcher's caller instead of fetching again:
 * a crawl that sampled its site first (`--site-model learn`) takes the sample's pages
 * of valid patterns from memory, once each, instead of asking the site for them a
 * second time seconds later. Nothing else of the fetcher changes: a URL not primed,
 * or asked a second time, or asked conditionally (a revisit), is fetched; robots.txt
 * and the per-host delays held when the primed response was fetched.
 */
import type { Fetcher, FetchInit, FetchResult } from './types.js';

/** `fetcher` answering each URL of `primed` (by its canonical URL) once from memory. */
export function withPrimed(fetcher: Fetcher, primed: Map<string, FetchResult>): Fetcher {
  if (primed.size === 0) return fetcher;
  return {
    fetch(url: string, init?: FetchInit): Promise<FetchResult> {
      const res = primed.get(url);
      if (res === undefined || init?.conditional !== undefined) return fetcher.fetch(url, init);
      primed.delete(url);
      return Promise.resolve(res);
    },
    robotsFor: (url) => fetcher.robotsFor(url),
    readyAt: (host) => fetcher.readyAt(host),
    close: () => {
      primed.clear();
      return fetcher.close();
    },
    stats: () => fetcher.stats(),
  };
}
