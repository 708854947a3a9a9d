// Public surface of the frontier stage: link ordering strategies and host-aware dispatch.
export { type Dispatchable, HostDispatch } from './dispatch.js';
export {
  bestFirst,
  breadthFirst,
  type LinkStrategy,
  type ParentInfo,
  STRATEGY_NAMES,
  strategyByName,
} from './strategy.js';
