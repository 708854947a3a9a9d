import { keptOrSeed, type LinkStrategy } from '../strategy.js';

/** Breadth-first: every link has the same priority, so discovery order decides (FIFO). */
export const breadthFirst: LinkStrategy = {
  name: 'bfs',
  seedValue: 0,
  follows: keptOrSeed,
  link: () => ({ priority: 0, value: 0 }),
};
