/**
 * An index of 64-bit SimHashes answering "is a stored fingerprint within Hamming
 * distance k of this one?" without a scan: the pigeonhole method of Manku, Jain &
 * Das Sarma (2007). The 64 bits are cut into k + 1 blocks; two fingerprints at most
 * k bits apart agree exactly on at least one block. One hash table per block maps
 * the block's bits to the entries holding them; a query looks up its own k + 1
 * blocks and verifies the candidates' full distance.
 *
 * Memory: entries live in typed arrays, no object per entry: per entry 8 bytes of
 * fingerprint, 8 of id and 4 per table for the bucket chains, so 32 bytes at k = 3
 * (plus unused capacity, at most as much again) and 4 bytes per bucket head.
 *
 * Cost: with k = 3 a block is 16 bits and the tables have up to 65,536 buckets; with
 * n random fingerprints a query verifies about 4·n/65,536 candidates (about 60 at a
 * million). Larger k means shorter blocks and more candidates: at k = 7 (8-bit
 * blocks) a query verifies about 8·n/256.
 */
import { InvalidOptionError } from '../errors/index.js';
import { popcount32, type SimHash } from './fingerprint.js';

/** A stored fingerprint close to the query. */
export interface NearMatch {
  id: number;
  /** Hamming distance to the query (0…k). */
  distance: number;
}

/** Largest `maxDistance` accepted (9 blocks of 7 or 8 bits). */
export const MAX_INDEX_DISTANCE = 8;

const NONE = -1;
/** Most buckets per table: 2^20. */
const MAX_BUCKET_BITS = 20;

interface Block {
  /** First bit (0: bit 0 of `lo`, 32: bit 0 of `hi`). */
  start: number;
  width: number;
}

/**
 * Bits `start … start + width − 1` of the 64-bit value as a uint32; the whole value
 * (k = 0: one 64-bit block) is folded to 32 bits.
 */
function blockBits(lo: number, hi: number, start: number, width: number): number {
  if (width > 32) return (lo ^ Math.imul(hi, 0x85ebca6b)) >>> 0;
  let v: number;
  if (start >= 32) v = hi >>> (start - 32);
  else if (start + width <= 32) v = lo >>> start;
  else v = (lo >>> start) | (hi << (32 - start));
  return width === 32 ? v >>> 0 : v & ((1 << width) - 1);
}

export class NearDuplicateIndex {
  /** Largest Hamming distance a match may have. */
  readonly maxDistance: number;
  private readonly blocks: Block[];
  private lo: Int32Array;
  private hi: Int32Array;
  private ids: Float64Array;
  /** Per table: the next entry in the same bucket (NONE ends a chain). */
  private next: Int32Array[];
  /** Per table: the first entry of each bucket. */
  private heads: Int32Array[];
  private bucketBits = 0;
  private count = 0;

