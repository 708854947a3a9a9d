/**
 * Collecting the sample a site model is learnt from (DESIGN 1.3): pages of the seeds'
 * site, reached broadly. Found URLs are grouped by their finest URL pattern
 * (`patternOf`: ids and words generalised), and each fetch takes from the group
 * sampled least so far, so that every kind of page the site links to is in the
 * sample, not only the most numerous kind (a breadth-first or depth-first walk of a
 * discussion site samples mostly profiles or mostly one list's pages). Within a
 * group, the URL that shares most ids (runs of digits that are whole path segments or
 * query values, `urlIds`) with pages already sampled in other groups goes first: two
 * URLs with one id are often two views of one item (a page and its print view, an
 * item reached with and without its group's id, which shares the group's id with the
 * group's lists too but both ids only with the item), and the learner can see that
 * they are duplicates only when both are sampled; otherwise the oldest found goes
 * first (breadth-first).
 *
 * A pattern whose pages the content split (split.ts, the learner's own) already judges
 * repeats of other pages, once it has `settleAt` pages sampled, is settled: it is not
 * sampled further. Its copies would only cost requests the site's content could have
 * had (a sort order, a print view, a session id added to every URL: on a discussion
 * site most patterns are such), and the learner judges them the same from these few
 * pages. A redirect to a page the sample has is not followed: the page is known.
 *
 * Every fetch goes through the fetcher the caller gives (robots.txt, per-host delays,
 * the honest User-Agent and the request limits are its), and only URLs the caller's
 * scope admits are fetched. Redirects are followed by the fetcher; the page records
 * where it ended (`finalUrl`), which the learner reads as a duplicate of its target.
 */
import { decodeBody, sniffContent } from '../fetch/charset/index.js';
import type { Fetcher, FetchResult } from '../fetch/index.js';
import { parseHtml } from '../parse/index.js';
import { canonicalizeUrl, patternOf, urlIds } from '../url/index.js';
import { resolveLearnOptions } from './options.js';
import type { SamplePage } from './sample.js';
import { ContentMemo, type SplitSamplePage, splitSample } from './split.js';

/** Pages a sample fetches at most, by default (`site-model learn`, `--site-model learn`). */
export const SAMPLE_PAGES = 300;
/**
 * Pages per URL pattern after which a sample stops, by default: enough to pair each
 * pattern's pages with their originals (BENCHMARKS.md, "Site models").
 */
export const SAMPLE_PER_PATTERN = 12;
/**
 * Pages of a URL pattern after which the sample takes no more of it, by default, when
 * the content split judges them repeats of other pages (BENCHMARKS.md, "Site models").
 */
export const SAMPLE_SETTLE_AT = 3;
/** New pages between two content splits of the sample while it is taken. */
const SPLIT_EVERY = 4;

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
  /**
   * Settle a URL pattern once it has this many pages sampled and the content split
   * judges it a duplicate of another pattern, or its pages all say the same; 0: never.
   * @default SAMPLE_SETTLE_AT
   */
  settleAt?: number | undefined;
  fetcher: Fetcher;
  /** Which URLs may be fetched (the crawl's scope). */
  inScope: (url: string) => boolean;
  signal?: AbortSignal | undefined;
  /** Called with each response the sample got, whatever its status. */
  onResponse?: ((res: FetchResult) => void) | undefined;
  /** Called after each fetch: the URL, its status (null when it failed), pages so far. */
  onFetch?: ((url: string, status: number | null, done: number) => void) | undefined;
}

/** The sample and what it cost. */
export interface CollectedSample {
  pages: SamplePage[];
  /** Requests made (every fetch attempted, failed ones included). */
  requests: number;
  failed: number;
  /** URL patterns settled before their share of the sample (see `settleAt`), in order. */
  settled: string[];
}

/**
 * The sample as the content split sees it while it grows: pages by canonical URL, a
 * redirect followed by its target (as prepareSample makes them), and which patterns the
 * split has settled.
 */
