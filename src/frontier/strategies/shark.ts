import { keptOrSeed, type LinkStrategy, type StrategyOptions } from '../strategy.js';

/**
 * Shark-search: fish-search's budget plus a graded priority. The inherited score is
 * δ·relevance of a relevant parent, or δ·the parent's inherited score; the
 * neighbourhood score is β·anchor + (1 − β)·context, where context counts 1 when
 * the anchor itself scores. Priority = γ·inherited + (1 − γ)·neighbourhood.
 *
 * The value holds both numbers: budget in the integer part, inherited score
 * (in [0, 1)) in the fraction.
 */
export function sharkSearch(o: StrategyOptions): LinkStrategy {
  const seedInherited = 0.999_999;
  return {
    name: 'shark',
    seedValue: o.width + seedInherited,
    follows: (p) => keptOrSeed(p) || Math.floor(p.value) - 1 > 0,
    link: (p, text, score) => {
      const relevant = keptOrSeed(p);
      const budget = relevant ? o.width : Math.floor(p.value) - 1;
      const parentInherited = p.value - Math.floor(p.value);
      const inherited = Math.min(
        seedInherited,
        o.decay *
          (relevant ? Math.max(p.relevance, p.isSeed ? parentInherited : 0) : parentInherited),
      );
      const anchor = text.anchor ? score(text.anchor) : 0;
      const context = anchor > 0 ? 1 : text.context ? score(text.context) : 0;
      const neighbourhood = o.anchorWeight * anchor + (1 - o.anchorWeight) * context;
      return {
        priority: o.inheritedWeight * inherited + (1 - o.inheritedWeight) * neighbourhood,
        value: budget + inherited,
      };
    },
  };
}
