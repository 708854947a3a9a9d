// The peer of bench/search.mjs: MiniSearch 7, the in-memory full-text index, in a process
// of its own (so that its heap and peak RSS are its own), driven by bench/search.mjs over
// IPC one request at a time, never while bench/search.mjs times its own store. Only the
// calls into MiniSearch are timed here; messages in and out are not.
//
// Settings: its default tokenizer (words split at spaces and punctuation) and term
// processing (lower case, no stemming, no stop words), except that a run of Chinese or
// Japanese characters inside a word becomes its overlapping bigrams (a lone character
// stays whole: 国家电网 → 国家 家电 电网), since the default would keep a whole clause
// as one term and no Chinese query could match. All the words of a query must occur
// (combineWith 'AND', as in focuscrawl; its default is 'OR'), and a match in the title
// counts twice (boost 2, as focuscrawl's bm25() weights). Ranking: BM25+ with its
// default constants. Hits carry the URL (the id) and the stored title; no snippet.
//
// Requests: { op: 'add', items: [{ url, title, text }] } → { ms };
// { op: 'search', query, limit } → { ms, urls } (the first `limit` hits);
// { op: 'matches', query } → { urls } (every match, untimed);
// { op: 'memory' } → { heap, maxRss } (bytes: heap used by the index after a full GC,
// the process's peak RSS).
import MiniSearch from 'minisearch';

const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30fc\\u3005';
const HAS_UNSPACED = new RegExp(`[${UNSPACED}]`, 'u');
const RUNS = new RegExp(`[${UNSPACED}]+|[^${UNSPACED}]+`, 'gu');
const words = MiniSearch.getDefault('tokenize');

/** MiniSearch's default words, each run of Chinese or Japanese in one cut into bigrams. */
function tokenize(text) {
  const out = [];
  for (const word of words(text)) {
    if (!HAS_UNSPACED.test(word)) {
      out.push(word);
      continue;
    }
    for (const [run] of word.matchAll(RUNS)) {
      const chars = [...run];
      if (chars.length === 1 || !HAS_UNSPACED.test(run)) out.push(run);
      else for (let k = 0; k + 1 < chars.length; k++) out.push(chars[k] + chars[k + 1]);
    }
  }
  return out;
}

const gc = () => globalThis.gc?.();
gc();
const heapBefore = process.memoryUsage().heapUsed;

const index = new MiniSearch({
  idField: 'url',
  fields: ['title', 'text'],
  storeFields: ['title'],
  tokenize,
  searchOptions: { combineWith: 'AND', boost: { title: 2 } },
});

function handle(m) {
  switch (m.op) {
    case 'add': {
      const t0 = performance.now();
      index.addAll(m.items);
      return { ms: performance.now() - t0 };
    }
    case 'search': {
      const t0 = performance.now();
      const hits = index.search(m.query).slice(0, m.limit);
      const ms = performance.now() - t0;
      return { ms, urls: hits.map((h) => h.id) };
    }
    case 'matches':
      return { urls: index.search(m.query).map((h) => h.id) };
    case 'memory':
      gc();
      return {
        heap: process.memoryUsage().heapUsed - heapBefore,
        maxRss: process.resourceUsage().maxRSS * 1024,
      };
    default:
      throw new Error(`unknown request ${m.op}`);
  }
}

process.on('message', (m) => process.send(handle(m)));
process.on('disconnect', () => process.exit(0));
