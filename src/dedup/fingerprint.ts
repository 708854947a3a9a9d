/**
 * The 64-bit SimHash value: two unsigned 32-bit halves (no BigInt), its storage form
 * (16 lower-case hex digits, high half first) and Hamming distance.
 */

/** A 64-bit fingerprint as two unsigned 32-bit halves: bits 63…32 in `hi`, 31…0 in `lo`. */
export interface SimHash {
  readonly hi: number;
  readonly lo: number;
}

/** Number of set bits of a 32-bit integer. */
export function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

/** Number of bits in which two fingerprints differ (0…64). */
export function hammingDistance(a: SimHash, b: SimHash): number {
  return popcount32(a.hi ^ b.hi) + popcount32(a.lo ^ b.lo);
}

function hex8(x: number): string {
  return (x >>> 0).toString(16).padStart(8, '0');
}

/** The fingerprint as 16 lower-case hex digits (high half first), e.g. `'0123456789abcdef'`. */
export function simhashHex(fp: SimHash): string {
  return hex8(fp.hi) + hex8(fp.lo);
}

const HEX16 = /^[0-9a-fA-F]{16}$/;

/**
 * Parses 16 hex digits (either case) as written by {@link simhashHex}.
 * @throws RangeError when `hex` is not exactly 16 hex digits.
 */
export function parseSimhash(hex: string): SimHash {
  if (typeof hex !== 'string' || !HEX16.test(hex)) {
    throw new RangeError(`Invalid SimHash ${JSON.stringify(hex)}: expected 16 hex digits`);
  }
  return {
    hi: Number.parseInt(hex.slice(0, 8), 16) >>> 0,
    lo: Number.parseInt(hex.slice(8), 16) >>> 0,
  };
}

/** MurmurHash3's 32-bit finaliser: mixes every bit of `x` into every bit of the result. */
export function fmix32(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
