// Public surface of the frontier stage: link ordering strategies and host-aware dispatch.
export { type Dispatchable, HostDispatch } from './dispatch.js';
export {
  HOST_HEALTH_DEFAULTS,
  HostHealth,
  type HostHealthOptions,
  type HostVerdict,
} from './host-health.js';
export { DEFAULT_STRATEGY_OPTIONS, STRATEGY_NAMES, type StrategyName } from './names.js';
export { claimFromQueues, type QueueClaim } from './queues.js';
export { createStrategy, strategyByName } from './registry.js';
export {
  bestFirst,
  bestFirstPriority,
  CROWD_LINKS,
  crowding,
  type PriorityCosts,
  siblingEvidence,
  standingPriority,
} from './strategies/best-first.js';
export { breadthFirst } from './strategies/bfs.js';
export { depthFirst } from './strategies/dfs.js';
export { fishSearch } from './strategies/fish.js';
export { multiQueue } from './strategies/multi-queue.js';
export { sharkSearch } from './strategies/shark.js';
export { tunnelling } from './strategies/tunnel.js';
export type {
  LinkScore,
  LinkStrategy,
  LinkText,
  ParentInfo,
  SiblingRule,
  StrategyOptions,
  TextScorer,
} from './strategy.js';
