/**
 * Charset detection for pages that declare none.
 *
 * 1. Pure ASCII: nothing to detect (every candidate decodes it alike).
 * 2. Valid UTF-8 (an incomplete sequence cut off at the end is allowed): UTF-8.
 * 3. Otherwise every candidate — GB18030/GBK, Big5, Shift_JIS, EUC-JP, EUC-KR,
 *    windows-1252 and UTF-8 (for mostly-UTF-8 pages with a few bad bytes) — decodes
 *    the sample, and the decoded text is scored: the share of its non-ASCII characters
 *    that are plausible for that encoding's language, minus twice the share that are
 *    impossible (U+FFFD, private-use, C1 controls).
 *    - Chinese encodings: the ~1,170 most frequent characters (simplified and
 *      traditional forms) and CJK punctuation.
 *    - Japanese encodings: kana, the same frequent characters as kanji, punctuation.
 *    - EUC-KR: ~250 frequent Hangul syllables and punctuation.
 *    - windows-1252: Latin letters next to an ASCII letter, and symbols/punctuation
 *      between ASCII characters (`“Two`, `€4`, `word — word`). The long runs of high
 *      bytes that CJK text produces score nothing.
 *    A wrong trial decoding turns text into unrelated, mostly rare characters, so
 *    the right encoding usually scores 0.6–0.9 and the wrong ones below 0.3.
 *
 * The sample is made of the non-ASCII runs of the page with a few bytes around each
 * (see evidenceSample): markup, scripts and styles carry no evidence. Its first 2 KiB
 * are scored first; the whole sample only when that leaves the two best candidates
 * close or holds few non-ASCII bytes.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { HANGUL, SIMPLIFIED, TRADITIONAL } from './common-chars.js';
import { trialDecode } from './decode.js';
import type { Charset } from './labels.js';

export interface CharsetDetection {
  charset: Charset;
  /** 0–1: how clearly the best candidate beat the others (1 for valid UTF-8). */
  confidence: number;
}

const F_CHINESE = 1;
const F_HANGUL = 2;
const FLAGS = new Uint8Array(0x10000);
for (const s of [SIMPLIFIED, TRADITIONAL]) {
  for (let i = 0; i < s.length; i++) FLAGS[s.charCodeAt(i)]! |= F_CHINESE;
}
for (let i = 0; i < HANGUL.length; i++) FLAGS[HANGUL.charCodeAt(i)]! |= F_HANGUL;

/**
 * True when `bytes` are valid UTF-8, allowing one incomplete sequence at the very
 * end (a body cut off by a byte cap).
 */
export function isUtf8Lenient(bytes: Uint8Array): boolean {
  if (isUtf8(bytes)) return true;
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const c = bytes[n - k]!;
    if (c < 0x80) return false;
    if (c >= 0xc0) {
      if (c < 0xc2 || c > 0xf4) return false; // never a lead byte
      const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      return need > k && isUtf8(bytes.subarray(0, n - k));
    }
  }
  return false;
}

type Lang = 'zh' | 'ja' | 'ko';

function isImpossible(c: number): boolean {
  return c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0x80 && c <= 0x9f);
}

function isCjkPunct(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x303f) ||
    (c >= 0xff01 && c <= 0xff5e) ||
    (c >= 0x2014 && c <= 0x201d) ||
    c === 0x2026 ||
    c === 0xb7
  );
}

/** Score of a CJK trial decoding (see the module comment). */
function scoreCjk(s: string, lang: Lang): number {
  let total = 0;
  let good = 0;
  let bad = 0;
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    total++;
    if (isImpossible(c)) {
      if (i !== last) bad++; // a character cut at the end of the sample is no evidence
    } else if (isCjkPunct(c)) {
      good++;
    } else if (lang === 'ko') {
      if (FLAGS[c]! & F_HANGUL) good++;
    } else if (FLAGS[c]! & F_CHINESE) {
      good++;
    } else if (lang === 'ja' && c >= 0x3041 && c <= 0x30ff) {
      good++;
    }
  }
  return total === 0 ? 0 : (good - 2 * bad) / total;
}

// windows-1252 bytes the standard leaves unassigned.
const W1252_UNASSIGNED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** Latin letters of windows-1252, read from a latin1 decoding (0x80–0x9F undecoded). */
function isLatinLetter(c: number): boolean {
  if (c >= 0xc0) return c !== 0xd7 && c !== 0xf7;
  // Š Œ Ž š œ ž Ÿ ƒ ª º
  return (
    c === 0x8a ||
    c === 0x8c ||
    c === 0x8e ||
    c === 0x9a ||
    c === 0x9c ||
    c === 0x9e ||
    c === 0x9f ||
    c === 0x83 ||
    c === 0xaa ||
    c === 0xba
  );
}

/**
 * Score of a windows-1252 trial decoding (latin1 codes): Latin text has isolated
 * non-ASCII letters inside ASCII words. An ASCII letter squeezed between two high
 * characters does not count as a word (Big5 and Shift_JIS trail bytes are often
 * ASCII letters).
 */
function scoreLatin(s: string): number {
  let total = 0;
  let good = 0;
  let bad = 0;
  const n = s.length;
  const at = (i: number): number => (i >= 0 && i < n ? s.charCodeAt(i) : 0x20);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    total++;
    const prev = at(i - 1);
    const next = at(i + 1);
    if (W1252_UNASSIGNED.has(c)) {
      bad++;
    } else if (isLatinLetter(c)) {
      if (
        (isAsciiLetter(prev) && at(i - 2) < 0x80) ||
        (isAsciiLetter(next) && at(i + 2) < 0x80) ||
        (prev < 0x80 && next < 0x80 && !isAsciiLetter(prev) && !isAsciiLetter(next))
      ) {
        good++;
      }
    } else if (prev < 0x80 && next < 0x80) {
      good++;
    }
  }
  return total === 0 ? 0 : (good - 2 * bad) / total;
}

