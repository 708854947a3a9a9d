/**
 * Full text turned on in a store crawled without it: before the first fetch of a run
 * with `fullText: 'kept'`, the kept pages the text index lacks (kept by runs with
 * `fullText: 'none'`) are indexed from their stored bodies, parsed as the crawl parses
 * a fetched page (page/judge.ts: `analyzeBody`, its text and title), so that every
 * kept page can be found by `search`. Pages whose body was not stored
 * (`storeBodies: 'none'`) cannot be: they are counted, and the run says so.
 */
import { analyzeBody, type ParseOptions } from '../parse/index.js';
import type { PageText, Store } from '../store/index.js';

/** Pages read, parsed and indexed per round (one transaction each). */
const BATCH = 200;

export interface TextBackfill {
  /** Kept pages indexed from their stored bodies. */
  indexed: number;
  /** Kept pages the index lacks whose body was not stored. */
  noBody: number;
}

/** Indexes the kept pages of `store` that the text index lacks and whose bodies it kept. */
export async function indexKeptPages(store: Store, parse: ParseOptions): Promise<TextBackfill> {
  const sum: TextBackfill = { indexed: 0, noBody: 0 };
  let after: string | undefined;
  for (;;) {
    const batch = await store.unindexedPages({ limit: BATCH, after });
    const last = batch.at(-1);
    if (last === undefined) return sum;
    after = last.url;
    const texts: PageText[] = [];
    for (const p of batch) {
      const body = p.hasBody ? await store.readBody(p.url) : null;
      if (body === null) {
        sum.noBody++;
        continue;
      }
      const a = analyzeBody(body, p.contentType ?? undefined, p.url, parse);
      texts.push({ url: p.url, title: a.page?.title ?? null, text: a.page?.text ?? a.text ?? '' });
    }
    if (texts.length > 0) sum.indexed += await store.indexTexts(texts);
  }
}

/** What the run tells the user of a backfill (nothing when there was none). */
export function backfillMessages(b: TextBackfill): string[] {
  const out: string[] = [];
  if (b.indexed > 0) {
    out.push(
      `full text: indexed ${b.indexed} kept pages crawled without --full-text kept, from their stored bodies: search finds them now`,
    );
  }
  if (b.noBody > 0) {
    out.push(
      `full text: ${b.noBody} kept pages were crawled without full text and have no stored body (--store-bodies none): they are not searchable`,
    );
  }
  return out;
}

/** The backfill of a run with full text on a resumed store, as messages for the user. */
export async function backfillText(store: Store, parse: ParseOptions): Promise<string[]> {
  return backfillMessages(await indexKeptPages(store, parse));
}
