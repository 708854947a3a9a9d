/**
 * A validated rule file → Rules: one source kind per field, options that fit the kind,
 * regular expressions and CSS selectors compiled (a regex must have exactly one named
 * group). Every problem goes to `fail` with the path of the key at fault.
 */

import { compile as compileSelector } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { parsePattern, patternRegex } from '../url/index.js';
import type { Path } from './locate.js';
import { type FieldInput, type RulesInput, SOURCE_KINDS } from './schema.js';
import type { FieldRule, FieldSource, RuleSet, Rules } from './types.js';

export type Fail = (path: Path, message: string) => never;

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The named groups of a regex source (compiled with `flags`). */
export function namedGroups(source: string, flags: string): string[] {
  // Every group of `(?:source)|` is in the result of matching the empty alternative.
  const groups = new RegExp(`(?:${source})|`, flags).exec('')?.groups;
  return groups === undefined ? [] : Object.keys(groups);
}

function compileRegex(source: string, flags: string, path: Path, fail: Fail): RegExp {
  try {
    return new RegExp(source, `${flags}g`);
  } catch (e) {
    return fail(path, `bad regular expression ${JSON.stringify(source)}: ${errorText(e)}`);
  }
}

function checkFlags(flags: string, path: Path, fail: Fail): void {
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i] as string;
    if (!'imsuv'.includes(f)) {
      fail(path, `flag "${f}" is not allowed (allowed: i, m, s, u, v; g is implied)`);
    }
    if (flags.indexOf(f) !== i) fail(path, `flag "${f}" given twice`);
  }
  if (flags.includes('u') && flags.includes('v'))
    fail(path, 'flags "u" and "v" exclude each other');
}

function source(f: FieldInput, at: Path, fail: Fail): FieldSource {
  const kinds = SOURCE_KINDS.filter((k) => f[k] !== undefined);
  if (kinds.length === 0) fail(at, `no source: give one of ${SOURCE_KINDS.join(', ')}`);
  if (kinds.length > 1) {
    const names = kinds.map((k) => `"${k}"`);
    fail(
      [...at, kinds[1] as string],
      `two source kinds, ${names.join(' and ')}: give exactly one per field`,
    );
  }
  const kind = kinds[0] as (typeof SOURCE_KINDS)[number];
  const only = (key: 'flags' | 'jsonldType' | 'over', allowed: readonly string[]) => {
    if (f[key] !== undefined && !allowed.includes(kind)) {
      fail(
        [...at, key],
        `"${key}" goes with ${allowed.map((k) => `"${k}"`).join(' or ')}, not "${kind}"`,
      );
    }
  };
  only('flags', ['regex']);
  only('jsonldType', ['jsonld']);
  only('over', ['between', 'regex']);
  switch (kind) {
    case 'between': {
      const b = f.between!;
      if (f.over === 'url') fail([...at, 'over'], '"between" searches "text" or "html", not "url"');
      return {
        kind,
        start: b.start,
        end: b.end,
        includeMarkers: b.includeMarkers,
        occurrence: b.occurrence,
        over: f.over === 'html' ? 'html' : 'text',
      };
    }
    case 'css': {
      const c = typeof f.css === 'string' ? { selector: f.css, html: false } : f.css!;
      const attr = 'attr' in c ? c.attr : undefined;
      if (attr !== undefined && c.html) fail([...at, 'css'], 'give "attr" or "html", not both');
      let query: ReturnType<typeof compileSelector<AnyNode, Element>>;
      try {
        query = compileSelector<AnyNode, Element>(c.selector);
      } catch (e) {
        return fail(
          [...at, 'css'],
          `bad CSS selector ${JSON.stringify(c.selector)}: ${errorText(e)}`,
        );
      }
      return { kind, selector: c.selector, query, attr, html: c.html };
    }
    case 'regex': {
      const flags = f.flags ?? '';
      checkFlags(flags, [...at, 'flags'], fail);
      const re = compileRegex(f.regex!, flags, [...at, 'regex'], fail);
      const names = namedGroups(f.regex!, flags);
      if (names.length !== 1) {
        fail(
          [...at, 'regex'],
          names.length === 0
            ? 'regex has no named group: write the part to keep as (?<name>…)'
            : `regex has ${names.length} named groups (${names.map((n) => `"${n}"`).join(', ')}): give exactly one`,
        );
      }
      return { kind, re, group: names[0] as string, over: f.over ?? 'text' };
    }
    case 'meta':
      return { kind, name: f.meta! };
    case 'jsonld': {
      const path = f.jsonld!.split('.');
      if (path.some((p) => p === '')) {
        fail([...at, 'jsonld'], `bad JSON-LD path ${JSON.stringify(f.jsonld)}: an empty step`);
      }
      return { kind, path, type: f.jsonldType };
    }
  }
}

function field(name: string, f: FieldInput, at: Path, fail: Fail): FieldRule {
  const src = source(f, at, fail);
  let multiple = f.multiple ?? false;
  if (src.kind === 'between' && src.occurrence === 'all') {
    if (f.multiple === false) {
      fail([...at, 'multiple'], 'occurrence "all" gives every value: "multiple" cannot be false');
    }
    multiple = true;
  }
  if (f.currency !== undefined && f.type !== 'money') {
    fail([...at, 'currency'], `"currency" goes with type "money", not "${f.type}"`);
  }
  return {
    name,
    source: src,
    required: f.required,
    multiple,
    type: f.type,
    trim: f.trim,
    currency: f.currency,
  };
}

/** Rules from a rule file that passed the schema; `fail` throws. */
export function compileRules(input: RulesInput, file: string, fail: Fail): Rules {
  const seen = new Set<string>();
  const ruleSets: RuleSet[] = input.ruleSets.map((rs, i) => {
    const at: Path = ['ruleSets', i];
    if (seen.has(rs.name)) fail([...at, 'name'], `a second rule set named "${rs.name}"`);
    seen.add(rs.name);
    if (rs.urls === undefined && rs.patterns === undefined)
      fail([...at, 'urls'], 'give urls (regular expressions) or patterns (URL patterns)');
    const list = (x: string | string[] | undefined) =>
      x === undefined ? [] : typeof x === 'string' ? [x] : x;
    const urls = list(rs.urls).map((p, j) => {
      try {
        return new RegExp(p);
      } catch (e) {
        const where: Path = typeof rs.urls === 'string' ? [...at, 'urls'] : [...at, 'urls', j];
        return fail(where, `bad regular expression ${JSON.stringify(p)}: ${errorText(e)}`);
      }
    });
    const patterns = list(rs.patterns).map((p, j) => {
      try {
        return patternRegex(parsePattern(p));
      } catch (e) {
        const where: Path =
          typeof rs.patterns === 'string' ? [...at, 'patterns'] : [...at, 'patterns', j];
        return fail(where, `bad URL pattern ${JSON.stringify(p)}: ${errorText(e)}`);
      }
    });
    const names = Object.keys(rs.fields);
    if (names.length === 0) fail([...at, 'fields'], 'no fields');
    const fields = names.map((name) =>
      field(name, rs.fields[name] as FieldInput, [...at, 'fields', name], fail),
    );
    return { name: rs.name, urls, patterns, fields };
  });
  return { file, version: 1, ruleSets };
}
