// URL patterns: the most specific pattern of a URL, matching, specificity, induction.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { parsePattern, specificity } from '../url/index.js';
import { inducePatterns, matchPattern, patternOf } from './index.js';

const U = 'https://bbs.example.test';

describe('patternOf', () => {
  // [url, pattern]
  const table: [string, string][] = [
    [`${U}/t/42`, '/t/{n}'], // digits
    [`${U}/`, '/'], // the root: one empty segment
    [`${U}/a/`, '/a/'], // a trailing slash is an empty last segment
    [`${U}/f-12-3.html`, '/f-{n}-{n}.html'], // digit runs inside a segment
    [`${U}/p123/page2`, '/p{n}/page{n}'], // letters then digits
    [`${U}/x/3f9a8b7c6d`, '/x/{hex}'], // hex id: a letter a–f and a digit, 6 or more
    [`${U}/x/deadbeef`, '/x/deadbeef'], // no digit: a word
    [`${U}/x/ab12`, '/x/ab{n}'], // too short for an id
    [`${U}/o/550e8400-e29b-41d4-a716-446655440000`, '/o/{hex}'], // a UUID
    [`${U}/d/2024-05-17/x`, '/d/{date}/x'], // a date
    [`${U}/d/2024_5`, '/d/{date}'],
    [`${U}/d/2024-13-01`, '/d/{n}-{n}-{n}'], // month 13: not a date
    [`${U}/v.php?tid=7&page=2`, '/v.php?tid={n}&page={n}'], // query values, order kept
    [`${U}/v.php?page=2&tid=7`, '/v.php?page={n}&tid={n}'],
    [`${U}/v.php?tid=7&print`, '/v.php?tid={n}&print'], // a key without a value
    [`${U}/v.php?tid=&x=a`, '/v.php?tid=&x=a'], // an empty value, a word value
    [`${U}/u/alice#top`, '/u/alice'], // the fragment is dropped
    [`${U}/s?q={x}`, '/s?q=%7Bx%7D'], // literal braces are escaped
    [`${U}/%E4%B8%AD%E6%96%87/7`, '/%E4%B8%AD%E6%96%87/{n}'], // escapes are word characters
    ['/t/5?a=1', '/t/{n}?a={n}'], // a path and query alone
  ];
  for (const [url, pattern] of table) {
    it(`${url} → ${pattern}`, () => assert.equal(patternOf(url), pattern));
  }

  it('refuses what is not an http(s) URL, naming the argument', () => {
    assert.throws(() => patternOf('ftp://x.test/a'), {
      name: 'InvalidOptionError',
      message: /url/,
    });
    assert.throws(() => patternOf('t/5'), InvalidOptionError);
  });
});

