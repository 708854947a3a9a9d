import { keptOrSeed, type LinkStrategy } from '../strategy.js';

/**
 * Depth-first: the deepest links first (priority = depth), ties in discovery order,
 * so the crawl goes down one path of kept pages before it widens.
 */
export const depthFirst: LinkStrategy = {
  name: 'dfs',
  seedValue: 0,
  follows: keptOrSeed,
  link: (parent) => ({ priority: parent.depth + 1, value: 0 }),
};
