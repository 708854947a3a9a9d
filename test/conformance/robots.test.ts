// Google's robots.txt test cases (github.com/google/robotstxt, robots_test.cc,
// Apache-2.0; see test/conformance/robots/README.md) run through focuscrawl's own
// robots.txt decision: the body read as a fetched 2xx robots.txt is
// (`loadFromResponse`), the cache entry the fetcher keeps (`buildEntry`), and the
// verdict it asks for (`verdictFor`) on the path and query of the canonical URL,
// as `Fetcher.fetch` computes them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fetcherOptionsSchema } from '../../src/fetch/options.js';
import {
  buildEntry,
  loadFromResponse,
  parseRobotsTxt,
  verdictFor,
} from '../../src/fetch/robots/index.js';
import { canonicalizeUrl } from '../../src/url/index.js';

interface Case {
  test: string;
  line: number;
  robotstxt: string;
  userAgent: string;
  url: string;
  allowed: boolean;
}
interface AgentCase {
  test: string;
  line: number;
  userAgent: string;
  valid: boolean;
}
interface Suite {
  source: { repository: string; path: string; commit: string | null; license: string };
  cases: Case[];
  agentCases: AgentCase[];
  skipped: Array<{ test: string; call: string; count: number }>;
}

const suite = JSON.parse(
  readFileSync(new URL('./robots/google-cases.json', import.meta.url), 'utf8'),
) as Suite;

/**
 * Cases where focuscrawl deliberately answers otherwise, by `<test>:<line of
 * robots_test.cc>`, with the reason (docs/robots.md lists them too). All four come
 * from URL canonicalisation: the crawler only ever requests the canonical URL,
 * so it cannot give two spellings of one request different answers.
 */
const DELIBERATE: ReadonlyMap<string, string> = new Map([
  [
    'ID_Encoding:419',
    'a URL with a raw "ツ" is requested percent-encoded (/foo/bar/%E3%83%84), which the rule allows',
  ],
  [
    'ID_Encoding:430',
    'a URL with a raw "ツ" is requested percent-encoded (/foo/bar/%E3%83%84), which the rule allows',
  ],
  [
    'ID_Encoding:441',
    '%62%61%7A and baz are the same URL (RFC 3986 6.2.2.2): one request, one answer (allowed)',
  ],
  [
    'GoogleOnly_IndexHTMLisDirectory:508',
    '/allowed-slash/index.htm is requested as /allowed-slash/, which the index.html rule allows',
  ],
]);

/** The path and query the fetcher asks robots.txt about for `url`. */
function crawlerPath(url: string): string {
  // The suite's empty URL stands for the site's root (Google reads it as "/").
  if (url === '') return '/';
  const canonical = canonicalizeUrl(url);
  if (canonical === null) throw new Error(`not a URL the crawler can fetch: ${url}`);
  const u = new URL(canonical);
  return u.pathname + u.search;
}

function decide(c: Case): boolean {
  const load = loadFromResponse(200, Buffer.from(c.robotstxt, 'utf8'), false);
  const entry = buildEntry(
    'http://foo.bar/robots.txt',
    load,
    c.userAgent,
    Number.POSITIVE_INFINITY,
  );
  return verdictFor(entry, crawlerPath(c.url)).allowed;
}

const key = (c: { test: string; line: number }) => `${c.test}:${c.line}`;

describe("robots.txt conformance: Google's robots_test.cc", () => {
  test('the data file holds every IsUserAgentAllowed case of robots_test.cc (145)', () => {
    assert.equal(suite.cases.length, 145);
    assert.equal(suite.source.license, 'Apache-2.0');
    assert.match(suite.source.commit ?? '', /^[0-9a-f]{40}$/);
    assert.equal(new Set(suite.cases.map(key)).size, suite.cases.length, 'case keys are unique');
  });

  test('every case agrees, except the deliberate differences', () => {
    const agree: string[] = [];
    const unexpected: string[] = [];
    const differences: string[] = [];
    for (const c of suite.cases) {
      const got = decide(c);
      if (got === c.allowed) {
        agree.push(key(c));
        continue;
      }
      const what = `${key(c)} ${c.userAgent} ${c.url.slice(0, 80)}: expected ${c.allowed ? 'allowed' : 'disallowed'}, got ${got ? 'allowed' : 'disallowed'}`;
      if (DELIBERATE.has(key(c))) differences.push(what);
      else unexpected.push(what);
    }
    const n = suite.cases.length;
    console.log(
      `robots_test.cc @ ${(suite.source.commit ?? '?').slice(0, 12)}: ${agree.length}/${n} cases agree (${((100 * agree.length) / n).toFixed(1)}%), ${differences.length} deliberate differences, ${unexpected.length} unexpected`,
    );
    assert.deepEqual(unexpected, [], 'cases that disagree and are not deliberate differences');
    // A listed difference that now agrees (or vanished) means the list is stale.
    assert.equal(
      differences.length,
      DELIBERATE.size,
      `deliberate differences seen:\n${differences.join('\n')}`,
    );
  });

  test('IsValidUserAgentToObey: robotsAgent accepts exactly the valid product tokens', () => {
    const schema = fetcherOptionsSchema.shape.robotsAgent;
    assert.ok(suite.agentCases.length >= 10);
    for (const c of suite.agentCases) {
      assert.equal(schema.safeParse(c.userAgent).success, c.valid, key(c) + ' ' + c.userAgent);
    }
  });
});

