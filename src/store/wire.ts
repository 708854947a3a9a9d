/**
 * Outcomes with their links already in the form the SQLite store keeps them: a JSON
 * array of `[url, anchor]` pairs, and, asked for, a kept page's title and text in the
 * form its full-text index keeps them (`segmentForIndex`). Encoding happens on the
 * caller's thread (the threaded store), so that one string crosses to the store's
 * thread instead of an object per link, the text is segmented there, and the store
 * writes both as they are.
 */
import { segmentForIndex } from '../search/index.js';
import type { FetchedPage, FetchFailure, Outcome, PageLink, RedirectResult } from './types.js';

export type EncodedPage = Omit<FetchedPage, 'links'> & {
  linksJson?: string;
  /** The title and text as the full-text index keeps them; `text` is left out then. */
  indexed?: [title: string, text: string];
};

export type EncodedOutcome =
  | { url: string; state: 'complete' | 'discard'; result: EncodedPage }
  | { url: string; state: 'error'; result: FetchFailure }
  | { url: string; state: 'redirect'; result: RedirectResult };

export function encodeLinks(links: readonly PageLink[]): string {
  const pairs = new Array<[string, string | null]>(links.length);
  for (let i = 0; i < links.length; i++) {
    const l = links[i] as PageLink;
    pairs[i] = [l.url, l.anchor ?? null];
  }
  return JSON.stringify(pairs);
}

/** Whether the SQLite store indexes the text of `o` (a kept page with a text or title). */
export function indexesText(o: Outcome | EncodedOutcome): boolean {
  if (o.state !== 'complete') return false;
  const p = o.result;
  return typeof p.text === 'string' && (p.text !== '' || (p.title ?? '') !== '');
}

/**
 * The outcomes with `links` encoded and, with `segment`, the texts the SQLite store
 * indexes segmented (validate them first: see validate.ts).
 */
export function encodeOutcomes(outcomes: readonly Outcome[], segment = false): EncodedOutcome[] {
  return outcomes.map((o) => {
    if (o.state === 'error' || o.state === 'redirect') return o;
    const index = segment && indexesText(o);
    if (o.result.links === undefined && !index) return o as EncodedOutcome;
    const { links, ...result }: EncodedPage & Pick<FetchedPage, 'links'> = o.result;
    if (links !== undefined) result.linksJson = encodeLinks(links);
    if (index) {
      result.indexed = [
        segmentForIndex(result.title ?? ''),
        segmentForIndex(result.text as string),
      ];
      delete result.text;
    }
    return { url: o.url, state: o.state, result };
  });
}
