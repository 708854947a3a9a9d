import { contextOf, keptOrSeed, type LinkStrategy } from '../strategy.js';

/**
 * A link's priority is its score alone: the crawl supplies the scorer. `bayes`
 * (DESIGN 1.4's bayes-priority) is meant for the naive Bayes link model, whose score
 * is Pr(+ | link context); `pagerank` for the PageRank of the target among the
 * discovered pages, recomputed on a buffer (DESIGN 1.5). Under a text model alone
 * the score is the relevance of the link's context. Links of kept pages and seeds
 * are followed, as in best-first. Because the priority depends on nothing but the
 * link, the crawl may re-score waiting URLs when its scorer changes (`rescores`).
 */
function scorePriority(name: string): LinkStrategy {
  return {
    name,
    seedValue: 0,
    rescores: true,
    follows: keptOrSeed,
    link: (_parent, text, score) => ({ priority: score(contextOf(text)), value: 0 }),
  };
}

export const bayesPriority = scorePriority('bayes');
export const pagerankPriority = scorePriority('pagerank');
