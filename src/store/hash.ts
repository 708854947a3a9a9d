/**
 * The two 32-bit lanes of the last `hashLanes` call: multiply–xorshift over the
 * UTF-16 code units, mixed at the end. Kept in a typed array so that hot loops
 * (the crawl's seen-URL set) hash without allocating.
 */
export const lanes = new Uint32Array(2);

/** Hashes `s` into `lanes`. Not cryptographic and not unique. */
export function hashLanes(s: string): void {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5f356495);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  lanes[0] = a;
  lanes[1] = b;
}

/**
 * A 53-bit hash of a string, as a safe JS integer: the key of the URL index (the
 * two lanes of `hashLanes`, 21 bits of the second). The store compares the URL
 * itself on a match.
 */
export function hash53(s: string): number {
  hashLanes(s);
  return 0x100000000 * ((lanes[1] as number) & 0x1fffff) + (lanes[0] as number);
}
