/** Charset and MIME type from header values and `<meta content>` strings. */
import { type Charset, normalizeCharset } from './labels.js';

const PARAM_RE = /;\s*charset\s*=\s*(?:"([^"]*)"?|([^;\s"]*))/i;

/**
 * The encoding named by the `charset` parameter of a Content-Type header value,
 * or `undefined` when there is none or its label is unknown.
 * @example charsetFromContentType('text/html; charset="GB2312"') // 'gbk'
 */
export function charsetFromContentType(header: string | undefined): Charset | undefined {
  if (header === undefined) return undefined;
  const m = PARAM_RE.exec(header);
  if (m === null) return undefined;
  return normalizeCharset(m[1] ?? m[2] ?? '');
}

/** The MIME essence (`type/subtype`, lower case) of a Content-Type value; '' when absent. */
export function mimeEssence(header: string | undefined): string {
  if (header === undefined) return '';
  const semi = header.indexOf(';');
  return (semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase();
}

function isSpace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}

/**
 * "Extracting a character encoding from a meta element" (HTML Standard): the
 * encoding named after `charset=` in a `<meta http-equiv=Content-Type content=...>`
 * value, or `undefined`.
 * @example charsetFromMetaContent('text/html; charset=big5') // 'big5'
 */
export function charsetFromMetaContent(s: string): Charset | undefined {
  const lower = s.toLowerCase();
  let pos = 0;
  for (;;) {
    const at = lower.indexOf('charset', pos);
    if (at < 0) return undefined;
    let i = at + 7;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (s[i] !== '=') {
      pos = i;
      continue;
    }
    i++;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (i >= s.length) return undefined;
    const q = s[i];
    if (q === '"' || q === "'") {
      const end = s.indexOf(q, i + 1);
      return end < 0 ? undefined : normalizeCharset(s.slice(i + 1, end));
    }
    let j = i;
    while (j < s.length && !isSpace(s.charCodeAt(j)) && s[j] !== ';') j++;
    return normalizeCharset(s.slice(i, j));
  }
}
