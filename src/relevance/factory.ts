/** The relevance model a crawl scores with, by name. */
import { InvalidOptionError } from '../errors/index.js';
import { createKeywordModel, type KeywordModelOptions } from './keyword-model.js';
import type { RelevanceModel } from './model.js';
import { createTfidfModel } from './tfidf-model.js';
import { TOPIC_MODELS, type Topic, type TopicModelName } from './topic.js';

/** Names accepted by {@link createRelevanceModel}: the same as a topic file's `model`. */
export const RELEVANCE_MODELS = TOPIC_MODELS;
export type RelevanceModelName = TopicModelName;

/**
 * `vsm`: the keyword vector-space model of DESIGN 1.1 (`createKeywordModel`);
 * `tfidf`: the cosine of TF-IDF vectors of DESIGN 1.5 (`createTfidfModel`).
 * Both take the same options (`titleWeight`).
 */
export function createRelevanceModel(
  name: RelevanceModelName,
  topic: Pick<Topic, 'keywords' | 'idf'>,
  options: KeywordModelOptions = {},
): RelevanceModel {
  if (name === 'vsm') return createKeywordModel(topic, options);
  if (name === 'tfidf') return createTfidfModel(topic, options);
  throw new InvalidOptionError(
    `Unknown relevance model ${JSON.stringify(name)} (models: ${RELEVANCE_MODELS.join(', ')})`,
  );
}
