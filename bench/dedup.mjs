// Micro-benchmark: duplicate detection (src/dedup). SimHash fingerprints of real
// test-web page texts (the parser's visible text), in pages/s and MB/s of UTF-8; then
// lookups and inserts in a near-duplicate index and a detector holding 1,000,000
// fingerprints, with the memory they take.
// Build first, then run:   npm run build --silent && node bench/dedup.mjs
// Small scale (a check):    node bench/dedup.mjs --index 50000 --seconds 0.3 --pages 300
// Options: --rounds R (timed rounds of each fingerprint row, default 5; figures are medians)
//
// Peer of the fingerprint rows: simhash-js 1 (bench/node_modules; `cd bench && npm install`),
// a SimHash of npm, called as `new SimHash().hash(text)` with its defaults. A row's pages are
// dealt into R interleaved parts; round r runs focuscrawl, then simhash-js, over part r in
// passes until seconds / R have gone by: both fingerprint every page of the row, and drift of
// the machine hits both. The ratio is focuscrawl ÷ simhash-js of the median pages/s.
// simhash-js does much less than createFingerprinter() (whose way is in parentheses). Its
// fingerprint has 32 bits (64); its features are the text cut into consecutive,
// non-overlapping chunks of 4 UTF-16 code units in every script, Chinese included
// (overlapping shingles of 3 words or of 5 CJK characters); no NFKC, no lower-casing, no
// word tokens, no wildcard for ids; a repeated chunk counts each time (a distinct shingle
// counts once); every line counts (short lines: menus, bylines, footers, are left out when
// the long ones suffice); no hash of the token sequence; no least length (under 24
// features: no fingerprint). Each chunk's Jenkins lookup3 hash becomes a hex string, sorted
// as a string and parsed back once per bit; all chunks but the 128 whose strings sort first
// are kept (its `splice(maxFeatures)`; it documents keeping those 128). An insertion or
// deletion shifts every later chunk, so its fingerprint stays close only under edits that
// keep the length.
// The check after the fingerprint rows prints both fingerprinters' Hamming distances for
// near-duplicate pairs (the test web's print views beside their pages; pages with 3 words
// replaced) and unrelated pairs (two pages of one site; of two sites), and on how many pairs
// their near / not-near verdicts agree. The index and detector rows have no peer:
// simhash-js has no index, no search by distance and no detector (its Comparator compares
// two fingerprints given as hex strings, while hash() returns a number).
import { parseArgs } from 'node:util';
import {
  createFingerprinter,
  DuplicateDetector,
  hammingDistance,
  NearDuplicateIndex,
  simhashHex,
} from '../dist/dedup/index.js';
import { analyzeBody } from '../dist/parse/index.js';
import { duplicateVariants, listPageUrls, pageHtml } from '../dist/testweb/index.js';

const { values } = parseArgs({
  options: {
    index: { type: 'string', default: '1000000' }, // fingerprints in the index
    seconds: { type: 'string', default: '2' }, // per measurement
    size: { type: 'string', default: 'small' }, // test web whose pages are fingerprinted
    pages: { type: 'string', default: '2000' }, // at most this many of its pages
    rounds: { type: 'string', default: '5' }, // timed rounds of each fingerprint row
  },
});
const INDEX = Number(values.index);
const SECONDS = Number(values.seconds);
const ROUNDS = Math.max(1, Number(values.rounds));
const fmt = (n, d = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mb = (bytes) => `${fmt(bytes / 2 ** 20, 1)} MiB`;

/** One result line: name, items/s, µs each and (when given) MB/s. */
function line(name, per, mbps) {
  const rate = mbps === undefined ? '' : `  ${fmt(mbps, 1).padStart(6)} MB/s`;
  const each = `${fmt(1e6 / per, 1).padStart(7)} µs`;
  console.log(
    `${name.padEnd(52)} ${fmt(per).padStart(10)} /s  ${each}${rate}${sink < 0 ? '!' : ''}`,
  );
}
let sink = 0; // results counted, so that no call is optimised away

/** Runs `fn` over `items` for SECONDS; prints items/s, µs each and (with bytes) MB/s. */
function measure(name, items, fn, bytes) {
  for (let r = 0; r < 3; r++) for (const x of items.slice(0, 1000)) fn(x); // warm-up (JIT)
  let rounds = 0;
  const t0 = performance.now();
  do {
    for (const x of items) sink += fn(x) === null ? 0 : 1;
    rounds++;
  } while (performance.now() - t0 < SECONDS * 1000);
  const s = (performance.now() - t0) / 1000;
  line(
    name,
    (items.length * rounds) / s,
    bytes === undefined ? undefined : (bytes * rounds) / 1e6 / s,
  );
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m] : (a[m - 1] + a[m]) / 2;
};

