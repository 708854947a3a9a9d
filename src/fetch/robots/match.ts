/**
 * robots.txt matching (RFC 9309). Pure.
 *
 * Group choice: the groups whose `User-agent` product token equals ours
 * (case-insensitive, whole token: `FooBot` is not `Foo`) are merged into one;
 * when there is none, the `*` groups are merged instead; when there is neither,
 * everything is allowed.
 *
 * Rule choice: the matching rule with the longest pattern wins; on a tie, `Allow`
 * wins. Patterns match from the start of the path (with query); `*` matches any
 * run of characters, a final `$` anchors at the end. Both sides are
 * percent-encoding normalised first.
 */

import type { RobotsTxt } from './parse.js';
import { normalizeRobotsPath } from './path.js';

export interface CompiledRule {
  allow: boolean;
  /** The pattern as normalised by the parser. */
  pattern: string;
  line: number;
  /** Literal parts between `*`s (a final `$` removed). */
  parts: string[];
  /** Whether the pattern ends with `$`. */
  anchored: boolean;
}

export interface RobotsPolicy {
  /** `*`, our product token, or undefined when no group applies. */
  group: string | undefined;
  /** Rules of the merged group, most specific first (Allow before Disallow on ties). */
  rules: CompiledRule[];
  crawlDelaySec: number | undefined;
}

export function compileRule(allow: boolean, pattern: string, line: number): CompiledRule {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return { allow, pattern, line, parts: body.split('*'), anchored };
}

/** Whether `path` (already normalised) matches the rule's pattern. */
export function ruleMatches(rule: CompiledRule, path: string): boolean {
  const parts = rule.parts;
  const n = parts.length;
  const first = parts[0]!;
  if (n === 1) return rule.anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  for (let i = 1; i < n - 1; i++) {
    const part = parts[i]!;
    if (part === '') continue;
    const at = path.indexOf(part, pos);
    if (at < 0) return false;
    pos = at + part.length;
  }
  const last = parts[n - 1]!;
  if (rule.anchored) return path.length - last.length >= pos && path.endsWith(last);
  return last === '' || path.indexOf(last, pos) >= 0;
}

/** The merged group that applies to `productToken`, its rules compiled and ordered. */
export function policyFor(robots: RobotsTxt, productToken: string): RobotsPolicy {
  const token = productToken.toLowerCase();
  // An empty token names no crawler: it matches no group (not even one whose
  // `User-agent` value has no product token, such as `User-agent: ツ`).
  let chosen = token === '' ? [] : robots.groups.filter((g) => g.agents.includes(token));
  let group: string | undefined = token;
  if (chosen.length === 0) {
    chosen = robots.groups.filter((g) => g.agents.includes('*'));
    group = chosen.length > 0 ? '*' : undefined;
  }
  const rules: CompiledRule[] = [];
  let crawlDelaySec: number | undefined;
  for (const g of chosen) {
    for (const r of g.rules) rules.push(compileRule(r.allow, r.pattern, r.line));
    if (crawlDelaySec === undefined) crawlDelaySec = g.crawlDelaySec;
  }
  // Array.prototype.sort is stable: equal rules keep file order.
  rules.sort((a, b) => b.pattern.length - a.pattern.length || Number(b.allow) - Number(a.allow));
  return { group, rules, crawlDelaySec };
}

/**
 * Index in `policy.rules` of the rule deciding `pathAndQuery` (for example
 * `/a/b?c=d`), or -1 when no rule matches (allowed).
 */
export function decidingRule(policy: RobotsPolicy, pathAndQuery: string): number {
  const rules = policy.rules;
  if (rules.length === 0) return -1;
  const path = normalizeRobotsPath(pathAndQuery);
  for (let i = 0; i < rules.length; i++) {
    if (ruleMatches(rules[i]!, path)) return i;
  }
  return -1;
}

/** Convenience for one-off checks: whether `pathAndQuery` is allowed, and by which rule. */
export function isAllowedBy(
  policy: RobotsPolicy,
  pathAndQuery: string,
): { allowed: boolean; rule: CompiledRule | undefined } {
  const i = decidingRule(policy, pathAndQuery);
  const rule = i < 0 ? undefined : policy.rules[i];
  return { allowed: rule === undefined || rule.allow, rule };
}
