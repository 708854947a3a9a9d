/**
 * The fetcher options of the integration tests' crawls of the test web: every host
 * resolved to its loopback server, no per-host delay, 8 requests in flight, 2 a host.
 */
import type { FetcherOptionsInput } from '../src/fetch/options.js';

export function webFetcher(web: { readonly resolve: string }): FetcherOptionsInput {
  return {
    resolve: [web.resolve],
    allowPrivateAddresses: true,
    delayMs: 0,
    concurrency: 8,
    perHostConcurrency: 2,
  };
}
