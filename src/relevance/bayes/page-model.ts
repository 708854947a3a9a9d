/**
 * The link model as a page judge (`crawl --page-model bayes`): a page's relevance is
 * Pr(+ | its title, text and URL), read the way training reads example pages
 * (`documentTermCounts`), so a model trained on pages judges pages as it was trained.
 */
import type { RelevanceModel } from '../model.js';
import { documentTermCounts } from './link-features.js';
import type { LinkModel } from './link-model.js';

export function linkModelPageJudge(model: LinkModel): RelevanceModel {
  const relevance = (page: { text: string; title?: string; url?: string }): number =>
    model.probability(
      documentTermCounts({
        title: page.title ?? '',
        text: page.text,
        ...(page.url === undefined ? {} : { url: page.url }),
      }),
    );
  return {
    name: 'naive-bayes',
    relevance,
    score: (page) => ({ relevance: relevance(page) }),
  };
}
