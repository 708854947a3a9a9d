// Seeded, allocation-light pseudo-random numbers: a 32-bit string/int hash feeding mulberry32.

/** FNV-1a over UTF-16 code units, finished with a murmur3 avalanche. */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return avalanche(h);
}

/** Combines integers into one 32-bit hash (order matters). */
export function hashInts(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = Math.imul(h ^ (p | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= (p / 4294967296) | 0; // keeps high bits of numbers above 2^32 (e.g. timestamps)
  }
  return avalanche(h);
}

function avalanche(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** mulberry32: a fast 32-bit generator with a full 2^32 period. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Exponentially distributed value with the given rate (mean 1/rate). */
  exp(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }
}

/** A generator seeded from a list of integers, e.g. `rngOf(seed, KIND, pageId)`. */
export function rngOf(...parts: number[]): Rng {
  return new Rng(hashInts(...parts));
}

/** Short lower-case hex id, e.g. for session ids. */
export function hexId(h: number, len = 16): string {
  let out = '';
  let x = h >>> 0;
  while (out.length < len) {
    x = hashInts(x, out.length);
    out += x.toString(16).padStart(8, '0');
  }
  return out.slice(0, len);
}
