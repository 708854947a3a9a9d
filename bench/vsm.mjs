// Micro-benchmark: keyword VSM relevance (DESIGN 1.1) per second, on 10 KB pages in
// English and Chinese with a 20-keyword topic, and the bare cosine on its own.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/vsm.mjs
import { createKeywordModel, createTopic, vsmRelevance } from '../dist/relevance/index.js';
import { topicKeywords } from '../dist/testweb/index.js';
import { chineseText, englishText } from './tokenize.mjs';

const EN_TOPIC = createTopic({
  keywords: {
    'power grid': 1,
    grid: 0.9,
    substation: 0.8,
    transmission: 0.8,
    'high-voltage': 0.7,
    transformer: 0.6,
    transformers: 0.6,
    load: 0.5,
    demand: 0.4,
    supply: 0.5,
    storage: 0.5,
    battery: 0.4,
    solar: 0.3,
    wind: 0.3,
    renewable: 0.4,
    electricity: 0.6,
    blackout: 0.5,
    blackouts: 0.5,
    operators: 0.3,
    voltage: 0.6,
  },
});
// The test web's hand-written 电网 topic (20 weighted keywords).
const ZH_TOPIC = createTopic(topicKeywords('grid'));

function measure(name, n, fn) {
  for (let i = 0; i < Math.min(n, 200); i++) fn(i); // warm-up
  let count = 0;
  let sink = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) {
    for (let i = 0; i < n; i++) sink += fn(i);
    count += n;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${name.padEnd(46)} ${Math.round(count / s)
      .toLocaleString('en-US')
      .padStart(12)} /s${Number.isNaN(sink) ? '!' : ''}`,
  );
}

const en = Array.from({ length: 50 }, (_, i) => ({
  text: englishText(10_000, i + 1),
  title: 'Grid news',
}));
const zh = Array.from({ length: 50 }, (_, i) => ({
  text: chineseText(10_000, i + 1),
  title: '电网新闻',
}));
const enModel = createKeywordModel(EN_TOPIC);
const zhModel = createKeywordModel(ZH_TOPIC);
measure(
  'keyword model score, 10 KB English, 20 keywords',
  en.length,
  (i) => enModel.score(en[i]).relevance,
);
measure(
  'keyword model score, 10 KB Chinese, 20 keywords',
  zh.length,
  (i) => zhModel.score(zh[i]).relevance,
);
const weights = EN_TOPIC.keywords.map((k) => k.weight);
const freqs = Array.from({ length: 64 }, (_, j) => weights.map((_, i) => (i * 7 + j * 3) % 5));
measure('vsmRelevance alone (20 weights)', freqs.length, (j) => vsmRelevance(weights, freqs[j]));
const r0 = enModel.score(en[0]);
const r1 = zhModel.score(zh[0]);
console.log(
  `sample relevance: English ${r0.relevance.toFixed(4)}, Chinese ${r1.relevance.toFixed(4)}`,
);
console.log(`node ${process.version}`);
