import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAllowedBy, policyFor } from './match.js';
import { directoryIndexPattern, MAX_LINE_BYTES, parseRobotsTxt } from './parse.js';
import { normalizeRobotsPath } from './path.js';

/** [robots.txt, agent, path, expected allowed] */
type Case = [string, string, string, boolean];

function check(cases: Case[]): void {
  for (const [txt, agent, path, expected] of cases) {
    const { allowed } = isAllowedBy(policyFor(parseRobotsTxt(txt), agent), path);
    assert.equal(allowed, expected, `${agent} ${path} against:\n${txt}`);
  }
}

// RFC 9309 section 5.1.
const RFC_EXAMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

describe('robots.txt matching: RFC 9309 examples', () => {
  test('section 5.1 groups', () => {
    check([
      [RFC_EXAMPLE, 'foobot', '/', false],
      [RFC_EXAMPLE, 'foobot', '/example/page.html', true],
      [RFC_EXAMPLE, 'foobot', '/example/allowed.gif', true],
      [RFC_EXAMPLE, 'foobot', '/example/other.gif', false],
      [RFC_EXAMPLE, 'FooBot', '/example/page.html', true],
      [RFC_EXAMPLE, 'barbot', '/example/page.html', false],
      [RFC_EXAMPLE, 'bazbot', '/example/page.html', false],
      [RFC_EXAMPLE, 'barbot', '/example/other.html', true],
      // quxbot has its own (empty) group: everything allowed, no fallback to *.
      [RFC_EXAMPLE, 'quxbot', '/example/page.html', true],
      [RFC_EXAMPLE, 'quxbot', '/x.gif', true],
      // Any other agent obeys the * group.
      [RFC_EXAMPLE, 'otherbot', '/example/page.html', false],
      [RFC_EXAMPLE, 'otherbot', '/publications/a', true],
      [RFC_EXAMPLE, 'otherbot', '/images/a.gif', false],
      [RFC_EXAMPLE, 'otherbot', '/images/a.gif?x', true],
      [RFC_EXAMPLE, 'otherbot', '/index.html', true],
    ]);
  });

  test('section 5.2: the longest match wins', () => {
    const txt =
      'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
    check([
      [txt, 'foobot', '/example/page/', true],
      [txt, 'foobot', '/example/page/x.html', true],
      [txt, 'foobot', '/example/page/disallowed.gif', false],
    ]);
  });

  test('section 2.2.1: groups naming the same agent are merged', () => {
    const txt =
      'user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n';
    check([
      [txt, 'examplebot', '/foo', false],
      [txt, 'examplebot', '/bar/x', false],
      [txt, 'examplebot', '/baz', false],
      [txt, 'examplebot', '/qux', true],
    ]);
  });

  test('section 2.2.2: percent-encoding is normalised on both sides', () => {
    check([
      ['User-agent: *\nDisallow: /foo/bar/ツ\n', 'a', '/foo/bar/%E3%83%84', false],
      ['User-agent: *\nDisallow: /foo/bar/%E3%83%84\n', 'a', '/foo/bar/%e3%83%84', false],
      ['User-agent: *\nDisallow: /foo/bar/%62%61%7A\n', 'a', '/foo/bar/baz', false],
      ['User-agent: *\nDisallow: /~joe/\n', 'a', '/%7Ejoe/index.html', false],
      ['User-agent: *\nDisallow: /%7ejoe/\n', 'a', '/~joe/x', false],
      // An encoded slash is not a slash.
      ['User-agent: *\nDisallow: /a/b\n', 'a', '/a%2Fb', true],
      ['User-agent: *\nDisallow: /foo/bar?baz=quz\n', 'a', '/foo/bar?baz=quz&x', false],
    ]);
  });
});

