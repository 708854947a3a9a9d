import type { LinkStrategy, StrategyOptions } from '../strategy.js';
import { bestFirst } from './best-first.js';

/**
 * Several relevance-ordered queues served in turn (DESIGN 1.2): best-first
 * priorities, and the crawl claims from each of `queues` partitions of the frontier
 * alike, so a long run of one region's URLs cannot hold the others back.
 */
export function multiQueue(o: StrategyOptions): LinkStrategy & { queues: number } {
  return { ...bestFirst(o), name: 'multi-queue', queues: o.queues };
}
