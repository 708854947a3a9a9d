import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countKeywords, createKeywordCounter, keywordMatchMode, tokenize } from './index.js';

describe('countKeywords', () => {
  // [text, keywords, counts]
  const table: [string, string[], number[]][] = [
    ['', ['grid'], [0]],
    ['grid Grid GRID gridlock grids', ['grid'], [3]],
    ['Power grid, POWER-GRID, power\ngrid and power. Grid', ['power grid'], [4]],
    ['power of the grid', ['power grid'], [0]],
    ['power 电网 grid', ['power grid'], [0]], // a CJK run breaks a phrase
    ['the state of the art', ['state of the art', 'the'], [1, 2]], // stop words count here
    ["the grid's load", ['grid'], [1]],
    ['ＧＲＩＤ ｇｒｉｄ', ['grid'], [2]], // full-width
    ['4K monitors, 4k', ['4K'], [2]],
    ['version 2.0 and 2.01', ['2.0'], [1]],
    // CJK keywords: substrings, whatever the segmenter would do
    ['液晶显示器和电竞显示器', ['显示器', '电竞显示器', '显示'], [2, 1, 2]],
    ['智能电网是电网的未来', ['电网', '智能电网'], [2, 1]],
    ['哈哈哈', ['哈哈'], [1]], // non-overlapping
    ['支持4K显示器', ['4k显示器'], [1]],
    // symbols: bounded substrings
    ['C++ and c++11, not xc++ or C#', ['c++', 'c#'], [2, 1]],
    ['.NET and ASP.NET', ['.net'], [2]],
    ['AT&T, at&t. Not bat&t', ['at&t'], [2]],
  ];
  for (const [text, keywords, expected] of table) {
    it(`${JSON.stringify(text)} ${JSON.stringify(keywords)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(countKeywords(text, keywords), expected);
    });
  }

  it('counts a word phrase exactly as often as it occurs in the token stream', () => {
    // Random texts over fragments that exercise every boundary rule of the scan.
    const parts = [
      'grid',
      'power',
      'Grid',
      "'s",
      "'",
      'n',
      '2',
      '.',
      ',',
      '0',
      ' ',
      ' ',
      '-',
      '电网',
      '’',
      'x',
      '\n',
    ];
    const phrases = [
      ['grid'],
      ['power', 'grid'],
      ['2'],
      ['2.0'],
      ['grid', 'grid'],
      ["grid'n"],
      ['x', '2'],
      ['grid', 'power'],
      ['n'],
      ['0'],
    ];
    let seed = 7;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    for (let round = 0; round < 2000; round++) {
      let text = '';
      const len = 1 + rand(14);
      for (let k = 0; k < len; k++) text += parts[rand(parts.length)];
      const stream = tokenize(text, { keepStopWords: true, maxChars: 1000 });
      // All phrases at once take the one-regex path; each alone the indexOf path.
      const together = countKeywords(
        text,
        phrases.map((p) => p.join(' ')),
      );
      for (const [k, phrase] of phrases.entries()) {
        let expected = 0;
        for (let p = 0; p < stream.length; p++) {
          if (phrase.every((t, j) => stream[p + j] === t)) expected++;
        }
        const got = countKeywords(text, [phrase.join(' ')])[0];
        const why = `${JSON.stringify(text)} ${JSON.stringify(phrase)} tokens ${JSON.stringify(stream)}`;
        assert.equal(got, expected, why);
        assert.equal(together[k], expected, `together: ${why}`);
      }
    }
  });

  it('a compiled counter gives the same counts on every call', () => {
    const count = createKeywordCounter(['grid', '电网', 'c++']);
    assert.deepEqual(count('grid 电网 c++'), [1, 1, 1]);
    assert.deepEqual(count('grid grid'), [2, 0, 0]);
    assert.deepEqual(count('grid 电网 c++'), [1, 1, 1]);
  });
});

describe('keywordMatchMode', () => {
  const table: [string, string][] = [
    ['grid', 'token-phrase'],
    ['Power Grid', 'token-phrase'],
    ['power-grid', 'token-phrase'],
    ['2.0', 'token-phrase'],
    ['显示器', 'cjk-substring'],
    ['4K显示器', 'cjk-substring'],
    ['コンピューター', 'cjk-substring'],
    ['c++', 'bounded-substring'],
    ["grid's", 'bounded-substring'],
  ];
  for (const [keyword, mode] of table) {
    it(`${keyword} → ${mode}`, () => assert.equal(keywordMatchMode(keyword), mode));
  }
});
