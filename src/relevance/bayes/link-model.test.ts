import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ModelFileError } from '../../errors/index.js';
import { tempDir } from '../../util/testing.js';
import {
  binaryEntropy,
  compactSample,
  crossValidateLinkModel,
  documentTermCounts,
  evaluateLinkModel,
  type FeatureVector,
  informationGain,
  kernelLogDensity,
  type LinkModel,
  linkTermCounts,
  type NaiveBayesJson,
  normalLogDensity,
  readLinkModelFile,
  selectVocabulary,
  trainLinkModel,
  trainNaiveBayes,
  urlTokens,
  weightedKernelLogDensity,
  writeLinkModelFile,
} from './index.js';

const near = (actual: number | undefined, expected: number, what = '') =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what} ${actual} ≈ ${expected}`,
  );
/** Relative closeness for values that may be large (floored variances give |z| ~ 1e5). */
const close = (actual: number, expected: number, what = '') =>
  assert.ok(
    Number.isFinite(actual) &&
      Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${what} ${actual} ≈ ${expected}`,
  );

const vec = (o: Record<string, number>) => new Map(Object.entries(o));

describe('link features', () => {
  // [URL, tokens]
  const urls: [string, string[]][] = [
    // www and TLD dropped, port dropped, index/html noise, query and fragment dropped
    [
      'https://www.astro-news.example.com:8080/Telescopes/index.html?q=star#top',
      ['astro', 'news', 'example', 'telescopes'],
    ],
    // 1-char parts (a, x, y, z) and pure numbers (2024, 09) dropped
    ['http://a.b/x/2024/09/y-z_ab', ['ab']],
    // CJK host labels and path segments kept, the TLD 中国 dropped
    ['https://天文.中国/望远镜/镜片.html', ['天文', '望远镜', '镜片']],
    ['example.com/path', ['example', 'path']], // no scheme
    // only the last label goes; php, default, aspx are noise; lower-cased
    ['HTTP://Sub.Domain.CO.UK/A/bb/php/Default.aspx', ['sub', 'domain', 'co', 'bb']],
    ['https://x.org:443', []],
    ['https://site.org/a/b1/c', ['site', 'b1']], // b1 is not a pure number
  ];
  for (const [url, tokens] of urls) {
    it(`urlTokens(${url})`, () => assert.deepEqual(urlTokens(url), tokens));
  }

  it('link counts: context falls back to the anchor; title and URL share the bag', () => {
    const link = {
      url: 'https://astro.example.org/telescope/mirror',
      anchor: 'Big Telescope',
      context: '',
      title: 'Star Guide',
    };
    // telescope: anchor 1 + URL 1 = 2
    const counts = Object.fromEntries(linkTermCounts(link));
    const url = { astro: 1, example: 1, mirror: 1 };
    assert.deepEqual(counts, { ...url, big: 1, guide: 1, star: 1, telescope: 2 });
    // a non-empty context replaces the anchor (big is gone); telescope: context 2 + URL 1
    const withContext = linkTermCounts({ ...link, context: 'telescope telescope lens', title: '' });
    assert.deepEqual(Object.fromEntries(withContext), { ...url, lens: 1, telescope: 3 });
  });

  it('link counts in Chinese: words kept, 的 dropped, CJK singles glued', () => {
    const link = { url: 'https://example.cn/天文/望远镜', anchor: 'x', title: '天文' };
    // 天文: context + title + URL = 3; 望远镜: context + URL = 2
    const counts = linkTermCounts({ ...link, context: '天文望远镜的镜片' });
    assert.deepEqual(Object.fromEntries(counts), { example: 1, 天文: 3, 望远镜: 2, 镜片: 1 });
    // the singles 我 and 看 are glued into one term
    const glued = linkTermCounts({ ...link, url: 'https://example.cn/', context: '我看星星' });
    assert.deepEqual(Object.fromEntries(glued), { example: 1, 我看: 1, 星星: 1, 天文: 1 });
  });

  it('document counts: title, text and URL', () => {
    const doc = { title: 'Stars', text: 'star stars telescope' };
    // stars: title + text + URL (www, com, index, html dropped) = 3
    const withUrl = documentTermCounts({ ...doc, url: 'http://www.stars.com/index.html' });
    assert.deepEqual(Object.fromEntries(withUrl), { star: 1, stars: 3, telescope: 1 });
    assert.equal(documentTermCounts(doc).get('stars'), 2);
  });
});

