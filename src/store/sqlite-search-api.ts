/**
 * The SQLite store's `SearchIndex` (FTS5, sqlite-search.ts), set on the store in its
 * constructor (sqlite.ts). Every call that reads the index first indexes the texts
 * still queued (`flush`: the threaded store's text queue, text-queue.ts), so that it
 * sees every page committed before it.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { SearchIndex } from './contracts.js';
import type { SqliteSearch } from './sqlite-search.js';
import type { FoundUrl } from './sqlite-statements.js';
import type { UrlIndex } from './sqlite-urls.js';
import { checkPageTexts, checkUnindexedOptions } from './text-types.js';

export interface SearchContext {
  search: SqliteSearch;
  find: (url: string) => FoundUrl | undefined;
  sync: <T>(op: string, fn: () => T) => T;
  tx: <T>(op: string, fn: (ix: UrlIndex) => T) => T;
  /** Indexes the queued texts. */
  flush: () => void;
}

export function searchMethods(c: SearchContext): SearchIndex {
  return {
    async search(options) {
      c.flush();
      return c.sync('search', () => c.search.search(options));
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
