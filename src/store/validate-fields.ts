/**
 * Checks of extracted fields (`FetchedPage.fields`, `replaceFields`, `fields`):
 * every error names the page's URL and the entry at fault.
 */
import type { FieldsOptions, FieldValue, PageFields } from './field-types.js';
import { checkArray, checkUrl, fail, show } from './validate-basics.js';

/** The page and the entry an error is about. */
function entry(url: string, f: FieldValue): string {
  const of = typeof f.ruleSet === 'string' ? ` of rule set ${show(f.ruleSet)}` : '';
  return typeof f.field === 'string'
    ? ` (field ${show(f.field)}${of}, page ${url})`
    : ` (page ${url})`;
}

/**
 * Checks the fields of the page of `url` (`where` names the list): each an object
 * with a non-empty `ruleSet` and `field`, an integer `position` ≥ 0 and a string or
 * null `value`, no two with the same rule set, field and position.
 */
export function checkFields(
  where: string,
  url: string,
  fields: unknown,
): asserts fields is readonly FieldValue[] {
  if (!Array.isArray(fields)) fail(where, `expected an array, got ${show(fields)} (page ${url})`);
  const seen = fields.length > 1 ? new Map<string, number>() : undefined;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as FieldValue;
    const at = `${where}[${i}]`;
    if (typeof f !== 'object' || f === null) {
      fail(at, `expected { ruleSet, field, position, value }, got ${show(f)} (page ${url})`);
    }
    if (typeof f.ruleSet !== 'string' || f.ruleSet.length === 0) {
      fail(`${at}.ruleSet`, `expected a non-empty string, got ${show(f.ruleSet)}${entry(url, f)}`);
    }
    if (typeof f.field !== 'string' || f.field.length === 0) {
      fail(`${at}.field`, `expected a non-empty string, got ${show(f.field)}${entry(url, f)}`);
    }
    if (typeof f.position !== 'number' || !Number.isInteger(f.position) || f.position < 0) {
      fail(`${at}.position`, `expected an integer ≥ 0, got ${show(f.position)}${entry(url, f)}`);
    }
    if (f.value !== null && typeof f.value !== 'string') {
      fail(`${at}.value`, `expected a string or null, got ${show(f.value)}${entry(url, f)}`);
    }
    if (seen === undefined) continue;
    const key = JSON.stringify([f.ruleSet, f.field, f.position]);
    const first = seen.get(key);
    if (first !== undefined) {
      fail(at, `position ${f.position} is given twice (first at [${first}])${entry(url, f)}`);
    }
    seen.set(key, i);
  }
}

/** Checks the items of `replaceFields`. */
export function checkPageFields(
  where: string,
  items: readonly PageFields[],
): asserts items is readonly PageFields[] {
  checkArray(where, items);
  for (let i = 0; i < items.length; i++) {
    const it = items[i] as PageFields;
    const at = `${where}[${i}]`;
    if (typeof it !== 'object' || it === null)
      fail(at, `expected { url, fields }, got ${show(it)}`);
    checkUrl(`${at}.url`, it.url);
    checkFields(`${at}.fields`, it.url, it.fields);
  }
}

/** Checks `fields` options; returns the URL whose fields are wanted, if any. */
export function checkFieldsOptions(
  where: string,
  options: FieldsOptions | undefined,
): string | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) {
    fail(where, `expected { url? }, got ${show(options)}`);
  }
  for (const k of Object.keys(options)) if (k !== 'url') fail(where, `unknown option "${k}"`);
  if (options.url === undefined) return undefined;
  checkUrl(`${where}.url`, options.url);
  return options.url;
}
