import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { createKeywordModel, parseTopic, vsmRelevance } from './index.js';

const topic = parseTopic(
  JSON.stringify({ keywords: { 'power grid': 1, 电网: 1, substation: 0.5 } }),
  'test topic',
);

describe('createKeywordModel', () => {
  const model = createKeywordModel(topic);

  it('is named', () => assert.equal(model.name, 'keyword-vsm'));

  it('scores a page by DESIGN 1.1, with counts per keyword', () => {
    const s = model.score({ text: 'Power grid news: the power-grid and 电网. 智能电网!' });
    assert.deepEqual(
      s.keywords.map((k) => [k.word, k.count]),
      [
        ['power grid', 2],
        ['电网', 2],
        ['substation', 0],
      ],
    );
    assert.equal(s.relevance, vsmRelevance([1, 1, 0.5], [2, 2, 0]));
    // x = (1, 1, 0): dot = 2, ‖a‖ = √2.25 = 1.5, ‖b‖ = √2 → 2 / (1.5·√2) = 0.9428
    assert.equal(s.relevance.toFixed(4), '0.9428');
  });

  it('gives 0 to a page without keywords', () => {
    const s = model.score({ text: 'Cooking with garlic', title: 'Recipes' });
    assert.equal(s.relevance, 0);
  });

  it('counts the title as text by default', () => {
    const s = model.score({ text: 'substation', title: 'Substation' });
    assert.equal(s.keywords[2]?.count, 2);
    // one keyword present: w / ‖a‖ = 0.5 / 1.5
    assert.equal(s.relevance.toFixed(4), (0.5 / 1.5).toFixed(4));
  });

  it('weights the title on request', () => {
    const heavy = createKeywordModel(topic, { titleWeight: 3 });
    const s = heavy.score({ text: 'power grid substation', title: 'Substation' });
    assert.deepEqual(
      s.keywords.map((k) => k.count),
      [1, 0, 4],
    );
    const none = createKeywordModel(topic, { titleWeight: 0 });
    assert.equal(none.score({ text: '', title: 'power grid' }).relevance, 0);
  });

  it('rejects bad options', () => {
    assert.throws(() => createKeywordModel(topic, { titleWeight: -1 }), InvalidOptionError);
    assert.throws(() => createKeywordModel(topic, { titelWeight: 2 } as never), InvalidOptionError);
  });
});

it('relevance(page) equals score(page).relevance', () => {
  const model = createKeywordModel(topic);
  const pages = [
    { text: '电网 电网 power grid', title: '电网' },
    { text: 'nothing here' },
    { text: 'Power Grid news', title: '' },
  ];
  for (const p of pages) assert.equal(model.relevance(p), model.score(p).relevance);
});
