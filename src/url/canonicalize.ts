/**
 * URL canonicalisation (DESIGN 1.4), on top of WHATWG URL parsing.
 *
 * Two URLs that name the same resource should give the same string, so that the
 * frontier's duplicate check and the repository's MD5(URL) file names agree.
 * Rules, in order:
 *
 * 1. WHATWG parsing (`new URL(input, base)`): resolves relative references and
 *    `.`/`..` segments (also `%2e` forms), lower-cases scheme and host, turns IDN
 *    hosts into punycode, drops the default port (80 for http, 443 for https),
 *    gives an empty path as `/`, percent-encodes spaces and non-ASCII characters.
 *    `.`/`..` segments the parser leaves (Node 20's does after a segment starting
 *    with a dot: `/a/.x/./`) are removed here.
 * 2. Only `http:` and `https:` are accepted; anything else gives `null`.
 * 3. User name and password are dropped (credentials never belong in a crawl key,
 *    a log or a file name), and so is the `#fragment`.
 * 4. Percent-encoding is normalised in path and query alike: escapes of the
 *    unreserved characters `A-Z a-z 0-9 - . _ ~` are decoded (`%7E` and `%7e`
 *    become `~`); every other escape keeps its encoding with upper-case hex digits
 *    (`%2f` → `%2F`, so an encoded slash stays distinct from a real one).
 *    Malformed escapes (`%zz`, a lone `%`) are left as they are, and an escaped
 *    hex digit that would turn one into a new escape (`%%61`) stays escaped.
 * 5. A last path segment that is exactly `index.html` or `index.htm` is dropped
 *    (`/a/index.html` → `/a/`). The match is case-sensitive: on case-sensitive
 *    servers `Index.html` is a distinct file, not the directory index.
 * 6. An empty query (a trailing `?`) is dropped.
 *
 * The query is kept in its original order; {@link sortQuery} sorts it for callers
 * that want `?b=1&a=2` and `?a=2&b=1` to be the same key.
 *
 * The result is idempotent: canonicalising a canonical URL returns it unchanged.
 */
import { InvalidUrlError } from '../errors/index.js';
import { HEX, hexValue, isUnreserved } from './percent.js';

// URL.parse (Node >= 22.1) returns null instead of throwing; throwing is costly.
const urlParse: ((input: string, base?: string) => URL | null) | undefined = (
  URL as unknown as { parse?: (input: string, base?: string) => URL | null }
).parse?.bind(URL);

function parseUrl(input: string, base: string | undefined): URL | null {
  if (urlParse !== undefined) return urlParse(input, base);
  try {
    return new URL(input, base);
  } catch {
    return null;
  }
}

const SCHEME_NONE = 0;
const SCHEME_HTTP_ABSOLUTE = 1; // http(s):// followed by an authority: the base is irrelevant
const SCHEME_OTHER = 2; // a scheme other than http(s): rejected without parsing

/**
 * Looks at the scheme without parsing. Only definite answers short-cut the parser;
 * anything unusual (leading spaces, tabs inside, `http:foo`) returns SCHEME_NONE.
 */
function classifyScheme(s: string): number {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const isAlpha = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (isAlpha) continue;
    if (i > 0 && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) continue;
    break;
  }
  if (i === 0 || i >= n || s.charCodeAt(i) !== 58 /* : */) return SCHEME_NONE;
  if (i === 4 || i === 5) {
    const scheme = s.slice(0, i).toLowerCase();
    if (scheme === 'http' || scheme === 'https') {
      return s.charCodeAt(i + 1) === 47 && s.charCodeAt(i + 2) === 47
        ? SCHEME_HTTP_ABSOLUTE
        : SCHEME_NONE;
    }
  }
  return SCHEME_OTHER;
}

/**
 * Whether the text before `i` (`out` then `s[last, i)`) ends with a `%` that no
 * escape follows, or such a `%` and one hex digit: decoding an escaped hex digit
 * there would make a new escape (`%%61b` → `%ab`), changing the URL's meaning and
 * breaking idempotence, so that escape is kept.
 */
function afterLonePercent(s: string, out: string, last: number, i: number): boolean {
  const before = i - last >= 2 ? s.slice(i - 2, i) : (out + s.slice(last, i)).slice(-2);
  const n = before.length;
  if (n > 0 && before.charCodeAt(n - 1) === 37 /* % */) return true;
  return n === 2 && before.charCodeAt(0) === 37 && hexValue(before.charCodeAt(1)) >= 0;
}

/**
 * Decodes escaped unreserved characters and upper-cases the hex of the other escapes.
 * An escaped hex digit right after a lone `%` (or a lone `%` and a hex digit) is
 * kept encoded: decoding it would make a new escape.
 */
