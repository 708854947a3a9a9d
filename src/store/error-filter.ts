/**
 * `requeueErrors`' filter, shared by the stores: checked where it enters, and matched
 * against the last error of each URL in state error.
 */
import { errorCode } from './tally.js';
import type { ErrorFilter } from './types.js';
import { checkArray, checkInt, fail, show } from './validate-basics.js';

/** A checked filter; `all` when it lists nothing. */
export interface CheckedFilter {
  all: boolean;
  codes: ReadonlySet<string>;
  statuses: ReadonlySet<number>;
  classes: ReadonlySet<number>;
}

const KEYS = new Set(['codes', 'statuses', 'statusClasses']);

export function checkErrorFilter(where: string, filter: ErrorFilter | undefined): CheckedFilter {
  if (filter === undefined)
    return { all: true, codes: new Set(), statuses: new Set(), classes: new Set() };
  if (typeof filter !== 'object' || filter === null)
    fail(where, `expected an object, got ${show(filter)}`);
  for (const k of Object.keys(filter)) if (!KEYS.has(k)) fail(where, `unknown field "${k}"`);
  const codes = filter.codes ?? [];
  checkArray(`${where}.codes`, codes);
  codes.forEach((c, i) => {
    if (typeof c !== 'string' || c === '')
      fail(`${where}.codes[${i}]`, `expected an error code, got ${show(c)}`);
  });
  const statuses = filter.statuses ?? [];
  checkArray(`${where}.statuses`, statuses);
  statuses.forEach((s, i) => {
    checkInt(`${where}.statuses[${i}]`, s, 100);
    if (s > 599) fail(`${where}.statuses[${i}]`, `expected an HTTP status (100 … 599), got ${s}`);
  });
  const classes = filter.statusClasses ?? [];
  checkArray(`${where}.statusClasses`, classes);
  classes.forEach((c, i) => {
    checkInt(`${where}.statusClasses[${i}]`, c, 1);
    if (c > 5) fail(`${where}.statusClasses[${i}]`, `expected 1 … 5, got ${c}`);
  });
  return {
    all: codes.length + statuses.length + classes.length === 0,
    codes: new Set(codes),
    statuses: new Set(statuses),
    classes: new Set(classes),
  };
}

/** Whether an error (its text and status) is one the filter asks for. */
export function errorMatches(
  f: CheckedFilter,
  error: string | null,
  status: number | null,
): boolean {
  if (f.all) return true;
  if (error !== null && f.codes.has(errorCode(error))) return true;
  if (status === null) return false;
  return f.statuses.has(status) || f.classes.has(Math.floor(status / 100));
}
