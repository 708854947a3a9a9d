/**
 * The text index's coverage of the kept pages (`SearchIndex.textCoverage`,
 * `unindexedPages`, `indexTexts`): pages kept while full text was off are not in it,
 * and a later run that turns it on puts them in from their stored bodies.
 */
import { checkArray, checkInt, checkUrl, fail, show } from './validate-basics.js';

/** How many kept pages there are, and how many of them the text index holds. */
export interface TextCoverage {
  kept: number;
  indexed: number;
}

/** Which kept pages `unindexedPages` returns. */
export interface UnindexedPagesOptions {
  /** At most this many (an integer 1 … 10000). */
  limit: number;
  /** Those after this page in discovery order (a URL it returned before); from the first when unset. */
  after?: string | undefined;
}

/** A kept page the text index does not hold. */
export interface UnindexedPage {
  url: string;
  contentType: string | null;
  /** Whether its body is stored (`storeBodies`), from which its text can be read again. */
  hasBody: boolean;
}

/** A kept page's title and text, for the index (`indexTexts`). */
export interface PageText {
  url: string;
  title: string | null;
  text: string;
}

/** Most pages `unindexedPages` returns at once. */
export const MAX_UNINDEXED = 10_000;

/** Checks `unindexedPages`' options; returns them. */
export function checkUnindexedOptions(where: string, options: unknown): UnindexedPagesOptions {
  if (typeof options !== 'object' || options === null) {
    fail(where, `expected { limit, after? }, got ${show(options)}`);
  }
  const o = options as UnindexedPagesOptions;
  checkInt(`${where}.limit`, o.limit, 1);
  if (o.limit > MAX_UNINDEXED) fail(`${where}.limit`, `expected at most ${MAX_UNINDEXED}`);
  if (o.after !== undefined) checkUrl(`${where}.after`, o.after);
  return o;
}

/** Checks `indexTexts`' items: each a URL, a string text and a string or null title. */
export function checkPageTexts(where: string, items: unknown): asserts items is PageText[] {
  checkArray(where, items);
  items.forEach((item, i) => {
    const at = `${where}[${i}]`;
    if (typeof item !== 'object' || item === null) {
      fail(at, `expected { url, title, text }, got ${show(item)}`);
    }
    const t = item as PageText;
    checkUrl(`${at}.url`, t.url);
    if (typeof t.text !== 'string') fail(`${at}.text`, `expected a string, got ${show(t.text)}`);
    if (t.title !== null && typeof t.title !== 'string') {
      fail(`${at}.title`, `expected a string or null, got ${show(t.title)}`);
    }
  });
}
