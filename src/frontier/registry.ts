// The strategies by name, with their constants' defaults.

import { DEFAULT_STRATEGY_OPTIONS, STRATEGY_NAMES, type StrategyName } from './names.js';
import { bestFirst } from './strategies/best-first.js';
import { breadthFirst } from './strategies/bfs.js';
import { depthFirst } from './strategies/dfs.js';
import { fishSearch } from './strategies/fish.js';
import { multiQueue } from './strategies/multi-queue.js';
import { bayesPriority, pagerankPriority } from './strategies/score-priority.js';
import { sharkSearch } from './strategies/shark.js';
import { tunnelling } from './strategies/tunnel.js';
import type { LinkStrategy, StrategyOptions } from './strategy.js';

/** The strategy of that name with the given constants. */
export function createStrategy(
  name: StrategyName,
  options: { [K in keyof StrategyOptions]?: number | undefined } = {},
): LinkStrategy & { queues?: number } {
  const o: StrategyOptions = { ...DEFAULT_STRATEGY_OPTIONS };
  for (const k of Object.keys(o) as (keyof StrategyOptions)[]) {
    const v = options[k];
    if (v !== undefined) o[k] = v;
  }
  switch (name) {
    case 'best-first':
      return bestFirst(o);
    case 'bfs':
      return breadthFirst;
    case 'dfs':
      return depthFirst;
    case 'fish':
      return fishSearch(o);
    case 'shark':
      return sharkSearch(o);
    case 'tunnel':
      return tunnelling(o);
    case 'multi-queue':
      return multiQueue(o);
    case 'bayes':
      return bayesPriority;
    case 'pagerank':
      return pagerankPriority;
  }
}

/** The strategy of that name with default constants; undefined for an unknown name. */
export function strategyByName(name: string): LinkStrategy | undefined {
  return (STRATEGY_NAMES as readonly string[]).includes(name)
    ? createStrategy(name as StrategyName)
    : undefined;
}
