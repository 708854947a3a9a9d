/**
 * The HTML Standard's "prescan a byte stream to determine its encoding": finds a
 * `<meta charset>` or `<meta http-equiv="Content-Type" content="...charset=...">` in
 * the first bytes of a document without parsing it (comments, other tags and their
 * attributes are skipped byte by byte). Also reads the `encoding` of an XML
 * declaration (`<?xml version="1.0" encoding="gbk"?>`) at the very start.
 */
import { charsetFromMetaContent } from './content-type.js';
import { type Charset, normalizeCharset } from './labels.js';

function isSpace(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20;
}
function isAlpha(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Case-insensitive match of the ASCII lower-case `word` at `pos`. */
function startsWithCI(b: Uint8Array, end: number, pos: number, word: string): boolean {
  if (pos + word.length > end) return false;
  for (let k = 0; k < word.length; k++) {
    if (lower(b[pos + k]!) !== word.charCodeAt(k)) return false;
  }
  return true;
}

interface Attr {
  name: string;
  value: string;
}

/** State of the prescan: `pos` moves forward; `end` bounds it. */
class Scanner {
  pos = 0;
  constructor(
    readonly b: Uint8Array,
    readonly end: number,
  ) {}

  /** "Get an attribute"; `null` when there is none (or the input ran out). */
  attribute(): Attr | null {
    const { b, end } = this;
    while (this.pos < end && (isSpace(b[this.pos]!) || b[this.pos] === 0x2f)) this.pos++;
    if (this.pos >= end) return null;
    let c = b[this.pos]!;
    if (c === 0x3e) return null;
    let name = '';
    let value = '';
    // name
    for (;;) {
      if (this.pos >= end) return null;
      c = b[this.pos]!;
      if (c === 0x3d && name !== '') {
        this.pos++;
        break;
      }
      if (isSpace(c)) {
        while (this.pos < end && isSpace(b[this.pos]!)) this.pos++;
        if (this.pos >= end) return null;
        if (b[this.pos] !== 0x3d) return { name, value };
        this.pos++;
        break;
      }
      if (c === 0x2f || c === 0x3e) return { name, value };
      name += String.fromCharCode(lower(c));
      this.pos++;
    }
    // value
    while (this.pos < end && isSpace(b[this.pos]!)) this.pos++;
    if (this.pos >= end) return null;
    c = b[this.pos]!;
    if (c === 0x22 || c === 0x27) {
      const quote = c;
      for (;;) {
        this.pos++;
        if (this.pos >= end) return null;
        const d = b[this.pos]!;
        if (d === quote) {
          this.pos++;
          return { name, value };
        }
        value += String.fromCharCode(lower(d));
      }
    }
    if (c === 0x3e) return { name, value };
    for (;;) {
      if (this.pos >= end) return null;
      c = b[this.pos]!;
      if (isSpace(c) || c === 0x3e) return { name, value };
      value += String.fromCharCode(lower(c));
      this.pos++;
    }
  }

  /** Handles a `<meta` whose attributes start at `pos`; the encoding it declares, if any. */
  meta(): Charset | undefined {
    const seen = new Set<string>();
    let gotPragma = false;
    let needPragma: boolean | null = null;
    let charset: Charset | undefined;
    for (let a = this.attribute(); a !== null; a = this.attribute()) {
      if (seen.has(a.name)) continue;
      seen.add(a.name);
      if (a.name === 'http-equiv') {
        if (a.value === 'content-type') gotPragma = true;
      } else if (a.name === 'content') {
        const cs = charsetFromMetaContent(a.value);
        if (cs !== undefined && charset === undefined) {
          charset = cs;
          needPragma = true;
        }
      } else if (a.name === 'charset') {
        charset = normalizeCharset(a.value);
        needPragma = false;
      }
    }
    if (needPragma === null || (needPragma && !gotPragma) || charset === undefined) {
      return undefined;
    }
    if (charset === 'utf-16le' || charset === 'utf-16be') return 'utf-8';
    if (charset === 'x-user-defined') return 'windows-1252';
    return charset;
  }
}

/** Skips to just past the first `>` at or after `pos`; returns `end` when none. */
function skipPastGt(b: Uint8Array, end: number, pos: number): number {
  const i = b.indexOf(0x3e, pos);
  return i < 0 || i >= end ? end : i + 1;
}

/**
 * The encoding declared by a `<meta>` in the first `maxBytes` bytes of `bytes`,
 * found as the HTML Standard's prescan does, else the encoding of an XML declaration
 * that starts the document; `undefined` when there is neither.
 * Declarations of UTF-16 are taken as UTF-8, x-user-defined as windows-1252.
 */
export function prescanMetaCharset(bytes: Uint8Array, maxBytes = 1024): Charset | undefined {
  const end = Math.min(bytes.length, maxBytes);
  const b = bytes;
  const s = new Scanner(b, end);
  return scanMeta(s) ?? xmlDeclarationCharset(b, end);
}

function scanMeta(s: Scanner): Charset | undefined {
  const { b, end } = s;
  while (s.pos < end) {
    const lt = b.indexOf(0x3c, s.pos);
    if (lt < 0 || lt >= end) return undefined;
    s.pos = lt;
    if (startsWithCI(b, end, lt, '<!--')) {
      // the first '>' preceded by '--'; the dashes of '<!--' count ('<!-->' ends it)
      let i = lt + 4;
      for (;;) {
        i = b.indexOf(0x3e, i);
        if (i < 0 || i >= end) return undefined;
        if (b[i - 1] === 0x2d && b[i - 2] === 0x2d && i - 2 >= lt + 2) break;
        i++;
      }
      s.pos = i + 1;
      continue;
    }
    if (startsWithCI(b, end, lt, '<meta') && lt + 5 < end) {
      const c = b[lt + 5]!;
      if (isSpace(c) || c === 0x2f) {
        s.pos = lt + 6;
        const cs = s.meta();
        if (cs !== undefined) return cs;
        continue;
      }
    }
    const c1 = lt + 1 < end ? b[lt + 1]! : 0;
    const c2 = lt + 2 < end ? b[lt + 2]! : 0;
    if (isAlpha(c1) || (c1 === 0x2f && isAlpha(c2))) {
      // a tag: skip its name, then its attributes
      let i = lt + 1;
      while (i < end && !isSpace(b[i]!) && b[i] !== 0x3e) i++;
      s.pos = i;
      while (s.attribute() !== null);
      if (s.pos < end && b[s.pos] === 0x3e) s.pos++;
      continue;
    }
    if (c1 === 0x21 || c1 === 0x2f || c1 === 0x3f) {
      s.pos = skipPastGt(b, end, lt + 1);
      continue;
    }
    s.pos = lt + 1;
  }
  return undefined;
}

const XML_DECL_RE = /^<\?xml[\t\n\r ][^>]*?encoding[\t\n\r ]*=[\t\n\r ]*["']([A-Za-z0-9._:-]+)["']/;

/** The encoding of an XML declaration at the start of the bytes (after no BOM). */
function xmlDeclarationCharset(b: Uint8Array, end: number): Charset | undefined {
  if (end < 6 || b[0] !== 0x3c || b[1] !== 0x3f) return undefined;
  const head = Buffer.from(b.buffer, b.byteOffset, Math.min(end, 200)).toString('latin1');
  const m = XML_DECL_RE.exec(head);
  if (m === null) return undefined;
  const cs = normalizeCharset(m[1]!);
  return cs === 'utf-16le' || cs === 'utf-16be' ? 'utf-8' : cs;
}
