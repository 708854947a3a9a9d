/** The topic of a crawl from its option: a topic file's path, its content, or a `Topic`. */
import { createTopic, loadTopicFile, type Topic, type TopicInput } from '../relevance/index.js';
import type { CrawlOptions } from './options.js';

function isTopic(v: Topic | TopicInput): v is Topic {
  return Array.isArray((v as Topic).keywords);
}

export function resolveTopic(input: CrawlOptions['topic']): Topic {
  if (typeof input === 'string') return loadTopicFile(input);
  if (isTopic(input)) return input;
  return createTopic(input, 'options.topic');
}