class SampleJudge {
  readonly #pages: SplitSamplePage[] = [];
  readonly #at = new Map<string, number>();
  #splitAt = 0;
  /** Patterns settled, in the order they settled. */
  readonly #settled = new Set<string>();
  readonly #options = resolveLearnOptions({});
  readonly #memo = new ContentMemo();
  readonly #settleAt: number;
  readonly #inScope: (url: string) => boolean;

  constructor(settleAt: number, inScope: (url: string) => boolean) {
    this.#settleAt = settleAt;
    this.#inScope = inScope;
  }

  get settled(): string[] {
    return [...this.#settled];
  }

  isSettled(pattern: string): boolean {
    return this.#settled.has(pattern);
  }

  /** Adds a fetched page (its body's text and links, read at `finalUrl`). */
  add(url: string, finalUrl: string, bytes: number, text: string, links: readonly string[]) {
    if (this.#settleAt <= 0) return;
    const own = canonicalizeUrl(url);
    const final = canonicalizeUrl(finalUrl);
    if (own === null || final === null || this.#at.has(own) || !this.#inScope(final)) return;
    const page = (u: string): SplitSamplePage => {
      const kept = new Set<string>();
      for (const l of links) if (l !== u && this.#inScope(l)) kept.add(l);
      return { url: u, fine: patternOf(u), bytes, text, links: [...kept] };
    };
    const push = (p: SplitSamplePage) => {
      this.#pages.push(p);
      this.#at.set(p.url, this.#pages.length - 1);
      return this.#pages.length - 1;
    };
    if (final === own) {
      push(page(own));
      return;
    }
    const target = this.#at.get(final) ?? push(page(final));
    push({ ...page(own), redirectTo: target });
  }

  /**
   * Splits the sample again, when it grew since the last split (by `SPLIT_EVERY`
   * pages unless `force`), and settles those of `due` (patterns with `settleAt` pages
   * or more, not settled) the split judges repeats. Whether it split.
   */
  judge(due: readonly string[], force: boolean): boolean {
    const grown = this.#pages.length - this.#splitAt;
    if (due.length === 0 || grown === 0 || (!force && grown < SPLIT_EVERY)) return false;
    this.#splitAt = this.#pages.length;
    const { split, contents } = splitSample(this.#pages, this.#options, this.#memo);
    for (const pattern of due) {
      const role = split.patterns.get(pattern);
      if (role === undefined) continue;
      // A duplicate of another pattern, or one text on every page (a form).
      const texts = new Set(role.pages.map((i) => contents[i]!.key));
      if (role.role === 'duplicate' || (role.pages.length >= this.#settleAt && texts.size === 1)) {
        this.#settled.add(pattern);
      }
    }
    return true;
  }
}

interface Group {
  waiting: string[];
  sampled: number;
  /** Whether a split has judged it with `settleAt` pages or more. */
  judged: boolean;
}

/** Fetches up to `pages` pages from the seeds, each time from the least sampled URL pattern. */
export async function collectSample(o: CollectOptions): Promise<CollectedSample> {
  const seen = new Set<string>();
  /** Waiting URLs by pattern, in the order the patterns were found. */
  const groups = new Map<string, Group>();
  /** Ids of sampled pages, with the patterns they were sampled under. */
  const sampledIds = new Map<string, Set<string>>();
  const settleAt = o.settleAt ?? SAMPLE_SETTLE_AT;
  const judge = new SampleJudge(settleAt, o.inScope);
  const patternOfOrNull = (u: string): string | null => {
    try {
      return patternOf(u);
    } catch {
      return null;
    }
  };
  const push = (u: string) => {
    if (seen.has(u) || !o.inScope(u)) return;
    seen.add(u);
    const key = patternOfOrNull(u);
    if (key === null) return;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { waiting: [u], sampled: 0, judged: false });
    else g.waiting.push(u);
  };
  for (const s of o.seeds) push(s);
  const pick = (): [string, Group] | undefined => {
    let best: [string, Group] | undefined;
    for (const e of groups) {
      if (e[1].waiting.length === 0 || judge.isSettled(e[0])) continue;
      if (best === undefined || e[1].sampled < best[1].sampled) best = e;
    }
    return best;
  };
  const next = (): string | undefined => {
    let best = pick();
    // No pattern gets a page past `settleAt` before a split has judged it.
    if (settleAt > 0 && best !== undefined && best[1].sampled >= settleAt) {
      const due = [...groups].filter(([k, g]) => g.sampled >= settleAt && !judge.isSettled(k));
      if (
        judge.judge(
          due.map(([k]) => k),
          !best[1].judged,
        )
      ) {
        for (const [, g] of due) g.judged = true;
        best = pick();
      }
    }
    if (best === undefined) return undefined;
    if (o.perPattern !== undefined && best[1].sampled >= o.perPattern) return undefined;
    const [key, g] = best;
    g.sampled++;
    // The URL sharing most ids with pages sampled under other patterns, else the oldest.
    let i = 0;
    let most = 0;
    g.waiting.forEach((u, at) => {
      let shared = 0;
      for (const id of urlIds(u)) {
        const ks = sampledIds.get(id);
        if (ks !== undefined && (ks.size > 1 || !ks.has(key))) shared++;
      }
      if (shared > most) [i, most] = [at, shared];
    });
    const [url] = g.waiting.splice(i, 1);
    for (const id of url === undefined ? [] : urlIds(url)) {
      const ks = sampledIds.get(id) ?? new Set<string>();
      ks.add(key);
      sampledIds.set(id, ks);
    }
    return url;
  };
  const out: SamplePage[] = [];
  /** Pages answered (2xx HTML), by the URL that answered: a redirect to one is not followed. */
  const answered = new Map<string, { page: SamplePage; text: string; links: string[] }>();
  const answer = (at: string, page: SamplePage, text: string, links: string[]) => {
    answered.set(at, { page, text, links });
    // Known now: not fetched again, nor taken from its group's waiting URLs.
    seen.add(at);
    const waiting = groups.get(patternOfOrNull(at) ?? '')?.waiting;
    const i = waiting?.indexOf(at) ?? -1;
    if (i >= 0) waiting?.splice(i, 1);
  };
  let requests = 0;
  let failed = 0;
  while (requests < o.pages && !o.signal?.aborted) {
    const url = next();
    if (url === undefined) break;
    requests++;
    let res: Awaited<ReturnType<Fetcher['fetch']>>;
    try {
      res = await o.fetcher.fetch(url, {
        signal: o.signal,
        follow: (location) => !answered.has(location),
      });
    } catch {
      failed++;
      o.onFetch?.(url, null, requests);
      continue;
    }
    o.onResponse?.(res);
    o.onFetch?.(url, res.status, requests);
    const known = res.unfollowed === undefined ? undefined : answered.get(res.unfollowed.location);
    if (known !== undefined && res.unfollowed !== undefined) {
      // A redirect to a page the sample has: the page's answer, reached through it.
      const target = res.unfollowed.location;
      out.push({ ...known.page, url, finalUrl: target });
      judge.add(url, target, known.page.bytes ?? 0, known.text, known.links);
      continue;
    }
    const page: SamplePage = { url, status: res.status, bytes: res.bytes };
    if (res.finalUrl !== url) page.finalUrl = res.finalUrl;
    if (
      res.status >= 200 &&
      res.status < 300 &&
      sniffContent(res.contentType, res.body) === 'html'
    ) {
      const html = decodeBody(res.body, res.contentType).text;
      page.html = html;
      try {
        const parsed = parseHtml(html, res.finalUrl);
        const links = parsed.links.map((l) => l.url);
        answer(res.finalUrl, page, parsed.text, links);
        for (const l of links) push(l);
        judge.add(url, res.finalUrl, res.bytes, parsed.text, links);
      } catch {
        // A page whose URL cannot be parsed gives no links.
        seen.add(res.finalUrl);
      }
    }
    out.push(page);
  }
  return { pages: out, requests, failed, settled: judge.settled };
}
