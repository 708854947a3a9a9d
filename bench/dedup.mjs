// Micro-benchmark: duplicate detection (src/dedup). SimHash fingerprints of real
// test-web page texts (the parser's visible text), in pages/s and MB/s of UTF-8; then
// lookups and inserts in a near-duplicate index and a detector holding 1,000,000
// fingerprints, with the memory they take.
// Build first, then run:   npm run build --silent && node bench/dedup.mjs
// Small scale (a check):    node bench/dedup.mjs --index 50000 --seconds 0.3
import { parseArgs } from 'node:util';
import {
  createFingerprinter,
  DuplicateDetector,
  NearDuplicateIndex,
  simhashHex,
} from '../dist/dedup/index.js';
import { analyzeBody } from '../dist/parse/index.js';
import { listPageUrls, pageHtml } from '../dist/testweb/index.js';

const { values } = parseArgs({
  options: {
    index: { type: 'string', default: '1000000' }, // fingerprints in the index
    seconds: { type: 'string', default: '2' }, // per measurement
    size: { type: 'string', default: 'small' }, // test web whose pages are fingerprinted
    pages: { type: 'string', default: '2000' }, // at most this many of its pages
  },
});
const INDEX = Number(values.index);
const SECONDS = Number(values.seconds);
const fmt = (n, d = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mb = (bytes) => `${fmt(bytes / 2 ** 20, 1)} MiB`;

/** Runs `fn` over `items` for SECONDS; prints items/s, µs each and (with bytes) MB/s. */
function measure(name, items, fn, bytes) {
  for (let r = 0; r < 3; r++) for (const x of items.slice(0, 1000)) fn(x); // warm-up (JIT)
  let rounds = 0;
  let sink = 0;
  const t0 = performance.now();
  do {
    for (const x of items) sink += fn(x) === null ? 0 : 1;
    rounds++;
  } while (performance.now() - t0 < SECONDS * 1000);
  const s = (performance.now() - t0) / 1000;
  const per = (items.length * rounds) / s;
  const rate =
    bytes === undefined ? '' : `  ${fmt((bytes * rounds) / 1e6 / s, 1).padStart(6)} MB/s`;
  console.log(
    `${name.padEnd(52)} ${fmt(per).padStart(10)} /s  ${fmt(1e6 / per, 1).padStart(7)} µs${rate}${sink < 0 ? '!' : ''}`,
  );
}

/** Deterministic uint32s (an LCG finished with murmur3's fmix32). */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    let h = Math.imul(s ^ (s >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
}

/** `fp` with `n` random bits flipped (possibly the same bit twice: distance ≤ n). */
function flip(fp, n, r) {
  let { hi, lo } = fp;
  for (let i = 0; i < n; i++) {
    const b = r() & 63;
    if (b < 32) lo ^= 1 << b;
    else hi ^= 1 << (b - 32);
  }
  return { hi: hi >>> 0, lo: lo >>> 0 };
}

// 1. Fingerprinting real page texts.
const web = { seed: 1, size: values.size };
const texts = listPageUrls(web, Number(values.pages)).map((url) => {
  const html = pageHtml(web, url);
  return analyzeBody(Buffer.from(html), 'text/html; charset=utf-8', url).page.text;
});
const byLang = {
  English: texts.filter((t) => !/[\u3400-\u9fff]/.test(t)),
  Chinese: texts.filter((t) => /[\u3400-\u9fff]/.test(t)),
};
const bytesOf = (xs) => xs.reduce((n, t) => n + Buffer.byteLength(t), 0);
console.log(
  `test web ${values.size}: ${texts.length} content pages, ${fmt(bytesOf(texts) / texts.length / 1024, 1)} KB of text each on average`,
);
const fingerprint = createFingerprinter();
for (const [lang, xs] of Object.entries(byLang)) {
  measure(
    `fingerprint, ${lang} pages (${xs.length})`,
    xs,
    (t) => fingerprint(t).simhash,
    bytesOf(xs),
  );
}
{
  const d = new DuplicateDetector();
  for (const [id, text] of texts.entries()) {
    const r = d.check({ text });
    if (r.duplicate === null) d.add(id, r.simhash, r.contentHash);
  }
  measure(
    'detector.check, all pages (each a duplicate)',
    texts,
    (text) => d.check({ text }).duplicate,
    bytesOf(texts),
  );
}

// 2. An index of INDEX fingerprints.
const memBefore = process.memoryUsage();
const r = rng(42);
const stored = new Array(INDEX);
for (let i = 0; i < INDEX; i++) stored[i] = { hi: r(), lo: r() };
const index = new NearDuplicateIndex(3);
let t0 = performance.now();
for (let i = 0; i < INDEX; i++) index.add(i, stored[i]);
let s = (performance.now() - t0) / 1000;
console.log(
  `${`NearDuplicateIndex.add, up to ${fmt(INDEX)}`.padEnd(52)} ${fmt(INDEX / s).padStart(10)} /s  ${fmt((s * 1e6) / INDEX, 2).padStart(7)} µs`,
);
const misses = Array.from({ length: 20_000 }, () => ({ hi: r(), lo: r() }));
const hits = Array.from({ length: 20_000 }, () => flip(stored[r() % INDEX], 1 + (r() % 3), r));
measure(`NearDuplicateIndex.find, ${fmt(INDEX)} held, no match`, misses, (fp) => index.find(fp));
measure(`NearDuplicateIndex.find, ${fmt(INDEX)} held, a match ≤ 3`, hits, (fp) => index.find(fp));
const memIndex = process.memoryUsage();
console.log(
  `index arrays: ${mb(index.byteLength)} (${fmt(index.byteLength / INDEX, 1)} B per fingerprint); heap + array buffers grew ${mb(memIndex.heapUsed + memIndex.arrayBuffers - memBefore.heapUsed - memBefore.arrayBuffers)} (the test fingerprints included)`,
);

// 3. A detector holding INDEX pages (SimHash + content key), as rebuilt on resume.
stored.length = 0;
const rows = (function* () {
  for (let id = 0; id < INDEX; id++) {
    const fp = { hi: r(), lo: r() };
    yield { id, simhash: simhashHex(fp), contentHash: simhashHex({ hi: r(), lo: r() }) };
  }
})();
t0 = performance.now();
const big = DuplicateDetector.fromRows(rows);
s = (performance.now() - t0) / 1000;
console.log(
  `${`DuplicateDetector.fromRows, ${fmt(INDEX)} rows`.padEnd(52)} ${fmt(INDEX / s).padStart(10)} /s  ${fmt((s * 1e6) / INDEX, 2).padStart(7)} µs  (${fmt(s, 2)} s)`,
);
let nextId = INDEX;
measure(
  `detector.check + add, ${fmt(INDEX)} held, test-web pages`,
  texts,
  (text) => {
    const c = big.check({ text });
    if (c.duplicate === null) big.add(nextId++, c.simhash, c.contentHash);
    return c.duplicate;
  },
  bytesOf(texts),
);
console.log(
  `detector arrays: ${mb(big.byteLength)} for ${fmt(big.size)} pages; peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`,
);
console.log(`node ${process.version}`);
