/**
 * Percent-encoding normalisation applied to robots.txt patterns and to URL paths
 * before matching (RFC 9309 section 2.2.2), so that `/%62%61%7A` and `/baz` or
 * `/foo/ツ` and `/foo/%E3%83%84` compare equal:
 *
 * - escapes of unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded;
 * - other escapes keep their encoding with upper-case hex digits (`%2f` → `%2F`);
 * - a `%` not followed by two hex digits becomes `%25`;
 * - non-ASCII characters, controls and spaces are UTF-8 percent-encoded.
 *
 * Reserved characters written plainly (`/ ? = & * $` …) are left as they are:
 * encoding them would change what a pattern means.
 */

import { HEX, hexValue, isUnreserved } from '../../url/index.js';

function needsWork(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 || c <= 32 || c >= 127) return true;
  }
  return false;
}

export function normalizeRobotsPath(s: string): string {
  if (!needsWork(s)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 /* % */) {
      const h = i + 2 < s.length ? hexValue(s.charCodeAt(i + 1)) : -1;
      const l = h >= 0 ? hexValue(s.charCodeAt(i + 2)) : -1;
      if (l < 0) {
        out += '%25';
        continue;
      }
      const v = h * 16 + l;
      out += isUnreserved(v) ? String.fromCharCode(v) : '%' + HEX[h] + HEX[l];
      i += 2;
    } else if (c <= 32 || c >= 127) {
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) {
        out += '%' + HEX[b >> 4] + HEX[b & 15];
      }
    } else {
      out += s[i];
    }
  }
  return out;
}
