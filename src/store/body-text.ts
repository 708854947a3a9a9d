/**
 * The indexed text of a stored body, for the SQLite store's snippets (its index keeps
 * no text: schema V12): the body parsed as the crawl parses a fetched page
 * (`visibleText`, as crawl/text-backfill.ts indexes it) and segmented as the index
 * segments it. Loaded on the first search that needs it, so that a crawl's store
 * thread does not carry the parser.
 */
import { visibleText } from '../parse/index.js';
import { segmentForIndex } from '../search/index.js';

export function indexedTextOfBody(body: Buffer, contentType: string | null, url: string): string {
  return segmentForIndex(visibleText(body, contentType ?? undefined, url) ?? '');
}
