// Public surface of topic learning: example pages (URLs, URL lists, folders) → a topic file.
import { InvalidOptionError } from '../errors/index.js';
import type { FetcherOptionsInput } from '../fetch/index.js';
import type { Topic, TopicInput } from '../relevance/index.js';
import { type LearnedTopic, learnedTopicFile, learnFromTexts } from './learn.js';
import { type ExampleDocument, loadExamples, type SkippedSource } from './sources.js';

export {
  type LearnedTopic,
  type LearnedTopicKeyword,
  type LearnTextsInput,
  learnedTopicFile,
  learnFromTexts,
  type TopicFileFields,
} from './learn.js';
export type { ExampleDocument, SkippedSource } from './sources.js';
export { type TrainOptions, type TrainResult, trainFromSources } from './train.js';

export interface LearnOptions {
  /** Sources of on-topic examples: URLs, URL list files, folders, .html files. */
  positive: readonly string[];
  /** Sources of off-topic examples (they switch on the class-weighted TF-IDF). */
  negative?: readonly string[];
  /** The expert's topic: its keywords are merged with the learned ones, its seeds kept. */
  expert?: Topic;
  /** Learned keywords kept. @default 30 */
  top?: number;
  /** λ of the merge with the expert's keywords, in (0, 1]. @default 0.5 */
  expertShare?: number;
  /** @default the expert topic's */
  name?: string;
  /** @default the expert topic's */
  language?: string;
  /** Options of the fetcher that fetches URL sources (`resolve`, timeouts, politeness…). */
  fetcher?: FetcherOptionsInput;
  /** Called for each source skipped (it could not be fetched or held no text). */
  onSkip?: (skipped: SkippedSource) => void;
}

export interface LearnResult {
  /** The topic file to write (valid for `parseTopic`). */
  topic: TopicInput;
  learned: LearnedTopic;
  /** Examples used, by class. */
  positive: ExampleDocument[];
  negative: ExampleDocument[];
  skipped: SkippedSource[];
}

const joined = (d: ExampleDocument) => (d.title ? `${d.title}\n${d.text}` : d.text);

/**
 * Learns a topic from example pages: reads and fetches the sources, then
 * `learnFromTexts` (titles count as text) and `learnedTopicFile`.
 */
export async function learnTopic(options: LearnOptions): Promise<LearnResult> {
  if (options.positive.length === 0) {
    throw new InvalidOptionError('learn: positive: give at least one source of positive examples');
  }
  const { positive, negative, skipped } = await loadExamples(
    options.positive,
    options.negative ?? [],
    options.fetcher,
    options.onSkip,
    ['positive'],
  );
  const expert = options.expert;
  const learned = learnFromTexts({
    positive: positive.map(joined),
    negative: negative.map(joined),
    ...(expert ? { expert: expert.keywords } : {}),
    ...(options.top !== undefined ? { top: options.top } : {}),
    ...(options.expertShare !== undefined ? { expertShare: options.expertShare } : {}),
  });
  const name = options.name ?? expert?.name;
  const language = options.language ?? expert?.language;
  const topic = learnedTopicFile(learned, {
    ...(name !== undefined ? { name } : {}),
    ...(language !== undefined ? { language } : {}),
    ...(expert?.seeds ? { seeds: expert.seeds } : {}),
    ...(expert?.threshold !== undefined ? { threshold: expert.threshold } : {}),
  });
  return { topic, learned, positive, negative, skipped };
}