describe('information gain', () => {
  // H(1 of 4) = −(¼ ln ¼ + ¾ ln ¾) = 0.3465736 + 0.2157616 = 0.5623351
  // H(1 of 3) = ⅓ ln 3 + ⅔ ln 1.5 = 0.3662041 + 0.2703101 = 0.6365142
  const entropy: [number, number, number][] = [
    [1, 2, Math.LN2],
    [1, 4, 0.5623351],
    [2, 3, 0.6365142],
    [0, 4, 0],
    [4, 4, 0],
    [0, 0, 0],
  ];
  for (const [a, n, h] of entropy) it(`H(${a} of ${n}) = ${h}`, () => near(binaryEntropy(a, n), h));

  // [posDocs, negDocs, pos, neg, IG]
  const gains: [number, number, number, number, number][] = [
    [2, 0, 2, 2, Math.LN2], // ln 2 − ½·H(2 of 2) − ½·H(0 of 2) = ln 2
    [0, 2, 2, 2, Math.LN2],
    [2, 2, 2, 2, 0], // in every example: ln 2 − 1·ln 2
    [1, 1, 2, 2, 0], // half/half: ln 2 − ½ ln 2 − ½ ln 2
    [2, 1, 2, 2, 0.2157616], // ln 2 − ¾·H(2 of 3) = 0.6931472 − 0.4773856
    [0, 0, 0, 0, 0],
  ];
  for (const [a, b, p, n, g] of gains) {
    it(`IG(${a}/${p} +, ${b}/${n} −) = ${g}`, () => near(informationGain(a, b, p, n), g));
  }

  // star 2/0 and bread 0/2: IG ln 2, docs 2; sky 2/1: 0.2157616, docs 3;
  // the 2/2: 0, docs 4; also 1/1: 0, docs 2; rare 1/0: docs 1
  const pos = [
    vec({ star: 1, sky: 1, the: 1, rare: 1, also: 1 }),
    vec({ star: 2, sky: 1, the: 1 }),
  ];
  const neg = [vec({ bread: 1, the: 1, sky: 1, also: 1 }), vec({ bread: 1, the: 1, x: 0 })];

  it('vocabulary ordered by gain, then doc count, then term; minDocs 2 drops rare', () => {
    // bread before star (a tie on gain and docs); the before also (same gain, more docs)
    assert.deepEqual(selectVocabulary(pos, neg), ['bread', 'star', 'sky', 'the', 'also']);
  });

  it('maxTerms cuts, minDocs filters', () => {
    assert.deepEqual(selectVocabulary(pos, neg, { maxTerms: 2 }), ['bread', 'star']);
    assert.deepEqual(selectVocabulary(pos, neg, { minDocs: 3 }), ['sky', 'the']);
    const all = selectVocabulary(pos, neg, { minDocs: 1 });
    assert.equal(all.length, 6); // rare comes in; x (count 0) never does
    assert.ok(all.includes('rare') && !all.includes('x'));
  });
});