/**
 * Fingerprint rows: the texts are dealt into ROUNDS interleaved parts; in round r each of
 * `fns` (focuscrawl first, then the peer) runs over part r in passes until SECONDS / ROUNDS
 * have gone by (at least one pass). Prints each one's median pages/s and MB/s over the
 * rounds, and the ratio of the first to each other.
 */
function compare(name, texts, fns) {
  const parts = Array.from({ length: ROUNDS }, (_, r) =>
    texts.filter((_, i) => i % ROUNDS === r),
  ).filter((p) => p.length > 0);
  const budget = (SECONDS * 1000) / ROUNDS;
  for (const { fn } of fns) {
    // Warm-up (JIT): 3 passes over up to 1,000 texts, or 1 s if that comes first.
    const t0 = performance.now();
    warm: for (let r = 0; r < 3; r++)
      for (const t of texts.slice(0, 1000)) {
        fn(t);
        if (performance.now() - t0 > 1000) break warm;
      }
  }
  const pages = fns.map(() => []);
  const mbps = fns.map(() => []);
  for (const part of parts) {
    const bytes = bytesOf(part);
    for (const [k, { fn }] of fns.entries()) {
      let passes = 0;
      const t0 = performance.now();
      do {
        for (const t of part) sink += fn(t) === null ? 0 : 1;
        passes++;
      } while (performance.now() - t0 < budget);
      const s = (performance.now() - t0) / 1000;
      pages[k].push((part.length * passes) / s);
      mbps[k].push((bytes * passes) / 1e6 / s);
    }
  }
  const med = fns.map((_, k) => ({ pages: median(pages[k]), mbps: median(mbps[k]) }));
  line(name, med[0].pages, med[0].mbps);
  for (let k = 1; k < fns.length; k++) {
    line(`  ${fns[k].name}, same pages`, med[k].pages, med[k].mbps);
    const ratio = `${fmt(med[0].pages / med[k].pages, 1)}×`;
    const label = `  focuscrawl ÷ ${fns[k].name}`.padEnd(52);
    console.log(`${label} ${ratio.padStart(10)}    (pages/s, medians of ${parts.length} rounds)`);
  }
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
const textOf = (url) =>
  analyzeBody(Buffer.from(pageHtml(web, url)), 'text/html; charset=utf-8', url).page.text;
const urls = listPageUrls(web, Number(values.pages));
const texts = urls.map(textOf);
const CJK = /[\u3400-\u9fff]/;
const langOf = (t) => (CJK.test(t) ? 'Chinese' : 'English');
const byLang = {
  English: texts.filter((t) => langOf(t) === 'English'),
  Chinese: texts.filter((t) => langOf(t) === 'Chinese'),
};
const bytesOf = (xs) => xs.reduce((n, t) => n + Buffer.byteLength(t), 0);
console.log(
  `test web ${values.size}: ${texts.length} content pages, ${fmt(bytesOf(texts) / texts.length / 1024, 1)} KB of text each on average`,
);
const fingerprint = createFingerprinter();
let peer = null; // simhash-js's SimHash, when installed
try {
  peer = new (await import('simhash-js')).default.SimHash();
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  console.log('peer simhash-js not installed: (cd bench && npm install)');
}
const fingerprinters = [{ name: 'focuscrawl', fn: (t) => fingerprint(t).simhash }];
if (peer !== null) fingerprinters.push({ name: 'simhash-js', fn: (t) => peer.hash(t) });
for (const [lang, xs] of Object.entries(byLang)) {
  if (xs.length > 0) compare(`fingerprint, ${lang} pages (${xs.length})`, xs, fingerprinters);
}
nearDuplicateCheck();

/** `text` with `n` words replaced by other words of it (Chinese: 2 characters by 2 others). */
function replaceWords(text, n, r) {
  const zh = CJK.test(text);
  const parts = zh ? [...text] : text.split(/(\s+)/);
  const at = [];
  for (let i = 0; i < parts.length; i++) {
    if (zh ? CJK.test(parts[i]) && CJK.test(parts[i + 1] ?? '') : /^\p{L}+$/u.test(parts[i])) {
      at.push(i);
    }
  }
  const span = zh ? 2 : 1;
  for (let k = 0; k < n; k++) {
    const i = at[r() % at.length];
    let j = at[r() % at.length];
    for (let tries = 0; tries < 20 && parts[j] === parts[i]; tries++) j = at[r() % at.length];
    for (let d = 0; d < span; d++) parts[i + d] = parts[j + d];
  }
  return parts.join('');
}

/**
 * Do the fingerprints mean something on these texts? Hamming distances of near-duplicate
 * pairs (each print view of the test web beside its page; pages with 3 words replaced)
 * and of unrelated pairs (a page and the next of its site; a page and one of another
 * site), up to 25 of each kind per language; then the cut (near when d ≤ t) that sorts
 * the most pairs right for each fingerprinter, and how often their verdicts agree.
 */
function nearDuplicateCheck() {
  const PAIRS = 25;
  const r = rng(7);
  const hostOf = (url) => new URL(url).hostname;
  const pages = urls.map((url, i) => ({ url, host: hostOf(url), text: texts[i] }));
  const prints = duplicateVariants(web).filter((v) =>
    new URL(v.url).pathname.startsWith('/print/'),
  );
  const kinds = [];
  for (const lang of Object.keys(byLang)) {
    const own = pages.filter((p) => langOf(p.text) === lang);
    if (own.length < 2) continue;
    const chosen = Array.from(
      { length: Math.min(PAIRS, own.length) },
      (_, i) => own[Math.floor((i * own.length) / Math.min(PAIRS, own.length))],
    );
    const printPairs = [];
    for (const v of prints) {
      if (printPairs.length === PAIRS) break;
      const of = textOf(v.of);
      if (langOf(of) === lang) printPairs.push([textOf(v.url), of]);
    }
    const nextOfSite = (p) => {
      const i = pages.indexOf(p);
      for (let k = 1; k < pages.length; k++) {
        const q = pages[(i + k) % pages.length];
        if (q.host === p.host) return q;
      }
      return p;
    };
    const otherSite = (p) => {
      for (let tries = 0; tries < 100; tries++) {
        const q = own[r() % own.length];
        if (q.host !== p.host) return q;
      }
      return p;
    };
    const pairsOf = (f) => chosen.map((p) => [p.text, f(p)]).filter(([x, y]) => x !== y);
    const kind = (near, what, pairs) => kinds.push({ lang, near, what, pairs });
    kind(true, 'print view beside its page', printPairs);
    kind(
      true,
      '3 words replaced',
      pairsOf((p) => replaceWords(p.text, 3, r)),
    );
    kind(
      false,
      'the next page of its site',
      pairsOf((p) => nextOfSite(p).text),
    );
    kind(
      false,
      'a page of another site',
      pairsOf((p) => otherSite(p).text),
    );
  }
  const dists = [
    {
      name: 'focuscrawl',
      bits: 64,
      d: (a, b) => {
        const x = fingerprint(a).simhash;
        const y = fingerprint(b).simhash;
        return x === null || y === null ? null : hammingDistance(x, y);
      },
    },
  ];
  if (peer !== null) {
    const as64 = (x) => ({ hi: 0, lo: x });
    dists.push({
      name: 'simhash-js',
      bits: 32,
      d: (a, b) => hammingDistance(as64(peer.hash(a)), as64(peer.hash(b))),
    });
  }
  const cols = dists.map((f) => `${f.name} /${f.bits}`.padStart(16)).join('');
  console.log(`${'near-duplicate check: Hamming distance, min / median / max'.padEnd(60)}${cols}`);
  const all = []; // per pair: near or not, and each fingerprinter's distance
  for (const k of kinds) {
    const ds = k.pairs
      .map(([a, b]) => dists.map((f) => f.d(a, b)))
      .filter((x) => !x.includes(null));
    for (const x of ds) all.push({ near: k.near, d: x });
    const cells = dists.map((_, f) => {
      const xs = ds.map((x) => x[f]);
      const m = median(xs);
      return xs.length === 0 ? '' : `${Math.min(...xs)} / ${m} / ${Math.max(...xs)}`;
    });
    const label = `  ${k.lang}, ${k.what} (${k.near ? 'near' : 'unrelated'}, ${ds.length})`;
    console.log(`${label.padEnd(60)}${cells.map((c) => c.padStart(16)).join('')}`);
  }
  const near = all.filter((p) => p.near).length;
  const cuts = dists.map((f, k) => {
    let best = { t: 0, right: -1 };
    for (let t = 0; t <= f.bits; t++) {
      const right = all.filter((p) => p.d[k] <= t === p.near).length;
      if (right > best.right) best = { t, right };
    }
    console.log(
      `  ${f.name}: near when d ≤ ${best.t} sorts ${best.right} of ${all.length} pairs right`,
    );
    return best.t;
  });
  const k3 = new DuplicateDetector().options.maxDistance;
  const found = all.filter((p) => p.near && p.d[0] <= k3).length;
  const flagged = all.filter((p) => !p.near && p.d[0] <= k3).length;
  console.log(
    `  focuscrawl at the detector's d ≤ ${k3}: ${found} of ${near} near pairs found,` +
      ` ${flagged} of ${all.length - near} unrelated flagged`,
  );
  if (dists.length > 1) {
    const agree = all.filter((p) => p.d[0] <= cuts[0] === p.d[1] <= cuts[1]).length;
    const pct = fmt((100 * agree) / all.length);
    console.log(
      `  verdicts (each at its best cut) agree on ${agree} of ${all.length} pairs (${pct}%)`,
    );
  }
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
