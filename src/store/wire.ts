/**
 * Outcomes with their links already in the form the SQLite store keeps them: a JSON
 * array of `[url, anchor]` pairs. Encoding happens on the caller's thread (the
 * threaded store), so that one string crosses to the store's thread instead of an
 * object per link, and the store writes it as it is.
 */
import type { FetchedPage, FetchFailure, Outcome, PageLink, RedirectResult } from './types.js';

export type EncodedPage = Omit<FetchedPage, 'links'> & { linksJson?: string };

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

/** The outcomes with `links` encoded (validate them first: see validate.ts). */
export function encodeOutcomes(outcomes: readonly Outcome[]): EncodedOutcome[] {
  return outcomes.map((o) => {
    if (o.state === 'error' || o.state === 'redirect' || o.result.links === undefined) {
      return o as EncodedOutcome;
    }
    const { links, ...rest } = o.result;
    return { url: o.url, state: o.state, result: { ...rest, linksJson: encodeLinks(links) } };
  });
}