export function normalizePercentEncoding(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let last = 0;
  const n = s.length;
  for (; i >= 0 && i + 2 < n; i = s.indexOf('%', i + 1)) {
    const h1 = s.charCodeAt(i + 1);
    const h2 = s.charCodeAt(i + 2);
    const v1 = hexValue(h1);
    const v2 = hexValue(h2);
    if (v1 < 0 || v2 < 0) continue;
    const v = v1 * 16 + v2;
    let rep: string;
    if (isUnreserved(v) && !(hexValue(v) >= 0 && afterLonePercent(s, out, last, i)))
      rep = String.fromCharCode(v);
    else if ((h1 >= 97 && h1 <= 102) || (h2 >= 97 && h2 <= 102))
      rep = '%' + HEX[v >> 4] + HEX[v & 15];
    else continue;
    out += s.slice(last, i) + rep;
    last = i + 3;
    i += 2;
  }
  return last === 0 ? s : out + s.slice(last);
}

function dropDefaultPage(path: string): string {
  const n = path.length;
  // '/index.htm' is 10 characters, '/index.html' 11.
  if (n < 10) return path;
  const last = path.charCodeAt(n - 1);
  if (last === 108 /* l */) {
    if (path.endsWith('/index.html')) return path.slice(0, n - 10);
  } else if (last === 109 /* m */) {
    if (path.endsWith('/index.htm')) return path.slice(0, n - 9);
  }
  return path;
}

/**
 * `path` without `.` and `..` segments (RFC 3986 5.2.4, WHATWG's path state): the
 * parser removes them, except that some versions of Node's (ada 2.9) leave them in
 * a path after a segment that starts with a dot (`/a/.x/./` stays as it is), and
 * decoding `%2E` can make new ones.
 */
function removeDotSegments(path: string): string {
  const segments = path.slice(1).split('/');
  const out: string[] = [];
  const last = segments.length - 1;
  for (let i = 0; i <= last; i++) {
    const seg = segments[i]!;
    if (seg === '.' || seg === '..') {
      if (seg === '..') out.pop();
      if (i === last) out.push('');
    } else {
      out.push(seg);
    }
  }
  return '/' + out.join('/');
}

/** Whether `path` has a `.` or `..` segment. */
function hasDotSegment(path: string): boolean {
  for (let i = path.indexOf('/.'); i >= 0; i = path.indexOf('/.', i + 1)) {
    const c = path.charCodeAt(i + 2);
    if (Number.isNaN(c) || c === 47 /* / */) return true;
    if (c === 46 /* . */) {
      const d = path.charCodeAt(i + 3);
      if (Number.isNaN(d) || d === 47) return true;
    }
  }
  return false;
}

function canonicalizeParsed(u: URL): string | null {
  const protocol = u.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return null;
  let path = u.pathname;
  if (path.includes('%')) path = normalizePercentEncoding(path);
  if (hasDotSegment(path)) path = removeDotSegments(path);
  path = dropDefaultPage(path);
  let search = u.search; // '' when the query is absent or empty
  if (search.includes('%')) search = normalizePercentEncoding(search);
  return protocol + '//' + u.host + path + search;
}

/**
 * Canonical form of `input` (resolved against `base` when relative), or `null` when
 * it cannot be parsed or is not http/https. Never throws.
 */
export function canonicalizeUrl(input: string, base?: string): string | null {
  try {
    const kind = classifyScheme(input);
    if (kind === SCHEME_OTHER) return null;
    const u = parseUrl(input, kind === SCHEME_HTTP_ABSOLUTE ? undefined : base);
    return u === null ? null : canonicalizeParsed(u);
  } catch {
    return null;
  }
}

/**
 * Like {@link canonicalizeUrl}, for user input (seeds, command line): throws
 * `InvalidUrlError` naming the URL and saying what is wrong with it.
 */
export function canonicalizeUrlOrThrow(input: string, base?: string): string {
  const u = parseUrl(input, base);
  if (u === null) {
    const where = base === undefined ? '' : ` (relative to ${JSON.stringify(base)})`;
    throw new InvalidUrlError(`Invalid URL ${JSON.stringify(input)}${where}: cannot be parsed`, {
      url: input,
    });
  }
  const out = canonicalizeParsed(u);
  if (out === null) {
    throw new InvalidUrlError(
      `Invalid URL ${JSON.stringify(input)}: scheme ${JSON.stringify(u.protocol)} is not supported (only http: and https:)`,
      { url: input },
    );
  }
  return out;
}

/**
 * Sorts the query parameters of a URL by name (stable, so repeated names keep
 * their order; plain code-unit order, no re-encoding). Not part of
 * {@link canonicalizeUrl}, because some sites give parameter order a meaning.
 * Returns `url` unchanged when it has fewer than two parameters.
 */
export function sortQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const h = url.indexOf('#', q);
  const end = h < 0 ? url.length : h;
  const params = url.slice(q + 1, end).split('&');
  if (params.length < 2) return url;
  const key = (p: string) => {
    const eq = p.indexOf('=');
    return eq < 0 ? p : p.slice(0, eq);
  };
  params.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return url.slice(0, q + 1) + params.join('&') + url.slice(end);
}
