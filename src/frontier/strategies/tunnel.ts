import { keptOrSeed, type LinkStrategy, type StrategyOptions } from '../strategy.js';
import { bestFirstPriority } from './best-first.js';

/**
 * Tunnelling by a "genetic factor" (DESIGN 1.5). Seeds carry Val = `seedVal`. A link
 * whose own relevance val (best-first's estimate: page relevance and anchor/context)
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
      const val = bestFirstPriority(p, text, score);
      const Val = val >= p.threshold && val > 0 ? p.value : p.value * o.tunnelFactor;
      if (Val < floor) return null;
      return { priority: -stepsOf(Val) + 0.999 * val, value: Val };
    },
  };
}
