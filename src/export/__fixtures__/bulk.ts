// A large store built fast (addUrls, claim and commit in batches), for the streaming
// tests of the export and bench/export.ts.
import { type Outcome, openStore, type Store } from '../../store/index.js';
import { T0 } from '../testing.js';

export interface BulkOptions {
  /** Pages to store. */
  pages: number;
  /** Bytes of each page's body, about. @default 2000 */
  bodyBytes?: number;
  /** URLs added, claimed and committed at a time. @default 1000 */
  batch?: number;
}

const WORDS = ['显示器', 'market', 'price', '电网', 'panel', 'news', '价格', 'report'];

/** The HTML body of page `i`, about `size` bytes. */
export function bulkBody(i: number, size: number): Buffer {
  let text = '';
  for (let k = 0; text.length < size; k++) text += `${WORDS[(i + k) % WORDS.length]} ${k} `;
  return Buffer.from(
    `<html><head><title>Page ${i}</title></head><body><p>${text}</p></body></html>`,
    'utf8',
  );
}

/** The URL of page `i`. */
export const bulkUrl = (i: number): string => `http://h${i % 50}.bulk.test/page/${i}`;

/**
 * Fills `store` with `pages` complete pages, each with a body and fields of two rule
 * sets (`article`: title, a list of three tags, a price that is null on every
 * third page; `meta` on even pages: lang).
 */
export async function fillBulkStore(store: Store, o: BulkOptions): Promise<void> {
  const size = o.bodyBytes ?? 2000;
  const batch = o.batch ?? 1000;
  for (let from = 0; from < o.pages; from += batch) {
    const n = Math.min(batch, o.pages - from);
    const urls = Array.from({ length: n }, (_, k) => bulkUrl(from + k));
    await store.addUrls(urls.map((url) => ({ url, depth: 1, priority: 0, discoveredAt: T0 })));
    const claimed = await store.claim(n);
    const outcomes: Outcome[] = claimed.map((c) => {
      const i = Number(c.url.slice(c.url.lastIndexOf('/') + 1));
      const body = bulkBody(i, size);
      return {
        url: c.url,
        state: 'complete',
        result: {
          fetchedAt: T0 + i,
          status: 200,
          contentType: 'text/html; charset=utf-8',
          bytes: body.length,
          title: `Page ${i}: ${WORDS[i % WORDS.length]}`,
          relevance: (i % 100) / 100,
          body,
          etag: `"e${i}"`,
          fields: [
            { ruleSet: 'article', field: 'price', position: 0, value: i % 3 ? `${i}.00` : null },
            { ruleSet: 'article', field: 'tags', position: 0, value: 'a' },
            { ruleSet: 'article', field: 'tags', position: 1, value: `t${i % 7}` },
            { ruleSet: 'article', field: 'tags', position: 2, value: '价格' },
            { ruleSet: 'article', field: 'title', position: 0, value: `Title ${i}` },
            ...(i % 2 === 0 ? [{ ruleSet: 'meta', field: 'lang', position: 0, value: 'zh' }] : []),
          ],
        },
      };
    });
    await store.commit(outcomes);
  }
}

/** A new SQLite store in `dir` with `o.pages` pages (see `fillBulkStore`), closed. */
export async function buildBulkStore(dir: string, o: BulkOptions): Promise<void> {
  const store = await openStore(dir, { create: true });
  try {
    await fillBulkStore(store, o);
  } finally {
    await store.close();
  }
}
