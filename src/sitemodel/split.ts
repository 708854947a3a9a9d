/**
 * The content split of a prepared sample, as the learner makes it (learn.ts) and as
 * the sampler makes it while it samples (collect.ts: a pattern already judged a copy
 * is not sampled further): template lines, each page's content, the pages that repeat
 * one another (content.ts), the patterns that repeat another (roles.ts: pairs, view
 * parameters) and the copies of another pattern's items (copies.ts).
 */
import { patternOf, urlId } from '../url/index.js';
import { duplicatePartners, type PageContent, pageContent, templateLines } from './content.js';
import { markCopies, shingles } from './copies.js';
import type { ResolvedLearnOptions } from './options.js';
import { type ContentSplit, markViewParameters, splitByContent } from './roles.js';
import type { PreparedPage } from './sample.js';

/** What the split needs of a page: a prepared page without its layout. */
export type SplitSamplePage = Omit<PreparedPage, 'layout'>;

/**
 * Contents and shingles of the pages of a growing sample, kept between two splits while
 * the template lines stay the same (the sampler splits its sample again every few pages).
 */
export class ContentMemo {
  template = '';
  contents: PageContent[] = [];
  shingles: Set<string>[] = [];
}

/** The split and each page's content. */
export interface SampleSplit {
  split: ContentSplit;
  contents: PageContent[];
}

/**
 * Per page, the links from the sample's first page (the start of the site) to it over
 * the sample's own links, breadth-first; null when no path reaches it. A redirect's
 * target is as deep as the redirect.
 */
export function linkDepths(pages: readonly SplitSamplePage[]): (number | null)[] {
  const at = new Map(pages.map((p, i) => [p.url, i]));
  const depth: (number | null)[] = pages.map(() => null);
  if (pages.length === 0) return depth;
  depth[0] = 0;
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q]!;
    const next = [...pages[i]!.links.map((l) => at.get(l))];
    const to = pages[i]!.redirectTo;
    if (to !== undefined) next.push(to);
    for (const j of next) {
      if (j === undefined || depth[j] !== null) continue;
      depth[j] = depth[i]! + (to === j ? 0 : 1);
      queue.push(j);
    }
  }
  return depth;
}

/** Splits a prepared sample's finest patterns into content and duplicates. */
export function splitSample(
  pages: readonly SplitSamplePage[],
  o: Pick<ResolvedLearnOptions, 'templateShare' | 'maxHamming' | 'minDupShare'>,
  memo: ContentMemo = new ContentMemo(),
): SampleSplit {
  const template = templateLines(
    pages.map((p) => p.text),
    o.templateShare,
  );
  const key = [...template].sort().join('\n');
  if (memo.template !== key || memo.contents.length > pages.length) {
    memo.template = key;
    memo.contents = [];
    memo.shingles = [];
  }
  for (let i = memo.contents.length; i < pages.length; i++) {
    const c = pageContent(pages[i]!.text, template);
    memo.contents.push(c);
    memo.shingles.push(shingles(c.key));
  }
  const contents = memo.contents;
  const redirects = new Map<number, number>();
  pages.forEach((p, i) => {
    if (p.redirectTo !== undefined) redirects.set(i, p.redirectTo);
  });
  const partners = duplicatePartners(contents, o.maxHamming, redirects);
  const split = splitByContent(
    pages.map((p) => ({
      fine: p.fine,
      bytes: p.bytes,
      linked: new Set(p.links.map(patternOf)),
      ...(p.redirectTo === undefined ? {} : { redirectTo: p.redirectTo }),
    })),
    partners,
    o.minDupShare,
  );
  markViewParameters(split);
  const depths = linkDepths(pages);
  markCopies(
    split,
    pages.map((p, i) => ({
      fine: p.fine,
      id: urlId(p.url),
      shingles: memo.shingles[i]!,
      depth: depths[i]!,
      redirect: p.redirectTo !== undefined,
    })),
  );
  return { split, contents };
}
