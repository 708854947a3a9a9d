/**
 * The sample a site model is learnt from, and its preparation: URLs canonicalised,
 * redirects resolved, HTML parsed once for visible text, links and layout.
 *
 * A page whose fetch ended at another URL (`finalUrl`) is a redirect: it is a
 * duplicate of its target. When the target is a page of the sample too, the redirect
 * takes the target's place in the layout; otherwise the target is added to the sample
 * from the redirect's body. Pages left out: an HTTP status outside 200–299 (a
 * redirect not followed, an error), a URL that is not http(s), a URL met before, a
 * redirect to another host than the sample's.
 */
import { parseHtml } from '../parse/index.js';
import { canonicalizeUrl, patternOf } from '../url/index.js';
import { type LayoutCounts, type LayoutOptions, layoutCounts } from './layout.js';

/** One fetched page of the sample. */
export interface SamplePage {
  /** The URL that was fetched. */
  url: string;
  /** Final HTTP status (after redirects were followed). */
  status: number;
  /** The decoded HTML; without it, `text` (and `links`) describe the page and it has no layout. */
  html?: string;
  /** Visible text, when `html` is not given. */
  text?: string;
  /** Absolute URLs the page links to, when `html` is not given. */
  links?: readonly string[];
  /** Where the fetch ended, when it was redirected. */
  finalUrl?: string;
  /** Size of the body in bytes (default: the UTF-8 length of `html`, else of `text`). */
  bytes?: number;
}

/** Why pages were left out. */
export interface SkippedPages {
  status: number;
  invalidUrl: number;
  repeated: number;
  offSite: number;
}

/** A page ready for learning. */
export interface PreparedPage {
  url: string;
  /** patternOf(url): the finest pattern, the unit of the content split. */
  fine: string;
  bytes: number;
  /** Visible text, blocks on their own lines. */
  text: string;
  /** Canonical same-site links (the page itself left out), each once. */
  links: string[];
  layout: LayoutCounts;
  /** Index of the page this one redirected to. */
  redirectTo?: number;
}

export interface PreparedSample {
  pages: PreparedPage[];
  hosts: string[];
  skipped: SkippedPages;
}

function byteLength(s: string | undefined): number {
  return s === undefined ? 0 : Buffer.byteLength(s, 'utf8');
}

/** Text and links of a page's body. */
function readBody(page: SamplePage, at: string): { text: string; links: string[] } {
  if (page.html !== undefined) {
    const parsed = parseHtml(page.html, at);
    return { text: parsed.text, links: parsed.links.map((l) => l.url) };
  }
  const links: string[] = [];
  for (const l of page.links ?? []) {
    const c = canonicalizeUrl(l, at);
    if (c !== null) links.push(c);
  }
  return { text: page.text ?? '', links };
}

/** Canonicalises, resolves redirects and parses a sample. */
export function prepareSample(
  sample: readonly SamplePage[],
  layout: LayoutOptions,
): PreparedSample {
  const skipped: SkippedPages = { status: 0, invalidUrl: 0, repeated: 0, offSite: 0 };
  const hosts = new Set<string>();
  const kept: { page: SamplePage; url: string; final: string }[] = [];
  const seen = new Set<string>();
  for (const page of sample) {
    const url = canonicalizeUrl(page.url);
    const final = page.finalUrl === undefined ? url : canonicalizeUrl(page.finalUrl);
    if (url === null || final === null) {
      skipped.invalidUrl++;
      continue;
    }
    if (!(page.status >= 200 && page.status <= 299)) {
      skipped.status++;
      continue;
    }
    if (seen.has(url)) {
      skipped.repeated++;
      continue;
    }
    seen.add(url);
    hosts.add(new URL(url).host);
    kept.push({ page, url, final });
  }

  const pages: PreparedPage[] = [];
  const index = new Map<string, number>();
  const add = (page: SamplePage, url: string, at: string): number => {
    const { text, links } = readBody(page, at);
    const own = new Set<string>([url]);
    const sameSite = links.filter((l) => {
      if (own.has(l) || !hosts.has(new URL(l).host)) return false;
      own.add(l);
      return true;
    });
    pages.push({
      url,
      fine: patternOf(url),
      bytes:
        page.bytes ?? (page.html !== undefined ? byteLength(page.html) : byteLength(page.text)),
      text,
      links: sameSite,
      layout: page.html === undefined ? new Map() : layoutCounts(page.html, layout),
    });
    index.set(url, pages.length - 1);
    return pages.length - 1;
  };
  // Pages that were not redirected first, so that a redirect finds its target.
  for (const k of kept) if (k.final === k.url) add(k.page, k.url, k.url);
  for (const k of kept) {
    if (k.final === k.url) continue;
    if (!hosts.has(new URL(k.final).host)) {
      skipped.offSite++;
      continue;
    }
    const target = index.get(k.final) ?? add(k.page, k.final, k.final);
    const source = index.get(k.url) ?? add(k.page, k.url, k.final);
    if (source !== target) pages[source]!.redirectTo = target;
  }
  settleRedirects(pages);
  return { pages, hosts: [...hosts].sort(), skipped };
}

/**
 * Points every redirect at the end of its chain (a target that itself redirected, in
 * an inconsistent sample); pages on a cycle of redirects are taken as plain pages.
 */
function settleRedirects(pages: PreparedPage[]): void {
  const ends = pages.map((_, i) => {
    let at = i;
    for (let steps = 0; steps <= pages.length; steps++) {
      const next = pages[at]!.redirectTo;
      if (next === undefined) return at;
      at = next;
    }
    return -1;
  });
  pages.forEach((p, i) => {
    const end = ends[i]!;
    if (end < 0 || end === i) delete p.redirectTo;
    else p.redirectTo = end;
  });
}
