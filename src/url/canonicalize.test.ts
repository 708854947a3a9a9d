import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidUrlError } from '../errors/index.js';
import {
  canonicalizeUrl,
  canonicalizeUrlOrThrow,
  md5Hex,
  normalizePercentEncoding,
  sortQuery,
} from './index.js';

// [input, base, expected]
const cases: [string, string | undefined, string | null][] = [
  // DESIGN 1.4 rules
  ['HTTP://WWW.SCU.EDU.CN/', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn:80/', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn/index.html', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn/index.htm', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn/#top', undefined, 'http://www.scu.edu.cn/'],
  ['http://www.scu.edu.cn/./a/../', undefined, 'http://www.scu.edu.cn/'],
  ['HTTP://EXAMPLE.COM', undefined, 'http://example.com/'],
  ['http://example.com/a/./b/../c', undefined, 'http://example.com/a/c'],
  ['http://example.com/a/%2e%2E/c', undefined, 'http://example.com/c'],
  ['http://example.com:80/x', undefined, 'http://example.com/x'],
  ['https://example.com:443/x', undefined, 'https://example.com/x'],
  ['http://example.com:443/x', undefined, 'http://example.com:443/x'],
  ['https://example.com:80/x', undefined, 'https://example.com:80/x'],
  ['http://example.com:8080/', undefined, 'http://example.com:8080/'],
  ['http://example.com/page#section-2', undefined, 'http://example.com/page'],
  ['http://example.com/page?q=1#frag', undefined, 'http://example.com/page?q=1'],
  // percent-encoding
  ['http://example.com/%7Euser/', undefined, 'http://example.com/~user/'],
  ['http://example.com/%7euser/', undefined, 'http://example.com/~user/'],
  ['http://example.com/~user/', undefined, 'http://example.com/~user/'],
  ['http://example.com/a%2fb', undefined, 'http://example.com/a%2Fb'],
  ['http://example.com/a%2Fb', undefined, 'http://example.com/a%2Fb'],
  ['http://example.com/%41%62%2D%5f%2e%30', undefined, 'http://example.com/Ab-_.0'],
  ['http://example.com/%e4%b8%ad', undefined, 'http://example.com/%E4%B8%AD'],
  ['http://example.com/中', undefined, 'http://example.com/%E4%B8%AD'],
  ['http://example.com/?q=%7e&r=%2f%3d', undefined, 'http://example.com/?q=~&r=%2F%3D'],
  ['http://example.com/a b', undefined, 'http://example.com/a%20b'],
  ['http://example.com/%zz%4', undefined, 'http://example.com/%zz%4'],
  ['http://example.com/50%', undefined, 'http://example.com/50%'],
  // default pages: last segment only, exact lower-case name
  ['http://example.com/a/index.html', undefined, 'http://example.com/a/'],
  ['http://example.com/a/index.html?x=1', undefined, 'http://example.com/a/?x=1'],
  ['http://example.com/index.html/more', undefined, 'http://example.com/index.html/more'],
  ['http://example.com/Index.html', undefined, 'http://example.com/Index.html'],
  ['http://example.com/myindex.html', undefined, 'http://example.com/myindex.html'],
  ['http://example.com/index.php', undefined, 'http://example.com/index.php'],
  ['http://example.com/index%2Ehtml', undefined, 'http://example.com/'],
  // empty query, credentials, IDN, whitespace
  ['http://example.com/?', undefined, 'http://example.com/'],
  ['http://example.com/a?#f', undefined, 'http://example.com/a'],
  ['http://user:pass@example.com/x', undefined, 'http://example.com/x'],
  ['http://Bücher.example/', undefined, 'http://xn--bcher-kva.example/'],
  ['http://中文.example/', undefined, 'http://xn--fiq228c.example/'],
  ['  http://example.com/x\n', undefined, 'http://example.com/x'],
  // relative references
  ['../c/index.html', 'http://example.com/a/b/d', 'http://example.com/a/c/'],
  ['/x?y=1#z', 'https://Example.com:443/a/', 'https://example.com/x?y=1'],
  ['?p=2', 'http://example.com/list?p=1', 'http://example.com/list?p=2'],
  ['//other.example/x', 'https://example.com/', 'https://other.example/x'],
  ['http:rel', 'http://example.com/a/', 'http://example.com/a/rel'],
  ['https://abs.example/y', 'http://example.com/', 'https://abs.example/y'],
  ['', 'http://example.com/a?b#c', 'http://example.com/a?b'],
  // rejected
  ['mailto:someone@example.com', undefined, null],
  ['javascript:void(0)', 'http://example.com/', null],
  ['ftp://example.com/', undefined, null],
  ['data:text/html,hi', undefined, null],
  ['not a url', undefined, null],
  ['relative/path', undefined, null],
  ['http://', undefined, null],
  ['http://exa mple.com/', undefined, null],
  ['x', 'not a base', null],
];

