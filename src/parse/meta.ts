/** Pure readers for `<meta name=robots>`, `X-Robots-Tag` and `<meta http-equiv=refresh>`. */

export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
  noarchive: boolean;
}

export function emptyRobots(): RobotsDirectives {
  return { noindex: false, nofollow: false, noarchive: false };
}

/**
 * Adds the directives of one robots meta `content` (or one X-Robots-Tag rule list)
 * to `into`. Comma- or space-separated, case-insensitive: `noindex`, `nofollow`,
 * `none` (both), `noarchive` (also `nocache`); `all`, `index`, `follow` and unknown
 * directives change nothing. Restrictions only accumulate.
 */
export function addRobotsDirectives(content: string, into: RobotsDirectives): void {
  for (const raw of content.toLowerCase().split(/[\s,]+/)) {
    switch (raw) {
      case 'noindex':
        into.noindex = true;
        break;
      case 'nofollow':
        into.nofollow = true;
        break;
      case 'none':
        into.noindex = true;
        into.nofollow = true;
        break;
      case 'noarchive':
      case 'nocache':
        into.noarchive = true;
        break;
    }
  }
}

// Directives that take a value after ':' (so 'unavailable_after: …' is not a user-agent).
const VALUED = new Set([
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'noimageindex',
]);
const UA_PREFIX = /^\s*([A-Za-z0-9_.-]+)\s*:\s*(.*)$/s;

/**
 * Adds the directives of X-Robots-Tag header values that apply to `token`: values
 * without a user-agent prefix, and values prefixed `token:` (case-insensitive).
 * `googlebot: noindex` does not apply to other crawlers.
 * @example addXRobotsTag(['noarchive', 'otherbot: noindex'], 'focuscrawl', r) // r.noarchive only
 */
export function addXRobotsTag(
  values: string | readonly string[],
  token: string,
  into: RobotsDirectives,
): void {
  const list = typeof values === 'string' ? [values] : values;
  const want = token.toLowerCase();
  for (const v of list) {
    const m = UA_PREFIX.exec(v);
    if (m !== null && !VALUED.has(m[1]!.toLowerCase())) {
      if (m[1]!.toLowerCase() === want) addRobotsDirectives(m[2]!, into);
    } else {
      addRobotsDirectives(v, into);
    }
  }
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/**
 * The URL of a `<meta http-equiv=refresh content="5; url=/next">`, unresolved, per
 * the HTML Standard's refresh parsing; `undefined` when the content has no URL (a
 * plain reload) or is malformed.
 * @example metaRefreshTarget("0;URL='/a b'") // '/a b'
 */
export function metaRefreshTarget(content: string): string | undefined {
  const s = content;
  const n = s.length;
  let i = 0;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  const digitsFrom = i;
  while (i < n && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
  if (i === digitsFrom && s[i] !== '.') return undefined;
  while (i < n && ((s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) || s[i] === '.')) i++;
  if (i >= n) return undefined;
  if (s[i] !== ';' && s[i] !== ',' && !isWs(s.charCodeAt(i))) return undefined;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  if (s[i] === ';' || s[i] === ',') i++;
  while (i < n && isWs(s.charCodeAt(i))) i++;
  if (i >= n) return undefined;
  if (s.slice(i, i + 3).toLowerCase() === 'url') {
    let k = i + 3;
    while (k < n && isWs(s.charCodeAt(k))) k++;
    if (s[k] === '=') {
      k++;
      while (k < n && isWs(s.charCodeAt(k))) k++;
      i = k;
    }
  }
  let url = s.slice(i);
  const q = url[0];
  if (q === '"' || q === "'") {
    const end = url.indexOf(q, 1);
    url = end < 0 ? url.slice(1) : url.slice(1, end);
  }
  url = url.trim();
  return url === '' ? undefined : url;
}
