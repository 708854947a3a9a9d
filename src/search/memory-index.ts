/**
 * A full-text index held in memory, for the memory store: the same contract as the
 * SQLite store's FTS5 table (every term must occur; BM25 with FTS5's constants and
 * column weights; the matches marked for snippets) without stemming. Each search scans every document, which suits the
 * memory store's small crawls.
 */
import { MARK_END, MARK_START } from './marks.js';
import { segmentForIndex } from './segment.js';

/** FTS5's BM25 constants. */
const K1 = 1.2;
const B = 0.75;
/** Weight of a match in the title against one in the text (as the SQLite store's bm25()). */
export const TITLE_WEIGHT = 2;

const TOKEN_RE = /[\p{L}\p{N}\p{M}]+/gu;

interface Doc {
  id: number;
  title: string[];
  text: string[];
  /** The segmented text and where each of its tokens starts and ends, for snippets. */
  source: string;
  starts: Int32Array;
  ends: Int32Array;
}

function tokensOf(s: string): { tokens: string[]; starts: number[]; ends: number[] } {
  const tokens: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of s.matchAll(TOKEN_RE)) {
    tokens.push(m[0].toLowerCase());
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  return { tokens, starts, ends };
}

/** The index tokens of a query term (a term the index cuts further is a phrase). */
function phraseOf(term: string): string[] {
  return tokensOf(segmentForIndex(term)).tokens;
}

/** Positions where `phrase` starts in `tokens`. */
function positions(tokens: readonly string[], phrase: readonly string[]): number[] {
  const out: number[] = [];
  const first = phrase[0];
  if (first === undefined) return out;
  outer: for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (tokens[i] !== first) continue;
    for (let j = 1; j < phrase.length; j++) if (tokens[i + j] !== phrase[j]) continue outer;
    out.push(i);
  }
  return out;
}

export interface MemoryHit {
  id: number;
  /** BM25, higher is better. */
  bm25: number;
}

export class MemoryTextIndex {
  readonly #docs: Doc[] = [];
  readonly #byId = new Map<number, Doc>();

  get size(): number {
    return this.#docs.length;
  }

  /** Adds a document: `title` and `text` already segmented (`segmentForIndex`). */
  add(id: number, title: string, text: string): void {
    const t = tokensOf(text);
    const doc: Doc = {
      id,
      title: tokensOf(title).tokens,
      text: t.tokens,
      source: text,
      starts: Int32Array.from(t.starts),
      ends: Int32Array.from(t.ends),
    };
    this.#docs.push(doc);
    this.#byId.set(id, doc);
  }

  /** Every document containing all `terms`, BM25 best first (ties by id). */
  search(terms: readonly string[]): MemoryHit[] {
    const phrases = phrasesOf(terms);
    if (phrases.length === 0) return [];
    const n = this.#docs.length;
    let totalTokens = 0;
    for (const d of this.#docs) totalTokens += d.title.length + d.text.length;
    const avg = n > 0 ? totalTokens / n : 0;
    // Per document and phrase: occurrences in the title and in the text.
    const found = this.#docs.map((d) =>
      phrases.map((p) => [positions(d.title, p).length, positions(d.text, p).length] as const),
    );
    const docFreq = phrases.map((_, i) =>
      found.reduce((k, f) => k + ((f[i]?.[0] ?? 0) + (f[i]?.[1] ?? 0) > 0 ? 1 : 0), 0),
    );
    const idf = docFreq.map((df) => Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5))));
    const hits: MemoryHit[] = [];
    for (let k = 0; k < n; k++) {
      const d = this.#docs[k] as Doc;
      const f = found[k] ?? [];
      if (!f.every(([title, text]) => title + text > 0)) continue;
      const len = d.title.length + d.text.length;
      let score = 0;
      f.forEach(([title, text], i) => {
        const tf = TITLE_WEIGHT * title + text;
        score += ((idf[i] ?? 0) * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * len) / avg));
      });
      hits.push({ id: d.id, bm25: score });
    }
    return hits.sort((a, b) => b.bm25 - a.bm25 || a.id - b.id);
  }

  /** The document's text with every occurrence of the terms between the marks. */
  highlight(id: number, terms: readonly string[]): string {
    const d = this.#byId.get(id);
    if (d === undefined) return '';
    const spans: [number, number][] = [];
    for (const p of phrasesOf(terms)) {
      for (const at of positions(d.text, p)) spans.push([at, at + p.length - 1]);
    }
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    let out = '';
    let copied = 0;
    let last = -1;
    for (const [a, b] of spans) {
      if (a <= last) continue; // overlaps a span already marked
      const s = d.starts[a] ?? 0;
      const e = d.ends[b] ?? s;
      out += `${d.source.slice(copied, s)}${MARK_START}${d.source.slice(s, e)}${MARK_END}`;
      copied = e;
      last = b;
    }
    return out + d.source.slice(copied);
  }
}

function phrasesOf(terms: readonly string[]): string[][] {
  return terms.map(phraseOf).filter((p) => p.length > 0);
}