describe('canonicalizeUrl', () => {
  for (const [input, base, expected] of cases) {
    it(`${JSON.stringify(input)}${base === undefined ? '' : ` on ${base}`} → ${expected}`, () => {
      assert.equal(canonicalizeUrl(input, base), expected);
    });
  }

  it('is idempotent', () => {
    for (const [input, base] of cases) {
      const once = canonicalizeUrl(input, base);
      if (once !== null) assert.equal(canonicalizeUrl(once), once);
    }
  });

  it('never throws, whatever it is given', () => {
    const odd = [undefined, null, 42, {}, '\u0000', 'http://[::1', 'http://%zz/'];
    for (const x of odd) {
      assert.doesNotThrow(() => canonicalizeUrl(x as unknown as string));
      assert.equal(canonicalizeUrl(x as unknown as string), null);
    }
  });
});

describe('canonicalizeUrl: regressions', () => {
  it('an escaped hex digit after a lone % stays escaped (decoding it made a new escape)', () => {
    // `%%61b` once became `%ab`, an escape of byte 0xAB, and then `%AB`: not idempotent.
    assert.equal(canonicalizeUrl('http://e.com/%%61b'), 'http://e.com/%%61b');
    assert.equal(canonicalizeUrl('http://e.com/?%0%61'), 'http://e.com/?%0%61');
    assert.equal(canonicalizeUrl('http://e.com/%6%31'), 'http://e.com/%6%31');
    assert.equal(canonicalizeUrl('http://e.com/%%7e%41'), 'http://e.com/%~A');
    for (const u of ['http://e.com/%%61b', 'http://e.com/?%0%61', 'http://e.com/%a%62']) {
      const once = canonicalizeUrl(u);
      assert.ok(once !== null);
      assert.equal(canonicalizeUrl(once), once);
    }
  });

  it('dot segments after a segment starting with a dot are removed (the parser left them)', () => {
    assert.equal(canonicalizeUrl('http://e.com/a/.x/./'), 'http://e.com/a/.x/');
    assert.equal(canonicalizeUrl('http://e.com/a/.x/../y'), 'http://e.com/a/y');
    assert.equal(canonicalizeUrl('http://e.com//.x/..'), 'http://e.com//');
    assert.equal(canonicalizeUrl('http://e.com/.well-known/a'), 'http://e.com/.well-known/a');
    // Resolving against such a base gave a URL that changed when canonicalised again.
    const once = canonicalizeUrl('{', 'http://a.example//.index.html/./');
    assert.equal(once, 'http://a.example//.index.html/%7B');
    assert.equal(canonicalizeUrl(once ?? ''), once);
  });
});

describe('canonicalizeUrlOrThrow', () => {
  it('returns the canonical form of a good URL', () => {
    assert.equal(canonicalizeUrlOrThrow('HTTP://www.SCU.edu.cn:80/'), 'http://www.scu.edu.cn/');
  });

  it('names an unparseable URL', () => {
    assert.throws(
      () => canonicalizeUrlOrThrow('http://exa mple.com/'),
      (e: unknown) =>
        e instanceof InvalidUrlError &&
        e.code === 'FC_ERR_INVALID_URL' &&
        e.url === 'http://exa mple.com/' &&
        e.message.includes('"http://exa mple.com/"') &&
        e.message.includes('cannot be parsed'),
    );
  });

  it('names an unsupported scheme', () => {
    assert.throws(
      () => canonicalizeUrlOrThrow('ftp://example.com/'),
      (e: unknown) =>
        e instanceof InvalidUrlError &&
        e.message.includes('"ftp://example.com/"') &&
        e.message.includes('"ftp:"'),
    );
  });
});

describe('normalizePercentEncoding', () => {
  const table: [string, string][] = [
    ['', ''],
    ['/plain', '/plain'],
    ['%7E%7e', '~~'],
    ['%2f%2F%3a', '%2F%2F%3A'],
    ['%', '%'],
    ['%4', '%4'],
    ['%g1', '%g1'],
    ['a%20b%41', 'a%20bA'],
  ];
  for (const [input, expected] of table) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(normalizePercentEncoding(input), expected);
    });
  }
});

describe('sortQuery', () => {
  const table: [string, string][] = [
    ['http://e.com/?b=2&a=1', 'http://e.com/?a=1&b=2'],
    ['http://e.com/?b=2&a=1&b=1', 'http://e.com/?a=1&b=2&b=1'],
    ['http://e.com/?x', 'http://e.com/?x'],
    ['http://e.com/', 'http://e.com/'],
    ['http://e.com/?z&y=1#f', 'http://e.com/?y=1&z#f'],
  ];
  for (const [input, expected] of table) {
    it(`${input} → ${expected}`, () => {
      assert.equal(sortQuery(input), expected);
    });
  }
});

describe('md5Hex', () => {
  it('gives the repository file name of DESIGN 1.4', () => {
    assert.equal(md5Hex('http://www.scu.edu.cn/'), '355bd40a1cffbb871d1fce0048a19972');
  });

  it('hashes UTF-8 bytes', () => {
    assert.equal(md5Hex(''), 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(md5Hex('中'), 'aed1dfbc31703955e64806b799b67645');
  });
});
