/**
 * Learning a topic from example texts (pure: texts in, a topic file out). The
 * recipe of DESIGN 1.1/1.5: tokenise the examples, extract TF-IDF keywords (class
 * weighted when negative examples are given), merge them with the expert's list, and
 * give every keyword its idf, counted the way the crawl's models will count it.
 *
 * With negative examples the topic also gets a suggested threshold: the tfidf model
 * scores the training examples and the threshold is put where it separates them best
 * (`separatingThreshold`). Learned topics hold 30 or so keywords, and an off-topic
 * page mentioning a few of them scores 0.1–0.3: on the test web the best threshold
 * for a learned topic lies between 0.3 and 0.45, and 0.1 keeps 2–4 irrelevant pages
 * for each relevant one.
 *
 * Without negative examples the idf over the positives alone would say nothing about
 * the topic (see tfidf.ts), so the topic carries no `idf` (the tfidf model then uses
 * idf = 1) and no suggested threshold.
 */
import { InvalidOptionError } from '../errors/index.js';
import {
  createTfidfModel,
  DEFAULT_EXPERT_SHARE,
  DEFAULT_TOP_KEYWORDS,
  extractKeywords,
  idfWeight,
  type KeywordSource,
  mergeKeywords,
  separatingThreshold,
  TERM_TOKENIZE_OPTIONS,
  type TopicInput,
  type TopicKeyword,
} from '../relevance/index.js';
import { createKeywordCounter, createTokenizer } from '../text/index.js';

export interface LearnTextsInput {
  /** Visible texts of the on-topic examples (at least one). */
  positive: readonly string[];
  /** Visible texts of off-topic examples: they switch on the class weight. */
  negative?: readonly string[];
  /** The expert's weighted keywords, merged with the learned ones. */
  expert?: readonly TopicKeyword[];
  /** Learned keywords kept before the merge (the expert's are all kept). @default 30 */
  top?: number;
  /** λ of the merge: the expert's share, in (0, 1]. @default 0.5 */
  expertShare?: number;
}

export interface LearnedTopicKeyword {
  word: string;
  /** Final weight, the heaviest 1. */
  weight: number;
  source: KeywordSource;
  /** ln(N / n + 0.01), n counted with the crawl's keyword counter (written only with negatives). */
  idf: number;
  /** Positive examples containing the keyword (keyword counter). */
  positiveDocs: number;
  /** Negative examples containing it. */
  negativeDocs: number;
}

export interface LearnedTopic {
  /** Heaviest first. */
  keywords: LearnedTopicKeyword[];
  /** N: positive + negative examples. */
  documents: number;
  positives: number;
  negatives: number;
  /** The threshold that best separates the scored training examples (with negatives only). */
  threshold?: number;
}

const tokenizeTerms = createTokenizer(TERM_TOKENIZE_OPTIONS);

function checkOptions(input: LearnTextsInput): void {
  const top = input.top ?? DEFAULT_TOP_KEYWORDS;
  if (!Number.isInteger(top) || top < 1) {
    throw new InvalidOptionError(`learn: top: expected a positive integer, got ${top}`);
  }
  const share = input.expertShare ?? DEFAULT_EXPERT_SHARE;
  if (!(share > 0 && share <= 1)) {
    throw new InvalidOptionError(`learn: expertShare: expected a number in (0, 1], got ${share}`);
  }
  if (input.positive.length === 0) {
    throw new InvalidOptionError('learn: positive: at least one positive example is needed');
  }
}

/** Learns a topic's keywords from example texts (module comment). */
export function learnFromTexts(input: LearnTextsInput): LearnedTopic {
  checkOptions(input);
  const positive = input.positive;
  const negative = input.negative ?? [];
  const extracted = extractKeywords(
    { positive: positive.map(tokenizeTerms), negative: negative.map(tokenizeTerms) },
    { top: input.top ?? DEFAULT_TOP_KEYWORDS },
  );
  const merged = mergeKeywords(input.expert ?? [], extracted.keywords, {
    expertShare: input.expertShare ?? DEFAULT_EXPERT_SHARE,
  });
  const count = createKeywordCounter(merged.map((k) => k.word));
  const inPositive = merged.map(() => 0);
  const inNegative = merged.map(() => 0);
  const tally = (texts: readonly string[], into: number[]) => {
    for (const text of texts) {
      const counts = count(text);
      for (let i = 0; i < counts.length; i++)
        if ((counts[i] ?? 0) > 0) into[i] = (into[i] ?? 0) + 1;
    }
  };
  tally(positive, inPositive);
  tally(negative, inNegative);
  const N = positive.length + negative.length;
  const learned: LearnedTopic = {
    keywords: merged.map((k, i) => {
      const p = inPositive[i] ?? 0;
      const n = inNegative[i] ?? 0;
      return {
        word: k.word,
        weight: k.weight,
        source: k.source,
        idf: idfWeight(N, p + n),
        positiveDocs: p,
        negativeDocs: n,
      };
    }),
    documents: N,
    positives: positive.length,
    negatives: negative.length,
  };
  if (negative.length > 0) {
    const model = createTfidfModel({
      keywords: learned.keywords,
      idf: Object.fromEntries(learned.keywords.map((k) => [k.word, k.idf])),
    });
    const t = separatingThreshold(
      positive.map((text) => model.relevance({ text })),
      negative.map((text) => model.relevance({ text })),
    );
    if (t !== undefined) learned.threshold = Math.round(t * 1000) / 1000;
  }
  return learned;
}

/** Rounds for a readable file; a positive weight never rounds to 0. */
function round(x: number, floor = 0): number {
  return Math.max(Math.round(x * 10_000) / 10_000, floor);
}

export interface TopicFileFields {
  name?: string;
  language?: string;
  /** Kept from the expert's topic file. */
  seeds?: readonly string[];
  threshold?: number;
}

/**
 * The learned topic as a topic file, valid for `parseTopic`: `model: "tfidf"`, keywords
 * heaviest first, and with negative examples their idf (same order), `documents` and the
 * suggested threshold (which replaces `fields.threshold`).
 */
export function learnedTopicFile(learned: LearnedTopic, fields: TopicFileFields = {}): TopicInput {
  const keywords: Record<string, number> = {};
  const idf: Record<string, number> = {};
  for (const k of learned.keywords) {
    keywords[k.word] = round(k.weight, 0.0001);
    idf[k.word] = round(k.idf);
  }
  // Field order is the order a reader wants: what it is, then the keywords.
  const file: Partial<TopicInput> = {};
  if (fields.name !== undefined) file.name = fields.name;
  if (fields.language !== undefined) file.language = fields.language;
  file.model = 'tfidf';
  file.keywords = keywords;
  if (learned.negatives > 0) {
    file.idf = idf;
    file.documents = learned.documents;
  }
  const threshold = learned.threshold ?? fields.threshold;
  if (threshold !== undefined) file.threshold = threshold;
  if (fields.seeds !== undefined && fields.seeds.length > 0) file.seeds = [...fields.seeds];
  return file as TopicInput;
}
