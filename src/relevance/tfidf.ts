/**
 * Topic keywords learned from example documents by TF-IDF (DESIGN 1.5), and their
 * merge with an expert's weighted list (DESIGN 1.1/1.5). Pure: token lists in, weights out.
 *
 * Per document i and term k:
 *
 *     W_ik = t_ik · idf_k · cw_k,   idf_k = ln(N / n_k + 0.01),   then W_i scaled to unit length
 *
 * t_ik is the count of k in document i, N the number of training documents (positive
 * and negative), n_k the number containing k. The `+ 0.01` keeps a term found in every
 * document at a small positive weight (ln 1.01 ≈ 0.00995) instead of 0.
 *
 * The class weight cw_k says how specific the term is to the topic class. With
 * P = (n⁺_k + 0.5) / (N⁺ + 1) and Q = (n⁻_k + 0.5) / (N⁻ + 1), the smoothed shares of
 * positive and negative documents containing k:
 *
 *     cw_k = max(0, (P − Q) / (P + Q))
 *
 * that is 2·Pr(+ | k occurs) − 1 with equal class priors: about 1 for a term found only
 * in positive documents, 0 for a term as common in negative documents as in positive
 * ones (site boilerplate, everyday words) or commoner there.
 *
 * Without negative documents there is no class to contrast with, and DESIGN 1.5's idf
 * over the positives alone works against the topic: its words occur in every example,
 * so ln(N/N + 0.01) ≈ 0.01 all but erases them, and words of one or two examples win
 * (on the test web's topics 0–5 of the 18 hand-written keywords come out, and the
 * learned topic ranks pages with an AUC of 0.64–0.97). So the positive-only learner
 * uses the smoothed idf ln(1 + N/n_k), which still prefers specific words but only by a
 * factor of about ln(1 + N)/ln 2 over ubiquitous ones, and cw_k = 1 (5–9 hand-written
 * keywords, AUC 0.98–1.0 on the same pages). Everyday words common to all examples
 * cannot be told from topic words this way: negative examples fix that.
 *
 * The topic vector is the centroid of the positive documents' unit vectors, Σ_i W_i / N⁺:
 * a term weighs in proportion to how many positive documents carry it and how much of
 * each. The `top` heaviest terms are kept and scaled so that the heaviest is 1.
 */
import { normalizeKeyword, type TokenizeOptions } from '../text/index.js';
import type { TopicKeyword } from './topic.js';

/**
 * How example documents are tokenised for learning (and topic adaptation): stop words
 * and numbers dropped; single CJK characters glued to their neighbours (显示|器 →
 * 显示器), and the lone characters left over (器, 屏: morphemes) dropped.
 */
export const TERM_TOKENIZE_OPTIONS: TokenizeOptions = Object.freeze({
  keepNumbers: false,
  minChars: 2,
  glueCjkSingles: true,
});

/** The `+ 0.01` of DESIGN 1.5's idf. */
export const IDF_SMOOTHING = 0.01;

/** Default number of learned keywords kept. */
export const DEFAULT_TOP_KEYWORDS = 30;

/** Default share of the expert's weight in a merge (see {@link mergeKeywords}). */
export const DEFAULT_EXPERT_SHARE = 0.5;

/**
 * idf = ln(N / n + 0.01) for a term found in `n` of `documents` documents. A term found
 * in none is given the idf of a term found in one (the largest the examples allow).
 */
export function idfWeight(documents: number, n: number): number {
  return Math.log(documents / Math.max(n, 1) + IDF_SMOOTHING);
}

/** The positive-only learner's idf, ln(1 + N / n) (module comment); n = 0 counts as 1. */
export function smoothIdf(documents: number, n: number): number {
  return Math.log(1 + documents / Math.max(n, 1));
}

/** The class weight cw (module comment): 1 when there are no negative documents. */
export function classWeight(
  positiveWith: number,
  positives: number,
  negativeWith: number,
  negatives: number,
): number {
  if (negatives === 0) return 1;
  const p = (positiveWith + 0.5) / (positives + 1);
  const q = (negativeWith + 0.5) / (negatives + 1);
  return Math.max(0, (p - q) / (p + q));
}

/** Term counts of one document. */
export function termCounts(tokens: readonly string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}

