/**
 * `focuscrawl extract`: the rules run again over a store's stored bodies, without
 * fetching: every page with a body gets the fields the rules give it now (replacing
 * what it had; a page no rule set matches any more loses its fields), written in
 * batches, one transaction each (`Store.replaceFields`).
 */
import { extractPage, fieldRows, matchingRuleSets, type Rules } from '../extract/index.js';
import { decodeBody, sniffContent } from '../fetch/charset/index.js';
import type { FieldValue, PageRecord, Store } from '../store/index.js';

/** Pages written per transaction. */
const BATCH = 500;

export interface ReextractSummary {
  /** Pages of the store. */
  pages: number;
  /** Pages without a stored body (not judged; their fields are left as they were). */
  noBody: number;
  /** Pages a rule set matched. */
  matched: number;
}

/** Re-runs `rules` over `store`'s stored bodies; `onPage` is told the pages done so far. */
export async function reextract(
  store: Store,
  rules: Rules,
  onPage?: (done: number) => void,
): Promise<ReextractSummary> {
  const sum: ReextractSummary = { pages: 0, noBody: 0, matched: 0 };
  let batch: { url: string; fields: FieldValue[] }[] = [];
  const flush = async () => {
    if (batch.length > 0) await store.replaceFields(batch);
    batch = [];
  };
  for await (const p of store.pages() as AsyncIterable<PageRecord>) {
    sum.pages++;
    const fields = await pageFields(store, rules, p);
    if (fields === null) sum.noBody++;
    else {
      if (fields.length > 0) sum.matched++;
      batch.push({ url: p.url, fields });
      if (batch.length >= BATCH) await flush();
    }
    onPage?.(sum.pages);
  }
  await flush();
  return sum;
}

/** A stored page's fields by `rules`; null when its body is not stored. */
async function pageFields(store: Store, rules: Rules, p: PageRecord): Promise<FieldValue[] | null> {
  if (matchingRuleSets(rules, p.url).length === 0) return [];
  const body = await store.readBody(p.url);
  if (body === null) return null;
  if (sniffContent(p.contentType ?? undefined, body) !== 'html') return [];
  const html = decodeBody(body, p.contentType ?? undefined).text;
  return fieldRows(extractPage(rules, { url: p.url, html }));
}
