/** `search` on the memory store: the kept pages' texts in a `MemoryTextIndex`. */
import {
  blendScore,
  cutSnippet,
  MARKS,
  MemoryTextIndex,
  segmentForIndex,
  unsegment,
} from '../search/index.js';
import type { PageRecord, TextHit, TextSearch } from './types.js';
import { checkSearch } from './validate.js';

export class MemoryText {
  readonly #index = new MemoryTextIndex();
  /** id → URL of the indexed pages. */
  readonly #urls = new Map<number, string>();

  add(id: number, url: string, title: string | null | undefined, text: string): void {
    this.#index.add(id, segmentForIndex(title ?? ''), segmentForIndex(text));
    this.#urls.set(id, url);
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
