/** `search` on the memory store: the kept pages' texts in a `MemoryTextIndex`. */
import { InvalidOptionError } from '../errors/index.js';
import {
  blendScore,
  cutSnippet,
  MARKS,
  MemoryTextIndex,
  segmentForIndex,
  unsegment,
} from '../search/index.js';
import type { PageText, TextCoverage, UnindexedPage, UnindexedPagesOptions } from './text-types.js';
import type { PageRecord, TextHit, TextSearch } from './types.js';
import { checkSearch } from './validate.js';

/** A page as the memory store records it: with its URL's id. */
type IdPage = PageRecord & { id: number };

export class MemoryText {
  readonly #index = new MemoryTextIndex();
  /** id → URL of the indexed pages. */
  readonly #urls = new Map<number, string>();

  add(id: number, url: string, title: string | null | undefined, text: string): void {
    this.#index.add(id, segmentForIndex(title ?? ''), segmentForIndex(text));
    this.#urls.set(id, url);
  }

  coverage(pages: Iterable<IdPage>): TextCoverage {
    const c = { kept: 0, indexed: 0 };
    for (const p of pages) {
      if (p.state !== 'complete') continue;
      c.kept++;
      if (this.#urls.has(p.id)) c.indexed++;
    }
    return c;
  }

  /** Kept pages of `pages` not indexed, in discovery order (`hasBody`: whether a body is kept). */
  unindexed(
    pages: Iterable<IdPage>,
    o: UnindexedPagesOptions,
    hasBody: (url: string) => boolean,
  ): UnindexedPage[] {
    const list = [...pages].sort((a, b) => a.id - b.id);
    let from = 0;
    if (o.after !== undefined) {
      const at = list.findIndex((p) => p.url === o.after);
      if (at < 0) {
        throw new InvalidOptionError(
          `unindexedPages options.after: ${o.after} is not in the store`,
        );
      }
      from = at + 1;
    }
    const out: UnindexedPage[] = [];
    for (const p of list.slice(from)) {
      if (out.length >= o.limit) break;
      if (p.state !== 'complete' || this.#urls.has(p.id)) continue;
      out.push({ url: p.url, contentType: p.contentType, hasBody: hasBody(p.url) });
    }
    return out;
  }

  /** Indexes the items that are kept pages not indexed yet; returns how many. */
  addKept(items: readonly PageText[], page: (url: string) => IdPage | undefined): number {
    let n = 0;
    for (const t of items) {
      const p = page(t.url);
      if (p === undefined || p.state !== 'complete' || this.#urls.has(p.id)) continue;
      this.add(p.id, p.url, t.title, t.text);
      n++;
    }
    return n;
  }

  search(options: TextSearch, page: (url: string) => PageRecord | undefined): TextHit[] {
    const o = checkSearch('search options', options);
    const { terms } = o;
    const found = this.#index.search(terms);
    const max = found.reduce((m, h) => Math.max(m, h.bm25), 0);
    const hits: (Omit<TextHit, 'snippet'> & { id: number })[] = [];
    for (const h of found) {
      const url = this.#urls.get(h.id) as string;
      const p = page(url);
      if (p === undefined) continue;
      hits.push({
        id: h.id,
        url,
        title: p.title,
        relevance: p.relevance,
        pageRank: p.pageRank,
        score: p.score,
        bm25: h.bm25,
        rank: blendScore(h.bm25, max, p.score ?? p.relevance, o.scoreWeight),
      });
    }
    hits.sort((a, b) => b.rank - a.rank || a.id - b.id);
    return hits.slice(0, o.limit).map(({ id, ...hit }) => ({
      ...hit,
      snippet: unsegment(cutSnippet(this.#index.highlight(id, terms)), MARKS),
    }));
  }
}
