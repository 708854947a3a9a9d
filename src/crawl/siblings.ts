/**
 * The links of recently followed pages, in page order, for strategies whose links
 * lend each other evidence (best-first's `siblings`, docs/strategies.md): when a
 * page is judged, the links near its own on the page that linked it get the
 * evidence its relevance lends them, and those whose priority rises are sent
 * again (the store raises a waiting URL's priority; claimed URLs are never sent).
 *
 * A page lends what its relevance exceeds its host's baseline by (the lowest relevance
 * of the host's recent pages: on a site where every page names the product, naming
 * it says nothing of a page's neighbours), rescaled to [0, 1]. It lends only to
 * links in its own directory (same host, same path up to the last /), and only on a
 * page in that directory too (a table of contents lists its own section's pages; a
 * page linking into another directory, as a command's page links its syntax diagrams
 * or a home page its chapters, lists references). Loans are scaled by the page's
 * host's trust: full while the pages that loans raised there
 * are kept as often as its other pages, less as they fall short. A site whose link
 * lists mix subjects ("see also" lists, generated link farms) soon stops lending,
 * while a site whose tables of contents keep to one subject goes on.
 *
 * Memory is bounded: at most `maxLinks` links are remembered, the oldest pages'
 * links forgotten first (a forgotten link simply lends and receives nothing).
 */
import type { ParentInfo, SiblingRule } from '../frontier/index.js';
import type { NewUrl } from '../store/index.js';
import { hostOf } from '../url/index.js';
import { type SeenUrls, sendsAgain } from './seen.js';

/** The links of one followed page. */
interface Family {
  parent: ParentInfo;
  /** The page's directory (`dirOf`): only links and pages in it lend each other. */
  dir: string;
  /** Depth and carried value of its links. */
  depth: number;
  value: number;
  /**
   * Its links' URLs, in page order; null for a link that can take no loan and was not
   * sent from here (not scored: claimed, out of scope), so that it costs no memory.
   */
  urls: (string | null)[];
  /** Each link's evidence so far; NaN for links this page did not score (claimed, out of scope). */
  evidence: number[];
}

