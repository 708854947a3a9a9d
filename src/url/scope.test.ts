import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError, InvalidUrlError } from '../errors/index.js';
import {
  createScopeFilter,
  hostOf,
  linkDepth,
  registrableDomain,
  type ScopeOptions,
  SEED_DEPTH,
} from './index.js';

describe('hostOf', () => {
  const table: [string, string | null][] = [
    ['http://a.b.test/x', 'a.b.test'],
    ['http://a.b.test:8080/x?y#z', 'a.b.test'],
    ['https://www.scu.edu.cn', 'www.scu.edu.cn'],
    ['HTTP://WWW.SCU.EDU.CN/', 'www.scu.edu.cn'],
    ['http://user:pw@example.com/', 'example.com'],
    ['http://Bücher.example/', 'xn--bcher-kva.example'],
    ['http://127.0.0.1:3000/', '127.0.0.1'],
    ['http://2130706433/', '127.0.0.1'],
    ['http://[::1]:8080/', '[::1]'],
    ['http://h.example:99999/', null],
    ['ftp://example.com/', null],
    ['not a url', null],
  ];
  for (const [url, expected] of table) {
    it(`${url} → ${expected}`, () => assert.equal(hostOf(url), expected));
  }
});

describe('registrableDomain', () => {
  const table: [string, string | null][] = [
    ['http://a.b.test/', 'b.test'],
    ['http://b.test/', 'b.test'],
    ['http://www.scu.edu.cn/', 'scu.edu.cn'],
    ['http://news.scu.edu.cn/', 'scu.edu.cn'],
    ['http://a.b.example.co.uk/', 'example.co.uk'],
    ['https://alice.github.io/', 'alice.github.io'],
    ['http://localhost:8080/', 'localhost'],
    ['http://127.0.0.1/', '127.0.0.1'],
    ['bad', null],
  ];
  for (const [url, expected] of table) {
    it(`${url} → ${expected}`, () => assert.equal(registrableDomain(url), expected));
  }
});

describe('depth', () => {
  it('starts at 0 for seeds and adds one per link', () => {
    assert.equal(SEED_DEPTH, 0);
    assert.equal(linkDepth(SEED_DEPTH), 1);
    assert.equal(linkDepth(linkDepth(SEED_DEPTH)), 2);
  });
});

