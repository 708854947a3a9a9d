// `inspect`: fetch one page exactly as the crawler would and report every decision
// made on the way (robots, redirects, charset, parse, relevance). Composes stages;
// implements none of them.

import { extractPage, type PageExtraction, type Rules } from '../extract/index.js';
import { decodeBody } from '../fetch/charset/index.js';
import type { FetchResult, RobotsVerdict } from '../fetch/index.js';
import { createFetcher, type FetcherOptionsInput } from '../fetch/index.js';
import { judgePage } from '../page/index.js';
import { createKeywordModel, type KeywordScore, type Topic } from '../relevance/index.js';

export interface InspectOptions {
  fetcher?: FetcherOptionsInput;
  /** A topic to score the page against (keyword VSM, DESIGN 1.1). */
  topic?: Topic;
  /** Relevance threshold used for the keep/discard verdict. @default topic.threshold ?? 0.1 */
  threshold?: number;
  /** Characters of visible text kept in the report. @default 500 */
  excerptChars?: number;
  /** Field extraction rules to run on the page (docs/extract.md). */
  rules?: Rules;
}

export interface InspectReport {
  url: string;
  robots: RobotsVerdict;
  fetch: Omit<FetchResult, 'body' | 'robots'> | undefined;
  /** The typed error when the page could not be fetched (robots, network, redirects). */
  error: { code: string; message: string } | undefined;
  content: string | undefined;
  charset: { name: string; source: string } | undefined;
  page:
    | {
        title: string;
        lang: string | undefined;
        canonical: string | undefined;
        metaRobots: { noindex: boolean; nofollow: boolean };
        textChars: number;
        excerpt: string;
        links: Array<{ url: string; anchor: string; context: string; nofollow: boolean }>;
      }
    | undefined;
  relevance:
    | {
        score: number;
        threshold: number;
        /** score ≥ threshold. */
        relevant: boolean;
        /** What the crawl does with the page: keep it only when relevant and not `noindex`. */
        verdict: 'keep' | 'discard';
        keywords: Array<{ word: string; weight: number; count: number }>;
      }
    | undefined;
  /** With `rules`: what each field got, and why a field got nothing. */
  fields: PageExtraction | undefined;
}

export async function inspectUrl(
  url: string,
  options: InspectOptions = {},
): Promise<InspectReport> {
  const fetcher = createFetcher(options.fetcher ?? {});
  try {
    const robots = await fetcher.robotsFor(url);
    const report: InspectReport = {
      url,
      robots,
      fetch: undefined,
      error: undefined,
      content: undefined,
      charset: undefined,
      page: undefined,
      relevance: undefined,
      fields: undefined,
    };
    let res: FetchResult;
    try {
      res = await fetcher.fetch(url);
    } catch (e) {
      const err = e as { code?: string; message?: string };
      report.error = { code: err.code ?? 'ERROR', message: err.message ?? String(e) };
      return report;
    }
    const { body, robots: finalRobots, ...rest } = res;
    report.fetch = rest;
    report.robots = finalRobots;
    // Judged as the crawl judges it (page/): the same parse, directives and verdicts.
    const model = options.topic ? createKeywordModel(options.topic) : undefined;
    let scored: KeywordScore | undefined;
    const threshold = options.threshold ?? options.topic?.threshold ?? 0.1;
    const j = judgePage(res, {
      relevance: (p) => {
        scored = model?.score(p);
        return scored?.relevance ?? 0;
      },
      threshold,
    });
    const a = j.analysis;
    report.content = a.content;
    if (a.charset) report.charset = { name: a.charset, source: a.charsetSource ?? 'default' };
    const page = a.page;
    const visible = page ? page.text : (a.text ?? '');
    if (!page && a.text === undefined) return report;
    const excerptChars = options.excerptChars ?? 500;
    if (page) {
      report.page = {
        title: page.title,
        lang: page.lang,
        canonical: page.canonical,
        metaRobots: { noindex: page.robots.noindex, nofollow: page.robots.nofollow },
        textChars: page.text.length,
        excerpt: visible.slice(0, excerptChars),
        links: page.links.map((l) => ({
          url: l.url,
          anchor: l.anchor,
          context: l.context,
          nofollow: l.nofollow,
        })),
      };
    }
    if (options.rules !== undefined) {
      // As the crawl extracts: from the HTML of the final URL (crawl/page.ts).
      const html = page ? decodeBody(body, res.contentType ?? undefined).text : '';
      report.fields = extractPage(options.rules, { url: res.finalUrl, html });
    }
    if (scored !== undefined) {
      report.relevance = {
        score: j.relevance,
        threshold,
        relevant: j.relevant,
        verdict: j.kept ? 'keep' : 'discard',
        keywords: scored.keywords,
      };
    }
    return report;
  } finally {
    await fetcher.close();
  }
}
