/**
 * 64-bit SimHash of a page's text (Charikar 2002; Manku, Jain & Das Sarma 2007).
 *
 * 1. Tokens. The text is normalised like the tokeniser's input (`normalizeText`:
 *    NFKC, lower-case) and cut with the tokeniser's character classes (chars.ts): a
 *    word is a run of letters, digits and marks (an apostrophe between letters and
 *    `.`/`,` between digits stay inside); in scripts written without spaces
 *    (Chinese, Japanese, Thai…) every character is a token. `Intl.Segmenter` is not
 *    used: it costs about 3 ms per 10 KB of Chinese, and overlapping character
 *    shingles need no dictionary. A token of 6 or more characters holding an ASCII
 *    digit (a session id, a hash, a timestamp) is a wildcard: shingles see them all
 *    as the same token.
 * 2. Features are shingles: `shingleSize` consecutive words (`cjkShingleSize`
 *    consecutive CJK characters) within one text block (a line of the page text).
 *    Each distinct shingle counts once, however often it occurs: stock phrases that
 *    a site repeats on every page do not outweigh the rest. Blocks shorter than
 *    `minBlockWords` words (a CJK character counts as half a word) are left out when
 *    the long blocks give `minFeatures` features and at least as many as the short
 *    ones: menus, link lists, bylines and footers then do not move the fingerprint of
 *    a page of prose, and a page of short lines (a contents page, a start page whose
 *    one long line is the site's stock footer) is fingerprinted by all its text.
 * 3. Each feature is hashed to 64 bits, no string made per token or shingle: two
 *    32-bit lanes per token (FNV-1a and a murmur2-style multiply over the UTF-16
 *    code units, finished with murmur3's fmix32), a rolling rotate-xor of the tokens
 *    of the shingle, fmix32 again. Bit i of the SimHash is set when more than half
 *    of the features have bit i set; the per-bit counts are kept bit-sliced
 *    (counters.ts).
 *
 * Along the way a 64-bit hash of the whole token sequence is taken (`textHash`):
 * texts with the same tokens in the same order, whatever their case, width,
 * punctuation, spacing or line breaks, have the same text hash.
 *
 * Only the first {@link MAX_TEXT_CHARS} UTF-16 code units of a text are read.
 */
import { classOf, classTable, normalizeText, SEGMENT, WORD as WORD_CLASS } from '../text/chars.js';
import { BitCounters } from './counters.js';
import { FeatureSet } from './feature-set.js';
import { fmix32, type SimHash } from './fingerprint.js';
import { type FingerprintOptions, fingerprintOptionsSchema, parseOptions } from './options.js';

/** What fingerprinting a text gives. */
export interface TextFingerprint {
  /** The SimHash; null when the text has fewer than `minFeatures` features. */
  simhash: SimHash | null;
  /** 64-bit hash of the token sequence as 16 hex digits; null when `simhash` is null. */
  textHash: string | null;
  /** Features the SimHash was taken over (or, when too few, the features found). */
  features: number;
  /** Whether short blocks were counted too, the long ones giving too few features. */
  allBlocks: boolean;
}

/** Text in, fingerprint out. */
export type Fingerprinter = (text: string) => TextFingerprint;

/** Longest text read, in UTF-16 code units (1 Mi); the rest of a longer text is ignored. */
export const MAX_TEXT_CHARS = 1 << 20;

// Hash constants as int32 (larger literals would make V8 keep the lanes as doubles).
const SEED_A = 0x811c9dc5 | 0; // FNV-1a offset basis
const PRIME_A = 0x01000193; // FNV prime
const SEED_B = 0x9747b28c | 0;
const PRIME_B = 0x5bd1e995; // murmur2 multiplier
const RING = 32; // the block's last tokens: a power of two above the largest shingle
/** A token this long holding an ASCII digit is a wildcard in shingles. */
const VOLATILE_CHARS = 6;
const VOLATILE_A = 0x6a09e667;
const VOLATILE_B = 0x3c6ef372;
/** Block length units: a word counts 2, a CJK character 1. */
const CJK_PER_WORD = 2;

// Character classes of the hot loop: the tokeniser's, with ASCII digits apart (so
// the loop over letters needs no test for digits).
const WORD = WORD_CLASS;
const CJK = SEGMENT;
const DIGIT = 3;
let table: Uint8Array | undefined;

function classes(): Uint8Array {
  if (table === undefined) {
    table = Uint8Array.from(classTable());
    table.fill(DIGIT, 48, 58);
  }
  return table;
}

// Scratch reused between calls: fingerprinting is synchronous, calls cannot overlap.
const seen = new FeatureSet();
const counters = new BitCounters(2); // group 0: long blocks' features; 1: short blocks'
const counts = new Float64Array(64);
const ringA = new Int32Array(RING); // the block's last tokens as shingles see them
const ringB = new Int32Array(RING);
let block = new Int32Array(2048); // features of the current block, two halves each

