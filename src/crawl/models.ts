/**
 * Which models a crawl runs with (docs/bayes.md): what scores links (`model`), what
 * judges pages (`pageModel`), the strategy (its default follows the link model), the
 * link model file, and the context window. Checked where the options enter: every
 * combination that cannot work is an `InvalidOptionError` naming the options.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { StrategyName } from '../frontier/index.js';
import {
  DEFAULT_CONTEXT_CHARS,
  type LinkModel,
  type RelevanceModelName,
  readLinkModelFile,
  type Topic,
} from '../relevance/index.js';
import type { CrawlOptions, ModelName, PageModelName } from './options.js';

export interface ModelChoice {
  /** What scores links. */
  link: ModelName;
  /** What judges pages. */
  page: PageModelName;
  /** The keyword model of the topic: it judges pages unless `page` is bayes, and scores link text unless a link model does. */
  keyword: RelevanceModelName;
  strategy: StrategyName;
  /** The model file's model, when one is given. */
  file: LinkModel | null;
  /** Characters of context on each side of a link. */
  contextChars: number;
}

/** Checks the model options against each other (before anything is opened). */
export function checkModelOptions(o: CrawlOptions): void {
  const bad = (m: string) => new InvalidOptionError(m);
  if (o.model === 'bayes' && o.modelFile === undefined && o.learnEvery === undefined) {
    throw bad('model "bayes" needs modelFile (a model from `focuscrawl train`) or learnEvery');
  }
  if (o.pageModel === 'bayes' && o.modelFile === undefined) {
    throw bad('pageModel "bayes" needs modelFile (a model from `focuscrawl train`)');
  }
  if (o.learnEvery !== undefined && o.model !== 'bayes') {
    throw bad('learnEvery trains the naive Bayes link model: it needs model "bayes"');
  }
  if (o.modelFile !== undefined && o.model !== 'bayes' && o.pageModel !== 'bayes') {
    throw bad('modelFile is read only with model "bayes" or pageModel "bayes"');
  }
}

export async function chooseModels(o: CrawlOptions, topic: Topic): Promise<ModelChoice> {
  checkModelOptions(o);
  const keyword: RelevanceModelName =
    o.model === 'vsm' || o.model === 'tfidf'
      ? o.model
      : o.pageModel === 'vsm' || o.pageModel === 'tfidf'
        ? o.pageModel
        : (topic.model ?? 'vsm');
  const link: ModelName = o.model ?? keyword;
  const page: PageModelName = o.pageModel ?? keyword;
  const file = o.modelFile === undefined ? null : await readLinkModelFile(o.modelFile);
  return {
    link,
    page,
    keyword,
    strategy: o.strategy ?? (link === 'bayes' ? 'bayes' : 'best-first'),
    file,
    contextChars: o.linkContextChars ?? file?.json.features.contextChars ?? DEFAULT_CONTEXT_CHARS,
  };
}
