/** Character classes shared by the percent-encoding normalisations (URLs, robots.txt paths). */

/** Upper-case hex digits, indexed by value. */
export const HEX = '0123456789ABCDEF';

/** The value of a hex digit's char code, or -1 when it is not one. */
export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** RFC 3986 unreserved characters: `A-Z a-z 0-9 - . _ ~`. */
export function isUnreserved(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === 46 ||
    c === 95 ||
    c === 126
  );
}
