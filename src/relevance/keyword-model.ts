/**
 * The keyword vector-space model of DESIGN 1.1 as a RelevanceModel.
 *
 * Keyword frequencies are counted by `createKeywordCounter` (text stage): CJK
 * keywords as substrings, word keywords and phrases on token boundaries. The title
 * counts like text: f_i = count in text + titleWeight × count in title.
 */
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { createKeywordCounter } from '../text/index.js';
import type { PageInput, RelevanceModel, RelevanceScore } from './model.js';
import type { Topic } from './topic.js';
import { vsmRelevance } from './vsm.js';

export const keywordModelOptionsSchema = z.strictObject({
  /**
   * How much an occurrence in the title counts, relative to one in the text:
   * 1 counts the title as part of the text, 0 ignores it, 3 makes it count thrice.
   * @default 1
   */
  titleWeight: z.number().min(0).default(1),
});

export type KeywordModelOptions = z.input<typeof keywordModelOptionsSchema>;

export interface KeywordScore extends RelevanceScore {
  /** Each topic keyword with its weight and its frequency f_i on the page, in topic order. */
  keywords: { word: string; weight: number; count: number }[];
}

/** Validates model options (shared by the vsm and tfidf models). */
export function parseKeywordModelOptions(
  options: KeywordModelOptions,
): z.output<typeof keywordModelOptionsSchema> {
  const parsed = keywordModelOptionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidOptionError(
    `Invalid keyword model option ${issue?.path.join('.') || '(options)'}: ${issue?.message}`,
    { cause: parsed.error },
  );
}

/**
 * Frequencies f_i of `words` on a page: count in text + titleWeight × count in title
 * (the text stage's fast keyword counter; no segmenter).
 */
export function createPageCounter(
  words: readonly string[],
  titleWeight: number,
): (page: PageInput) => number[] {
  const count = createKeywordCounter(words);
  return (page: PageInput): number[] => {
    const freqs = count(page.text);
    if (titleWeight > 0 && page.title) {
      const inTitle = count(page.title);
      for (let i = 0; i < freqs.length; i++) {
        freqs[i] = (freqs[i] ?? 0) + titleWeight * (inTitle[i] ?? 0);
      }
    }
    return freqs;
  };
}

export function createKeywordModel(
  topic: Pick<Topic, 'keywords'>,
  options: KeywordModelOptions = {},
): RelevanceModel<KeywordScore> {
  const { titleWeight } = parseKeywordModelOptions(options);
  const words = topic.keywords.map((k) => k.word);
  const weights = topic.keywords.map((k) => k.weight);
  const frequencies = createPageCounter(words, titleWeight);
  return {
    name: 'keyword-vsm',
    score(page: PageInput): KeywordScore {
      const freqs = frequencies(page);
      return {
        relevance: vsmRelevance(weights, freqs),
        keywords: words.map((word, i) => ({
          word,
          weight: weights[i] ?? 0,
          count: freqs[i] ?? 0,
        })),
      };
    },
    relevance(page: PageInput): number {
      return vsmRelevance(weights, frequencies(page));
    },
  };
}
