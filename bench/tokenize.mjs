// Micro-benchmark: tokeniser throughput on English and Chinese text, in MB/s of UTF-8.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/tokenize.mjs
// Smaller scale:           node bench/tokenize.mjs --seconds=0.3 --rounds=3
// Also exports the deterministic sample texts, and the alternating timer, that
// bench/vsm.mjs uses.
//
// Peers (from bench/node_modules; rows skipped when missing), timed in alternating
// rounds on the same pages, medians compared as focuscrawl ÷ peer:
// - English: natural's WordTokenizer on the lower-cased text, then the same stop-word
//   set as focuscrawl (DEFAULT_STOP_WORDS); the keepStopWords row has no stop-word filter.
//   natural keeps only A–Z, Cyrillic, digits and `_` in words: no NFKC (full-width
//   `Ｆｕｌｌ` is dropped, focuscrawl gives `full`), accented letters split words
//   (`café` → `caf`), numbers split at their separators (`1,250.5` → `1`, `250`, `5`),
//   and `company's` gives `company` + `s` (focuscrawl: `company`).
// - Chinese and mixed: @node-rs/jieba `cut` (dictionary, no HMM) on the lower-cased
//   text, keeping tokens with a letter or digit, then the same stop-word set. jieba
//   keeps dictionary compounds whole (配电网, 博物馆) where Intl.Segmenter splits them
//   (配|电|网), so the token boundaries differ: the output prints the two token counts
//   and the share of focuscrawl's tokens that the peer also produces.
import { pathToFileURL } from 'node:url';
import { countKeywords, DEFAULT_STOP_WORDS, tokenize } from '../dist/text/index.js';

const EN = [
  'The national power grid carried a record load during the heat wave, and operators asked large consumers to shift demand.',
  'Engineers at the substation replaced two transformers after the storm, restoring supply to forty thousand homes by Tuesday night.',
  'Analysts expect shipments of 27-inch monitors with 144 Hz refresh rates to grow by 12% this year, driven by gaming and hybrid work.',
  'A new high-voltage direct current line will link the wind farms in the north with the cities on the coast, cutting transmission losses.',
  "The company's quarterly report, published on 3 March 2024, showed revenue of $1,250.5 million and a margin of 8.4 percent.",
  'Residents complained about the noise from the construction site, but the council said the work would finish before the summer.',
  'She simmered the tomato sauce for an hour, added a teaspoon of sugar, and served it with fresh basil and grated cheese.',
  'Astronomers observed the supernova with the new telescope, measuring how fast the expanding shell of gas moved away from the star.',
  'Battery storage smooths the output of solar panels, so that the grid can absorb more renewable energy without blackouts.',
  'The museum reopened after renovation, with a new wing devoted to the history of electricity and the first power stations.',
];
const ZH = [
  '国家电网公司表示，今年夏季用电负荷持续攀升，多个省份的最高负荷创下历史新高，电网运行总体平稳。',
  '特高压输电线路将西部的风电和光伏发电送往东部负荷中心，有效缓解了用电紧张的局面。',
  '据奥维云网统计，今年第一季度国内显示器出货量同比增长百分之十二，其中电竞显示器增长最快。',
  '京东方等面板厂商加大了高刷新率面板的产能投入，二十七英寸液晶显示器的均价进一步下降。',
  '变电站的值班人员在暴雨过后连夜检修设备，确保了周边居民的正常供电。',
  '专家指出，储能设施能够平抑新能源发电的波动，是建设新型电力系统的重要环节。',
  '这家餐厅的招牌菜是红烧肉，厨师先把五花肉焯水，再加入冰糖和酱油慢慢炖煮。',
  '博物馆经过一年的修缮重新开放，新增的展厅介绍了我国电力工业的发展历程。',
  '配电网改造工程完成后，农村地区的电压质量明显提升，停电时间大幅缩短。',
  '业内分析师认为，随着办公需求的回暖，大尺寸曲面屏显示器的市场份额有望继续扩大。',
];

/** Deterministic text of about `bytes` UTF-8 bytes, sentences drawn by a small LCG. */
function sample(sentences, bytes, seed, sep) {
  let s = seed >>> 0;
  let out = '';
  while (Buffer.byteLength(out) < bytes) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out += sentences[s % sentences.length] + sep;
  }
  return out;
}
export const englishText = (bytes, seed = 1) => sample(EN, bytes, seed, ' ');
export const chineseText = (bytes, seed = 1) => sample(ZH, bytes, seed, '');

/** Scale from the command line: `--seconds=S` per side per row, in `--rounds=N` rounds. */
export function benchScale(argv = process.argv.slice(2)) {
  const arg = (name, fallback) => {
    const a = argv.find((x) => x.startsWith(`--${name}=`));
    const v = a === undefined ? fallback : Number(a.slice(name.length + 3));
    if (!(v > 0)) throw new Error(`--${name} must be a positive number`);
    return v;
  };
  return { seconds: arg('seconds', 2), rounds: Math.max(1, Math.round(arg('rounds', 10))) };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

/**
 * Times each of `fns` (indices 0..n-1 in, a number out) in rounds that alternate
 * between them (fns[0], fns[1], …, fns[0], fns[1], …), so drift of the machine hits all
 * alike. A round is whole passes over the n inputs for at least seconds/rounds s.
 * Returns the median rate of each in `unitsPerPass` per second.
 */
export function alternate(fns, n, unitsPerPass, { seconds, rounds }) {
  for (const fn of fns) for (let i = 0; i < Math.min(n, 20); i++) fn(i); // warm-up
  const roundMs = (seconds * 1000) / rounds;
  const rates = fns.map(() => []);
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    fns.forEach((fn, k) => {
      let passes = 0;
      let ms = 0;
      const t0 = performance.now();
      do {
        for (let i = 0; i < n; i++) sink += fn(i);
        passes++;
        ms = performance.now() - t0;
      } while (ms < roundMs);
      rates[k]?.push((passes * unitsPerPass) / (ms / 1000));
    });
  }
  if (Number.isNaN(sink)) console.log('!');
  return rates.map(median);
}