describe('link model training', () => {
  // df: telescope 3 (2 +, 1 −), bread 2 (0 +, 2 −), star, lens, oven 1 (below minDocs 2)
  // vocabulary: bread (IG ln 2) then telescope (IG 0.2157616); |E| = 4
  const positives = [vec({ telescope: 2, star: 1 }), vec({ telescope: 1, lens: 1 })];
  const negatives = [vec({ bread: 1, oven: 1 }), vec({ bread: 1, telescope: 1 })];
  const model = trainLinkModel(positives, negatives, {}, new Date(0));
  const lnA = Math.log(4 / 3); // idf of telescope, 0.2876821
  const ln2 = Math.log(2); // idf of bread

  it('records vocabulary, document frequencies and training counts', () => {
    const j = model.json;
    assert.deepEqual(j.classifier.vocabulary, ['bread', 'telescope']);
    assert.deepEqual(j.documentFrequencies, [2, 3]);
    assert.deepEqual(j.training, { positive: 2, negative: 2, maxTerms: 100, minDocs: 2 });
    assert.deepEqual(j.features, { contextChars: 80 });
    assert.equal(j.createdAt, '1970-01-01T00:00:00.000Z');
    assert.equal(j.classifier.density, 'kernel');
    assert.equal(model.vocabularySize, 2);
    // kernel samples of the training weights: every example's tf is its max tf, so w = idf
    assert.deepEqual(j.classifier.terms[0]?.negative.sample, { values: [ln2], counts: [2] });
    assert.deepEqual(j.classifier.terms[1]?.positive.sample, { values: [lnA], counts: [2] });
    assert.deepEqual(j.classifier.terms[1]?.negative.sample, { values: [0, lnA], counts: [1, 1] });
  });

  it('weights are the improved TF-IDF over the vocabulary', () => {
    // max tf = 4 (zzz, out of the vocabulary, still counts)
    // telescope: (0.5 + 0.5·2/4)·ln(4/3) = 0.75·0.2876821 = 0.2157616
    // bread:     (0.5 + 0.5·1/4)·ln(4/2) = 0.625·0.6931472 = 0.4332170
    const w = model.weights(vec({ telescope: 2, bread: 1, star: 1, zzz: 4 }));
    assert.deepEqual([...w.keys()].sort(), ['bread', 'telescope']);
    near(w.get('telescope'), 0.2157616, 'telescope');
    near(w.get('bread'), 0.433217, 'bread');
  });

  it('log odds worked by hand; terms outside the vocabulary change nothing', () => {
    // σ² = ½ in both classes, so ln N(0; μ, ½) = c − μ²; priors ½, ½
    // bread at 0:     (c − 0) − (c − (ln 2)²)                = 0.4804530
    // telescope at 0: (c − a²) − ln((e^{c} + e^{c − a²})/2), a = ln(4/3), a² = 0.0827610
    //                 = −0.0827610 − ln(0.9602856) = −0.0827610 + 0.0405246 = −0.0422364
    // z = 0.4804530 − 0.0422364 = 0.4382166
    near(model.logOdds(new Map()), 0.4382166);
    assert.equal(model.logOdds(vec({ star: 5, lens: 3 })), model.logOdds(new Map()));
    near(model.probability(new Map()), 1 / (1 + Math.exp(-0.4382166)));
    assert.ok(model.logOdds(vec({ bread: 1 })) < 0);
    assert.ok(model.logOdds(vec({ telescope: 1 })) > 0);
  });

  it('an empty vocabulary answers the prior', () => {
    const m = trainLinkModel([vec({ a: 1 })], [vec({ b: 1 }), vec({ c: 1 }), vec({ a: 1 })], {
      minDocs: 10,
    });
    assert.equal(m.vocabularySize, 0);
    near(m.logOdds(vec({ a: 3, b: 1 })), Math.log(1 / 3)); // ln(¼) − ln(¾) = −1.0986123
    near(m.probability(new Map()), 0.25);
    assert.throws(() => trainLinkModel([], negatives), RangeError);
  });
});

