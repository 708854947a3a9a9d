// The strategies' names and their constants' defaults: what option parsing needs,
// without the strategies themselves (registry.ts), so that a thread that only parses
// options does not load them.
import type { StrategyOptions } from './strategy.js';

export const DEFAULT_STRATEGY_OPTIONS: Readonly<StrategyOptions> = {
  width: 3,
  decay: 0.5,
  anchorWeight: 0.8,
  inheritedWeight: 0.5,
  seedVal: 100,
  tunnelFactor: 0.5,
  tunnelSteps: 4,
  queues: 4,
  rankBufferPages: 1000,
  damping: 0.8,
  exploreSteps: 2,
  siblingWindow: 1,
  siblingDecay: 0.8,
  depthCost: 0.005,
  crowdCost: 0.04,
};

export const STRATEGY_NAMES = [
  'best-first',
  'bfs',
  'dfs',
  'fish',
  'shark',
  'tunnel',
  'multi-queue',
  'bayes',
  'pagerank',
] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];
