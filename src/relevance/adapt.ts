/**
 * Topic-vector adaptation (DESIGN 1.5): the topic vector is re-estimated, at intervals,
 * from the relevant pages fetched so far, with its drift from the original limited.
 *
 * A {@link TermCollector} gathers term statistics of the pages the crawl keeps (and,
 * optionally, in a second collector, of pages it discards: the background). Its memory
 * is bounded: beyond `maxTerms` distinct terms, the rarest are pruned.
 *
 * {@link adaptTopic} is pure. With D pages collected and n_k of them containing term k,
 * the estimate of term k is e_k = (n_k / D) · cw_k (cw_k the class weight of tfidf.ts
 * against the background; 1 without one). The candidate terms are the current keywords
 * and at most `maxNewTerms` new terms, those with the largest e_k among the terms found
 * in at least `minShare` of the pages. With c and e the current and estimated vectors
 * scaled to unit length, the new vector is (1 − rate)·c + rate·e. Its drift is
 * 1 − cos(original, new); when that exceeds `maxDrift`, the vector moves from c towards
 * the new one only as far as the limit allows (`limited`). Finally weights are scaled
 * so that the heaviest is 1, and keywords lighter than `minWeight` are dropped (unless
 * dropping them would break the drift limit).
 */
import { createKeywordCounter, createTokenizer } from '../text/index.js';
import { ADAPT_DEFAULTS } from './adapt-defaults.js';
import type { TopicChange } from './history.js';
import { classWeight, TERM_TOKENIZE_OPTIONS } from './tfidf.js';
import type { TopicKeyword } from './topic.js';

/** Term statistics of collected pages: plain data, storable as JSON. */
export interface CollectedTerms {
  /** Pages added. */
  documents: number;
  /** Per term: [pages containing it, occurrences]. */
  terms: Record<string, [documents: number, occurrences: number]>;
}

export interface TermCollectorOptions {
  /** Distinct terms kept; beyond it the rarest fifth is pruned. @default 20000 */
  maxTerms?: number;
  /**
   * Characters of each text tokenised (the segmenter is the cost: about 0.4 µs per
   * character of Chinese, so a whole 5,000-character page costs about 2 ms). @default 2000
   */
  maxChars?: number;
  /** Use only every n-th text given to `add` (1: all). @default 1 */
  sampleEvery?: number;
  /**
   * Keywords counted as the models count them (phrases, CJK compounds the segmenter
   * splits): pass the topic's keywords so that their statistics are right.
   * @default []
   */
  keywords?: readonly string[];
}

export interface TermCollector {
  /** Adds one page's text (subject to `sampleEvery` and `maxChars`). */
  add(text: string): void;
  /** Pages collected. */
  readonly documents: number;
  /** Distinct terms held. */
  readonly size: number;
  /** A copy of the statistics. */
  snapshot(): CollectedTerms;
  /**
   * Adds statistics collected elsewhere (another process's pages), as if their pages
   * had been added here; the rarest terms are pruned as `add` prunes them.
   */
  merge(other: CollectedTerms): void;
}

export const DEFAULT_MAX_TERMS = 20_000;

/** A bounded collector of term statistics, optionally resumed from a snapshot. */
export function createTermCollector(
  options: TermCollectorOptions = {},
  from?: CollectedTerms,
): TermCollector {
  const maxTerms = Math.max(1, options.maxTerms ?? DEFAULT_MAX_TERMS);
  const maxChars = options.maxChars ?? 2000;
  const every = Math.max(1, Math.floor(options.sampleEvery ?? 1));
  const keywords = [...(options.keywords ?? [])];
  const count = keywords.length > 0 ? createKeywordCounter(keywords) : undefined;
  const keywordSet = new Set(keywords);
  const tokenize = createTokenizer(TERM_TOKENIZE_OPTIONS);
  const terms = new Map<string, [number, number]>();
  let documents = from?.documents ?? 0;
  for (const [t, v] of Object.entries(from?.terms ?? {})) terms.set(t, [v[0], v[1]]);
  let calls = 0;
  const prune = () => {
    const keep = Math.floor(maxTerms * 0.8);
    const sorted = [...terms].sort(([, a], [, b]) => a[0] - b[0] || a[1] - b[1]);
    for (const [t] of sorted.slice(0, terms.size - keep)) terms.delete(t);
  };
  const bump = (term: string, n: number) => {
    const s = terms.get(term);
    if (s === undefined) terms.set(term, [1, n]);
    else {
      s[0]++;
      s[1] += n;
    }
  };
  return {
    add(text: string) {
      if (calls++ % every !== 0) return;
      const part = text.length > maxChars ? text.slice(0, maxChars) : text;
      documents++;
      const tf = new Map<string, number>();
      for (const t of tokenize(part)) if (!keywordSet.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      if (count) {
        const counts = count(part);
        keywords.forEach((k, i) => {
          const n = counts[i] ?? 0;
          if (n > 0) tf.set(k, n);
        });
      }
      for (const [t, n] of tf) bump(t, n);
      if (terms.size > maxTerms) prune();
    },
    get documents() {
      return documents;
    },
    get size() {
      return terms.size;
    },
    snapshot() {
      const out: CollectedTerms['terms'] = {};
      for (const [t, v] of terms) out[t] = [v[0], v[1]];
      return { documents, terms: out };
    },
    merge(other: CollectedTerms) {
      documents += other.documents;
      for (const [t, [d, n]] of Object.entries(other.terms)) {
        const s = terms.get(t);
        if (s === undefined) terms.set(t, [d, n]);
        else {
          s[0] += d;
          s[1] += n;
        }
      }
      if (terms.size > maxTerms) prune();
    },
  };
}

export interface AdaptOptions {
  /** When (ms since the epoch), for the change record. */
  at: number;
  /** Fetch outcomes stored so far, for the change record. */
  fetched: number;
  /** Share of the re-estimated vector mixed in. @default 0.3 */
  rate?: number;
  /** Largest 1 − cos(original, new) allowed. @default 0.2 */
  maxDrift?: number;
  /** New terms added at most per adaptation. @default 5 */
  maxNewTerms?: number;
  /** Share of the collected pages a new term must occur in. @default 0.2 */
  minShare?: number;
  /** Keywords lighter than this (the heaviest being 1) are dropped. @default 0.02 */
  minWeight?: number;
  /** Statistics of pages judged irrelevant: new terms must be specific to the relevant ones. */
  background?: CollectedTerms;
}

type Vec = Map<string, number>;

function unitVector(v: Vec): Vec {
  let n = 0;
  for (const x of v.values()) n += x * x;
  const len = Math.sqrt(n) || 1;
  return new Map([...v].map(([k, x]) => [k, x / len]));
}

/** The cosine of two sparse weight vectors (0 when either is empty), at most 1. */
export function cosine(a: Vec, b: Vec): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (const [k, x] of a) {
    dot += x * (b.get(k) ?? 0);
    aa += x * x;
  }
  for (const x of b.values()) bb += x * x;
  if (aa === 0 || bb === 0) return 0;
  return Math.min(1, dot / Math.sqrt(aa * bb));
}