describe('sparse evaluation equals the dense sum', () => {
  const positives = [
    vec({ a: 0.5, b: 1.2 }),
    vec({ a: 0.9, c: 0.3 }),
    vec({ a: 0.5, b: 0.4, c: 0.3 }),
  ];
  const negatives = [vec({ b: 0.7, d: 1.1 }), vec({ d: 0.6, c: 0.2 }), vec({ a: 0.2, d: 0.6 })];
  // e is in no example: equal densities in both classes
  const vocabulary = ['a', 'b', 'c', 'd', 'e'];
  const dense = (json: NaiveBayesJson, x: FeatureVector): number => {
    let z = Math.log(json.priors.positive) - Math.log(json.priors.negative);
    json.vocabulary.forEach((t, j) => {
      const v = x.get(t) ?? 0;
      const s = json.terms[j];
      assert.ok(s !== undefined);
      const ln = (c: 'positive' | 'negative') => {
        const st = s[c];
        if (st.normal) return normalLogDensity(v, st.normal.mean, st.normal.variance);
        assert.ok(st.sample);
        return weightedKernelLogDensity(v, st.sample.values, st.sample.counts, json.sigma[c]);
      };
      z += ln('positive') - ln('negative');
    });
    return z;
  };
  const xs = [
    new Map<string, number>(),
    vec({ a: 0.5 }),
    vec({ a: 0.7, b: 0.4, c: 0.3, d: 0.6, e: 0.1 }),
    vec({ d: 1.1, zz: 9 }), // zz is not in the vocabulary
    vec({ b: 2.5, c: 0.01 }),
  ];
  for (const density of ['normal', 'kernel'] as const) {
    for (const bandwidth of ['inverse-n', 'inverse-sqrt-n'] as const) {
      it(`${density} (${bandwidth})`, () => {
        const m = trainNaiveBayes(positives, negatives, { density, bandwidth, vocabulary });
        const json = m.toJSON();
        for (const x of xs) close(m.logOdds(x), dense(json, x), JSON.stringify([...x]));
      });
    }
  }
});

describe('weighted kernel density', () => {
  const samples: [number[], number][] = [
    [[0, 0, 0, 1.5], 0.5],
    [[0.7, 0.2, 0.7, 0.2, 0.7, 3], 1],
    [[2, -1], 0.01],
  ];
  for (const [sample, sigma] of samples) {
    it(`equals the expanded kernel density of ${JSON.stringify(sample)}, σ ${sigma}`, () => {
      const { values, counts } = compactSample(sample);
      const expanded = values.flatMap((v, i) => Array<number>(counts[i] ?? 0).fill(v));
      assert.deepEqual(
        expanded,
        [...sample].sort((a, b) => a - b),
      );
      for (const x of [0, 0.7, -1, 10, 1e3]) {
        const w = weightedKernelLogDensity(x, values, counts, sigma);
        assert.ok(Number.isFinite(w), `x ${x}: ${w}`);
        close(w, kernelLogDensity(x, sample, sigma), `x ${x}`);
      }
    });
  }

  it('worked by hand; empty sample', () => {
    // values {0, 2}, x = 1, σ = 1: both points 1 away, ln N(1; 0, 1) = −1.4189385
    near(weightedKernelLogDensity(1, [0, 2], [1, 1], 1), -1.4189385);
    // counts 3 and 3 give the same density
    near(weightedKernelLogDensity(1, [0, 2], [3, 3], 1), -1.4189385);
    assert.equal(weightedKernelLogDensity(1, [0], [0], 1), Number.NEGATIVE_INFINITY);
    assert.equal(weightedKernelLogDensity(1, [], [], 1), Number.NEGATIVE_INFINITY);
  });
});

describe('link model evaluation', () => {
  const pos = (extra: string) => vec({ telescope: 1, star: 1, [extra]: 1 });
  const neg = (extra: string) => vec({ bread: 1, oven: 1, [extra]: 1 });
  const positives = ['mirror', 'lens', 'orbit', 'nebula'].map(pos);
  const negatives = ['flour', 'yeast', 'crust', 'dough'].map(neg);

  it('separable toy data: cross-validated accuracy 1', () => {
    const m = crossValidateLinkModel(positives, negatives, {}, { folds: 4 });
    assert.deepEqual(m, {
      method: 'cross-validation',
      folds: 4,
      examples: 8,
      accuracy: 1,
      precision: 1,
      recall: 1,
      f1: 1,
    });
    assert.equal(crossValidateLinkModel(positives, negatives, { density: 'normal' }).accuracy, 1);
  });

  it('folds clamped to the number of examples (and at least 2)', () => {
    const few = crossValidateLinkModel(
      positives.slice(0, 2),
      negatives.slice(0, 1),
      {},
      {
        folds: 10,
      },
    );
    assert.equal(few.folds, 3);
    // the fold holding the lone negative has none left to train on: its example is not scored
    assert.equal(few.examples, 2);
    assert.equal(crossValidateLinkModel(positives, negatives, {}, { folds: 1 }).folds, 2);
  });

  it('evaluation counts worked by hand', () => {
    const model = trainLinkModel(positives, negatives);
    // labelled +: a telescope page (TP) and a bread page (FN); labelled −: a bread page (TN)
    // accuracy 2/3, precision 1/1, recall 1/2, f1 = 2·1·½/(1 + ½) = 2/3
    const m = evaluateLinkModel(model, [pos('x'), neg('y')], [neg('z')]);
    assert.equal(m.method, 'next-examples');
    assert.equal(m.folds, 0);
    assert.equal(m.examples, 3);
    near(m.accuracy, 2 / 3);
    assert.equal(m.precision, 1);
    assert.equal(m.recall, 0.5);
    near(m.f1, 2 / 3);
  });
});

