// Public surface of the extract stage: rule files (JSON or YAML) → fields cut out of pages.

export { parseDate } from './date.js';
export { renderText } from './document.js';
export { extractPage, fieldValues, matchingRuleSets, NO_RULE_SET } from './extract.js';
export { parseMoney } from './money.js';
export { parseNumber } from './number.js';
export { type FieldRow, fieldRows } from './rows.js';
export { loadRules, parseRules } from './rules.js';
export type {
  BetweenSource,
  CssSource,
  ExtractInput,
  FieldResult,
  FieldRule,
  FieldSource,
  FieldType,
  FieldValue,
  JsonLdSource,
  MetaSource,
  Over,
  PageExtraction,
  RegexSource,
  RuleSet,
  RuleSetResult,
  Rules,
} from './types.js';
export { collapseWhitespace, type Typed, typeValue, type ValueContext } from './values.js';
