// A query as typed → its terms, the FTS5 expression, and the blended order of hits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { blendScore, ftsMatch, MARK_END, MARK_START, queryTerms } from './query.js';
import { SEPARATOR } from './segment.js';

describe('queryTerms', () => {
  const table: [string, string, string[]][] = [
    ['English words, lower-cased', 'Power GRID', ['power', 'grid']],
    ['stop words dropped', 'The Grid and the Power', ['grid', 'power']],
    ['stop words kept when there is nothing else', 'the of and', ['the', 'of', 'and']],
    ['a Chinese run kept whole', '电网调度中心', ['电网调度中心']],
    ['Chinese runs split at spaces', '电网 调度', ['电网', '调度']],
    ['Chinese and English', '电网调度 grid', ['电网调度', 'grid']],
    ['a Chinese run ends where English starts', '电网grid', ['电网', 'grid']],
    ['Japanese kana and kanji in one run', '東京タワー', ['東京タワー']],
    ['duplicates removed, case aside', 'grid GRID Grid', ['grid']],
    ['duplicate Chinese runs removed', '电网 电网', ['电网']],
    ['order kept', 'zebra apple zebra', ['zebra', 'apple']],
    ['punctuation cuts words', 'grid,power;market', ['grid', 'power', 'market']],
    ['diacritics kept (the index folds them)', 'Café', ['café']],
    ['digits are words', 'IEEE 802', ['ieee', '802']],
    ['punctuation only', '  ,.!? ', []],
    ['Chinese punctuation only', '，。！', []],
    ['empty', '', []],
  ];
  for (const [what, query, expected] of table) {
    it(what, () => assert.deepEqual(queryTerms(query), expected));
  }
});

describe('ftsMatch', () => {
  const table: [string, string[], string][] = [
    ['one English word', ['grid'], '"grid"'],
    ['every term, space-separated (AND)', ['grid', 'power'], '"grid" "power"'],
    ['a Chinese run as the phrase of its characters', ['电网调度'], '"|电||网||调||度|"'],
    ['mixed', ['电网', 'grid'], '"|电||网|" "grid"'],
    ['quotes doubled', ['a"b'], '"a""b"'],
    ['only quotes', ['""'], '""""""'],
    [
      'FTS5 operators are plain words inside quotes',
      ['NEAR', 'OR', 'title:x*'],
      '"NEAR" "OR" "title:x*"',
    ],
    ['no terms', [], ''],
  ];
  for (const [what, terms, expected] of table) {
    it(what, () => assert.equal(ftsMatch(terms), expected.replaceAll('|', SEPARATOR)));
  }
});

describe('the highlight marks', () => {
  it('are private-use characters', () => {
    assert.equal(MARK_START, '\uE000');
    assert.equal(MARK_END, '\uE001');
  });
});

describe('blendScore', () => {
  // [bm25, maxBm25, P, w, expected]: (1 − w)·bm25/maxBm25 + w·P
  const table: [number, number, number, number, number][] = [
    [4, 4, 0, 0, 1], // the best match, BM25 alone
    [2, 4, 1, 0, 0.5],
    [2, 4, 0.5, 0.3, 0.7 * 0.5 + 0.3 * 0.5], // the default weight: 0.5
    [1, 4, 0.9, 0.3, 0.7 * 0.25 + 0.3 * 0.9], // 0.445
    [4, 4, 0.1, 0.3, 0.7 + 0.03], // 0.73
    [1, 2, 1, 1, 1], // P alone
    [0, 0, 1, 0.3, 0.3], // no BM25 to scale by: P only
    [3, 0, 0.5, 0.5, 0.25],
  ];
  for (const [bm25, max, p, w, expected] of table) {
    it(`bm25 ${bm25} of ${max}, P ${p}, w ${w} → ${expected}`, () => {
      const got = blendScore(bm25, max, p, w);
      assert.ok(Math.abs(got - expected) < 1e-12, `${got} ≈ ${expected}`);
    });
  }

  it('a lower P can beat a higher one with a better match, and the reverse at a high weight', () => {
    const strong = { bm25: 4, p: 0.2 };
    const weak = { bm25: 2, p: 0.9 };
    const order = (w: number) =>
      blendScore(strong.bm25, 4, strong.p, w) > blendScore(weak.bm25, 4, weak.p, w);
    assert.equal(order(0.3), true);
    assert.equal(order(0.9), false);
  });
});