  /**
   * @param maxDistance largest Hamming distance of a match, 0…8 (default 3).
   * @param capacity entries to make room for up front (it grows as needed).
   */
  constructor(maxDistance = 3, capacity = 1024) {
    if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > MAX_INDEX_DISTANCE) {
      throw new InvalidOptionError(
        `Invalid near-duplicate index option maxDistance: expected an integer 0…${MAX_INDEX_DISTANCE}, got ${maxDistance}`,
      );
    }
    this.maxDistance = maxDistance;
    const n = maxDistance + 1;
    this.blocks = [];
    let start = 0;
    for (let b = 0; b < n; b++) {
      const width = Math.floor(64 / n) + (b < 64 % n ? 1 : 0);
      this.blocks.push({ start, width });
      start += width;
    }
    const cap = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, capacity))));
    this.lo = new Int32Array(cap);
    this.hi = new Int32Array(cap);
    this.ids = new Float64Array(cap);
    this.next = this.blocks.map(() => new Int32Array(cap));
    this.heads = [];
    this.rehash(cap);
  }

  /** Number of fingerprints added. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the index's arrays (for capacity planning and benchmarks). */
  get byteLength(): number {
    let n = this.lo.byteLength + this.hi.byteLength + this.ids.byteLength;
    for (const a of this.next) n += a.byteLength;
    for (const a of this.heads) n += a.byteLength;
    return n;
  }

  /** Stores fingerprint `fp` under `id` (a number, typically the page's row id). */
  add(id: number, fp: SimHash): void {
    let e = this.count;
    if (e === this.lo.length) this.grow();
    e = this.count++;
    const lo = fp.lo | 0;
    const hi = fp.hi | 0;
    this.lo[e] = lo;
    this.hi[e] = hi;
    this.ids[e] = id;
    this.link(e, lo, hi);
  }

  /**
   * The stored fingerprint nearest to `fp` within `maxDistance`, ties broken by the
   * smallest id; null when there is none.
   */
  find(fp: SimHash): NearMatch | null {
    const lo = fp.lo | 0;
    const hi = fp.hi | 0;
    const k = this.maxDistance;
    let bestId = 0;
    let bestD = k + 1;
    for (let t = 0; t < this.blocks.length; t++) {
      const next = this.next[t] as Int32Array;
      for (let e = this.head(t, lo, hi); e !== NONE; e = next[e] as number) {
        const d = popcount32(lo ^ (this.lo[e] as number)) + popcount32(hi ^ (this.hi[e] as number));
        if (d > k) continue;
        const id = this.ids[e] as number;
        if (d < bestD || (d === bestD && id < bestId)) {
          bestD = d;
          bestId = id;
        }
      }
    }
    return bestD <= k ? { id: bestId, distance: bestD } : null;
  }

  /** Every stored fingerprint within `maxDistance` of `fp`, nearest first, then by id. */
  findAll(fp: SimHash): NearMatch[] {
    const lo = fp.lo | 0;
    const hi = fp.hi | 0;
    const seen = new Set<number>();
    const out: NearMatch[] = [];
    for (let t = 0; t < this.blocks.length; t++) {
      const next = this.next[t] as Int32Array;
      for (let e = this.head(t, lo, hi); e !== NONE; e = next[e] as number) {
        if (seen.has(e)) continue;
        seen.add(e);
        const d = popcount32(lo ^ (this.lo[e] as number)) + popcount32(hi ^ (this.hi[e] as number));
        if (d <= this.maxDistance) out.push({ id: this.ids[e] as number, distance: d });
      }
    }
    return out.sort((a, b) => a.distance - b.distance || a.id - b.id);
  }

  /** Bucket of table `t` for the fingerprint (lo, hi). */
  private bucket(t: number, lo: number, hi: number): number {
    const b = this.blocks[t] as Block;
    const key = blockBits(lo, hi, b.start, b.width);
    // Fibonacci hashing: the top bits of key·2^32/φ.
    return this.bucketBits === 0 ? 0 : Math.imul(key, 0x9e3779b1) >>> (32 - this.bucketBits);
  }

  private head(t: number, lo: number, hi: number): number {
    return (this.heads[t] as Int32Array)[this.bucket(t, lo, hi)] as number;
  }

  /** Puts entry `e` at the front of its bucket in every table. */
  private link(e: number, lo: number, hi: number): void {
    for (let t = 0; t < this.blocks.length; t++) {
      const heads = this.heads[t] as Int32Array;
      const b = this.bucket(t, lo, hi);
      (this.next[t] as Int32Array)[e] = heads[b] as number;
      heads[b] = e;
    }
  }

  /** Doubles the entry arrays, and the bucket tables when that makes buckets shorter. */
  private grow(): void {
    const cap = this.lo.length * 2;
    const widen = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.lo = widen(this.lo, (n) => new Int32Array(n));
    this.hi = widen(this.hi, (n) => new Int32Array(n));
    this.ids = widen(this.ids, (n) => new Float64Array(n));
    this.next = this.next.map((a) => widen(a, (n) => new Int32Array(n)));
    this.rehash(cap);
  }

  /**
   * Sizes the bucket tables for `cap` entries: one bucket per entry, at most one
   * per block value and at most 2^20; relinks the entries when the size changes.
   */
  private rehash(cap: number): void {
    const minWidth = Math.min(...this.blocks.map((b) => b.width));
    const bits = Math.min(minWidth, MAX_BUCKET_BITS, Math.ceil(Math.log2(cap)));
    if (bits === this.bucketBits && this.heads.length > 0) return;
    this.bucketBits = bits;
    this.heads = this.blocks.map(() => new Int32Array(2 ** bits).fill(NONE));
    for (let e = 0; e < this.count; e++) {
      this.link(e, this.lo[e] as number, this.hi[e] as number);
    }
  }
}
