/**
 * Per-bit counts of many 64-bit features, for the SimHash majority vote.
 *
 * Counts are kept bit-sliced ("vertical counters"): for each 32-bit lane, plane j
 * holds bit j of the 32 counts, so adding a feature is a ripple-carry add over a few
 * words instead of 32 additions. Features come in batches (the shingles of one text
 * block); 16 at a time go through a carry-save adder tree (Harley–Seal, as in Muła,
 * Kurz & Lemire, "Faster population counts using AVX2 instructions", 2018): about 5
 * operations per feature lane.
 */

/** Planes per lane: counts up to 2³² − 1. */
const PLANES = 32;

/** Bit-sliced counts of `groups` independent sets of 64-bit features. */
export class BitCounters {
  /** Plane j of lane l (0: low half, 1: high half) of group g at `(g*2 + l)*32 + j`. */
  private readonly planes: Int32Array;

  constructor(groups: number) {
    this.planes = new Int32Array(groups * 2 * PLANES);
  }

  clear(): void {
    this.planes.fill(0);
  }

  /**
   * Adds `n` features to group `g`: feature i has its low half at `halves[2i]` and
   * its high half at `halves[2i + 1]`.
   */
  add(g: number, halves: Int32Array, n: number): void {
    const lo = g * 2 * PLANES;
    const hi = lo + PLANES;
    const whole = n - (n % 16);
    for (let i = 0; i < whole; i += 16) {
      add16(this.planes, lo, halves, 2 * i);
      add16(this.planes, hi, halves, 2 * i + 1);
    }
    for (let i = whole; i < n; i++) {
      ripple(this.planes, lo, halves[2 * i] as number);
      ripple(this.planes, hi, halves[2 * i + 1] as number);
    }
  }

  /**
   * Adds the 64 per-bit counts of group `g` into `counts` (low half first);
   * `total` is the number of features added, which bounds every count.
   */
  countsInto(g: number, total: number, counts: Float64Array): void {
    const used = Math.min(PLANES, Math.ceil(Math.log2(total + 1)));
    for (let l = 0; l < 2; l++) {
      const base = (g * 2 + l) * PLANES;
      for (let b = 0; b < 32; b++) {
        let c = 0;
        for (let j = used - 1; j >= 0; j--)
          c = c * 2 + (((this.planes[base + j] as number) >>> b) & 1);
        counts[l * 32 + b] = (counts[l * 32 + b] as number) + c;
      }
    }
  }
}

/** Adds one 32-bit word (one bit per counter) to the counters at `base`. */
function ripple(planes: Int32Array, base: number, x: number): void {
  let carry = x;
  for (let j = base; carry !== 0; j++) {
    const p = planes[j] as number;
    planes[j] = p ^ carry;
    carry = p & carry;
  }
}

/**
 * Adds the 16 words `h[at]`, `h[at + 2]`, … `h[at + 30]` to the counters at `base`:
 * planes 0–3 are the carry-save adder's ones, twos, fours and eights; each batch's
 * sixteens ripple into plane 4 and above.
 */
function add16(planes: Int32Array, base: number, h: Int32Array, at: number): void {
  let ones = planes[base] as number;
  let twos = planes[base + 1] as number;
  let fours = planes[base + 2] as number;
  let eights = planes[base + 3] as number;
  let a: number;
  let b: number;
  let u: number;
  // CSA(high, low ← x, a, b): u = x ^ a; high = (x & a) | (u & b); low = u ^ b.
  a = h[at] as number;
  b = h[at + 2] as number;
  u = ones ^ a;
  let twosA = (ones & a) | (u & b);
  ones = u ^ b;
  a = h[at + 4] as number;
  b = h[at + 6] as number;
  u = ones ^ a;
  let twosB = (ones & a) | (u & b);
  ones = u ^ b;
  u = twos ^ twosA;
  let foursA = (twos & twosA) | (u & twosB);
  twos = u ^ twosB;
  a = h[at + 8] as number;
  b = h[at + 10] as number;
  u = ones ^ a;
  twosA = (ones & a) | (u & b);
  ones = u ^ b;
  a = h[at + 12] as number;
  b = h[at + 14] as number;
  u = ones ^ a;
  twosB = (ones & a) | (u & b);
  ones = u ^ b;
  u = twos ^ twosA;
  let foursB = (twos & twosA) | (u & twosB);
  twos = u ^ twosB;
  u = fours ^ foursA;
  const eightsA = (fours & foursA) | (u & foursB);
  fours = u ^ foursB;
  a = h[at + 16] as number;
  b = h[at + 18] as number;
  u = ones ^ a;
  twosA = (ones & a) | (u & b);
  ones = u ^ b;
  a = h[at + 20] as number;
  b = h[at + 22] as number;
  u = ones ^ a;
  twosB = (ones & a) | (u & b);
  ones = u ^ b;
  u = twos ^ twosA;
  foursA = (twos & twosA) | (u & twosB);
  twos = u ^ twosB;
  a = h[at + 24] as number;
  b = h[at + 26] as number;
  u = ones ^ a;
  twosA = (ones & a) | (u & b);
  ones = u ^ b;
  a = h[at + 28] as number;
  b = h[at + 30] as number;
  u = ones ^ a;
  twosB = (ones & a) | (u & b);
  ones = u ^ b;
  u = twos ^ twosA;
  foursB = (twos & twosA) | (u & twosB);
  twos = u ^ twosB;
  u = fours ^ foursA;
  const eightsB = (fours & foursA) | (u & foursB);
  fours = u ^ foursB;
  u = eights ^ eightsA;
  const sixteens = (eights & eightsA) | (u & eightsB);
  eights = u ^ eightsB;
  planes[base] = ones;
  planes[base + 1] = twos;
  planes[base + 2] = fours;
  planes[base + 3] = eights;
  ripple(planes, base + 4, sixteens);
}
