import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import {
  createRelevanceModel,
  createTfidfModel,
  keywordIdf,
  parseTopic,
  type Topic,
  tfidfRelevance,
} from './index.js';

const topic = (idf?: Record<string, number>): Topic =>
  parseTopic(
    JSON.stringify({ keywords: { grid: 1, 电网: 0.5 }, ...(idf ? { idf, documents: 10 } : {}) }),
  );

const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≈ ${b}`);

describe('tfidfRelevance', () => {
  // weights (1, .5); cos(w, f∘idf)
  const table: [string, number[], number[], number][] = [
    // f (2, 1), idf (.5, 2): b = (1, 2): (1 + 1)/(√1.25·√5) = 2/2.5
    ['idf shifts the page vector', [0.5, 2], [2, 1], 0.8],
    // idf 1: b = (2, 1) ∥ w
    ['idf 1: cos(w, f)', [1, 1], [2, 1], 1],
    // only the second keyword: .5/√1.25
    ['one keyword', [1, 1], [0, 3], 0.5 / Math.sqrt(1.25)],
    ['no keyword', [1, 1], [0, 0], 0],
    ['idf 0 silences a keyword', [0, 1], [5, 0], 0],
  ];
  for (const [what, idf, counts, expected] of table) {
    it(what, () => near(tfidfRelevance([1, 0.5], idf, counts), expected));
  }
});

describe('keywordIdf', () => {
  it('is 1 without idf, the file value, or the largest of the file for a missing keyword', () => {
    assert.deepEqual(keywordIdf(topic()), [1, 1]);
    assert.deepEqual(keywordIdf(topic({ grid: 0.5, 电网: 2 })), [0.5, 2]);
    assert.deepEqual(keywordIdf(topic({ grid: 0.5 })), [0.5, 0.5]);
    assert.deepEqual(keywordIdf(topic({ grid: 0.5, unused: 3 })), [0.5, 3]);
  });
});

describe('createTfidfModel', () => {
  const page = { text: 'Grid news: the grid and 电网.' };

  it('scores a page by DESIGN 1.5 with counts from the keyword counter', () => {
    const s = createTfidfModel(topic({ grid: 0.5, 电网: 2 })).score(page);
    assert.deepEqual(s.keywords, [
      { word: 'grid', weight: 1, idf: 0.5, count: 2 },
      { word: '电网', weight: 0.5, idf: 2, count: 1 },
    ]);
    near(s.relevance, 0.8);
  });

  it('uses idf 1 for a topic without idf', () => {
    near(createTfidfModel(topic()).relevance(page), 1);
  });

  it('counts the title like the vsm model (titleWeight)', () => {
    const m = createTfidfModel(topic(), { titleWeight: 2 });
    assert.deepEqual(
      m.score({ text: 'grid', title: '电网' }).keywords.map((k) => k.count),
      [1, 2],
    );
    assert.throws(() => createTfidfModel(topic(), { titleWeight: -1 }), InvalidOptionError);
  });

  it('relevance(page) equals score(page).relevance', () => {
    const m = createTfidfModel(topic({ grid: 0.3 }));
    for (const p of [page, { text: '' }, { text: '电网', title: 'grid' }]) {
      assert.equal(m.relevance(p), m.score(p).relevance);
    }
  });
});

describe('createRelevanceModel', () => {
  it('builds the model by name', () => {
    assert.equal(createRelevanceModel('vsm', topic()).name, 'keyword-vsm');
    assert.equal(createRelevanceModel('tfidf', topic()).name, 'tfidf');
    assert.throws(
      () => createRelevanceModel('bayes' as never, topic()),
      (e: unknown) => e instanceof InvalidOptionError && /bayes.*vsm, tfidf/.test(e.message),
    );
  });
});
