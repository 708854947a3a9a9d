import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { createTfidfModel, parseTopic } from '../relevance/index.js';
import { learnedTopicFile, learnFromTexts } from './index.js';

const positive = [
  'The power grid operator upgraded the substation. Grid voltage stayed stable.',
  'A new substation joins the grid; transmission lines carry the voltage.',
  '国家电网的变电站和输电线路。电网调度保障电压稳定。',
];
const negative = [
  'Bake the bread in the oven; the dough needs flour and time.',
  'The operator of the bakery bought a new oven. Stable prices, fresh bread.',
];

describe('learnFromTexts', () => {
  it('learns class-weighted keywords, Chinese and English alike, with idf and a threshold', () => {
    const l = learnFromTexts({ positive, negative, top: 10 });
    const words = l.keywords.map((k) => k.word);
    for (const w of ['substation', 'grid', 'voltage', '电网']) assert.ok(words.includes(w), w);
    // in the negatives as often as in the positives: class weight 0
    for (const w of ['operator', 'stable', 'oven']) assert.ok(!words.includes(w), w);
    assert.equal(l.documents, 5);
    assert.equal(l.keywords[0]?.weight, 1);
    assert.ok(l.keywords.every((k) => k.source === 'learned' && k.idf > 0));
    const grid = l.keywords.find((k) => k.word === 'grid');
    // counted as the models count: `grid` in 2 positives, none of the negatives
    assert.deepEqual([grid?.positiveDocs, grid?.negativeDocs], [2, 0]);
    assert.ok(Math.abs((grid?.idf ?? 0) - Math.log(5 / 2 + 0.01)) < 1e-12);
    assert.ok(l.threshold !== undefined && l.threshold > 0 && l.threshold < 1);
    // the suggested threshold separates the training examples
    const file = learnedTopicFile(l);
    const model = createTfidfModel(parseTopic(JSON.stringify(file)));
    for (const t of positive) assert.ok(model.relevance({ text: t }) >= (l.threshold ?? 1), t);
    for (const t of negative) assert.ok(model.relevance({ text: t }) < (l.threshold ?? 0), t);
  });

  it('merges the expert keywords and records each source', () => {
    const l = learnFromTexts({
      positive,
      negative,
      top: 5,
      expert: [
        { word: 'grid', weight: 2 },
        { word: 'uhv', weight: 1 },
      ],
    });
    const source = Object.fromEntries(l.keywords.map((k) => [k.word, k.source]));
    assert.equal(source['grid'], 'both');
    assert.equal(source['uhv'], 'expert'); // kept, though no example contains it
    assert.ok(Object.values(source).includes('learned'));
    const uhv = l.keywords.find((k) => k.word === 'uhv');
    assert.equal(uhv?.positiveDocs, 0);
    assert.ok(Math.abs((uhv?.idf ?? 0) - Math.log(5 + 0.01)) < 1e-12); // as if seen once
  });

  it('without negatives: no idf, no documents, no threshold in the file', () => {
    const l = learnFromTexts({ positive });
    assert.equal(l.threshold, undefined);
    const file = learnedTopicFile(l, { name: 'grid', language: 'en', threshold: 0.2 });
    assert.deepEqual(Object.keys(file), ['name', 'language', 'model', 'keywords', 'threshold']);
    assert.equal(file.threshold, 0.2);
    assert.equal(file.model, 'tfidf');
  });

  it('writes a topic file parseTopic accepts, heaviest keyword first', () => {
    const l = learnFromTexts({ positive, negative, top: 8 });
    const file = learnedTopicFile(l, { name: '电网', seeds: ['http://a.test/'] });
    const topic = parseTopic(JSON.stringify(file));
    assert.equal(topic.keywords[0]?.weight, 1);
    assert.deepEqual(Object.keys(topic.idf ?? {}), Object.keys(file.keywords));
    assert.equal(topic.documents, 5);
    assert.deepEqual(topic.seeds, ['http://a.test/']);
    assert.equal(topic.threshold, l.threshold);
  });

  it('rejects bad options, naming them', () => {
    const bad: [object, RegExp][] = [
      [{ positive: [] }, /positive: at least one/],
      [{ positive, top: 0 }, /top: expected a positive integer, got 0/],
      [{ positive, expertShare: 0 }, /expertShare: expected a number in \(0, 1\], got 0/],
    ];
    for (const [input, message] of bad) {
      assert.throws(
        () => learnFromTexts(input as never),
        (e: unknown) => e instanceof InvalidOptionError && message.test(e.message),
      );
    }
  });
});
