/**
 * The TF-IDF relevance model of DESIGN 1.5: the cosine between a page's TF-IDF vector
 * and the topic vector.
 *
 * Topic vector a = (w_1..w_n), the topic's keyword weights (learned by TF-IDF or set
 * by hand). Page vector b = (f_1·idf_1 .. f_n·idf_n) over the same n terms, f_k the
 * count of keyword k on the page (text + titleWeight × title) by the text stage's
 * keyword counter, exactly as the vsm model counts (CJK keywords as substrings, word
 * keywords on token boundaries):
 *
 *     relevance = Σ w_k·f_k·idf_k / (‖a‖ · ‖b‖),   0 when no keyword occurs
 *
 * The page vector holds only the topic's terms. A full page vector (every token of
 * the page, with idf) would shrink the score of long pages that mention a keyword in
 * passing, but needs the segmenter on every page and every link context: on test-web
 * pages tokenising a page costs 45–50× counting 30 keywords on it (docs/topics.md), far
 * beyond the crawl's scoring budget, while the keyword count costs about what the vsm
 * model costs. Both vectors rank held-out test-web pages alike (AUC ≥ 0.999).
 *
 * idf: the topic's `idf` (ln(N/n_k + 0.01), written by `focuscrawl topic learn`). A
 * keyword the file gives no idf gets the largest idf of the file (as specific as the
 * most specific known term); a topic without `idf` uses idf = 1 for every keyword,
 * which makes the model cos(w, f): the vsm model with each weight counted once, not twice.
 */
import {
  createPageCounter,
  type KeywordModelOptions,
  parseKeywordModelOptions,
} from './keyword-model.js';
import type { PageInput, RelevanceModel, RelevanceScore } from './model.js';
import type { Topic } from './topic.js';

export interface TfidfScore extends RelevanceScore {
  /** Each topic keyword with its weight, idf and count f_k on the page, in topic order. */
  keywords: { word: string; weight: number; idf: number; count: number }[];
}

/** The idf the model uses for each keyword of `topic`, in topic order (module comment). */
export function keywordIdf(topic: Pick<Topic, 'keywords' | 'idf'>): number[] {
  const idf = topic.idf;
  if (idf === undefined) return topic.keywords.map(() => 1);
  let max = 0;
  let any = false;
  for (const v of Object.values(idf)) {
    any = true;
    if (v > max) max = v;
  }
  const fallback = any ? max : 1;
  return topic.keywords.map((k) =>
    Object.hasOwn(idf, k.word) ? (idf[k.word] ?? fallback) : fallback,
  );
}

/** cos(w, f∘idf) of the module comment, for weights, idf and counts in the same order. */
export function tfidfRelevance(
  weights: readonly number[],
  idf: readonly number[],
  counts: readonly number[],
): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k] ?? 0;
    const b = (counts[k] ?? 0) * (idf[k] ?? 0);
    dot += w * b;
    aa += w * w;
    bb += b * b;
  }
  if (aa === 0 || bb === 0) return 0;
  return Math.min(dot / (Math.sqrt(aa) * Math.sqrt(bb)), 1); // rounding can overshoot by one ulp
}

export function createTfidfModel(
  topic: Pick<Topic, 'keywords' | 'idf'>,
  options: KeywordModelOptions = {},
): RelevanceModel<TfidfScore> {
  const { titleWeight } = parseKeywordModelOptions(options);
  const words = topic.keywords.map((k) => k.word);
  const weights = topic.keywords.map((k) => k.weight);
  const idf = keywordIdf(topic);
  const frequencies = createPageCounter(words, titleWeight);
  return {
    name: 'tfidf',
    score(page: PageInput): TfidfScore {
      const counts = frequencies(page);
      return {
        relevance: tfidfRelevance(weights, idf, counts),
        keywords: words.map((word, i) => ({
          word,
          weight: weights[i] ?? 0,
          idf: idf[i] ?? 0,
          count: counts[i] ?? 0,
        })),
      };
    },
    relevance(page: PageInput): number {
      return tfidfRelevance(weights, idf, frequencies(page));
    },
  };
}
