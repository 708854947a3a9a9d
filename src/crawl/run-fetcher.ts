/**
 * The fetcher of a crawl or watch run: the run's fetcher options, its scope for
 * redirect targets and, on a store shared by workers, the shared politeness; the
 * pages its site model's sample fetched are answered from memory (fetch/primed.ts).
 */
import { createFetcher, type Fetcher, type FetcherOptions, withPrimed } from '../fetch/index.js';
import type { Setup } from './setup.js';

export function runFetcher(
  options: FetcherOptions,
  scope: (url: string) => boolean,
  s: Pick<Setup, 'hostGate' | 'hostDone' | 'primed'>,
): Fetcher {
  const fetcher = createFetcher({
    ...options,
    scope,
    ...(s.hostGate !== undefined ? { hostGate: s.hostGate } : {}),
    ...(s.hostDone !== undefined ? { hostDone: s.hostDone } : {}),
  });
  return withPrimed(fetcher, s.primed);
}
