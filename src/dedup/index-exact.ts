/**
 * Exact-duplicate keys (content hash strings) → the smallest id stored under each.
 *
 * A key is reduced to a 64-bit hash and kept in typed arrays (open addressing), not
 * as a string in a Map: about 32 bytes per key instead of a hundred or more. Two
 * different keys collide with probability about n²/2⁶⁵ among n keys (3·10⁻⁸ for a
 * million).
 */

import { fmix32 } from './fingerprint.js';

const EMPTY = 0;

export class ExactIndex {
  private lo = new Int32Array(1024);
  private hi = new Int32Array(1024);
  private ids = new Float64Array(1024);
  /** 1 where a slot is taken. */
  private used = new Uint8Array(1024);
  private count = 0;
  /** The halves of the last hashed key (two numbers, no allocation). */
  private keyLo = 0;
  private keyHi = 0;

  /** Number of distinct keys. */
  get size(): number {
    return this.count;
  }

  /** Bytes held by the index's arrays. */
  get byteLength(): number {
    return this.lo.byteLength + this.hi.byteLength + this.ids.byteLength + this.used.byteLength;
  }

  /** The smallest id stored under `key`, or undefined. */
  get(key: string): number | undefined {
    const i = this.slot(key);
    return this.used[i] === EMPTY ? undefined : this.ids[i];
  }

  /** Stores `id` under `key`; a key already present keeps the smaller id. */
  add(key: string, id: number): void {
    let i = this.slot(key);
    if (this.used[i] !== EMPTY) {
      if (id < (this.ids[i] as number)) this.ids[i] = id;
      return;
    }
    if ((this.count + 1) * 2 > this.used.length) {
      this.grow();
      i = this.probe(this.keyLo, this.keyHi);
    }
    this.used[i] = 1;
    this.lo[i] = this.keyLo;
    this.hi[i] = this.keyHi;
    this.ids[i] = id;
    this.count++;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private slot(key: string): number {
    let a = 0x811c9dc5 | 0;
    let b = 0x9747b28c | 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.keyLo = fmix32(a ^ key.length);
    this.keyHi = fmix32(b ^ Math.imul(key.length, 0x01000193));
    return this.probe(this.keyLo, this.keyHi);
  }

  private probe(lo: number, hi: number): number {
    const mask = this.used.length - 1;
    let i = lo & mask;
    while (this.used[i] !== EMPTY && (this.lo[i] !== lo || this.hi[i] !== hi)) i = (i + 1) & mask;
    return i;
  }

  private grow(): void {
    const { lo, hi, ids, used } = this;
    const n = used.length * 2;
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    this.ids = new Float64Array(n);
    this.used = new Uint8Array(n);
    for (let j = 0; j < used.length; j++) {
      if (used[j] === EMPTY) continue;
      const i = this.probe(lo[j] as number, hi[j] as number);
      this.used[i] = 1;
      this.lo[i] = lo[j] as number;
      this.hi[i] = hi[j] as number;
      this.ids[i] = ids[j] as number;
    }
  }
}
