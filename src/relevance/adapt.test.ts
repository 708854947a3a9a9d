import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adaptTopic,
  type CollectedTerms,
  createTermCollector,
  type TopicKeyword,
} from './index.js';

const near = (a: number | undefined, b: number, what = '') =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-6, `${what} ${a} ≈ ${b}`);

const kw = (o: Record<string, number>): TopicKeyword[] =>
  Object.entries(o).map(([word, weight]) => ({ word, weight }));

const at = { at: 1000, fetched: 50 };

describe('adaptTopic', () => {
  it('mixes in the re-estimated vector (worked by hand)', () => {
    // D = 10: e = (a 1, b .5); c 0.1 < minShare. Unit: c = (1, 0), e = (2, 1)/√5.
    // new = ½c + ½e ∝ (1 + 2/√5, 1/√5): b/a = 1/(√5 + 2) = √5 − 2.
    const collected: CollectedTerms = {
      documents: 10,
      terms: { a: [10, 30], b: [5, 5], c: [1, 1] },
    };
    const { keywords, change } = adaptTopic(kw({ a: 1 }), kw({ a: 1 }), collected, {
      ...at,
      rate: 0.5,
      maxDrift: 1,
      maxNewTerms: 1,
    });
    assert.deepEqual(
      keywords.map((k) => k.word),
      ['a', 'b'],
    );
    near(keywords[1]?.weight, Math.sqrt(5) - 2);
    const s = Math.sqrt(5) + 2;
    near(change.drift, 1 - s / Math.sqrt(s * s + 1));
    assert.equal(change.limited, false);
    assert.deepEqual(change.added, ['b']);
    assert.deepEqual(change.removed, []);
    assert.equal(change.at, 1000);
    assert.equal(change.fetched, 50);
    assert.deepEqual(
      change.top.map(([w]) => w),
      ['a', 'b'],
    );
  });

  it('moves only part way when the drift would exceed the limit', () => {
    // e = (a 0, b 1) = the new vector at rate 1: drift 1. On (1 − s, s), cos ≥ .5 holds
    // up to s = √3/(1 + √3): a/b = 1/√3, drift exactly .5.
    const collected: CollectedTerms = { documents: 10, terms: { b: [10, 10] } };
    const { keywords, change } = adaptTopic(kw({ a: 1 }), kw({ a: 1 }), collected, {
      ...at,
      rate: 1,
      maxDrift: 0.5,
    });
    assert.deepEqual(
      keywords.map((k) => k.word),
      ['b', 'a'],
    );
    near(keywords[1]?.weight, 1 / Math.sqrt(3));
    near(change.drift, 0.5);
    assert.equal(change.limited, true);
  });

  it('drops keywords that become too light', () => {
    // c = (1, .05)/|·|, e = (1, 0); .2c + .8e → z/a = .00999 < .02
    const topic = kw({ a: 1, z: 0.05 });
    const { keywords, change } = adaptTopic(
      topic,
      topic,
      { documents: 10, terms: { a: [10, 10] } },
      { ...at, rate: 0.8, maxDrift: 1 },
    );
    assert.deepEqual(keywords, [{ word: 'a', weight: 1 }]);
    assert.deepEqual(change.removed, ['z']);
    near(change.drift, 1 - 1 / Math.sqrt(1.0025));
  });

  it('adds only terms specific to relevant pages when a background is given', () => {
    // cw: a, b 10/11 (absent from the background), c 0 (as common there).
    // e ∝ (1, 1): ½(1, 0) + ½(1, 1)/√2 → b/a = √2 − 1
    const collected: CollectedTerms = {
      documents: 10,
      terms: { a: [10, 10], b: [10, 10], c: [10, 10] },
    };
    const background: CollectedTerms = { documents: 10, terms: { c: [10, 10] } };
    const { keywords, change } = adaptTopic(kw({ a: 1 }), kw({ a: 1 }), collected, {
      ...at,
      rate: 0.5,
      maxDrift: 1,
      background,
    });
    assert.deepEqual(change.added, ['b']);
    near(keywords.find((k) => k.word === 'b')?.weight, Math.SQRT2 - 1);
  });

  it('leaves the topic as it is without collected pages', () => {
    const topic = kw({ a: 1, b: 0.5 });
    const { keywords, change } = adaptTopic(topic, topic, { documents: 0, terms: {} }, at);
    assert.deepEqual(keywords, topic);
    near(change.drift, 0);
    assert.deepEqual([change.added, change.removed, change.limited], [[], [], false]);
  });
});

describe('createTermCollector', () => {
  it('counts pages containing each term and occurrences; keywords as the models count them', () => {
    const c = createTermCollector({ keywords: ['power grid', '显示器'] });
    c.add('Power grid news. The power-grid and the grid.');
    c.add('液晶显示器 显示器 grid');
    const s = c.snapshot();
    assert.equal(s.documents, 2);
    assert.deepEqual(s.terms['power grid'], [1, 2]);
    assert.deepEqual(s.terms['显示器'], [1, 2]);
    assert.deepEqual(s.terms['grid'], [2, 4]); // tokens: grid ×3 in the first text, ×1 in the second
    assert.equal(s.terms['the'], undefined); // stop word
  });

  it('samples every n-th text and reads at most maxChars of each', () => {
    const c = createTermCollector({ sampleEvery: 2, maxChars: 5 });
    c.add('alpha beta');
    c.add('gamma');
    c.add('delta');
    assert.equal(c.documents, 2);
    assert.deepEqual(Object.keys(c.snapshot().terms).sort(), ['alpha', 'delta']);
  });

  it('prunes the rarest terms beyond maxTerms, and resumes from a snapshot', () => {
    const c = createTermCollector({ maxTerms: 5 });
    c.add('alpha beta');
    c.add('alpha beta');
    c.add('gamma delta epsilon zeta theta'); // 7 terms > 5: keep 4, the rarest (first seen) go
    assert.equal(c.size, 4);
    assert.deepEqual(Object.keys(c.snapshot().terms).sort(), ['alpha', 'beta', 'theta', 'zeta']);
    const d = createTermCollector({ maxTerms: 5 }, c.snapshot());
    d.add('alpha');
    assert.deepEqual(d.snapshot().terms['alpha'], [3, 3]);
    assert.equal(d.documents, 4);
  });
});