describe("robots.txt matching: Google's documented examples", () => {
  const rule = (p: string) => `User-agent: *\nDisallow: ${p}\n`;
  test('path patterns', () => {
    const cases: Array<[string, string[], string[]]> = [
      ['/', ['/', '/x', '/a/b?c'], []],
      ['/*', ['/', '/x'], []],
      ['/$', ['/'], ['/page.htm', '/?a']],
      [
        '/fish',
        [
          '/fish',
          '/fish.html',
          '/fish/salmon.html',
          '/fishheads',
          '/fishheads/yummy.html',
          '/fish.php?id=anything',
        ],
        ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
      ],
      [
        '/fish*',
        ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fish.php?id=anything'],
        ['/Fish.asp', '/catfish', '/?id=fish', '/desert/fish'],
      ],
      [
        '/fish/',
        ['/fish/', '/fish/?id=anything', '/fish/salmon.htm'],
        ['/fish', '/fish.html', '/animals/fish/', '/Fish/Salmon.asp'],
      ],
      [
        '/*.php',
        [
          '/index.php',
          '/filename.php',
          '/folder/filename.php',
          '/folder/filename.php?parameters',
          '/folder/any.php.file.html',
          '/filename.php/',
        ],
        ['/', '/windows.PHP'],
      ],
      [
        '/*.php$',
        ['/filename.php', '/folder/filename.php'],
        ['/filename.php?parameters', '/filename.php/', '/filename.php5', '/windows.PHP'],
      ],
      ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
    ];
    for (const [pattern, blocked, allowed] of cases) {
      check(blocked.map((p): Case => [rule(pattern), 'a', p, false]));
      check(allowed.map((p): Case => [rule(pattern), 'a', p, true]));
    }
  });

  test('order of precedence', () => {
    check([
      ['User-agent: *\nAllow: /p\nDisallow: /\n', 'a', '/page', true],
      ['User-agent: *\nAllow: /folder\nDisallow: /folder\n', 'a', '/folder/page', true],
      ['User-agent: *\nAllow: /page\nDisallow: /*.htm\n', 'a', '/page.htm', false],
      ['User-agent: *\nAllow: /page\nDisallow: /*.ph\n', 'a', '/page.php5', true],
      ['User-agent: *\nAllow: /$\nDisallow: /\n', 'a', '/', true],
      ['User-agent: *\nAllow: /$\nDisallow: /\n', 'a', '/page.htm', false],
    ]);
  });

  test('user-agent groups: the most specific group, merged, * as fallback', () => {
    const txt = `user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots

user-agent: googlebot-news
disallow: /shrimp

user-agent: a
user-agent: b
disallow: /both
`;
    check([
      [txt, 'googlebot-news', '/fish', false],
      [txt, 'googlebot-news', '/shrimp', false],
      [txt, 'googlebot-news', '/carrots', true],
      [txt, 'googlebot', '/carrots', false],
      [txt, 'googlebot', '/fish', true],
      [txt, 'a', '/both', false],
      [txt, 'b', '/both', false],
      [txt, 'b', '/carrots', true],
    ]);
  });
});

describe('robots.txt parsing', () => {
  test('product tokens: case-insensitive, version suffixes ignored, no prefix matching', () => {
    check([
      ['User-agent: FocusCrawl/2.0\nDisallow: /x\n', 'focuscrawl', '/x', false],
      ['User-agent: FOCUSCRAWL\nDisallow: /x\n', 'focuscrawl', '/x', false],
      [
        'User-agent: focuscrawl-news\nDisallow: /x\nUser-agent: *\nDisallow: /y\n',
        'focuscrawl',
        '/x',
        true,
      ],
      [
        'User-agent: focuscrawl-news\nDisallow: /x\nUser-agent: *\nDisallow: /y\n',
        'focuscrawl',
        '/y',
        false,
      ],
    ]);
  });

  test('junk, comments, lines without colons and misspellings are tolerated', () => {
    const txt = `\ufeff<html><body>not robots</body></html>
Disallow: /before-any-group
User-agent *   # no colon
this line is junk
foo: bar
Disalow: /typo
Disallow /nocolon
Allow: /typo/ok # comment
Disallow:
`;
    check([
      [txt, 'a', '/before-any-group', true],
      [txt, 'a', '/typo/x', false],
      [txt, 'a', '/typo/ok', true],
      [txt, 'a', '/nocolon', false],
      [txt, 'a', '/other', true],
    ]);
    const parsed = parseRobotsTxt(txt);
    assert.equal(parsed.groups.length, 1);
    assert.deepEqual(
      parsed.groups[0]!.rules.map((r) => [r.allow, r.pattern, r.line]),
      [
        [false, '/typo', 6],
        [false, '/nocolon', 7],
        [true, '/typo/ok', 8],
      ],
    );
  });

  test('CRLF and CR line endings', () => {
    check([
      ['User-agent: *\r\nDisallow: /a\r\n', 'x', '/a', false],
      ['User-agent: *\rDisallow: /a\r', 'x', '/a', false],
    ]);
  });

  test('Crawl-delay: fractional seconds, first valid value of the group', () => {
    const cases: Array<[string, number | undefined]> = [
      ['User-agent: *\nCrawl-delay: 0.5\n', 0.5],
      ['User-agent: *\nCrawl-delay: 2\nCrawl-delay: 9\n', 2],
      ['User-agent: *\nCrawl-delay: abc\nCrawl-delay: 3\n', 3],
      ['User-agent: *\nCrawl-delay: -1\n', undefined],
      ['User-agent: *\nCrawl-delay: .25\n', 0.25],
      ['User-agent: other\nCrawl-delay: 5\n', undefined],
      ['User-agent: focuscrawl\nCrawl-delay: 1.5\nUser-agent: *\nCrawl-delay: 10\n', 1.5],
    ];
    for (const [txt, expected] of cases) {
      assert.equal(policyFor(parseRobotsTxt(txt), 'focuscrawl').crawlDelaySec, expected, txt);
    }
  });

  test('Sitemap lines are collected anywhere and do not end a group', () => {
    const txt = `Sitemap: https://a.test/s1.xml
User-agent: x
Sitemap: https://a.test/s2.xml
User-agent: y
Disallow: /p
`;
    const parsed = parseRobotsTxt(txt);
    assert.deepEqual(parsed.sitemaps, ['https://a.test/s1.xml', 'https://a.test/s2.xml']);
    assert.deepEqual(parsed.groups[0]!.agents, ['x', 'y']);
    check([[txt, 'x', '/p', false]]);
  });

  test('the deciding rule is reported with its line', () => {
    const policy = policyFor(
      parseRobotsTxt('User-agent: *\nDisallow: /private/\nAllow: /private/open\n'),
      'a',
    );
    const v = isAllowedBy(policy, '/private/open/x');
    assert.equal(v.allowed, true);
    assert.equal(v.rule?.line, 3);
    assert.equal(isAllowedBy(policy, '/private/x').rule?.line, 2);
    assert.equal(isAllowedBy(policy, '/public').rule, undefined);
    assert.equal(policy.group, '*');
  });

  test('files larger than 500 KiB are parsed to the end', () => {
    const filler = 'Disallow: /filler/path/number/0000000000\n'.repeat(15_000);
    const txt = `User-agent: *\nDisallow: /early/\n${filler}Disallow: /late/\n`;
    assert.ok(txt.length > 550 * 1024);
    check([
      [txt, 'a', '/early/x', false],
      [txt, 'a', '/late/x', false],
      [txt, 'a', '/other', true],
    ]);
  });
});

