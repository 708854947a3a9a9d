/**
 * A 53-bit hash of a string, as a safe JS integer: the key of the URL index. Two
 * 32-bit multiply–xorshift lanes over the UTF-16 code units, mixed at the end. Not
 * cryptographic and not unique: the store compares the URL itself on a match.
 */
export function hash53(s: string): number {
  let a = 0x9e3779b9;
  let b = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x9e3779b1);
    b = Math.imul(b ^ c, 0x5f356495);
  }
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b) ^ Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b) ^ Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  return 0x100000000 * (b & 0x1fffff) + (a >>> 0);
}
