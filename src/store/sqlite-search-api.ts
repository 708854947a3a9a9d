/**
 * The SQLite store's `SearchIndex` (FTS5, sqlite-search.ts), set on the store in its
 * constructor (sqlite.ts). Every call that reads the index first indexes the texts
 * still queued (`flush`: the threaded store's text queue, text-queue.ts), so that it
 * sees every page committed before it.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { SearchIndex } from './contracts.js';
import { queryPhrases, snippetOf } from './search-hits.js';
import type { SnippetSource, SqliteSearch } from './sqlite-search.js';
import type { FoundUrl } from './sqlite-statements.js';
import type { UrlIndex } from './sqlite-urls.js';
import { checkPageTexts, checkUnindexedOptions } from './text-types.js';
import type { TextHit } from './types.js';

export interface SearchContext {
  search: SqliteSearch;
  find: (url: string) => FoundUrl | undefined;
  sync: <T>(op: string, fn: () => T) => T;
  tx: <T>(op: string, fn: (ix: UrlIndex) => T) => T;
  /** Indexes the queued texts. */
  flush: () => void;
  /** A page's stored body, from its body file. */
  readBody: (url: string, file: string) => Promise<Buffer>;
}

export function searchMethods(c: SearchContext): SearchIndex {
  return {
    async search(options) {
      c.flush();
      const { hits, sources, terms } = c.sync('search', () => c.search.search(options));
      const phrases = queryPhrases(terms);
      const fromBody = sources.some((s) => s.body_file !== null)
        ? (await import('./body-text.js')).indexedTextOfBody
        : null;
      for (let i = 0; i < hits.length; i++) {
        const hit = hits[i] as TextHit;
        const s = sources[i] as SnippetSource;
        // The body when the page has one (the text it was indexed from), else the text
        // kept for a page stored without it. A body file gone since (the page fetched
        // again) or unreadable falls back to that text, or leaves the snippet empty;
        // `focuscrawl check` reports missing page files.
        let text: string | null = null;
        if (s.body_file !== null && fromBody !== null) {
          const body = await c.readBody(hit.url, s.body_file).catch(() => null);
          if (body !== null) text = fromBody(body, s.content_type, hit.url);
        }
        text ??= s.text;
        if (text !== null) hit.snippet = snippetOf(text, phrases);
      }
      return hits;
    },

    async textCoverage() {
      c.flush();
      return c.sync('textCoverage', () => c.search.coverage());
    },

    async unindexedPages(options) {
      const o = checkUnindexedOptions('unindexedPages options', options);
      c.flush();
      return c.sync('unindexedPages', () => {
        const after = o.after === undefined ? 0 : c.find(o.after)?.id;
        if (after === undefined) {
          throw new InvalidOptionError(
            `unindexedPages options.after: ${o.after} is not in the store`,
          );
        }
        return c.search.unindexed(after, o.limit);
      });
    },

    async indexTexts(items) {
      checkPageTexts('indexTexts', items);
      c.flush();
      return c.tx('indexTexts', (ix) => c.search.index(ix, items));
    },
  };
}
