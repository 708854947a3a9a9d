import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { urlWords, WEB_URL_WORDS } from './words.js';

test('urlWords: host labels, path and query words, decoded; extensions and index left out', () => {
  const cases: [string, string][] = [
    [
      'https://docs.example.org/sql-createindex.html?lang=en',
      'docs example sql createindex lang en',
    ],
    [
      'http://www.postgresql.org/docs/15/textsearch-intro.html',
      'postgresql docs 15 textsearch intro',
    ],
    ['http://gimp.docs.test:8080/zh_CN/filters-blur.html#x', 'gimp docs zh cn filters blur'],
    ['http://a.test/%E6%BB%A4%E9%95%9C/index.html', 'a 滤镜'],
    ['http://a.test/%E6%BB%A4%ZZ', 'a e6 bb a4 zz'],
    ['not a url', ''],
  ];
  for (const [url, words] of cases) assert.equal(urlWords(url), words, url);
});

/** The Unicode path alone: what urlWords gave before its ASCII fast path. */
function unicodeWords(url: string): string {
  const start = url.indexOf('//');
  if (start < 0) return '';
  let end = url.indexOf('/', start + 2);
  if (end < 0) end = url.length;
  const labels = url
    .slice(start + 2, end)
    .replace(/:\d+$/, '')
    .split('.');
  if (labels.length > 1) labels.pop();
  let rest = url.slice(end);
  if (rest.includes('%')) {
    try {
      rest = decodeURIComponent(rest);
    } catch {}
  }
  rest = rest.replace(/#[\s\S]*$/, '');
  return `${labels.join(' ')} ${rest}`
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '' && !WEB_URL_WORDS.includes(w) && w !== 'xhtml')
    .join(' ');
}

test('urlWords: the ASCII fast path gives what the Unicode split gives', () => {
  const part = fc.stringMatching(/^[-A-Za-z0-9._~:/?#[\]@!$&'()*+,;=\x00-\x1f]{0,30}$/);
  fc.assert(
    fc.property(part, part, (host, path) => {
      const url = `http://${host}/${path}`;
      assert.equal(urlWords(url), unicodeWords(url), JSON.stringify(url));
    }),
    { numRuns: 2000 },
  );
  for (const url of [
    'HTTP://Docs.Example.ORG/SQL-Index.HTML?Lang=EN#Top',
    'http://a.test#x/y',
    'x//y',
  ]) {
    assert.equal(urlWords(url), unicodeWords(url), url);
  }
});
