/** Checks of the redirect hops of an outcome (`FetchedPage.redirects`, `RedirectResult`). */
import type { RedirectResult, RedirectStep } from './types.js';
import { checkArray, checkFinite, fail, isHttpUrl, show } from './validate-basics.js';

/**
 * Whether `url` looks canonical (`canonicalizeUrl`'s output): an absolute http(s)
 * URL with a host, without a fragment, spaces or control characters.
 */
function looksCanonical(url: unknown): url is string {
  if (!isHttpUrl(url)) return false;
  const start = url.charCodeAt(4) === 58 /* : */ ? 7 : 8;
  if (url.length <= start || url.charCodeAt(start) === 47 /* / */) return false;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c <= 32 || c === 35 /* # */ || c === 127) return false;
  }
  return true;
}

/**
 * Checks the redirect hops of an outcome (`FetchedPage.redirects`): each an object
 * with canonical-looking `url` and `location` and a 3xx `status`, `[0].url` the
 * outcome's URL, each next `url` the previous `location`.
 */
export function checkRedirects(
  where: string,
  url: string,
  steps: unknown,
  required: boolean,
): void {
  checkArray(where, steps);
  if (required && steps.length === 0) fail(where, 'expected at least one redirect step, got none');
  let expected = url;
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i] as RedirectStep;
    const at = `${where}[${i}]`;
    if (typeof st !== 'object' || st === null) fail(at, `expected an object, got ${show(st)}`);
    if (!looksCanonical(st.url)) {
      fail(`${at}.url`, `expected a canonical absolute http(s) URL, got ${show(st.url)}`);
    }
    if (st.url !== expected) {
      fail(
        `${at}.url`,
        i === 0
          ? `expected the outcome's URL ${show(url)}, got ${show(st.url)}`
          : `expected the previous location ${show(expected)}, got ${show(st.url)}`,
      );
    }
    if (!Number.isInteger(st.status) || st.status < 300 || st.status > 399) {
      fail(`${at}.status`, `expected a redirect status 300 … 399, got ${show(st.status)}`);
    }
    if (!looksCanonical(st.location)) {
      fail(`${at}.location`, `expected a canonical absolute http(s) URL, got ${show(st.location)}`);
    }
    expected = st.location;
  }
}

export function checkRedirectResult(where: string, r: RedirectResult): void {
  if (typeof r !== 'object' || r === null) fail(where, `expected an object, got ${show(r)}`);
  checkFinite(`${where}.fetchedAt`, r.fetchedAt);
}
