import { urlWords } from '../../url/index.js';
import {
  keptOrSeed,
  type LinkStrategy,
  type LinkText,
  type ParentInfo,
  type StrategyOptions,
  type TextScorer,
} from '../strategy.js';

/**
 * A link's evidence about its target, in [0, 1]: the mean of the topic's score of
 * its anchor with its URL's words (`urlWords`), and of the words around it (its
 * context, else its anchor).
 */
export function linkEvidence(text: LinkText, score: TextScorer): number {
  const own = score(`${text.anchor} ${urlWords(text.url)}`);
  return 0.5 * own + 0.5 * score(text.context || text.anchor);
}

/**
 * The standing of the page a link was found on, in [0, 1]: a kept page stands in
 * [½, 1] by its relevance, a discarded one in [0, ½) by its relevance over the
 * threshold (an irrelevant seed likewise). Kept pages' links go first, and among
 * pages on either side of the threshold the more relevant page's links go first.
 */
export function pageStanding(parent: ParentInfo): number {
  if (parent.kept) return 0.5 + 0.5 * Math.min(1, parent.relevance);
  return 0.5 * Math.min(1, parent.relevance / Math.max(parent.threshold, 1e-9));
}

/** Best-first priority: the mean of the page's standing and the link's evidence. */
export function bestFirstPriority(parent: ParentInfo, text: LinkText, score: TextScorer): number {
  return 0.5 * pageStanding(parent) + 0.5 * linkEvidence(text, score);
}

/**
 * Best-first (the default). Kept pages' and seeds' links are followed; so are the
 * links of discarded pages while the path has crossed at most `exploreSteps`
 * discarded pages in a row (the URL's value counts them), ranked by the same
 * priority, which puts them behind comparable links of kept pages. Home pages and
 * tables of contents that score below the threshold thus still lead on, and a
 * crawl does not starve; `exploreSteps: 0` is DESIGN 1.1's strict gate.
 */
export function bestFirst(o: StrategyOptions): LinkStrategy {
  return {
    name: 'best-first',
    seedValue: 0,
    follows: (p) => keptOrSeed(p) || p.value < o.exploreSteps,
    link: (p, text, score) => ({
      priority: bestFirstPriority(p, text, score),
      value: keptOrSeed(p) ? 0 : p.value + 1,
    }),
  };
}
