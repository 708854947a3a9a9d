// Helpers of the extract stage's tests: one rule set over a page, and table tests.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractPage, type FieldResult, parseRules } from './index.js';

export const URL_ = 'http://jobs.test/job/12';

/** Rules with one rule set "t" of the given fields, matching every URL. */
export function rulesOf(fields: Record<string, unknown>, urls: unknown = '.') {
  return parseRules(
    JSON.stringify({ version: 1, ruleSets: [{ name: 't', urls, fields }] }),
    't.json',
  );
}

/** The result of field "f" with rule `rule` over `html`. */
export function one(rule: Record<string, unknown>, html: string, url = URL_): FieldResult {
  const r = extractPage(rulesOf({ f: rule }), { url, html });
  return r.matched[0]!.fields[0]!;
}

export const values = (f: FieldResult) => f.values.map((v) => v.value);

export interface Case {
  name: string;
  rule: Record<string, unknown>;
  html: string;
  url?: string;
  /** Expected values, or the expected reason. */
  want: string[] | { reason: string };
}

export function run(cases: Case[]): void {
  for (const c of cases) {
    test(c.name, () => {
      const f = one(c.rule, c.html, c.url);
      if (Array.isArray(c.want)) {
        assert.deepEqual(values(f), c.want);
        assert.equal(f.reason, undefined);
        assert.deepEqual(
          f.values.map((v) => v.position),
          c.want.map((_, i) => i),
        );
      } else {
        assert.deepEqual(f.values, []);
        assert.equal(f.reason, c.want.reason);
      }
    });
  }
}
