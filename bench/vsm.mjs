// Micro-benchmark: keyword VSM relevance (DESIGN 1.1) per second, on 10 KB pages in
// English and Chinese with a weighted keyword topic, and the bare cosine on its own.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/vsm.mjs
// Smaller scale:           node bench/vsm.mjs --seconds=0.3 --rounds=3
//
// Peer (from bench/node_modules; rows skipped when missing): natural's TfIdf, timed in
// alternating rounds on the same pages. Per page: a new TfIdf, the page (title + text)
// added as its one document, `tfidf(keyword, 0)` for each topic keyword, and these
// scores put through the same cosine (vsmRelevance) as focuscrawl's counts. With one
// document the idf is the same for every keyword present, so the cosine sees plain term
// frequencies, as focuscrawl's does. What natural does differently: it tokenises the page
// and removes its stop words (focuscrawl scans for the keywords without tokenising); a
// phrase keyword scores the sum of its words (`power grid` counts every `power` and every
// `grid`, where focuscrawl counts the phrase); its tokenizer drops Chinese characters, so
// for the Chinese page it is given tokens from @node-rs/jieba, once cut before the clock
// starts (the row measures natural alone), once cut inside the timed loop (jieba +
// natural, the whole job). The keywords are cut by jieba too (智能电网 → 智能 + 电网,
// scored as the sum, like an English phrase), and count only where jieba cut the page
// into the same tokens (电网 inside 国家电网 or 配电网 does not count, 电力 inside
// 电力工业 neither; focuscrawl counts substrings).
// The output prints how often the two agree on keyword counts and on relevance.
import {
  createKeywordModel,
  createTopic,
  DEFAULT_THRESHOLD,
  vsmRelevance,
} from '../dist/relevance/index.js';
import { topicKeywords } from '../dist/testweb/index.js';
import { alternate, benchScale, chineseText, englishText, loadJieba, ratio } from './tokenize.mjs';

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
// The test web's hand-written 电网 topic (18 weighted keywords).
const ZH_TOPIC = createTopic(topicKeywords('grid'));

const scale = benchScale();
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const row = (name, perSec, note = '') =>
  console.log(`${name.padEnd(46)} ${fmt(perSec).padStart(12)} /s${note ? `  ${note}` : ''}`);

/** natural's TfIdf and WordTokenizer (their modules alone: the index loads storage clients). */
async function loadNatural() {
  try {
    const { default: TfIdf } = await import('natural/lib/natural/tfidf/tfidf.js');
    const { WordTokenizer } = await import('natural/lib/natural/tokenizers/regexp_tokenizer.js');
    return { TfIdf, tokenizer: new WordTokenizer() };
  } catch {
    console.log('peer natural not installed: (cd bench && npm install)');
    return undefined;
  }
}
const natural = await loadNatural();
const jieba = natural && (await loadJieba());

/**
 * Relevance of one page by natural's TfIdf: `doc` is its text, or its tokens; each of
 * `keys` is a keyword as text (natural tokenises it) or as its tokens.
 */
function tfidfRelevance(doc, keys, weights) {
  const t = new natural.TfIdf();
  t.addDocument(doc);
  return vsmRelevance(
    weights,
    keys.map((k) => t.tfidf(k, 0)),
  );
}

/**
 * Prints how the peer's keyword counts and relevance compare with focuscrawl's on
 * `pages`; `terms(word)` is what the peer counts for a keyword.
 */
function agreement(pages, model, docs, terms, score) {
  let pairs = 0;
  let same = 0;
  let sumDiff = 0;
  let maxDiff = 0;
  let sameKeep = 0;
  pages.forEach((page, i) => {
    const ours = model.score(page);
    const t = new natural.TfIdf();
    t.addDocument(docs(i));
    const counts = t.documents[0];
    for (const k of ours.keywords) {
      const theirs = terms(k.word).reduce((n, term) => n + (counts[term] ?? 0), 0);
      pairs++;
      if (theirs === k.count) same++;
    }
    const r = score(i);
    const d = Math.abs(r - ours.relevance);
    sumDiff += d;
    maxDiff = Math.max(maxDiff, d);
    if (r >= DEFAULT_THRESHOLD === ours.relevance >= DEFAULT_THRESHOLD) sameKeep++;
  });
  console.log(
    `    agreement: keyword counts equal on ${same}/${pairs} page×keyword pairs\n` +
      `    relevance |Δ| mean ${(sumDiff / pages.length).toFixed(3)}, max ${maxDiff.toFixed(3)}; ` +
      `same keep (≥ ${DEFAULT_THRESHOLD}) on ${sameKeep}/${pages.length} pages`,
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
const enWords = EN_TOPIC.keywords.map((k) => k.word);
const zhWords = ZH_TOPIC.keywords.map((k) => k.word);
const weights = EN_TOPIC.keywords.map((k) => k.weight);
const zhWeights = ZH_TOPIC.keywords.map((k) => k.weight);
const enDoc = (i) => `${en[i]?.title}\n${en[i]?.text}`;
const zhDoc = (i) => `${zh[i]?.title}\n${zh[i]?.text}`;

{
  const name = `keyword model score, 10 KB English, ${enWords.length} keywords`;
  const fns = [(i) => enModel.score(en[i]).relevance];
  const peer = (i) => tfidfRelevance(enDoc(i), enWords, weights);
  if (natural) fns.push(peer);
  const [ours = 0, theirs = 0] = alternate(fns, en.length, en.length, scale);
  row(name, ours);
  if (natural) {
    row(
      '  peer natural TfIdf, one page, tfidf per keyword',
      theirs,
      ratio(ours, theirs, 'natural'),
    );
    const words = (w) => natural.tokenizer.tokenize(w.toLowerCase());
    agreement(en, enModel, enDoc, words, peer);
  }
}
{
  const name = `keyword model score, 10 KB Chinese, ${zhWords.length} keywords`;
  const fns = [(i) => zhModel.score(zh[i]).relevance];
  // jieba's tokens of each keyword, and of each page for the first peer row, cut before
  // the clock starts.
  const keys = jieba ? zhWords.map((w) => jieba.cut(w)) : [];
  const tokens = jieba ? zh.map((_, i) => jieba.cut(zhDoc(i))) : [];
  const cut = (i) => tfidfRelevance(tokens[i], keys, zhWeights);
  const cutAndScore = (i) => tfidfRelevance(jieba.cut(zhDoc(i)), keys, zhWeights);
  if (jieba) fns.push(cut, cutAndScore);
  const [ours = 0, theirs = 0, whole = 0] = alternate(fns, zh.length, zh.length, scale);
  row(name, ours);
  if (jieba) {
    row('  peer natural TfIdf, jieba tokens cut untimed', theirs, ratio(ours, theirs, 'natural'));
    row('  peer jieba cut + natural TfIdf, both timed', whole, ratio(ours, whole, 'jieba+natural'));
    agreement(
      zh,
      zhModel,
      (i) => tokens[i],
      (w) => jieba.cut(w),
      cut,
    );
  }
}
const freqs = Array.from({ length: 64 }, (_, j) => weights.map((_, i) => (i * 7 + j * 3) % 5));
const [bare = 0] = alternate([(j) => vsmRelevance(weights, freqs[j])], freqs.length, 64, scale);
row(`vsmRelevance alone (${weights.length} weights)`, bare);
const r0 = enModel.score(en[0]);
const r1 = zhModel.score(zh[0]);
console.log(
  `sample relevance: English ${r0.relevance.toFixed(4)}, Chinese ${r1.relevance.toFixed(4)}`,
);
console.log(`node ${process.version}`);
