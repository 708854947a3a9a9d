// robots.txt (RFC 9309): parser, matcher and cache.
export {
  buildEntry,
  loadFromResponse,
  RobotsCache,
  type RobotsCacheOptions,
  type RobotsEntry,
  type RobotsLoad,
  verdictFor,
} from './cache.js';
export {
  type CompiledRule,
  decidingRule,
  isAllowedBy,
  policyFor,
  type RobotsPolicy,
  ruleMatches,
} from './match.js';
export {
  agentToken,
  parseRobotsTxt,
  type RobotsGroup,
  type RobotsRule,
  type RobotsTxt,
} from './parse.js';
export { normalizeRobotsPath } from './path.js';