/** In how many documents each term occurs. */
export function documentFrequencies(docs: readonly Map<string, number>[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  return df;
}

/**
 * One document's weights W_ik = t_ik · weight(k), scaled to unit length; terms whose
 * weight is 0 are left out. `weight(k)` is idf_k · cw_k.
 */
export function documentVector(
  counts: ReadonlyMap<string, number>,
  weight: (term: string) => number,
): Map<string, number> {
  const out = new Map<string, number>();
  let norm = 0;
  for (const [term, t] of counts) {
    const w = t * weight(term);
    if (w > 0) {
      out.set(term, w);
      norm += w * w;
    }
  }
  if (norm === 0) return out;
  const len = Math.sqrt(norm);
  for (const [term, w] of out) out.set(term, w / len);
  return out;
}

export interface LearnedKeyword {
  word: string;
  /** Centroid weight, scaled so that the heaviest learned keyword is 1. */
  weight: number;
  /** ln(N / n + 0.01) over all training documents; ln(1 + N / n) without negatives. */
  idf: number;
  /** The class weight cw (1 without negative documents). */
  classWeight: number;
  /** Positive documents containing the term. */
  positiveDocs: number;
  /** Negative documents containing the term. */
  negativeDocs: number;
}

export interface ExtractInput {
  /** Token lists of the positive (on-topic) example documents. */
  positive: readonly (readonly string[])[];
  /** Token lists of negative (off-topic) examples; they switch on the class weight. */
  negative?: readonly (readonly string[])[];
}

export interface ExtractResult {
  /** Heaviest first (ties in word order), at most `top`. */
  keywords: LearnedKeyword[];
  /** N: the training documents, positive and negative. */
  documents: number;
}

/** TF-IDF keyword extraction (module comment). Empty documents count in N but add no weight. */
export function extractKeywords(
  input: ExtractInput,
  options: { top?: number } = {},
): ExtractResult {
  const top = options.top ?? DEFAULT_TOP_KEYWORDS;
  const pos = input.positive.map(termCounts);
  const neg = (input.negative ?? []).map(termCounts);
  const dfPos = documentFrequencies(pos);
  const dfNeg = documentFrequencies(neg);
  const N = pos.length + neg.length;
  const stats = new Map<string, { idf: number; cw: number; w: number }>();
  const statsOf = (term: string) => {
    let s = stats.get(term);
    if (s === undefined) {
      const np = dfPos.get(term) ?? 0;
      const nn = dfNeg.get(term) ?? 0;
      s = {
        idf: neg.length > 0 ? idfWeight(N, np + nn) : smoothIdf(N, np),
        cw: classWeight(np, pos.length, nn, neg.length),
        w: 0,
      };
      stats.set(term, s);
    }
    return s;
  };
  for (const counts of pos) {
    const v = documentVector(counts, (term) => {
      const s = statsOf(term);
      return s.idf * s.cw;
    });
    for (const [term, w] of v) statsOf(term).w += w / pos.length;
  }
  const ranked = [...stats]
    .filter(([, s]) => s.w > 0)
    .sort(([a, x], [b, y]) => y.w - x.w || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, top);
  const max = ranked[0]?.[1].w ?? 1;
  return {
    documents: N,
    keywords: ranked.map(([word, s]) => ({
      word,
      weight: s.w / max,
      idf: s.idf,
      classWeight: s.cw,
      positiveDocs: dfPos.get(word) ?? 0,
      negativeDocs: dfNeg.get(word) ?? 0,
    })),
  };
}

export type KeywordSource = 'expert' | 'learned' | 'both';

export interface MergedKeyword {
  word: string;
  /** λ·expert + (1 − λ)·learned, rescaled so that the heaviest merged keyword is 1. */
  weight: number;
  source: KeywordSource;
  /** The expert's weight, scaled so that the expert's heaviest is 1 (0 when not the expert's). */
  expert: number;
  /** The learned weight, scaled likewise (0 when not learned). */
  learned: number;
}

/**
 * Merges an expert's weighted keywords with learned ones (the last step of DESIGN 1.1's
 * recipe: expert keywords → example pages → extracted features → merged set):
 *
 * 1. each list is scaled so that its heaviest keyword is 1 (an expert may weigh 1–10);
 * 2. on the union of the two, merged = λ·expert + (1 − λ)·learned, a missing weight
 *    counting 0 (λ = `expertShare`, default 0.5): a word both lists hold outweighs a word
 *    only one holds, and with 0 < λ < 1 every word of either list is kept (an expert
 *    word no example contains included); λ = 1 keeps only the expert's words;
 * 3. the result is scaled so that its heaviest keyword is 1 and sorted heaviest first.
 *
 * Words are compared after {@link normalizeKeyword}.
 */
export function mergeKeywords(
  expert: readonly TopicKeyword[],
  learned: readonly { word: string; weight: number }[],
  options: { expertShare?: number } = {},
): MergedKeyword[] {
  const lambda = options.expertShare ?? DEFAULT_EXPERT_SHARE;
  const maxOf = (list: readonly { weight: number }[]) =>
    list.reduce((m, k) => Math.max(m, k.weight), 0) || 1;
  const eMax = maxOf(expert);
  const lMax = maxOf(learned);
  const byWord = new Map<string, { expert: number; learned: number }>();
  const entry = (word: string) => {
    const key = normalizeKeyword(word);
    let e = byWord.get(key);
    if (e === undefined) {
      e = { expert: 0, learned: 0 };
      byWord.set(key, e);
    }
    return e;
  };
  for (const k of expert) entry(k.word).expert = Math.max(entry(k.word).expert, k.weight / eMax);
  for (const k of learned) {
    entry(k.word).learned = Math.max(entry(k.word).learned, k.weight / lMax);
  }
  const merged = [...byWord].map(([word, e]) => ({
    word,
    raw: lambda * e.expert + (1 - lambda) * e.learned,
    expert: e.expert,
    learned: e.learned,
  }));
  const max = merged.reduce((m, k) => Math.max(m, k.raw), 0) || 1;
  return merged
    .map(
      (k): MergedKeyword => ({
        word: k.word,
        weight: k.raw / max,
        source: k.expert > 0 && k.learned > 0 ? 'both' : k.expert > 0 ? 'expert' : 'learned',
        expert: k.expert,
        learned: k.learned,
      }),
    )
    .filter((k) => k.weight > 0)
    .sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
}
