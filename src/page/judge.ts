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

/** What of a response its analysis reads. */
export type AnalyzedResponse = Pick<FetchResult, 'contentType' | 'finalUrl' | 'headers'> & {
  body: Uint8Array;
};

/** The body of `res` decoded and parsed, its `X-Robots-Tag` joined to the page's directives. */
export function analyzeResponse(res: AnalyzedResponse, parse?: ParseOptions): AnalyzedBody {
  return analyzeBody(
    res.body,
    res.contentType,
    res.finalUrl,
    withResponseHeaders(parse, res.headers),
  );
}

/** The visible text of an analysed body ('' when it is neither HTML nor text). */
export function bodyText(analysis: AnalyzedBody): string {
  return analysis.page?.text ?? analysis.text ?? '';
}

/**
 * Judges the response `res`; `analyzed`: `analyzeResponse` of it, computed already (on
 * an analysis thread), else computed here.
 */
export function judgePage(res: FetchResult, judge: PageJudge, analyzed?: AnalyzedBody): JudgedPage {
  const analysis = analyzed ?? analyzeResponse(res, judge.parse);
  const page = analysis.page;
  const text = bodyText(analysis);
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
