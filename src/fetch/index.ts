// Public surface of the fetch stage.
export { blockedAddressKind } from './address.js';
export * from './charset/index.js';
export { parseResolveSpec, type ResolveRule } from './connect.js';
export { isHtmlContentType } from './content-type.js';
export {
  classifyFailure,
  describeFailure,
  type FailureClass,
  type FailureInfo,
  type FailureInput,
  type FailureKind,
  isTransientStatus,
  TRANSIENT_CODES,
} from './failure-class.js';
export { createFetcher } from './fetcher.js';
export { type HostFailure, hostFailureOf } from './host-failure.js';
export {
  DEFAULT_CONTACT_URL,
  defaultUserAgent,
  type FetcherOptions,
  type FetcherOptionsInput,
  fetcherOptionsSchema,
  parseFetcherOptions,
} from './options.js';
export { withPrimed } from './primed.js';
export {
  isAllowedBy,
  normalizeRobotsPath,
  parseRobotsTxt,
  policyFor,
  type RobotsPolicy,
  type RobotsTxt,
} from './robots/index.js';
export { bodyTooLarge } from './too-large.js';
export type {
  ConditionalValidators,
  Fetcher,
  FetcherStats,
  FetchInit,
  FetchResult,
  HostQueueStats,
  RedirectHop,
  RobotsRuleRef,
  RobotsVerdict,
} from './types.js';
export { parseHttpDate, type Validators, validatorsOf } from './validators.js';
