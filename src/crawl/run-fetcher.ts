/**
 * The fetcher of a crawl or watch run: the run's fetcher options, its scope for
 * redirect targets and, on a store shared by workers, the shared politeness.
 */
import { createFetcher, type Fetcher, type FetcherOptions } from '../fetch/index.js';
import type { Setup } from './setup.js';

export function runFetcher(
  options: FetcherOptions,
  scope: (url: string) => boolean,
  s: Pick<Setup, 'hostGate' | 'hostDone'>,
): Fetcher {
  return createFetcher({
    ...options,
    scope,
    ...(s.hostGate !== undefined ? { hostGate: s.hostGate } : {}),
    ...(s.hostDone !== undefined ? { hostDone: s.hostDone } : {}),
  });
}