/** Score of a UTF-8 trial decoding of bytes that are not entirely valid UTF-8. */
function scoreUtf8(s: string): number {
  let total = 0;
  let bad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    total++;
    if (c === 0xfffd) bad++;
  }
  return total === 0 ? 0 : (total - 3 * bad) / total;
}

/** True when a GB18030 sample uses four-byte sequences (so it is not plain GBK). */
function hasFourByteSequences(b: Uint8Array): boolean {
  const n = b.length - 1;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c < 0x81) continue;
    const t = b[i + 1]!;
    if (t >= 0x30 && t <= 0x39) return true;
    i++;
  }
  return false;
}

// On a tie the earlier candidate wins: one isolated high byte next to ASCII letters
// ('às') is more likely Latin than a lone CJK character.
const CANDIDATES: ReadonlyArray<[Charset, (s: string) => number]> = [
  ['windows-1252', scoreLatin],
  ['gb18030', (s) => scoreCjk(s, 'zh')],
  ['big5', (s) => scoreCjk(s, 'zh')],
  ['shift_jis', (s) => scoreCjk(s, 'ja')],
  ['euc-jp', (s) => scoreCjk(s, 'ja')],
  ['euc-kr', (s) => scoreCjk(s, 'ko')],
  ['utf-8', scoreUtf8],
];

// Bytes of ASCII kept on each side of a run of non-ASCII bytes in the sample.
const PAD = 4;
// Input bytes scanned for the sample at most.
const MAX_SCAN = 1 << 20;

/**
 * The parts of `b` that hold non-ASCII bytes, with PAD ASCII bytes around each
 * run, joined by single spaces, up to `max` bytes. Markup and scripts in between
 * carry no evidence; leaving them out makes the trial decodings cheap and focused.
 * A run starts at an ASCII byte's end, so it starts on a character boundary; the
 * byte after a non-ASCII byte always belongs to the run (trail bytes of Big5 and
 * Shift_JIS may be ASCII letters).
 */
export function evidenceSample(b: Uint8Array, max: number): Buffer {
  const n = Math.min(b.length, MAX_SCAN);
  const out = Buffer.allocUnsafe(Math.min(max, n));
  let o = 0;
  let i = 0;
  while (i < n && o < out.length) {
    let h = i;
    while (h < n && b[h]! < 0x80) h++;
    if (h >= n) break;
    let e = h;
    for (;;) {
      while (e < n && b[e]! >= 0x80) e += 2;
      let k = e;
      while (k < n && k < e + 2 * PAD && b[k]! < 0x80) k++;
      if (k < n && k < e + 2 * PAD) e = k;
      else break;
    }
    const start = Math.max(i, h - PAD);
    const end = Math.min(n, e + PAD);
    if (o > 0 && o < out.length) out[o++] = 0x20;
    const len = Math.min(end - start, out.length - o);
    out.set(b.subarray(start, start + len), o);
    o += len;
    i = end;
  }
  return out.subarray(0, o);
}

/** Scores of every candidate for `sample` (exported for tests and tuning). */
export function scoreCandidates(sample: Uint8Array): Array<{ charset: Charset; score: number }> {
  return CANDIDATES.map(([charset, score]) => ({
    charset,
    score: score(trialDecode(sample, charset)),
  }));
}

interface Ranking {
  best: Charset;
  s1: number;
  s2: number;
}

function rank(sample: Buffer): Ranking {
  let best: Charset = 'windows-1252';
  let s1 = Number.NEGATIVE_INFINITY;
  let s2 = Number.NEGATIVE_INFINITY;
  for (const [charset, score] of CANDIDATES) {
    const s = score(trialDecode(sample, charset));
    if (s > s1) {
      s2 = s1;
      s1 = s;
      best = charset;
    } else if (s > s2) {
      s2 = s;
    }
  }
  return { best, s1, s2 };
}

function countHigh(b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) if (b[i]! >= 0x80) n++;
  return n;
}

// A first look at this many bytes settles most pages; the full sample is decoded
// only when it leaves the best two candidates close.
const QUICK_BYTES = 2048;
const QUICK_MIN_HIGH_BYTES = 64;
const QUICK_MARGIN = 0.3;

/**
 * Guesses the encoding of `bytes` from a sample of up to `maxBytes` (see
 * evidenceSample). `undefined` for pure ASCII (any ASCII-compatible encoding
 * reads it alike) and when no candidate scores above zero.
 */
export function detectCharset(bytes: Uint8Array, maxBytes = 16_384): CharsetDetection | undefined {
  if (isAscii(bytes)) return undefined;
  if (isUtf8Lenient(bytes.subarray(0, MAX_SCAN))) return { charset: 'utf-8', confidence: 1 };
  const sample = evidenceSample(bytes, maxBytes);
  let r: Ranking | undefined;
  if (sample.length > QUICK_BYTES + QUICK_BYTES / 2) {
    const quick = sample.subarray(0, QUICK_BYTES);
    if (countHigh(quick) >= QUICK_MIN_HIGH_BYTES) {
      const q = rank(quick);
      if (q.s1 - Math.max(0, q.s2) >= QUICK_MARGIN) {
        r = q;
      }
    }
  }
  r ??= rank(sample);
  if (!(r.s1 > 0)) return undefined;
  const confidence = Math.max(0, Math.min(1, r.s1 - Math.max(0, r.s2) / 2));
  const charset = r.best === 'gb18030' && !hasFourByteSequences(sample) ? 'gbk' : r.best;
  return { charset, confidence: Math.round(confidence * 1000) / 1000 };
}