describe('percent-encoding normalisation', () => {
  test('table', () => {
    const cases: Array<[string, string]> = [
      ['/plain/path?a=b', '/plain/path?a=b'],
      ['/%7e%7E', '/~~'],
      ['/%2f%2F', '/%2F%2F'],
      ['/ツ', '/%E3%83%84'],
      ['/a b', '/a%20b'],
      ['/100%', '/100%25'],
      ['/%zz', '/%25zz'],
      ['/😀', '/%F0%9F%98%80'],
      ['/*.gif$', '/*.gif$'],
    ];
    for (const [input, expected] of cases)
      assert.equal(normalizeRobotsPath(input), expected, input);
  });
});

describe('robots.txt: behaviours taken from Google’s robots_test.cc', () => {
  test('a line longer than MAX_LINE_BYTES is cut there (GoogleOnly_LineTooLong)', () => {
    const head = 'Disallow: ';
    const long = '/x/' + 'a'.repeat(MAX_LINE_BYTES - head.length - 3);
    assert.equal((head + long).length, MAX_LINE_BYTES);
    const txt = `User-agent: *\n${head}${long}/qux\n`;
    const rule = parseRobotsTxt(txt).groups[0]!.rules[0]!;
    assert.equal(rule.pattern, long);
    check([
      [txt, 'a', `${long}/fux`, false],
      [txt, 'a', '/fux', true],
    ]);
    // The cut never splits a character: 'ツ' is 3 UTF-8 bytes.
    const wide = '/' + 'ツ'.repeat(MAX_LINE_BYTES);
    const cut = parseRobotsTxt(`User-agent: *\nDisallow: ${wide}\n`).groups[0]!.rules[0]!.pattern;
    assert.ok(!cut.includes('%EF%BF%BD'), 'no replacement character');
    assert.equal(cut.length % 9, 1, 'whole characters only');
  });

  test('Allow of index.html also allows its directory (GoogleOnly_IndexHTMLisDirectory)', () => {
    const txt = 'User-agent: *\nAllow: /a/index.html\nAllow: /b/index.htm$\nDisallow: /\n';
    check([
      [txt, 'x', '/a/', true],
      [txt, 'x', '/a/index.html', true],
      [txt, 'x', '/a/x', false],
      [txt, 'x', '/b/', true],
      [txt, 'x', '/c/', false],
    ]);
    assert.equal(directoryIndexPattern('/a/index.html'), '/a/$');
    assert.equal(directoryIndexPattern('/index.htm$'), '/$');
    assert.equal(directoryIndexPattern('/a/index.php'), undefined);
    assert.equal(directoryIndexPattern('/a/myindex.html'), undefined);
    // Disallow is not extended.
    check([['User-agent: *\nDisallow: /a/index.html\n', 'x', '/a/', true]]);
  });

  test('an empty product token matches no group (GoogleOnly_SystemTest)', () => {
    check([
      ['User-agent: FooBot\nDisallow: /\n', '', '/', true],
      ['User-agent: ツ\nDisallow: /\n', '', '/', true],
      ['User-agent: ツ\nDisallow: /\nUser-agent: *\nDisallow: /x\n', '', '/y', true],
    ]);
  });

  test('only ASCII whitespace is trimmed: a byte-order mark inside the file makes junk', () => {
    check([
      ['User-agent: a\n\ufeffDisallow: /x\n', 'a', '/x', true],
      ['User-agent: a\n\u00a0Disallow: /x\n', 'a', '/x', true],
      ['User-agent: a\n\t Disallow: /x \t\n', 'a', '/x', false],
      // A no-break space is not a separator: it is part of the pattern.
      ['User-agent: a\nDisallow /x\u00a0y\n', 'a', '/x%C2%A0y', false],
      ['User-agent: a\nDisallow /x\u00a0y\n', 'a', '/x', true],
    ]);
  });
});
