/**
 * The page pipeline every command shares: a fetch result → decoded → parsed (with
 * the page's `<meta name=robots>` joined to the response's `X-Robots-Tag`) → its
 * text and title → relevance → the verdicts: relevant, kept, links followed.
 * `crawl` builds its outcome on it (crawl/page.ts), `inspect` reports it, so that
 * the two cannot judge a page differently.
 */
import type { FetchResult } from '../fetch/index.js';
import {
  type AnalyzedBody,
  analyzeBody,
  type ParseOptions,
  withResponseHeaders,
} from '../parse/index.js';
import type { PageInput } from '../relevance/index.js';

/** What judges a page: how to parse it, its relevance, and the threshold. */
export interface PageJudge {
  parse?: ParseOptions | undefined;
  relevance(page: PageInput): number;
  threshold: number;
}

/** A page as judged. */
export interface JudgedPage {
  /** The body decoded and parsed (`page` for HTML, `text` for plain text). */
  analysis: AnalyzedBody;
  /** The visible text ('' when the body is neither HTML nor text). */
  text: string;
  /** The page's title ('' when none). */
  title: string;
  relevance: number;
  /** relevance ≥ threshold: what decides, with the strategy, whose links are followed. */
  relevant: boolean;
  /** Relevant, and not asking to stay out of indexes (`noindex`, `none`): the page is kept. */
  kept: boolean;
  /** The page lets its links be followed (no `nofollow` or `none`); false without links. */
  linksAllowed: boolean;
}

/**
 * Judges the response `res`; `analyzed`: its body as `analyzeBody` gives it with the
 * response's headers, computed already (on an analysis thread), else computed here.
 */
export function judgePage(res: FetchResult, judge: PageJudge, analyzed?: AnalyzedBody): JudgedPage {
  const analysis =
    analyzed ??
    analyzeBody(
      res.body,
      res.contentType,
      res.finalUrl,
      withResponseHeaders(judge.parse, res.headers),
    );
  const page = analysis.page;
  const text = page?.text ?? analysis.text ?? '';
  const title = page?.title ?? '';
  const relevance = judge.relevance({ text, title, url: res.finalUrl });
  const relevant = relevance >= judge.threshold;
  return {
    analysis,
    text,
    title,
    relevance,
    relevant,
    kept: relevant && page?.robots.noindex !== true,
    linksAllowed: page !== undefined && !page.robots.nofollow,
  };
}
