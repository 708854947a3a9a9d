import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalizeUrl } from '../url/index.js';
import { canonicalAsIs, originOf, pathAsIs, resolveHref } from './url-cache.js';

describe('canonicalAsIs: hrefs canonicalizeUrl leaves unchanged', () => {
  const cases: Array<[string, boolean]> = [
    ['http://dianwang.test/article/7.html', true],
    ['https://power-grid-cn-2.test/zixun/43714.html?a=1&b=2', true],
    ['http://a.test/', true],
    ['http://a.test//double/slash', true],
    ['http://a.test', false], // gets a '/'
    ['HTTP://a.test/', false],
    ['http://A.test/', false],
    ['http://a.test:80/', false],
    ['http://a.test:8080/', false],
    ['http://user@a.test/', false],
    ['http://127.0.0.1/', false],
    ['http://a.0x7f/', false],
    ['http://xn--fiqs8s.test/', false],
    ['http://-a.test/', false],
    ['http://a..test/', false],
    ['http://a.test./', false],
    ['http://a.test/x#frag', false],
    ['http://a.test/x?', false],
    ['http://a.test/%7Ex', false],
    ['http://a.test/a b', false],
    ['http://a.test/中', false],
    ['http://a.test/a\\b', false],
    ['http://a.test/./x', false],
    ['http://a.test/x/..', false],
    ['http://a.test/..x/.y', true],
    ['http://a.test/dir/index.html', false],
    ['http://a.test/dir/index.htm?x=1', false],
    ['http://a.test/dir/Index.html', true],
    ["http://a.test/?q='x'", false],
  ];
  for (const [url, want] of cases) {
    it(`${url} → ${want}`, () => {
      assert.equal(canonicalAsIs(url), want);
      if (want) assert.equal(canonicalizeUrl(url), url);
    });
  }

  it('never says yes to an href canonicalizeUrl changes (random hrefs)', () => {
    let s = 7;
    const rnd = (n: number) => {
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      return (s >>> 8) % n;
    };
    const pick = (a: string[]) => a[rnd(a.length)]!;
    const HOST = 'a b z 0 9 1 - . x n A _ %41 : @ :80 :443 xn-- 0x é test'.split(' ');
    const PATH = [
      ...'/ a B . .. %2e %7E ~ \' " ? # index.html index.htm Index.html \\ ! $ & ( ) * + , ; = : @ - _ { ` | ^ [ ] 中 // /./ /../ ?& ??'.split(
        ' ',
      ),
      ' ',
      '\t',
    ];
    const base = 'http://dianwang.test/a/b.html';
    let yes = 0;
    for (let t = 0; t < 50_000; t++) {
      let host = '';
      for (let k = 1 + rnd(6); k > 0; k--) host += pick(HOST);
      let path = '';
      for (let k = rnd(7); k > 0; k--) path += pick(PATH);
      const url = `${pick(['http://', 'https://', 'HTTP://', 'http:/'])}${host}${rnd(5) ? '/' : ''}${path}`;
      if (canonicalAsIs(url)) {
        yes++;
        assert.equal(canonicalizeUrl(url), url, url);
      }
      const rel = `/${path}`;
      if (pathAsIs(rel)) yes++;
      assert.equal(resolveHref(rel, base, originOf(base), true), canonicalizeUrl(rel, base), rel);
    }
    assert.ok(yes > 5_000);
  });
});