/*
 * The tests of robots_test.cc that count the parser's callbacks (kept out of the
 * data file: focuscrawl's parser reports groups and rules, not callbacks) with the
 * same files, checked for what they mean to a crawler.
 */
describe("robots.txt conformance: robots_test.cc's parser tests, crawler-level", () => {
  const decideText = (body: Buffer, agent: string, path: string) =>
    verdictFor(
      buildEntry('http://foo.bar/robots.txt', loadFromResponse(200, body, false), agent, 1),
      path,
    );

  test('ID_LinesNumbersAreCountedCorrectly: LF, CRLF, CR, mixed, no final newline', () => {
    const lines = [
      'User-Agent: foo',
      'Allow: /some/path',
      'User-Agent: bar',
      '',
      '',
      'Disallow: /',
    ];
    const files = {
      unix: lines.join('\n') + '\n',
      dos: lines.join('\r\n') + '\r\n',
      mac: lines.join('\r') + '\r',
      noFinalNewline: lines.join('\n'),
      mixed: 'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /',
    };
    for (const [name, text] of Object.entries(files)) {
      const parsed = parseRobotsTxt(text);
      // Four directives: two groups of one rule each, on lines 2 and 6.
      assert.deepEqual(
        parsed.groups.map((g) => [
          g.agents,
          g.line,
          g.rules.map((r) => [r.allow, r.pattern, r.line]),
        ]),
        [
          [['foo'], 1, [[true, '/some/path', 2]]],
          [['bar'], 3, [[false, '/', 6]]],
        ],
        name,
      );
      const v = decideText(Buffer.from(text), 'bar', '/other');
      assert.equal(v.allowed, false, name);
      assert.equal(v.rule?.line, 6, name);
    }
  });

  test('ID_UTF8ByteOrderMarkIsSkipped: whole and partial marks skipped, others make junk', () => {
    const rest = Buffer.from('User-Agent: foo\nAllow: /AnyValue\nDisallow: /\n');
    const read = (prefix: number[]) =>
      decideText(Buffer.concat([Buffer.from(prefix), rest]), 'foo', '/AnyValue');
    for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      const v = read(bom);
      assert.equal(v.group, 'foo', bom.join(' '));
      assert.equal(v.allowed, true, bom.join(' '));
      assert.equal(v.rule?.line, 2, bom.join(' '));
    }
    // A broken mark makes the first line junk: the rules then belong to no group.
    const broken = read([0xef, 0x11, 0xbf]);
    assert.equal(broken.group, undefined);
    assert.equal(broken.allowed, true);
    assert.equal(broken.rule, undefined);
    // A mark in the middle of the file makes its line junk.
    const middle = decideText(
      Buffer.from('User-Agent: foo\n\ufeffDisallow: /AnyValue\n'),
      'foo',
      '/AnyValue',
    );
    assert.equal(middle.group, 'foo');
    assert.equal(middle.allowed, true);
  });

  test('ID_NonStandardLineExample_Sitemap: Sitemap lines are read anywhere', () => {
    const loc = 'http://foo.bar/sitemap.xml';
    const groups = 'User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n';
    assert.deepEqual(parseRobotsTxt(`${groups}Sitemap: ${loc}\n`).sitemaps, [loc]);
    assert.deepEqual(parseRobotsTxt(`Sitemap: ${loc}\n${groups}`).sitemaps, [loc]);
  });
});
