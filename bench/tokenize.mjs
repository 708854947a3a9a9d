// Micro-benchmark: tokeniser throughput on English and Chinese text, in MB/s of UTF-8.
// Build first, then run:   npx tsc -p tsconfig.build.json && node bench/tokenize.mjs
// Also exports the deterministic sample texts that bench/vsm.mjs uses.
import { pathToFileURL } from 'node:url';
import { countKeywords, tokenize } from '../dist/text/index.js';

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

function measure(name, pages, fn) {
  const bytes = pages.reduce((n, p) => n + Buffer.byteLength(p), 0);
  for (const p of pages.slice(0, 20)) fn(p); // warm-up
  let rounds = 0;
  let sink = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 2000) {
    for (const p of pages) sink += fn(p).length;
    rounds++;
  }
  const s = (performance.now() - t0) / 1000;
  const mbs = (bytes * rounds) / 1e6 / s;
  const pps = (pages.length * rounds) / s;
  console.log(
    `${name.padEnd(40)} ${mbs.toFixed(2).padStart(7)} MB/s  ${Math.round(pps).toLocaleString('en-US').padStart(8)} pages/s (10 KB)${sink < 0 ? '!' : ''}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const en = Array.from({ length: 50 }, (_, i) => englishText(10_000, i + 1));
  const zh = Array.from({ length: 50 }, (_, i) => chineseText(10_000, i + 1));
  const mixed = zh.map((z, i) => z.slice(0, 5000) + (en[i] ?? '').slice(0, 5000));
  const keywords = ['power grid', 'substation', 'monitor', '电网', '显示器', '特高压'];
  measure('tokenize, English', en, (t) => tokenize(t));
  measure('tokenize, Chinese', zh, (t) => tokenize(t));
  measure('tokenize, half Chinese half English', mixed, (t) => tokenize(t));
  measure('tokenize, English, keepStopWords', en, (t) => tokenize(t, { keepStopWords: true }));
  measure('countKeywords (6, compiled per call), en', en, (t) => countKeywords(t, keywords));
  measure('countKeywords (6, compiled per call), zh', zh, (t) => countKeywords(t, keywords));
  console.log(`node ${process.version}`);
}