describe('createScopeFilter', () => {
  // [options, url, expected]
  const seeds = ['http://www.scu.edu.cn/'];
  const table: [ScopeOptions, string, boolean][] = [
    [{ mode: 'same-host', seeds }, 'http://www.scu.edu.cn/a', true],
    [{ mode: 'same-host', seeds }, 'https://www.scu.edu.cn:8443/a', true],
    [{ mode: 'same-host', seeds }, 'http://news.scu.edu.cn/', false],
    [{ mode: 'same-domain', seeds }, 'http://news.scu.edu.cn/', true],
    [{ mode: 'same-domain', seeds }, 'http://scu.edu.cn/', true],
    [{ mode: 'same-domain', seeds }, 'http://pku.edu.cn/', false],
    [{ seeds }, 'http://news.scu.edu.cn/', true], // same-domain is the default
    [{ mode: 'same-domain', seeds: ['http://a.b.test/'] }, 'http://c.b.test/', true],
    [{ mode: 'same-domain', seeds: ['http://a.b.test/'] }, 'http://b.test/x', true],
    [{ mode: 'same-domain', seeds: ['http://a.b.test/'] }, 'http://c.test/', false],
    [{ mode: 'same-domain', seeds: ['https://alice.github.io/'] }, 'https://bob.github.io/', false],
    [{ mode: 'any' }, 'http://anything.example/', true],
    [{ mode: 'any' }, 'mailto:x@example.com', false],
    [{ mode: 'any' }, 'not a url', false],
    // seeds given in any form
    [{ mode: 'same-host', seeds: ['HTTP://WWW.SCU.EDU.CN:80'] }, 'http://www.scu.edu.cn/', true],
    [
      { mode: 'same-host', seeds: ['http://Bücher.example/'] },
      'http://xn--bcher-kva.example/',
      true,
    ],
    // allowHosts extend, denyHosts win
    [
      { mode: 'same-host', seeds, allowHosts: ['cdn.example.com'] },
      'http://cdn.example.com/',
      true,
    ],
    [{ mode: 'same-host', seeds, allowHosts: ['*.example.com'] }, 'http://a.b.example.com/', true],
    [{ mode: 'same-host', seeds, allowHosts: ['*.example.com'] }, 'http://example.com/', false],
    [{ mode: 'same-host', seeds, allowHosts: ['*.example.com'] }, 'http://badexample.com/', false],
    [{ mode: 'same-host', seeds, allowHosts: ['Bücher.example'] }, 'http://bücher.example/', true],
    [
      { mode: 'same-domain', seeds, denyHosts: ['news.scu.edu.cn'] },
      'http://news.scu.edu.cn/',
      false,
    ],
    [
      { mode: 'same-domain', seeds, denyHosts: ['news.scu.edu.cn'] },
      'http://www.scu.edu.cn/',
      true,
    ],
    [{ mode: 'any', denyHosts: ['*.ads.example'] }, 'http://x.ads.example/', false],
    [{ mode: 'any', denyHosts: ['*.ads.example'] }, 'http://ads.example/', true],
    [{ mode: 'any', denyHosts: ['EVIL.example'] }, 'http://evil.example./', false],
    [
      { mode: 'any', allowHosts: ['a.example'], denyHosts: ['a.example'] },
      'http://a.example/',
      false,
    ],
    // include / exclude (regular expressions; exclude wins)
    [{ mode: 'any', include: ['/news/'] }, 'http://e.com/news/1', true],
    [{ mode: 'any', include: ['/news/'] }, 'http://e.com/sports/1', false],
    [{ mode: 'any', include: ['/news/', '/blog/'] }, 'http://e.com/blog/1', true],
    [{ mode: 'any', include: ['^https://'] }, 'http://e.com/', false],
    [{ mode: 'any', exclude: ['\\.pdf$'] }, 'http://e.com/a.pdf', false],
    [{ mode: 'any', exclude: ['\\.pdf$'] }, 'http://e.com/a.pdf.html', true],
    [
      { mode: 'any', include: ['/news/'], exclude: ['/news/archive/'] },
      'http://e.com/news/archive/1',
      false,
    ],
    [{ mode: 'any', exclude: ['[?&]sid='] }, 'http://e.com/a?x=1&sid=9', false],
    [{ mode: 'any', exclude: ['/PRIVATE/'] }, 'http://e.com/private/', true],
    [{ mode: 'any', exclude: [/\/private\//i] }, 'http://e.com/PRIVATE/', false],
  ];
  for (const [options, url, expected] of table) {
    it(`${JSON.stringify(options, (_k, v) => (v instanceof RegExp ? String(v) : v))}: ${url} → ${expected}`, () => {
      assert.equal(createScopeFilter(options)(url), expected);
    });
  }

  it('gives the same answer on repeated calls with a global RegExp', () => {
    const inScope = createScopeFilter({ mode: 'any', include: [/news/g] });
    assert.equal(inScope('http://e.com/news/'), true);
    assert.equal(inScope('http://e.com/news/'), true);
  });

  it('rejects malformed options', () => {
    const bad: [unknown, RegExp][] = [
      [{ mode: 'same-site', seeds: ['http://e.com/'] }, /mode/],
      [{ mode: 'any', extra: true }, /extra/],
      [{ mode: 'same-host' }, /needs at least one seed/],
      [{ mode: 'any', include: ['(unclosed'] }, /include\[0\].*"\(unclosed"/],
      [{ mode: 'any', allowHosts: ['a.*.example'] }, /allowHosts\[0\]/],
      [{ mode: 'any', denyHosts: ['*'] }, /denyHosts\[0\]/],
    ];
    for (const [options, message] of bad) {
      assert.throws(
        () => createScopeFilter(options as ScopeOptions),
        (e: unknown) => e instanceof InvalidOptionError && message.test(e.message),
        JSON.stringify(options),
      );
    }
  });

  it('names a bad seed', () => {
    assert.throws(
      () => createScopeFilter({ mode: 'same-host', seeds: ['ftp://e.com/'] }),
      (e: unknown) => e instanceof InvalidUrlError && e.message.includes('ftp://e.com/'),
    );
  });
});
