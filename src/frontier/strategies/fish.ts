import { keptOrSeed, type LinkStrategy, type StrategyOptions } from '../strategy.js';

/**
 * Fish-search: a URL carries a depth budget (value). Links of a relevant page get
 * the full `width` and go first (priority 1); links of an irrelevant page get
 * the page's budget minus one and go after them (priority 0); a budget of 0 ends
 * the path. Irrelevant pages' links are followed while budget remains.
 */
export function fishSearch(o: StrategyOptions): LinkStrategy {
  return {
    name: 'fish',
    seedValue: o.width,
    follows: (p) => keptOrSeed(p) || p.value - 1 > 0,
    link: (p) =>
      keptOrSeed(p) ? { priority: 1, value: o.width } : { priority: 0, value: p.value - 1 },
  };
}
