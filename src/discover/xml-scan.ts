/**
 * A small XML tokenizer for sitemaps: start and end tags, text and CDATA, with comments,
 * processing instructions and DOCTYPE skipped. It reads tag names (not attributes) and
 * leaves entity decoding to the caller; tokens are reported as offsets, so nothing is
 * copied unless the caller wants it. It does not check well-formedness: a sitemap that is
 * not well-formed is read as far as it makes sense. Several times faster than a general
 * parser on sitemaps (see docs/sitemaps.md), which matters for 50 MiB files.
 */

export interface XmlHandler {
  /** A start tag named `s.slice(start, end)`; `selfClosing` for `<x/>` (no end tag follows). */
  open(start: number, end: number, selfClosing: boolean): void;
  /** An end tag named `s.slice(start, end)`. */
  close(start: number, end: number): void;
  /** Raw text between tags, `s.slice(start, end)` (entities not decoded). */
  text(start: number, end: number): void;
  /** The content of a CDATA section, `s.slice(start, end)` (nothing to decode). */
  cdata(start: number, end: number): void;
}

const GT = 62; // >
const SLASH = 47; // /
const BANG = 33; // !
const QUESTION = 63; // ?
const DQUOTE = 34;
const SQUOTE = 39;

function isNameEnd(c: number): boolean {
  return c === GT || c === SLASH || c === 32 || c === 9 || c === 10 || c === 13;
}

/** End of the tag starting at `from` (the index of its `>`), quoted values skipped; -1 if none. */
function tagEnd(s: string, from: number): number {
  let i = from;
  const n = s.length;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === GT) return i;
    if (c === DQUOTE || c === SQUOTE) {
      const q = s.indexOf(c === DQUOTE ? '"' : "'", i + 1);
      if (q < 0) return -1;
      i = q + 1;
    } else i++;
  }
  return -1;
}

/** Tokenizes `s`, calling `h` for every token; stops at the end or at a cut-off token. */
export function scanXml(s: string, h: XmlHandler): void {
  const n = s.length;
  let pos = 0;
  while (pos < n) {
    const lt = s.indexOf('<', pos);
    if (lt < 0) {
      h.text(pos, n);
      return;
    }
    if (lt > pos) h.text(pos, lt);
    const c = s.charCodeAt(lt + 1);
    if (c === BANG) {
      if (s.startsWith('<!--', lt)) {
        const end = s.indexOf('-->', lt + 4);
        if (end < 0) return;
        pos = end + 3;
      } else if (s.startsWith('<![CDATA[', lt)) {
        const end = s.indexOf(']]>', lt + 9);
        if (end < 0) return;
        h.cdata(lt + 9, end);
        pos = end + 3;
      } else {
        // <!DOCTYPE …> possibly with an internal subset in brackets.
        const bracket = s.indexOf('[', lt);
        const gt = s.indexOf('>', lt);
        if (gt < 0) return;
        if (bracket >= 0 && bracket < gt) {
          const end = s.indexOf(']>', bracket);
          if (end < 0) return;
          pos = end + 2;
        } else pos = gt + 1;
      }
      continue;
    }
    if (c === QUESTION) {
      const end = s.indexOf('?>', lt + 2);
      if (end < 0) return;
      pos = end + 2;
      continue;
    }
    const closing = c === SLASH;
    let i = closing ? lt + 2 : lt + 1;
    const nameStart = i;
    while (i < n && !isNameEnd(s.charCodeAt(i))) i++;
    if (i >= n) return; // cut inside a tag name
    const gt = s.charCodeAt(i) === GT ? i : tagEnd(s, i);
    if (gt < 0) return; // cut inside a tag
    if (i === nameStart) {
      // A stray '<': text, as lenient parsers read it.
      h.text(lt, lt + 1);
      pos = lt + 1;
      continue;
    }
    if (closing) h.close(nameStart, i);
    else h.open(nameStart, i, s.charCodeAt(gt - 1) === SLASH);
    pos = gt + 1;
  }
}
