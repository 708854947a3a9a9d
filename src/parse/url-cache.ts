/**
 * canonicalizeUrl with a bounded cache shared across pages: navigation links repeat
 * on every page of a site, and parsing a URL costs more than looking it up.
 *
 * Keys: an absolute http(s) href is its own key; a root-relative href ('/x', not
 * '//x' or '/\x') depends only on the base's origin; anything else on the whole
 * base URL. Bases and origins are serialised URLs, which never hold U+0001, so
 * `prefix + '\u0001' + href` keys cannot collide.
 */
import { canonicalizeUrl } from '../url/index.js';

const MAX_ENTRIES = 20_000;
const absolute = new Map<string, string | null>();
const relative = new Map<string, string | null>();

function isHttpAbsolute(h: string): boolean {
  return h.startsWith('http://') || h.startsWith('https://');
}

/** The origin part ('http://host:port') of a serialised absolute URL. */
export function originOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? url : url.slice(0, slash);
}

/** canonicalizeUrl(href, base), cached; `origin` must be originOf(base). */
export function resolveHref(href: string, base: string, origin: string): string | null {
  if (isHttpAbsolute(href)) {
    let url = absolute.get(href);
    if (url === undefined) {
      url = canonicalizeUrl(href);
      if (absolute.size >= MAX_ENTRIES) absolute.clear();
      absolute.set(href, url);
    }
    return url;
  }
  const c1 = href.charCodeAt(1);
  const rootRelative = href.charCodeAt(0) === 0x2f && c1 !== 0x2f && c1 !== 0x5c;
  const key = `${rootRelative ? origin : base}\u0001${href}`;
  let url = relative.get(key);
  if (url === undefined) {
    url = canonicalizeUrl(href, base);
    if (relative.size >= MAX_ENTRIES) relative.clear();
    relative.set(key, url);
  }
  return url;
}
