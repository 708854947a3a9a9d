// Public surface of the url stage: canonicalisation, hosts and domains, scope, depth.
export {
  canonicalizeUrl,
  canonicalizeUrlOrThrow,
  normalizePercentEncoding,
  sortQuery,
} from './canonicalize.js';
export {
  COPY_KEY_LEARN_AT,
  CopyKeys,
  type CopyKeysJson,
  copyKeys,
  LIKELY_COPY_FACTOR,
  likelyCopies,
  withoutKeys,
} from './copy-keys.js';
export { hostOf, registrableDomain, registrableDomainOfHost } from './host.js';
export { md5Hex } from './md5.js';
export {
  formatPattern,
  generalizePart,
  matchPattern,
  matchTarget,
  type ParsedPattern,
  type Part,
  type Placeholder,
  parsedOfUrl,
  parsePattern,
  patternOf,
  patternRegex,
  specificity,
  type Token,
  urlId,
  urlIds,
} from './pattern.js';
export { HEX, hexValue, isUnreserved } from './percent.js';
export {
  createScopeFilter,
  linkDepth,
  type ScopeFilter,
  type ScopeOptions,
  SEED_DEPTH,
  scopeOptionsSchema,
} from './scope.js';
export { urlWords, WEB_URL_WORDS } from './words.js';
