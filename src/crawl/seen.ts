/**
 * URLs this run already handed to the store, so that the links every page repeats
 * (navigation, footers) are neither scored nor sent again. A set of 64-bit URL
 * hashes in typed arrays (open addressing, linear probing): 16 bytes per URL at
 * most, no strings kept, nothing for the garbage collector to walk.
 *
 * Two generations of at most `capacity` URLs: a URL seen while the young one fills
 * survives the next turnover; the others are forgotten. A miss only costs a trip
 * to the store, which is the authority on what is known. Two different URLs share
 * a 64-bit hash with odds of about n²/2⁶⁵ (1 in 37 million for a million URLs);
 * such a URL would be taken for seen and not queued by this run.
 */

import { hashLanes, lanes } from '../store/hash.js';

let h1 = 0;
let h2 = 0;

/** The store's two 32-bit hash lanes of `s` into h1, h2 (h2 never 0: 0 marks an empty slot). */
function hashInto(s: string): void {
  hashLanes(s);
  h1 = lanes[0] as number;
  h2 = (lanes[1] as number) || 1;
}

/** One generation: a hash table of (h1, h2) pairs that doubles at half load. */
class HashTable {
  #lo: Uint32Array;
  #hi: Uint32Array;
  /** The best priority the URL was sent with (+∞ once claimed). */
  #p: Float32Array;
  #mask: number;
  size = 0;

  constructor(slots = 1 << 12) {
    this.#lo = new Uint32Array(slots);
    this.#hi = new Uint32Array(slots);
    this.#p = new Float32Array(slots);
    this.#mask = slots - 1;
  }

  /** The slot of (h1, h2), or −1. */
  find(a: number, b: number): number {
    const lo = this.#lo;
    const hi = this.#hi;
    for (let i = a & this.#mask; ; i = (i + 1) & this.#mask) {
      const x = hi[i];
      if (x === 0) return -1;
      if (x === b && lo[i] === a) return i;
    }
  }

  has(a: number, b: number): boolean {
    return this.find(a, b) >= 0;
  }

  priority(slot: number): number {
    return this.#p[slot] as number;
  }

  setPriority(slot: number, p: number): void {
    this.#p[slot] = p;
  }

  /** Adds (h1, h2), which must be absent, with priority `p`. */
  add(a: number, b: number, p: number): void {
    if ((this.size + 1) * 2 > this.#mask + 1) this.#grow();
    this.#put(a, b, p);
    this.size++;
  }

  #put(a: number, b: number, p: number): void {
    let i = a & this.#mask;
    while (this.#hi[i] !== 0) i = (i + 1) & this.#mask;
    this.#lo[i] = a;
    this.#hi[i] = b;
    this.#p[i] = p;
  }

  #grow(): void {
    const lo = this.#lo;
    const hi = this.#hi;
    const pr = this.#p;
    const slots = (this.#mask + 1) * 2;
    this.#lo = new Uint32Array(slots);
    this.#hi = new Uint32Array(slots);
    this.#p = new Float32Array(slots);
    this.#mask = slots - 1;
    for (let i = 0; i < hi.length; i++)
      if (hi[i] !== 0) this.#put(lo[i] as number, hi[i] as number, pr[i] as number);
  }
}

/**
 * Whether a URL last sent with `sent` (`SeenUrls.sent`) is sent again with `priority`:
 * never once claimed (+∞), always when unseen, else only when the priority rises.
 */
export function sendsAgain(sent: number | undefined, priority: number): boolean {
  return sent === undefined || (sent !== Number.POSITIVE_INFINITY && priority > sent + 1e-6);
}

export class SeenUrls {
  #young = new HashTable();
  #old = new HashTable();
  readonly #capacity: number;
  /** The hash of the last `has` call's URL. */
  #checked1 = 0;
  #checked2 = 0;

  constructor(capacity = 500_000) {
    this.#capacity = capacity;
  }

  has(url: string): boolean {
    hashInto(url);
    this.#checked1 = h1;
    this.#checked2 = h2;
    if (this.#young.has(h1, h2)) return true;
    const j = this.#old.find(h1, h2);
    if (j >= 0) {
      this.#addHashed(this.#old.priority(j));
      return true;
    }
    return false;
  }

  add(url: string): void {
    hashInto(url);
    if (!this.#young.has(h1, h2)) this.#addHashed(Number.POSITIVE_INFINITY);
  }

  /**
   * Adds the URL of the last `has` (or `sent`) call without hashing it again, with
   * the priority it is sent with (kept when higher than the one recorded): the crawl
   * checks a link, scores it, and records it only if it is queued.
   */
  addChecked(priority = Number.POSITIVE_INFINITY): void {
    h1 = this.#checked1;
    h2 = this.#checked2;
    const i = this.#young.find(h1, h2);
    if (i < 0) this.#addHashed(priority);
    else if (priority > this.#young.priority(i)) this.#young.setPriority(i, priority);
  }

  /**
   * The best priority `url` was sent with by this run (+∞ once it is claimed or
   * fetched; a URL seen only through `add` counts as claimed), or undefined when
   * it was not seen. A link seen again with a higher priority is sent again, so
   * that the store raises it: the best path to a URL decides when it is fetched.
   */
  sent(url: string): number | undefined {
    hashInto(url);
    this.#checked1 = h1;
    this.#checked2 = h2;
    const i = this.#young.find(h1, h2);
    if (i >= 0) return this.#young.priority(i);
    const j = this.#old.find(h1, h2);
    if (j < 0) return undefined;
    const p = this.#old.priority(j);
    this.#addHashed(p);
    return p;
  }

  /** `url` went back to waiting with `priority`: a better sighting may raise it again. */
  requeued(url: string, priority: number): void {
    hashInto(url);
    const i = this.#young.find(h1, h2);
    if (i >= 0) this.#young.setPriority(i, priority);
    else this.#addHashed(priority);
  }

  /** `url` is claimed (or fetched): it is never sent again. */
  claimed(url: string): void {
    hashInto(url);
    const i = this.#young.find(h1, h2);
    if (i >= 0) this.#young.setPriority(i, Number.POSITIVE_INFINITY);
    else this.#addHashed(Number.POSITIVE_INFINITY);
  }

  /** Adds `url`; true when it was not seen before (one hash instead of has + add). */
  firstSight(url: string): boolean {
    hashInto(url);
    if (this.#young.has(h1, h2)) return false;
    const old = this.#old.has(h1, h2);
    this.#addHashed(Number.POSITIVE_INFINITY);
    return !old;
  }

  /** Adds the URL whose hash is in (h1, h2) to the young generation. */
  #addHashed(priority: number): void {
    this.#young.add(h1, h2, priority);
    if (this.#young.size >= this.#capacity) {
      this.#old = this.#young;
      this.#young = new HashTable();
    }
  }
}
