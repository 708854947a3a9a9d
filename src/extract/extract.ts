/**
 * Field extraction from one page: the rule sets whose `urls` match the page's URL each
 * read their fields; the HTML is parsed once, and only when a matching rule set needs it.
 */
import { matchTarget } from '../url/index.js';
import { PageDocument } from './document.js';
import { readSource } from './sources.js';
import type {
  ExtractInput,
  FieldResult,
  FieldRule,
  FieldValue,
  PageExtraction,
  RuleSet,
  RuleSetResult,
  Rules,
} from './types.js';
import { collapseWhitespace, typeValue } from './values.js';

export const NO_RULE_SET = 'no rule set matched the URL';

/** The rule sets of `rules` that apply to `url`, in the file's order. */
export function matchingRuleSets(rules: Rules, url: string): RuleSet[] {
  let target: string | null | undefined;
  return rules.ruleSets.filter((rs) => {
    if (rs.urls.some((re) => re.test(url))) return true;
    if (rs.patterns.length === 0) return false;
    target ??= matchTarget(url);
    return target !== null && rs.patterns.some((re) => re.test(target as string));
  });
}

function extractField(rule: FieldRule, doc: PageDocument): FieldResult {
  const base = { name: rule.name, required: rule.required };
  const found = readSource(rule.source, doc, rule.multiple);
  if ('reason' in found) return { ...base, values: [], reason: found.reason };
  const values: FieldValue[] = [];
  const problems: string[] = [];
  const ctx = {
    ...(rule.type === 'url' ? { baseUrl: doc.baseUrl } : {}),
    ...(rule.currency === undefined ? {} : { currency: rule.currency }),
  };
  for (const text of found.texts) {
    const raw = rule.trim ? collapseWhitespace(text) : text;
    if (raw.trim() === '') {
      problems.push('value is empty');
      continue;
    }
    const typed = typeValue(rule.type, raw, ctx);
    if ('reason' in typed) problems.push(typed.reason);
    else values.push({ value: typed.value, raw, position: values.length });
    if (!rule.multiple) break;
  }
  if (values.length === 0) return { ...base, values, reason: problems[0] ?? 'no value' };
  return problems.length > 0 ? { ...base, values, skipped: problems } : { ...base, values };
}

function extractRuleSet(rs: RuleSet, doc: PageDocument): RuleSetResult {
  const fields = rs.fields.map((f) => extractField(f, doc));
  const missingRequired = fields
    .filter((f) => f.required && f.values.length === 0)
    .map((f) => f.name);
  return { ruleSet: rs.name, fields, missingRequired, complete: missingRequired.length === 0 };
}

/**
 * The fields of `page` by every rule set whose `urls` match `page.url`. Never throws for
 * a page: a field that finds nothing has `values: []` and a `reason`; a page no rule
 * set matches has `matched: []` and `reason` NO_RULE_SET (and its HTML is not parsed).
 */
export function extractPage(rules: Rules, page: ExtractInput): PageExtraction {
  const sets = matchingRuleSets(rules, page.url);
  if (sets.length === 0) return { url: page.url, matched: [], reason: NO_RULE_SET };
  const doc = new PageDocument(page.url, page.html);
  return { url: page.url, matched: sets.map((rs) => extractRuleSet(rs, doc)) };
}

/** A field's values by name from one rule set's result (a convenience for callers). */
export function fieldValues(result: RuleSetResult, name: string): string[] {
  return result.fields.find((f) => f.name === name)?.values.map((v) => v.value) ?? [];
}
