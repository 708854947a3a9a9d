import assert from 'node:assert/strict';
import { test } from 'node:test';
import { urlWords } from './words.js';

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