/** The URL up to the last `/` of its path (scheme, host and directory). */
function dirOf(url: string): string {
  const q = url.search(/[?#]/);
  const path = q < 0 ? url : url.slice(0, q);
  return path.slice(0, path.lastIndexOf('/') + 1);
}

interface HostRecord {
  /** Pages judged that a loan raised, and how many were kept. */
  lent: number;
  lentKept: number;
  /** The host's other pages judged, and how many were kept. */
  other: number;
  otherKept: number;
  /** The relevance of the host's last judged pages (a ring of BASELINE_PAGES). */
  recent: number[];
  next: number;
}

/** Pages whose relevance sets a host's baseline, and the fewest that set one. */
const BASELINE_PAGES = 32;
const BASELINE_MIN_PAGES = 5;

/**
 * The relevance a host's pages have whatever their subject: the lowest of its last
 * judged pages' (0 until it has BASELINE_MIN_PAGES). On a site where every page names
 * the topic's product, every page is somewhat relevant; what a page lends its
 * neighbours is how much more relevant it is than that. (The lower quartile, tried
 * first, rose on sites whose recent pages were mostly relevant and starved their
 * tables of contents of loans: BENCHMARKS.md.)
 */
export function hostBaseline(recent: readonly number[]): number {
  if (recent.length < BASELINE_MIN_PAGES) return 0;
  let low = Number.POSITIVE_INFINITY;
  for (const r of recent) if (r < low) low = r;
  return low;
}

/** A relevance above the host's baseline, rescaled to [0, 1]. */
export function aboveBaseline(relevance: number, baseline: number): number {
  if (!(baseline < 1)) return 0;
  return Math.max(0, Math.min(1, relevance) - baseline) / (1 - baseline);
}

/** One link of a followed page, as recorded: its evidence is NaN when it was not scored. */
export interface FamilyLink {
  url: string;
  evidence: number;
}

export const DEFAULT_MAX_SIBLING_LINKS = 200_000;

export class SiblingLinks {
  readonly #rule: SiblingRule;
  readonly #seen: SeenUrls;
  readonly #maxLinks: number;
  /** By the page's URL, oldest first. */
  readonly #families = new Map<string, Family>();
  /** Each link sent from a remembered page → that page and its place there. */
  readonly #via = new Map<string, { family: Family; at: number }>();
  #links = 0;
  /** Links raised by a loan and not judged yet. */
  readonly #raised = new Set<string>();
  /** Per host: judged pages that a loan raised and the others, and how many were kept. */
  readonly #record = new Map<string, HostRecord>();

  constructor(rule: SiblingRule, seen: SeenUrls, maxLinks = DEFAULT_MAX_SIBLING_LINKS) {
    this.#rule = rule;
    this.#seen = seen;
    this.#maxLinks = maxLinks;
  }

  /** Remembered links (for tests and figures). */
  get size(): number {
    return this.#links;
  }

  /**
   * The links of a followed page, in page order, and which of them this page sent
   * (a link sent from several pages lends and receives through the last one).
   */
  record(
    pageUrl: string,
    parent: ParentInfo,
    depth: number,
    value: number,
    links: readonly FamilyLink[],
    sent: ReadonlySet<string>,
  ): void {
    if (links.length === 0) return;
    this.#forget(pageUrl);
    const family: Family = {
      parent,
      dir: dirOf(pageUrl),
      depth,
      value,
      urls: links.map((l) => (Number.isNaN(l.evidence) && !sent.has(l.url) ? null : l.url)),
      evidence: links.map((l) => l.evidence),
    };
    this.#families.set(pageUrl, family);
    this.#links += links.length;
    for (let i = 0; i < links.length; i++) {
      const url = (links[i] as FamilyLink).url;
      if (sent.has(url)) this.#via.set(url, { family, at: i });
    }
    while (this.#links > this.#maxLinks && this.#families.size > 1) {
      const oldest = this.#families.keys().next().value as string;
      this.#forget(oldest);
    }
  }

  /**
   * How far loans on `host` are trusted, in [0, 1]: fully while the pages that loans
   * raised there are kept at least as often as its other pages, less by 10× the
   * shortfall (each share counts two kept pages in advance, so that a few pages do
   * not decide).
   */
  trust(host: string): number {
    const r = this.#record.get(host);
    if (r === undefined) return 1;
    const lent = (r.lentKept + 2) / (r.lent + 2);
    const other = (r.otherKept + 2) / (r.other + 2);
    return Math.max(0, Math.min(1, 1 - 10 * (other - lent)));
  }

  /**
   * `url` was judged with `relevance` (kept or not): its neighbours on the page that
   * sent it whose priority rises with the evidence it lends, as URLs to send again.
   */
  lend(url: string, relevance: number, kept: boolean, discoveredAt: number): NewUrl[] {
    const site = hostOf(url) ?? '';
    const r = this.#record.get(site) ?? {
      lent: 0,
      lentKept: 0,
      other: 0,
      otherKept: 0,
      recent: [],
      next: 0,
    };
    this.#record.set(site, r);
    const base = hostBaseline(r.recent);
    r.recent[r.next] = relevance;
    r.next = (r.next + 1) % BASELINE_PAGES;
    if (this.#raised.delete(url)) {
      r.lent++;
      if (kept) r.lentKept++;
    } else {
      r.other++;
      if (kept) r.otherKept++;
    }
    const via = this.#via.get(url);
    if (via === undefined) return [];
    this.#via.delete(url);
    const { family, at } = via;
    const out: NewUrl[] = [];
    const rule = this.#rule;
    const trust = this.trust(site);
    const dir = dirOf(url);
    // A page lends on a page of its own directory only: that page lists its section.
    if (!(trust > 0) || dir !== family.dir) return [];
    for (let d = 1; d <= rule.window; d++) {
      const lent = trust * rule.lend(aboveBaseline(relevance, base), d);
      if (!(lent > 0)) break;
      for (const i of [at - d, at + d]) {
        const had = family.evidence[i];
        // Unscored links (NaN) and links already lent as much are left alone.
        const target = family.urls[i];
        if (had === undefined || !(lent > had) || target == null) continue;
        // Only links in the judged page's own directory (same host, same path up to
        // the last /): a list's entries elsewhere are not one table of contents'.
        if (dirOf(target) !== dir) continue;
        family.evidence[i] = lent;
        const priority = rule.priority(family.parent, lent);
        if (!sendsAgain(this.#seen.sent(target), priority)) continue;
        this.#seen.addChecked(priority);
        this.#raise(target);
        const item: NewUrl = { url: target, depth: family.depth, priority, discoveredAt };
        if (family.value !== 0) item.value = family.value;
        out.push(item);
      }
    }
    return out;
  }

  /** Remembers a raised link until it is judged (the oldest forgotten past the bound). */
  #raise(url: string): void {
    this.#raised.delete(url);
    this.#raised.add(url);
    if (this.#raised.size > this.#maxLinks) {
      this.#raised.delete(this.#raised.values().next().value as string);
    }
  }

  #forget(pageUrl: string): void {
    const family = this.#families.get(pageUrl);
    if (family === undefined) return;
    this.#families.delete(pageUrl);
    this.#links -= family.urls.length;
    for (const url of family.urls) {
      if (url !== null && this.#via.get(url)?.family === family) this.#via.delete(url);
    }
  }
}