const drift = (original: Vec, v: Vec) => Math.max(0, 1 - cosine(original, v));

/** (1 − s)·a + s·b */
function mix(a: Vec, b: Vec, s: number): Vec {
  const out = new Map<string, number>();
  for (const [k, x] of a) out.set(k, (1 - s) * x);
  for (const [k, x] of b) out.set(k, (out.get(k) ?? 0) + s * x);
  return out;
}

function toKeywords(v: Vec): TopicKeyword[] {
  let max = 0;
  for (const x of v.values()) if (x > max) max = x;
  return [...v]
    .filter(([, x]) => x > 0)
    .map(([word, x]) => ({ word, weight: x / (max || 1) }))
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}

const vectorOf = (keywords: readonly TopicKeyword[]): Vec =>
  new Map(keywords.map((k) => [k.word, k.weight]));

/** One adaptation of the topic vector (module comment). */
export function adaptTopic(
  original: readonly TopicKeyword[],
  current: readonly TopicKeyword[],
  collected: CollectedTerms,
  options: AdaptOptions,
): { keywords: TopicKeyword[]; change: TopicChange } {
  const rate = options.rate ?? ADAPT_DEFAULTS.rate;
  const maxDrift = options.maxDrift ?? ADAPT_DEFAULTS.maxDrift;
  const maxNew = options.maxNewTerms ?? ADAPT_DEFAULTS.maxNewTerms;
  const minShare = options.minShare ?? ADAPT_DEFAULTS.minShare;
  const minWeight = options.minWeight ?? ADAPT_DEFAULTS.minWeight;
  const bg = options.background;
  const D = collected.documents;
  const estimate = (term: string): number => {
    const s = collected.terms[term];
    if (s === undefined || D === 0) return 0;
    const cw = bg ? classWeight(s[0], D, bg.terms[term]?.[0] ?? 0, bg.documents) : 1;
    return (s[0] / D) * cw;
  };
  const o = unitVector(vectorOf(original));
  const currentVec = vectorOf(current);
  const c = unitVector(currentVec);
  const e = new Map<string, number>();
  for (const k of current) e.set(k.word, estimate(k.word));
  const fresh = Object.entries(collected.terms)
    .filter(([t, s]) => !currentVec.has(t) && D > 0 && s[0] / D >= minShare)
    .map(([t]) => [t, estimate(t)] as const)
    .filter(([, x]) => x > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, maxNew);
  for (const [t, x] of fresh) e.set(t, x);
  let next = [...e.values()].some((x) => x > 0) ? mix(c, unitVector(e), rate) : c;
  let limited = false;
  if (drift(o, next) > maxDrift) {
    limited = true;
    // The largest step from c towards `next` within the limit (none if c is beyond it).
    let lo = 0;
    let hi = 1;
    if (drift(o, c) > maxDrift) hi = 0;
    for (let i = 0; i < 50 && hi > 0; i++) {
      const mid = (lo + hi) / 2;
      if (drift(o, mix(c, next, mid)) <= maxDrift) lo = mid;
      else hi = mid;
    }
    next = mix(c, next, lo);
  }
  let max = 0;
  for (const x of next.values()) if (x > max) max = x;
  const pruned = new Map([...next].filter(([, x]) => x >= minWeight * max));
  if (pruned.size > 0 && (drift(o, pruned) <= maxDrift || drift(o, pruned) <= drift(o, next))) {
    next = pruned;
  }
  const keywords = toKeywords(next);
  const words = new Set(keywords.map((k) => k.word));
  return {
    keywords,
    change: {
      at: options.at,
      fetched: options.fetched,
      drift: drift(o, next),
      limited,
      added: keywords.filter((k) => !currentVec.has(k.word)).map((k) => k.word),
      removed: current.filter((k) => !words.has(k.word)).map((k) => k.word),
      top: keywords.slice(0, 20).map((k): [string, number] => [k.word, k.weight]),
    },
  };
}