describe('link model files', () => {
  const dir = tempDir('model');
  const positives = [vec({ telescope: 2, star: 1 }), vec({ telescope: 1, lens: 1 })];
  const negatives = [vec({ bread: 1, oven: 1 }), vec({ bread: 1, telescope: 1 })];
  const kernel = trainLinkModel(positives, negatives);
  const normal = trainLinkModel(positives, negatives, { density: 'normal' });
  const probes = [new Map(), vec({ telescope: 1 }), vec({ bread: 2, star: 1 })];

  it('write then read gives the same model', async () => {
    for (const [name, model] of [
      ['kernel.json', kernel],
      ['normal.json', normal],
    ] as const) {
      const file = join(dir, name);
      await writeLinkModelFile(file, model);
      const back = await readLinkModelFile(file);
      assert.deepEqual(back.json, model.json);
      for (const x of probes) assert.equal(back.logOdds(x), model.logOdds(x));
    }
    assert.deepEqual(readdirSync(dir).sort(), ['kernel.json', 'normal.json']); // no tmp left
  });

  const rejects = async (file: string, ...fragments: string[]) =>
    assert.rejects(readLinkModelFile(file), (err: unknown) => {
      assert.ok(err instanceof ModelFileError, String(err));
      assert.equal(err.code, 'FC_ERR_MODEL_FILE');
      for (const f of [file, ...fragments]) assert.ok(err.message.includes(f), err.message);
      return true;
    });
  const bad = (name: string, content: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  // JSON.parse gives an untyped copy that the cases below may break at will
  const copy = (model: LinkModel) => JSON.parse(JSON.stringify(model.json));

  it('missing file', () => rejects(join(dir, 'absent.json'), 'no such file'));
  it('invalid JSON names line and column', () =>
    // line 3 is `  "version": 1,,`: the second comma is column 16
    rejects(bad('syntax.json', '{\n  "format": "x",\n  "version": 1,,\n}'), 'line 3, column 16'));
  it('a JSON array', () => rejects(bad('array.json', []), 'expected a JSON object'));
  it('a foreign JSON object', async () => {
    await rejects(bad('foreign.json', { name: 'x' }), 'format is missing');
    await rejects(bad('other.json', { format: 'other' }), 'format is "other"');
  });
  it('a newer version', () =>
    rejects(bad('v2.json', { ...kernel.json, version: 2 }), 'version 2', 'newer'));
  it('a malformed field is named by its path', () => {
    const j = copy(normal);
    j.classifier.terms[0].positive.normal.variance = -1;
    return rejects(bad('variance.json', j), 'classifier.terms[0].positive.normal.variance');
  });
  it('vocabulary and terms differ in length', () => {
    const j = copy(kernel);
    j.classifier.terms.pop();
    return rejects(bad('terms.json', j), 'classifier.terms: 1 entries for 2 vocabulary terms');
  });
  it('documentFrequencies and vocabulary differ in length', () => {
    const j = copy(kernel);
    j.documentFrequencies = [2];
    return rejects(bad('df.json', j), 'documentFrequencies: 1 entries for 2 vocabulary terms');
  });
  it('a kernel model with normal statistics', () => {
    const j = copy(kernel);
    j.classifier.terms[0].positive = { normal: { mean: 0, variance: 1 } };
    return rejects(
      bad('mixed.json', j),
      'classifier.terms[0].positive: a kernel model needs "sample" statistics',
    );
  });
});
