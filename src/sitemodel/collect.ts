/**
 * Collecting the sample a site model is learnt from (DESIGN 1.3): pages of the seeds'
 * site, reached broadly. Found URLs are grouped by their finest URL pattern
 * (`patternOf`: ids and words generalised), and each fetch takes from the group
 * sampled least so far, so that every kind of page the site links to is in the
 * sample, not only the most numerous kind (a breadth-first or depth-first walk of a
 * discussion site samples mostly profiles or mostly one list's pages). Within a
 * group, a URL that shares an id (a run of digits that is a whole path segment or
 * query value, `urlIds`) with a page already sampled in another group goes first: two
 * URLs with one id are often two views of one item (a page and its print view, a
 * topic reached with and without its forum's id), and the learner can see that they
 * are duplicates only when both are sampled; otherwise the oldest found goes first
 * (breadth-first).
 *
 * Every fetch goes through the fetcher the caller gives (robots.txt, per-host delays,
 * the honest User-Agent and the request limits are its), and only URLs the caller's
 * scope admits are fetched. Redirects are followed by the fetcher; the page records
 * where it ended (`finalUrl`), which the learner reads as a duplicate of its target.
 */
import { decodeBody, sniffContent } from '../fetch/charset/index.js';
import type { Fetcher } from '../fetch/index.js';
import { parseHtml } from '../parse/index.js';
import { patternOf, urlId } from '../url/index.js';
import type { SamplePage } from './sample.js';

/** Pages a sample fetches at most, by default (`site-model learn`, `--site-model learn`). */
export const SAMPLE_PAGES = 300;
/**
 * Pages per URL pattern after which a sample stops, by default: enough to pair each
 * pattern's pages with their originals (BENCHMARKS.md, "Site models").
 */
export const SAMPLE_PER_PATTERN = 12;

export interface CollectOptions {
  /** Where to start (each fetched first, in order). */
  seeds: readonly string[];
  /** Pages to fetch at most (answered requests; failures count too). */
  pages: number;
  /**
   * Stop sooner, once every URL pattern found has this many pages sampled or none
   * left to sample: the learner has seen each kind of page that often.
   * @default no early stop
   */
  perPattern?: number | undefined;
  fetcher: Fetcher;
  /** Which URLs may be fetched (the crawl's scope). */
  inScope: (url: string) => boolean;
  signal?: AbortSignal | undefined;
  /** Called after each fetch: the URL, its status (null when it failed), pages so far. */
  onFetch?: ((url: string, status: number | null, done: number) => void) | undefined;
}

/** The sample and what it cost. */
export interface CollectedSample {
  pages: SamplePage[];
  /** Requests made (every fetch attempted, failed ones included). */
  requests: number;
  failed: number;
}

/** Fetches up to `pages` pages from the seeds, each time from the least sampled URL pattern. */
export async function collectSample(o: CollectOptions): Promise<CollectedSample> {
  const seen = new Set<string>();
  /** Waiting URLs by pattern, in the order the patterns were found. */
  const groups = new Map<string, { waiting: string[]; sampled: number }>();
  /** Ids of sampled pages, with the patterns they were sampled under. */
  const sampledIds = new Map<string, Set<string>>();
  const push = (u: string) => {
    if (seen.has(u) || !o.inScope(u)) return;
    seen.add(u);
    let key: string;
    try {
      key = patternOf(u);
    } catch {
      return;
    }
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { waiting: [u], sampled: 0 });
    else g.waiting.push(u);
  };
  for (const s of o.seeds) push(s);
  const next = (): string | undefined => {
    let best: [string, { waiting: string[]; sampled: number }] | undefined;
    for (const e of groups) {
      if (e[1].waiting.length === 0) continue;
      if (best === undefined || e[1].sampled < best[1].sampled) best = e;
    }
    if (best === undefined) return undefined;
    if (o.perPattern !== undefined && best[1].sampled >= o.perPattern) return undefined;
    const [key, g] = best;
    g.sampled++;
    // A URL sharing an id with a page sampled under another pattern, else the oldest.
    const i = g.waiting.findIndex((u) => {
      const id = urlId(u);
      return id !== null && [...(sampledIds.get(id) ?? [])].some((k) => k !== key);
    });
    const [url] = g.waiting.splice(Math.max(i, 0), 1);
    const id = url === undefined ? null : urlId(url);
    if (id !== null) {
      const ks = sampledIds.get(id) ?? new Set<string>();
      ks.add(key);
      sampledIds.set(id, ks);
    }
    return url;
  };
  const out: SamplePage[] = [];
  let requests = 0;
  let failed = 0;
  while (requests < o.pages && !o.signal?.aborted) {
    const url = next();
    if (url === undefined) break;
    requests++;
    let res: Awaited<ReturnType<Fetcher['fetch']>>;
    try {
      res = await o.fetcher.fetch(url, { signal: o.signal });
    } catch {
      failed++;
      o.onFetch?.(url, null, requests);
      continue;
    }
    o.onFetch?.(url, res.status, requests);
    const page: SamplePage = { url, status: res.status, bytes: res.bytes };
    if (res.finalUrl !== url) page.finalUrl = res.finalUrl;
    if (
      res.status >= 200 &&
      res.status < 300 &&
      sniffContent(res.contentType, res.body) === 'html'
    ) {
      const html = decodeBody(res.body, res.contentType).text;
      page.html = html;
      // The redirect target is known now: not fetched again.
      seen.add(res.finalUrl);
      try {
        for (const l of parseHtml(html, res.finalUrl).links) push(l.url);
      } catch {
        // A page whose URL cannot be parsed gives no links.
      }
    }
    out.push(page);
  }
  return { pages: out, requests, failed };
}
