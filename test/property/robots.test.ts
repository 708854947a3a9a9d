// Properties of robots.txt parsing and matching (src/fetch/robots/), checked by
// fast-check on generated files and paths, matching against a reference written here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  buildEntry,
  isAllowedBy,
  loadFromResponse,
  parseRobotsTxt,
  policyFor,
  verdictFor,
} from '../../src/fetch/robots/index.js';

const RUNS = 300;

const line = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc
    .tuple(
      fc.constantFrom(
        'User-agent',
        'user-agent',
        'Allow',
        'DISALLOW',
        'Crawl-delay',
        'Sitemap',
        'disalow',
        'x',
      ),
      fc.constantFrom(':', ' ', ': ', '\t:'),
      fc.string({ unit: 'binary', maxLength: 30 }),
    )
    .map(([k, sep, v]) => `${k}${sep}${v}`),
);
const eol = fc.constantFrom('\n', '\r\n', '\r');
const robotsText = fc
  .array(fc.tuple(line, eol), { maxLength: 20 })
  .map((ls) => ls.map(([l, e]) => l + e).join(''));
const anyPath = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `/${s}`),
);
const agent = fc.oneof(
  fc.constantFrom('focuscrawl', 'FocusCrawl', '*', ''),
  fc.string({ maxLength: 10 }),
);

describe('robots.txt: properties', () => {
  test('parsing, group choice and matching never throw on any text, path or agent', () => {
    fc.assert(
      fc.property(robotsText, anyPath, agent, (text, path, ua) => {
        const parsed = parseRobotsTxt(text);
        const policy = policyFor(parsed, ua);
        const v = isAllowedBy(policy, path);
        assert.equal(typeof v.allowed, 'boolean');
      }),
      { numRuns: RUNS },
    );
  });

  test('reading any bytes as a fetched robots.txt never throws', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 100, max: 599 }),
        fc.boolean(),
        anyPath,
        (bytes, status, truncated, path) => {
          const load = loadFromResponse(status, Buffer.from(bytes), truncated);
          const entry = buildEntry('http://h.test/robots.txt', load, 'focuscrawl', 1);
          assert.equal(typeof verdictFor(entry, path).allowed, 'boolean');
        },
      ),
      { numRuns: RUNS },
    );
  });

  const agentGroup = fc.constantFrom('*', 'focuscrawl', 'FocusCrawl/2.1');

  test('a file that only allows / allows every path', () => {
    fc.assert(
      fc.property(agentGroup, anyPath, (ua, path) => {
        const text = `User-agent: ${ua}\nAllow: /\n`;
        const p = policyFor(parseRobotsTxt(text), 'focuscrawl');
        assert.equal(isAllowedBy(p, `/${path}`).allowed, true);
      }),
      { numRuns: RUNS },
    );
  });

  test('Disallow: / disallows every path', () => {
    fc.assert(
      fc.property(agentGroup, anyPath, (ua, path) => {
        const text = `User-agent: ${ua}\nDisallow: /\n`;
        const p = policyFor(parseRobotsTxt(text), 'focuscrawl');
        const v = isAllowedBy(p, `/${path}`);
        assert.equal(v.allowed, false);
        assert.equal(v.rule?.pattern, '/');
      }),
      { numRuns: RUNS },
    );
  });

  /*
   * Reference matcher (RFC 9309 2.2.2): a pattern matches a path when, with `*` as
   * any run of characters and a final `$` as the end, it matches a prefix of the
   * path; the matching rule with the longest pattern (in characters; the alphabet
   * is ASCII, so octets) decides, `Allow` winning a tie; no matching rule allows.
   * The alphabet has no `%`, no non-ASCII and no `index.html`, so no pattern or
   * path is rewritten by the percent-encoding normalisation or the index rule.
   */
  function referenceAllowed(rules: Array<{ allow: boolean; pattern: string }>, path: string) {
    let best: { allow: boolean; length: number } | undefined;
    for (const r of rules) {
      const anchored = r.pattern.endsWith('$');
      const body = anchored ? r.pattern.slice(0, -1) : r.pattern;
      const source = body
        .split('*')
        .map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('.*');
      if (!new RegExp(`^${source}${anchored ? '$' : ''}`, 's').test(path)) continue;
      const length = r.pattern.length;
      if (best === undefined || length > best.length || (length === best.length && r.allow))
        best = { allow: r.allow, length };
    }
    return best === undefined ? true : best.allow;
  }

  const piece = fc.constantFrom('/', 'a', 'b', 'ab', '.', '?', '=', '-', '*', '$');
  const pattern = fc
    .array(piece, { minLength: 1, maxLength: 6 })
    .map((a) => (a[0] === '/' || a[0] === '*' ? a.join('') : `/${a.join('')}`));
  const pathOfPieces = fc
    .array(fc.constantFrom('/', 'a', 'b', 'ab', '.', '?', '=', '-', '$'), { maxLength: 8 })
    .map((a) => `/${a.join('')}`);
  const rule = fc.record({ allow: fc.boolean(), pattern });

  test('the longest matching pattern decides, Allow winning ties (against a reference)', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 8 }), pathOfPieces, (rules, path) => {
        const text = `User-agent: *\n${rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;
        const got = isAllowedBy(policyFor(parseRobotsTxt(text), 'focuscrawl'), path);
        assert.equal(got.allowed, referenceAllowed(rules, path), `${text}path ${path}`);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  test('rules of the groups naming the crawler (merged) apply, not those of *', () => {
    fc.assert(
      fc.property(
        // At least one rule, or the next User-agent line would join the group.
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.array(rule, { maxLength: 4 }),
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        pathOfPieces,
        (ours1, ours2, star, path) => {
          const group = (ua: string, rs: typeof star) =>
            `User-agent: ${ua}\n${rs.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: ${r.pattern}`).join('\n')}\n`;
          const text = group('FocusCrawl', ours1) + group('*', star) + group('focuscrawl/3', ours2);
          const got = isAllowedBy(policyFor(parseRobotsTxt(text), 'focuscrawl'), path);
          assert.equal(got.allowed, referenceAllowed([...ours1, ...ours2], path), text);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
