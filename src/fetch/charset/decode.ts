/**
 * Bytes → string for one known encoding, with the fastest decoder that gives the
 * WHATWG Encoding Standard's result. Measured on Node 20 with full ICU
 * (bench/parse.mjs prints the figures):
 *
 * - utf-8: `Buffer#toString` (native).
 * - gbk, gb18030: `TextDecoder('gb18030')` — the standard decodes GBK with the
 *   gb18030 decoder, and ICU follows GB18030-2022 as the standard now does (iconv-lite
 *   still maps A6D9… to private-use code points), at about twice iconv-lite's speed.
 * - windows-1252: `latin1` decoding plus a fix-up of 0x80–0x9F. Node's TextDecoder
 *   decodes these bytes as C1 controls instead of € “ ” – — …; iconv-lite is right but
 *   slower and turns the five unassigned bytes into U+FFFD where the standard keeps them.
 * - big5: ICU lacks the HKSCS rows (0x87–0xA0, 0xFA–0xFE) and some ETEN extensions
 *   (0xA3C0–, 0xC6A1–0xC8FE, 0xF9FE) of the standard's index; iconv-lite has them.
 *   A byte scan picks TextDecoder (2× faster) when none of those rows occur.
 * - euc-kr: ICU lacks the UHC (windows-949) extension and € ®; same scan-and-pick.
 * - shift_jis: ICU swaps the controls 0x1A, 0x1C, 0x7F and rejects a lone 0x80; when
 *   none of those occur TextDecoder is used (4–6× faster than iconv-lite), else iconv-lite.
 * - ibm866 (ICU swaps the same controls) and iso-8859-16 (absent from ICU): iconv-lite.
 * - every other encoding: TextDecoder, which matched the standard's index byte for byte.
 *
 * Where TextDecoder is unavailable for a name (Node built without full ICU), iconv-lite
 * is used instead.
 */
import { TextDecoder } from 'node:util';
import iconv from 'iconv-lite';
import type { Charset } from './labels.js';

const decoders = new Map<string, TextDecoder | null>();

function textDecoder(name: string): TextDecoder | null {
  let d = decoders.get(name);
  if (d === undefined) {
    try {
      d = new TextDecoder(name);
    } catch {
      d = null;
    }
    decoders.set(name, d);
  }
  return d;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

// windows-1252 0x80–0x9F per the standard's index (unassigned bytes map to themselves).
const W1252_C1 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
].map((c) => String.fromCharCode(c));
const C1_RE = /[\x80-\x9f]/g;
const fixC1 = (ch: string): string => W1252_C1[ch.charCodeAt(0) - 0x80]!;

function decodeWindows1252(b: Buffer): string {
  const s = b.toString('latin1');
  C1_RE.lastIndex = 0;
  return C1_RE.test(s) ? s.replace(C1_RE, fixC1) : s;
}

function decodeUserDefined(b: Buffer): string {
  const s = b.toString('latin1');
  return s.replace(/[\x80-\xff]/g, (ch) => String.fromCharCode(0xf780 + ch.charCodeAt(0) - 0x80));
}

/** True when a Big5 body uses a row where ICU and the standard differ. */
function big5NeedsIndex(b: Uint8Array): boolean {
  const n = b.length;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c < 0x80) continue;
    const t = i + 1 < n ? b[i + 1]! : 0;
    if (c < 0xa1 || c >= 0xfa || c === 0xc7 || c === 0xc8) return true;
    if (c === 0xc6 && t >= 0xa1) return true;
    if (c === 0xa3 && t >= 0xc0) return true;
    if (c === 0xf9 && t === 0xfe) return true;
    i++;
  }
  return false;
}

/** True when an EUC-KR body uses the UHC extension or the € ® pair ICU lacks. */
function eucKrNeedsIndex(b: Uint8Array): boolean {
  const n = b.length;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c < 0x80) continue;
    if (c < 0xa1) return true;
    const t = i + 1 < n ? b[i + 1]! : 0xa1;
    if (t < 0xa1) return true;
    if (c === 0xa2 && (t === 0xe6 || t === 0xe7)) return true;
    i++;
  }
  return false;
}

function shiftJisNeedsIndex(b: Buffer): boolean {
  if (b.includes(0x1a) || b.includes(0x1c) || b.includes(0x7f)) return true;
  if (!b.includes(0x80)) return false;
  // 0x80 is a common trail byte (ム is 83 80); only a lone 0x80 needs the index
  const n = b.length;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0x80) return true;
    if ((c >= 0x81 && c <= 0x9f) || (c >= 0xe0 && c <= 0xfc)) i++;
  }
  return false;
}

function viaTextDecoder(name: string, fallback: string, b: Buffer): string {
  const d = textDecoder(name);
  return d !== null ? d.decode(b) : iconv.decode(b, fallback);
}

/**
 * A fast approximate decoding for the detector's trial decodings: TextDecoder
 * throughout (its few differences from the standard — HKSCS, UHC, swapped controls —
 * do not change which candidate wins), and windows-1252 as latin1 (the detector
 * reads 0x80–0x9F itself). Invalid input is slow in iconv-lite and fast here.
 */
export function trialDecode(bytes: Uint8Array, charset: Charset): string {
  const b = asBuffer(bytes);
  if (charset === 'windows-1252') return b.toString('latin1');
  if (charset === 'utf-8') return b.toString('utf8');
  const d = textDecoder(charset === 'gbk' ? 'gb18030' : charset);
  return d !== null ? d.decode(b) : decodeAs(b, charset);
}

/** Decodes `bytes` (no BOM handling: strip it first) as `charset`. */
export function decodeAs(bytes: Uint8Array, charset: Charset): string {
  const b = asBuffer(bytes);
  switch (charset) {
    case 'utf-8':
      return b.toString('utf8');
    case 'windows-1252':
      return decodeWindows1252(b);
    case 'gbk':
    case 'gb18030':
      return viaTextDecoder('gb18030', 'gb18030', b);
    case 'big5':
      return big5NeedsIndex(b) ? iconv.decode(b, 'big5') : viaTextDecoder('big5', 'big5', b);
    case 'euc-kr':
      return eucKrNeedsIndex(b) ? iconv.decode(b, 'cp949') : viaTextDecoder('euc-kr', 'cp949', b);
    case 'shift_jis':
      return shiftJisNeedsIndex(b)
        ? iconv.decode(b, 'shift_jis')
        : viaTextDecoder('shift_jis', 'shift_jis', b);
    case 'ibm866':
    case 'iso-8859-16':
      return iconv.decode(b, charset);
    case 'x-user-defined':
      return decodeUserDefined(b);
    case 'replacement':
      return b.length === 0 ? '' : '\ufffd';
    default:
      return viaTextDecoder(charset, charset, b);
  }
}
