import {
  contextOf,
  keptOrSeed,
  type LinkStrategy,
  type LinkText,
  type ParentInfo,
  type TextScorer,
} from '../strategy.js';

/**
 * Best-first: the mean of the page's relevance and the link's anchor/context
 * relevance. A relevant page's links come before an irrelevant seed's; among them,
 * links whose anchor and surroundings speak of the topic first.
 */
export function bestFirstPriority(parent: ParentInfo, text: LinkText, score: TextScorer): number {
  return 0.5 * parent.relevance + 0.5 * score(contextOf(text));
}

export const bestFirst: LinkStrategy = {
  name: 'best-first',
  seedValue: 0,
  follows: keptOrSeed,
  link: (parent, text, score) => ({ priority: bestFirstPriority(parent, text, score), value: 0 }),
};