describe('matchPattern', () => {
  // [pattern, url, matches]
  const table: [string, string, boolean][] = [
    ['/t/{n}', `${U}/t/42`, true],
    ['/t/{n}', `${U}/t/4x`, false],
    ['/t/{n}', `${U}/t/42/`, false], // another segment count
    ['/t/{n}', `${U}/t/42?page=2`, false], // an extra key is another pattern
    ['/t/{n}?page={n}', `${U}/t/42?page=2`, true],
    ['/t/{n}?page={n}&x={n}', `${U}/t/42?x=1&page=2`, false], // order matters
    ['/u/{w}', `${U}/u/alice`, true],
    ['/u/{w}', `${U}/u/`, false], // {w} is never empty
    ['/u/{w}', `${U}/u/a/b`, false], // nor does it cross a /
    ['/{w}-{n}.html', `${U}/forum-2-1.html`, true],
    ['/x/{hex}', `${U}/x/3f9a8b7c6d`, true],
    ['/x/{hex}', `${U}/x/550e8400-e29b-41d4-a716-446655440000`, true],
    ['/d/{date}', `${U}/d/2024-05-17`, true],
    ['/d/{date}', `${U}/d/17-05-2024`, false],
    ['/v.php?tid={n}&print', `${U}/v.php?tid=3&print`, true],
    ['/v.php?tid={n}&print', `${U}/v.php?tid=3&print=1`, false],
    ['/s?q={w}', `${U}/s?q=a=b`, true], // a query value may hold =
    ['/s?q={w}', `${U}/s?q=a&r=b`, false],
    ['/t/{n}', 'https://other.test/t/1', true], // the host is not looked at
    ['/t/{n}', '/t/1', true],
    ['/t/{n}', 'mailto:a@b.test', false],
    ['/a.b', `${U}/axb`, false], // literals are literal
  ];
  for (const [pattern, url, want] of table) {
    it(`${pattern} ${want ? 'matches' : 'does not match'} ${url}`, () => {
      assert.equal(matchPattern(pattern, url), want);
    });
  }

  it('every URL matches its own patternOf', () => {
    for (const path of ['/a/b-3.html?x=1&y', '/o/550e8400-e29b-41d4-a716-446655440000', '/']) {
      assert.ok(matchPattern(patternOf(U + path), U + path), path);
    }
  });

  it('refuses a malformed pattern', () => {
    assert.throws(() => matchPattern('t/{n}', `${U}/t/1`), /starts with \//);
    assert.throws(() => matchPattern('/t/{id}', `${U}/t/1`), /unknown placeholder \{id\}/);
    assert.throws(() => matchPattern('/t/{n', `${U}/t/1`), InvalidOptionError);
  });
});

describe('specificity', () => {
  const s = (p: string) => specificity(parsePattern(p));
  it('prefers literals, then the narrower placeholder', () => {
    // 2 per literal character and separator, {date} 12, {n} 1, {hex} 0.5, {w} 0
    assert.equal(s('/print/{n}'), 2 + 10 + 2 + 1); // 15
    assert.equal(s('/{w}/{n}'), 2 + 0 + 2 + 1); // 5
    // A literal beats the placeholder of the same text.
    assert.ok(s('/t/{n}?start=0') > s('/t/{n}?start={n}'));
    assert.ok(s('/{date}') > s('/{n}-{n}-{n}'));
    assert.ok(s('/{n}') > s('/{hex}'));
    assert.ok(s('/{hex}') > s('/{w}'));
  });
});

describe('inducePatterns', () => {
  // [urls (paths), patterns]
  const table: [string, string[], string[]][] = [
    ['constant words stay literal', ['/t/1', '/t/22'], ['/t/{n}']],
    ['varying words become {w}', ['/u/alice', '/u/bob'], ['/u/{w}']],
    ['token by token', ['/a-1.html', '/b-2.html'], ['/{w}-{n}.html']],
    ['{n} with {hex} is {hex}', ['/x/12', '/x/3f9a8b7c6d'], ['/x/{hex}']],
    [
      'common ends kept, the middle {w}',
      ['/p/9-my-post', '/p/12-other-title-here'],
      ['/p/{n}-{w}'],
    ],
    ['{w} never empty', ['/u/7', '/u/user7'], ['/u/{w}']],
    ['query values too', ['/s?q=cats', '/s?q=dogs'], ['/s?q={w}']],
    ['an extra key is another pattern', ['/t/1', '/t/2?page=3'], ['/t/{n}', '/t/{n}?page={n}']],
    ['key order too', ['/v?a=1&b=2', '/v?b=2&a=1'], ['/v?a={n}&b={n}', '/v?b={n}&a={n}']],
    ['a key with and without a value', ['/v?p', '/v?p=1'], ['/v?p', '/v?p={n}']],
    ['an empty segment is not a word', ['/a/', '/a/b'], ['/a/', '/a/b']],
    ['segment counts apart', ['/a/1', '/a/1/2'], ['/a/{n}', '/a/{n}/{n}']],
  ];
  for (const [what, paths, patterns] of table) {
    it(what, () => {
      const got = inducePatterns(paths.map((p) => U + p));
      assert.deepEqual(
        got.map((g) => g.pattern),
        patterns,
      );
      for (const g of got) for (const u of g.urls) assert.ok(matchPattern(g.pattern, u), u);
    });
  }

  it('lists each URL under the pattern it was induced into', () => {
    const got = inducePatterns([`${U}/t/1`, `${U}/t/2?page=2`, `${U}/t/3`]);
    assert.deepEqual(got, [
      { pattern: '/t/{n}', urls: [`${U}/t/1`, `${U}/t/3`] },
      { pattern: '/t/{n}?page={n}', urls: [`${U}/t/2?page=2`] },
    ]);
  });
});