/** Room for the features of a text of `n` code units (at most one per code unit). */
function reserve(n: number): void {
  seen.reserve(n);
  const want = 2 ** Math.ceil(Math.log2(Math.max(1024, 2 * n)));
  if (want > block.length || (block.length > 65_536 && block.length >= 16 * want)) {
    block = new Int32Array(want);
  }
}

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

interface Params {
  shingle: number;
  cjkShingle: number;
  /** Length a block needs to count as long, in units (see CJK_PER_WORD). */
  minUnits: number;
  minFeatures: number;
}

/**
 * Fingerprints normalised text `s` in one pass. `s` ends with a newline, which ends
 * the last word and block: the loops need no bounds checks. All state is local
 * (V8 keeps locals in registers; module variables and object fields cost more).
 */
function fingerprintNormalized(s: string, p: Params): TextFingerprint {
  const t = classes();
  const n = s.length;
  const { shingle, cjkShingle, minUnits, minFeatures } = p;
  reserve(n);
  counters.clear();
  const { slots, mask, gen } = seen;
  let longFeatures = 0;
  let shortFeatures = 0;
  let textA = 0x243f6a88;
  let textB = 0x85a308d3 | 0;
  let tokens = 0;
  let k = 0; // tokens in the block
  let units = 0; // the block's length
  let features = 0; // distinct features in the block
  // Rolling hash of the last rollSize − 1 tokens (rebuilt when the token kind changes).
  let rollA = 0;
  let rollB = 0;
  let rollSize = 0;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i);
    const cls = t[c];
    let ta: number; // the token's two hash lanes
    let tb: number;
    let va: number; // and as shingles see them
    let vb: number;
    let cjk = false;
    if (
      cls === WORD ||
      cls === DIGIT ||
      (c >= 0xd800 && c <= 0xdbff && classOf(s.codePointAt(i) ?? c) === WORD)
    ) {
      const start = i;
      let a = SEED_A;
      let b = SEED_B;
      let digits = false;
      for (;;) {
        while (t[c] === WORD) {
          a = Math.imul(a ^ c, PRIME_A);
          b = Math.imul(b ^ c, PRIME_B);
          c = s.charCodeAt(++i);
        }
        if (c === 32 || c === 10) break; // the usual ends of a word
        if (t[c] === DIGIT) {
          digits = true;
          a = Math.imul(a ^ c, PRIME_A);
          b = Math.imul(b ^ c, PRIME_B);
          c = s.charCodeAt(++i);
          continue;
        }
        // `c` is not a word character, so not the final newline: s[i + 1] exists.
        const next = s.charCodeAt(i + 1);
        if (
          ((c === 0x27 || c === 0x2019) && (t[next] === WORD || t[next] === DIGIT)) ||
          ((c === 46 || c === 44) && isDigit(s.charCodeAt(i - 1)) && isDigit(next))
        ) {
          // An apostrophe between letters, a point or comma between digits.
          const j = c === 0x2019 ? 0x27 : c;
          a = Math.imul(a ^ j, PRIME_A);
          b = Math.imul(b ^ j, PRIME_B);
          c = s.charCodeAt(++i);
          continue;
        }
        if (c >= 0xd800 && c <= 0xdbff && classOf(s.codePointAt(i) ?? c) === WORD) {
          // A letter outside the BMP: both code units.
          a = Math.imul(Math.imul(a ^ c, PRIME_A) ^ next, PRIME_A);
          b = Math.imul(Math.imul(b ^ c, PRIME_B) ^ next, PRIME_B);
          i += 2;
          c = s.charCodeAt(i);
          continue;
        }
        break;
      }
      const len = i - start;
      ta = fmix32(a ^ len);
      tb = fmix32(b ^ Math.imul(len, PRIME_A));
      const wildcard = digits && len >= VOLATILE_CHARS;
      va = wildcard ? VOLATILE_A : ta;
      vb = wildcard ? VOLATILE_B : tb;
    } else if (cls === CJK || (c >= 0xd800 && c <= 0xdbff)) {
      const cp = cls === CJK ? c : (s.codePointAt(i) ?? c);
      i += cp > 0xffff ? 2 : 1;
      if (cls !== CJK && classOf(cp) !== CJK) continue; // an emoji or other symbol
      ta = fmix32(Math.imul(SEED_A ^ cp, PRIME_A));
      tb = fmix32(Math.imul(SEED_B ^ cp, PRIME_B));
      va = ta;
      vb = tb;
      cjk = true;
    } else {
      i++;
      if ((c === 10 || c === 13) && k > 0) {
        // End of a block: its features count as long or short by its length.
        if (features > 0) {
          const long = units >= minUnits;
          counters.add(long ? 0 : 1, block, features);
          if (long) longFeatures += features;
          else shortFeatures += features;
        }
        k = 0;
        units = 0;
        features = 0;
        rollSize = 0;
      }
      continue;
    }

    // One token: into the text hash, the ring and the rolling shingle hash.
    textA = Math.imul(rotl(textA, 5) ^ ta, 0x9e3779b1);
    textB = Math.imul(rotl(textB, 11) ^ tb, 0x85ebca77);
    tokens++;
    units += cjk ? 1 : CJK_PER_WORD;
    const size = cjk ? cjkShingle : shingle;
    if (rollSize !== size) {
      // The kind of token changed (or the block is new): rebuild from the ring.
      rollA = 0;
      rollB = 0;
      for (let j = Math.max(0, k - size + 1); j < k; j++) {
        rollA = rotl(rollA, 11) ^ (ringA[j & (RING - 1)] as number);
        rollB = rotl(rollB, 11) ^ (ringB[j & (RING - 1)] as number);
      }
      rollSize = size;
    }
    // A shingle's hash: the xor of its tokens, each rotated 11 bits per step back
    // (11 is odd: distinct rotations for up to 32 tokens).
    rollA = rotl(rollA, 11) ^ va;
    rollB = rotl(rollB, 11) ^ vb;
    ringA[k & (RING - 1)] = va;
    ringB[k & (RING - 1)] = vb;
    k++;
    if (k < size) continue;
    const x = fmix32(rollA ^ size);
    const y = fmix32(rollB ^ ~size);
    // The oldest token leaves the window (it sits rotated by 11·(size − 1)).
    const r = (11 * (size - 1)) & 31;
    const oa = ringA[(k - size) & (RING - 1)] as number;
    const ob = ringB[(k - size) & (RING - 1)] as number;
    rollA ^= r === 0 ? oa : rotl(oa, r);
    rollB ^= r === 0 ? ob : rotl(ob, r);
    // Count each distinct shingle once: probe the page's feature set.
    for (let h = x & mask; ; h = (h + 1) & mask) {
      const j = 3 * h;
      if (slots[j] !== gen) {
        slots[j] = gen;
        slots[j + 1] = x;
        slots[j + 2] = y;
        block[2 * features] = x;
        block[2 * features + 1] = y;
        features++;
        break;
      }
      if (slots[j + 1] === x && slots[j + 2] === y) break;
    }
  }

  // Short blocks count too when the long ones are too few to fingerprint, or carry
  // less of the page than the short ones: on a templated site the one long block of
  // a short page is often the site's footer, the same on every page.
  const allBlocks = longFeatures < minFeatures || longFeatures < shortFeatures;
  const total = allBlocks ? longFeatures + shortFeatures : longFeatures;
  if (total < minFeatures) return { simhash: null, textHash: null, features: total, allBlocks };
  counts.fill(0);
  counters.countsInto(0, longFeatures, counts);
  if (allBlocks) counters.countsInto(1, shortFeatures, counts);
  let lo = 0;
  let hi = 0;
  for (let bit = 0; bit < 32; bit++) {
    if (2 * (counts[bit] as number) > total) lo |= 1 << bit;
    if (2 * (counts[32 + bit] as number) > total) hi |= 1 << bit;
  }
  const textHash =
    hex8(fmix32(textA ^ tokens)) + hex8(fmix32(textB ^ Math.imul(tokens, 0x27d4eb2d)));
  return { simhash: { hi: hi >>> 0, lo: lo >>> 0 }, textHash, features: total, allBlocks };
}

/**
 * Builds a fingerprinter with fixed options (validated once; InvalidOptionError
 * naming the field on a bad or unknown one).
 */
export function createFingerprinter(options: FingerprintOptions = {}): Fingerprinter {
  const o = parseOptions(fingerprintOptionsSchema, options, 'fingerprint');
  const params: Params = {
    shingle: o.shingleSize,
    cjkShingle: o.cjkShingleSize,
    minUnits: CJK_PER_WORD * o.minBlockWords,
    minFeatures: o.minFeatures,
  };
  // The page's text was normalised for its relevance already (normalizeText remembers
  // it); the newline goes on after (NFKC and lower-casing leave a newline alone and
  // never join across it).
  return (text: string): TextFingerprint => {
    const head = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
    return fingerprintNormalized(`${normalizeText(head)}\n`, params);
  };
}

const defaultFingerprinter = createFingerprinter();

/**
 * The SimHash of `text`, or null when it is too short (fewer than `minFeatures`
 * features). For many calls with non-default options use {@link createFingerprinter}.
 */
export function simhash(text: string, options?: FingerprintOptions): SimHash | null {
  const f = options === undefined ? defaultFingerprinter : createFingerprinter(options);
  return f(text).simhash;
}
