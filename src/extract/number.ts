/**
 * Numbers as written on pages: `1,234.5`, `１２３`, `1.5万`, `3亿`. Arithmetic on the
 * decimal digits, so `1.23万` is exactly 12300.
 */

/**
 * The plain decimal form of `int.frac × 10^shift`: no grouping, no exponent, no
 * leading zeros, no trailing zeros after the point (`1,500`, `2`, 1 → `15000`).
 */
export function decimal(int: string, frac: string, shift: number, negative = false): string {
  const whole = int.replace(/,/g, '');
  const digits = whole + frac;
  const point = whole.length + shift;
  let i: string;
  let f: string;
  if (point >= digits.length) {
    i = digits + '0'.repeat(point - digits.length);
    f = '';
  } else if (point <= 0) {
    i = '0';
    f = '0'.repeat(-point) + digits;
  } else {
    i = digits.slice(0, point);
    f = digits.slice(point);
  }
  i = i.replace(/^0+(?=\d)/, '');
  f = f.replace(/0+$/, '');
  const out = f === '' ? i : `${i}.${f}`;
  return negative && /[1-9]/.test(out) ? `-${out}` : out;
}

/** Powers of ten of the Chinese (and k/w/M) multipliers. */
export const MULTIPLIERS: Record<string, number> = {
  千: 3,
  万: 4,
  十万: 5,
  百万: 6,
  千万: 7,
  亿: 8,
  k: 3,
  K: 3,
  w: 4,
  W: 4,
  M: 6,
};

/** Digits with optional `,` grouping (groups of three), and an optional fraction. */
export const DIGITS = String.raw`(\d{1,3}(?:,\d{3})+(?![\d,])|\d+)(?:\.(\d+))?`;

const NUMBER_RE = new RegExp(
  String.raw`(?<![\d.])([-+\u2212]?)${DIGITS}(?:\s*(十万|百万|千万|千|万|亿))?`,
);

/** Full-width digits, signs and separators as ASCII (NFKC), for the parsers here. */
export function foldWidth(s: string): string {
  return s.normalize('NFKC');
}

/**
 * The first number in `text`, as a plain decimal (see {@link decimal}); a comma is a
 * thousands separator only between groups of three digits, the point is the decimal
 * point, and 千 万 十万 百万 千万 亿 after a number multiply it. Undefined when there is
 * no digit.
 */
export function parseNumber(text: string): string | undefined {
  const m = NUMBER_RE.exec(foldWidth(text));
  if (m === null) return undefined;
  const shift = m[4] === undefined ? 0 : (MULTIPLIERS[m[4]] ?? 0);
  return decimal(m[2] as string, m[3] ?? '', shift, m[1] === '-' || m[1] === '\u2212');
}