/** Formats focuscrawl ÷ peer for a higher-is-better rate. */
export const ratio = (ours, peer, name) => `focuscrawl ${(ours / peer).toFixed(2)}× ${name}`;

/** How many of `a`'s tokens `b` also has (multiset intersection). */
function shared(a, b) {
  const left = new Map();
  for (const t of b) left.set(t, (left.get(t) ?? 0) + 1);
  let n = 0;
  for (const t of a) {
    const c = left.get(t) ?? 0;
    if (c > 0) {
      n++;
      left.set(t, c - 1);
    }
  }
  return n;
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');

function row(name, bytesPerSec, pageBytes, note = '') {
  const mbs = (bytesPerSec / 1e6).toFixed(2).padStart(7);
  const pps = fmt(bytesPerSec / pageBytes).padStart(8);
  console.log(`${name.padEnd(46)} ${mbs} MB/s  ${pps} pages/s (10 KB)${note ? `  ${note}` : ''}`);
}

/**
 * One row: focuscrawl's `fn` on `pages`, and when given, the peer's `peer.fn` on the
 * same pages in alternating rounds, with the ratio and the token agreement.
 */
function measure(name, pages, fn, scale, peer) {
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0);
  const fns = [(i) => fn(pages[i]).length];
  if (peer) fns.push((i) => peer.fn(pages[i]).length);
  const [ours = 0, theirs = 0] = alternate(fns, pages.length, bytes, scale);
  row(name, ours, bytes / pages.length);
  if (!peer) return;
  row(`  peer ${peer.label}`, theirs, bytes / pages.length, ratio(ours, theirs, peer.name));
  let a = 0;
  let b = 0;
  let both = 0;
  for (const p of pages) {
    const x = fn(p);
    const y = peer.fn(p);
    a += x.length;
    b += y.length;
    both += shared(x, y);
  }
  const pct = ((100 * both) / a).toFixed(1);
  console.log(
    `    tokens: focuscrawl ${fmt(a)}, ${peer.name} ${fmt(b)}; ${pct}% of focuscrawl's ` +
      `tokens also among ${peer.name}'s`,
  );
}

const MISSING = '(cd bench && npm install)';
const WORD = /[\p{L}\p{N}]/u;
const keep = (t) => !DEFAULT_STOP_WORDS.has(t);

/** natural's WordTokenizer (its module alone: the package index loads storage clients). */
export async function loadNaturalTokenizer() {
  try {
    const { WordTokenizer } = await import('natural/lib/natural/tokenizers/regexp_tokenizer.js');
    return new WordTokenizer();
  } catch {
    console.log(`peer natural not installed: ${MISSING}`);
    return undefined;
  }
}

/** @node-rs/jieba with its default dictionary, loaded before any clock starts. */
export async function loadJieba() {
  try {
    const { Jieba } = await import('@node-rs/jieba');
    const { dict } = await import('@node-rs/jieba/dict.js');
    return Jieba.withDict(dict);
  } catch {
    console.log(`peer @node-rs/jieba not installed: ${MISSING}`);
    return undefined;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const scale = benchScale();
  const natural = await loadNaturalTokenizer();
  const jieba = await loadJieba();
  const en = Array.from({ length: 50 }, (_, i) => englishText(10_000, i + 1));
  const zh = Array.from({ length: 50 }, (_, i) => chineseText(10_000, i + 1));
  const mixed = zh.map((z, i) => z.slice(0, 5000) + (en[i] ?? '').slice(0, 5000));
  const keywords = ['power grid', 'substation', 'monitor', '电网', '显示器', '特高压'];
  const nat = natural && {
    name: 'natural',
    label: 'natural WordTokenizer + stop words',
    fn: (t) => natural.tokenize(t.toLowerCase()).filter(keep),
  };
  const natKeep = natural && {
    name: 'natural',
    label: 'natural WordTokenizer',
    fn: (t) => natural.tokenize(t.toLowerCase()),
  };
  const jb = jieba && {
    name: 'jieba',
    label: '@node-rs/jieba cut + stop words',
    fn: (t) => jieba.cut(t.toLowerCase()).filter((w) => WORD.test(w) && keep(w)),
  };
  const keepAll = { keepStopWords: true };
  measure('tokenize, English', en, (t) => tokenize(t), scale, nat);
  measure('tokenize, Chinese', zh, (t) => tokenize(t), scale, jb);
  measure('tokenize, half Chinese half English', mixed, (t) => tokenize(t), scale, jb);
  measure('tokenize, English, keepStopWords', en, (t) => tokenize(t, keepAll), scale, natKeep);
  const count = (t) => countKeywords(t, keywords);
  measure('countKeywords (6, compiled per call), en', en, count, scale);
  measure('countKeywords (6, compiled per call), zh', zh, count, scale);
  console.log(`node ${process.version}`);
}
