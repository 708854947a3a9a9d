/**
 * canonicalizeUrl with a bounded cache shared across pages: navigation links repeat
 * on every page of a site, and parsing a URL costs more than looking it up.
 *
 * Hrefs that are canonical as they are (most absolute links, most root-relative ones
 * on a canonical origin) skip both the cache and the parser.
 *
 * Keys: an absolute http(s) href is its own key; a root-relative href ('/x', not
 * '//x' or '/\x') depends only on the base's origin; anything else on the whole
 * base URL (a map of maps: prefix, then href).
 */
import { canonicalizeUrl } from '../url/index.js';

const MAX_ENTRIES = 20_000;
const absolute = new Map<string, string | null>();
const MAX_PREFIXES = 2_000;
const relative = new Map<string, Map<string, string | null>>();
let relativeEntries = 0;

function isHttpAbsolute(h: string): boolean {
  return h.startsWith('http://') || h.startsWith('https://');
}

// Hrefs that canonicalizeUrl returns unchanged, recognised without parsing (a regular
// expression is faster here than a char-code loop). Path and query hold only ASCII
// letters, digits and -._~!$&()*+,;=:@/ (no `%`, `'`, `\\`, `#`, spaces, controls,
// non-ASCII: URL parsing would encode them), no `.` or `..` segment, no default page
// (`/index.html`), no empty query. The host is lower-case ASCII labels without
// leading, trailing or double hyphens (no IDN), no port or user, and its last label
// starts with a letter (so it is not an IPv4 number).
const PATH = String.raw`(?:\/(?!\.\.?(?:[/?]|$))[-A-Za-z0-9._~!$&()*+,;=:@]*)+(?<!\/index\.html?)(?:\?[-A-Za-z0-9._~!$&()*+,;=:@/?]+)?$`;
const PATH_AS_IS = new RegExp(`^${PATH}`);
const URL_AS_IS = new RegExp(
  String.raw`^https?:\/\/(?:[a-z0-9]+(?:-[a-z0-9]+)*\.)*[a-z][a-z0-9]*(?:-[a-z0-9]+)*${PATH}`,
);

/** Whether a root-relative href (path and query) comes out of canonicalizeUrl as it is. */
export function pathAsIs(h: string): boolean {
  return PATH_AS_IS.test(h);
}

/** Whether an absolute http(s) URL is already canonical (false when unsure). */
export function canonicalAsIs(h: string): boolean {
  return URL_AS_IS.test(h);
}

/** The origin part ('http://host:port') of a serialised absolute URL. */
export function originOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? url : url.slice(0, slash);
}

/**
 * A copy of `s` that does not keep alive the string it was cut from. Hrefs are
 * slices of the whole document: a URL kept for long (a cache key, a crawler's set
 * of seen URLs) would otherwise keep the entire page in memory.
 */
export function detach(s: string): string {
  return (' ' + s).slice(1);
}

/**
 * canonicalizeUrl(href, base), cached; the URLs returned never retain the document. `origin` must be originOf(base), and
 * `originAsIs` canonicalAsIs(origin + '/').
 */
export function resolveHref(
  href: string,
  base: string,
  origin: string,
  originAsIs = false,
): string | null {
  if (isHttpAbsolute(href)) {
    if (canonicalAsIs(href)) return detach(href);
    let url = absolute.get(href);
    if (url === undefined) {
      url = canonicalizeUrl(href);
      if (url !== null) url = detach(url);
      if (absolute.size >= MAX_ENTRIES) absolute.clear();
      absolute.set(detach(href), url);
    }
    return url;
  }
  const c1 = href.charCodeAt(1);
  const rootRelative = href.charCodeAt(0) === 0x2f && c1 !== 0x2f && c1 !== 0x5c;
  if (rootRelative && originAsIs && pathAsIs(href)) return detach(origin + href);
  // Two levels (prefix → href) rather than one concatenated key: no string is built
  // and hashed per link on the hot path.
  const prefix = rootRelative ? origin : base;
  let byHref = relative.get(prefix);
  if (byHref === undefined) {
    if (relative.size >= MAX_PREFIXES) {
      relative.clear();
      relativeEntries = 0;
    }
    byHref = new Map();
    relative.set(detach(prefix), byHref);
  }
  let url = byHref.get(href);
  if (url === undefined) {
    url = canonicalizeUrl(href, base);
    if (url !== null) url = detach(url);
    if (relativeEntries >= MAX_ENTRIES) {
      relative.clear();
      relativeEntries = 0;
      byHref = new Map();
      relative.set(detach(prefix), byHref);
    }
    byHref.set(detach(href), url);
    relativeEntries++;
  }
  return url;
}
