import {
  contextOf,
  keptOrSeed,
  type LinkStrategy,
  type LinkText,
  type ParentInfo,
  type TextScorer,
} from '../strategy.js';

/**
 * Best-first: the mean of the page's standing and the link's anchor/context
 * relevance. A kept page stands at 1 whatever its relevance above the threshold
 * (an irrelevant seed at its relevance): once a page is judged on topic, how far
 * on topic says little about which of its links lead on, so its links are told
 * apart by their anchor and surroundings, then by discovery order. Ranking them by
 * the page's exact relevance instead sends the crawl after the off-topic links of
 * the most relevant pages before the plainly named links of merely relevant ones
 * (measured in BENCHMARKS.md: 78–88% target recall at 20,000 pages against 98%).
 */
export function bestFirstPriority(parent: ParentInfo, text: LinkText, score: TextScorer): number {
  return 0.5 * (parent.kept ? 1 : parent.relevance) + 0.5 * score(contextOf(text));
}

export const bestFirst: LinkStrategy = {
  name: 'best-first',
  seedValue: 0,
  follows: keptOrSeed,
  link: (parent, text, score) => ({ priority: bestFirstPriority(parent, text, score), value: 0 }),
};
