import {
  contextOf,
  keptOrSeed,
  type LinkStrategy,
  type LinkText,
  type ParentInfo,
  type StrategyOptions,
  type TextScorer,
} from '../strategy.js';

/** A link's own relevance val: the mean of its page's standing (1 when kept) and its context's score. */
function val(parent: ParentInfo, text: LinkText, score: TextScorer): number {
  return 0.5 * (parent.kept ? 1 : parent.relevance) + 0.5 * score(contextOf(text));
}

/**
 * Tunnelling by a "genetic factor" (DESIGN 1.5). Seeds carry Val = `seedVal`. A link
 * whose own relevance val (the page's standing, 1 when kept, and the link's context)
 * passes the threshold inherits its page's Val; otherwise it gets Val·r. The queue is
 * ordered by Val, then by val: priority = −k + 0.999·val with Val = seedVal·r^k.
 * Links of irrelevant pages are followed, so paths through them stay alive, until
 * r has applied `tunnelSteps` times.
 */
export function tunnelling(o: StrategyOptions): LinkStrategy {
  const floor = o.seedVal * o.tunnelFactor ** o.tunnelSteps * (1 - 1e-9);
  const stepsOf = (val: number): number =>
    Math.round(Math.log(val / o.seedVal) / Math.log(o.tunnelFactor));
  return {
    name: 'tunnel',
    seedValue: o.seedVal,
    follows: (p) => keptOrSeed(p) || p.value * o.tunnelFactor >= floor,
    link: (p, text, score) => {
      const v = val(p, text, score);
      const Val = v >= p.threshold && v > 0 ? p.value : p.value * o.tunnelFactor;
      if (Val < floor) return null;
      return { priority: -stepsOf(Val) + 0.999 * v, value: Val };
    },
  };
}
