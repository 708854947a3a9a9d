/**
 * The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it
 * (fts5_porter.c), so that the PostgreSQL store stems English words to the same
 * stems as the SQLite store: PostgreSQL's own `english` configuration is the later
 * Snowball stemmer ("Porter2"), which cuts some words differently (`generously`,
 * `skies`, `dying`, …). Like FTS5 it works on the UTF-8 bytes of a token already
 * folded (lower case, no diacritics): tokens under 3 or over 64 bytes are left as
 * they are, and any byte but a, e, i, o, u (and y after a consonant) is a consonant.
 */

const MAX_TOKEN = 64;

const c = (s: string) => s.charCodeAt(0);
const A = c('a');
const E = c('e');
const I = c('i');
const O = c('o');
const U = c('u');
const Y = c('y');

function isVowel(ch: number | undefined, yIsVowel: boolean): boolean {
  return ch === A || ch === E || ch === I || ch === O || ch === U || (yIsVowel && ch === Y);
}

/**
 * Skips a run of vowels then of consonants in b[from, from + n); returns the offset
 * (from `from`) just past the first consonant after a vowel, 0 when there is none.
 */
function gobbleVC(b: Uint8Array, from: number, n: number, prevCons: boolean): number {
  let cons = prevCons;
  let i = 0;
  for (; i < n; i++) {
    cons = !isVowel(b[from + i], cons);
    if (!cons) break;
  }
  for (i++; i < n; i++) {
    cons = !isVowel(b[from + i], cons);
    if (cons) return i + 1;
  }
  return 0;
}

/** m > 0 for the stem b[0, n). */
function mGt0(b: Uint8Array, n: number): boolean {
  return gobbleVC(b, 0, n, false) !== 0;
}

/** m > 1. */
function mGt1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) !== 0;
}

/** m = 1. */
function mEq1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) === 0;
}

/** *o: the stem ends consonant, vowel, consonant, the last not w, x or y. */
function ostar(b: Uint8Array, n: number): boolean {
  const last = b[n - 1];
  if (last === c('w') || last === c('x') || last === Y) return false;
  let mask = 0;
  let cons = false;
  for (let i = 0; i < n; i++) {
    cons = !isVowel(b[i], cons);
    mask = ((mask << 1) | (cons ? 1 : 0)) & 7;
  }
  return mask === 5;
}

/** m > 1 and the stem ends in s or t. */
function mGt1SorT(b: Uint8Array, n: number): boolean {
  const last = b[n - 1];
  return (last === c('s') || last === c('t')) && mGt1(b, n);
}

/** *v*: the stem has a vowel. */
function hasVowel(b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(b[i], i > 0)) return true;
  return false;
}

type Cond = (b: Uint8Array, n: number) => boolean;
/** Suffix, condition on the stem before it, replacement. */
type Rule = readonly [string, Cond, string];

/**
 * A step's rules by the last but one letter of the word: of those, the first whose
 * suffix the word ends with (and is longer than) is the only one tried.
 */
function rules(table: Record<string, readonly Rule[]>): Map<number, readonly Rule[]> {
  return new Map(Object.entries(table).map(([k, v]) => [c(k), v]));
}

const STEP2 = rules({
  a: [
    ['ational', mGt0, 'ate'],
    ['tional', mGt0, 'tion'],
  ],
  c: [
    ['enci', mGt0, 'ence'],
    ['anci', mGt0, 'ance'],
  ],
  e: [['izer', mGt0, 'ize']],
  g: [['logi', mGt0, 'log']],
  l: [
    ['bli', mGt0, 'ble'],
    ['alli', mGt0, 'al'],
    ['entli', mGt0, 'ent'],
    ['eli', mGt0, 'e'],
    ['ousli', mGt0, 'ous'],
  ],
  o: [
    ['ization', mGt0, 'ize'],
    ['ation', mGt0, 'ate'],
    ['ator', mGt0, 'ate'],
  ],
  s: [
    ['alism', mGt0, 'al'],
    ['iveness', mGt0, 'ive'],
    ['fulness', mGt0, 'ful'],
    ['ousness', mGt0, 'ous'],
  ],
  t: [
    ['aliti', mGt0, 'al'],
    ['iviti', mGt0, 'ive'],
    ['biliti', mGt0, 'ble'],
  ],
});

const STEP3 = rules({
  a: [['ical', mGt0, 'ic']],
  s: [['ness', mGt0, '']],
  t: [
    ['icate', mGt0, 'ic'],
    ['iciti', mGt0, 'ic'],
  ],
  u: [['ful', mGt0, '']],
  v: [['ative', mGt0, '']],
  z: [['alize', mGt0, 'al']],
});

const STEP4 = rules({
  a: [['al', mGt1, '']],
  c: [
    ['ance', mGt1, ''],
    ['ence', mGt1, ''],
  ],
  e: [['er', mGt1, '']],
  i: [['ic', mGt1, '']],
  l: [
    ['able', mGt1, ''],
    ['ible', mGt1, ''],
  ],
  n: [
    ['ant', mGt1, ''],
    ['ement', mGt1, ''],
    ['ment', mGt1, ''],
    ['ent', mGt1, ''],
  ],
  o: [
    ['ion', mGt1SorT, ''],
    ['ou', mGt1, ''],
  ],
  s: [['ism', mGt1, '']],
  t: [
    ['ate', mGt1, ''],
    ['iti', mGt1, ''],
  ],
  u: [['ous', mGt1, '']],
  v: [['ive', mGt1, '']],
  z: [['ize', mGt1, '']],
});

const always: Cond = () => true;

const STEP1B = rules({
  e: [
    ['eed', mGt0, 'ee'],
    ['ed', hasVowel, ''],
  ],
  n: [['ing', hasVowel, '']],
});

const STEP1B2 = rules({
  a: [['at', always, 'ate']],
  b: [['bl', always, 'ble']],
  i: [['iz', always, 'ize']],
});

function endsWith(b: Uint8Array, n: number, suffix: string): boolean {
  const k = suffix.length;
  for (let i = 0; i < k; i++) if (b[n - k + i] !== suffix.charCodeAt(i)) return false;
  return true;
}

/**
 * Applies the first rule of `step` whose suffix ends the word b[0, n). Returns the
 * new length, the suffix that matched ('' for none) and whether its condition held.
 */
function apply(
  step: Map<number, readonly Rule[]>,
  b: Uint8Array,
  n: number,
): { n: number; suffix: string; applied: boolean } {
  for (const [suffix, cond, out] of step.get(b[n - 2] ?? -1) ?? []) {
    if (n <= suffix.length || !endsWith(b, n, suffix)) continue;
    const stem = n - suffix.length;
    if (!cond(b, stem)) return { n, suffix, applied: false };
    for (let i = 0; i < out.length; i++) b[stem + i] = out.charCodeAt(i);
    return { n: stem + out.length, suffix, applied: true };
  }
  return { n, suffix: '', applied: false };
}

function step1A(b: Uint8Array, n: number): number {
  if (b[n - 1] !== c('s')) return n;
  if (b[n - 2] === E) {
    if ((n > 4 && b[n - 4] === c('s') && b[n - 3] === c('s')) || (n > 3 && b[n - 3] === I)) {
      return n - 2;
    }
    return n - 1;
  }
  return b[n - 2] !== c('s') ? n - 1 : n;
}

/** The Porter stem of a folded token's UTF-8 bytes; returns the new length (b is changed). */
function stemBytes(b: Uint8Array, len: number): number {
  let n = step1A(b, len);
  const s1b = apply(STEP1B, b, n);
  n = s1b.n;
  // Only a removed "ed" or "ing" goes on to the rest of step 1b ("eed" → "ee" does not).
  if (s1b.applied && s1b.suffix !== 'eed') {
    const s1b2 = apply(STEP1B2, b, n);
    n = s1b2.n;
    if (!s1b2.applied) {
      const last = b[n - 1];
      if (
        !isVowel(last, false) &&
        last !== c('l') &&
        last !== c('s') &&
        last !== c('z') &&
        last === b[n - 2]
      ) {
        n--;
      } else if (mEq1(b, n) && ostar(b, n)) {
        b[n++] = E;
      }
    }
  }
  if (b[n - 1] === Y && hasVowel(b, n - 1)) b[n - 1] = I;
  n = apply(STEP2, b, n).n;
  n = apply(STEP3, b, n).n;
  n = apply(STEP4, b, n).n;
  if (b[n - 1] === E && (mGt1(b, n - 1) || (mEq1(b, n - 1) && !ostar(b, n - 1)))) n--;
  if (n > 1 && b[n - 1] === c('l') && b[n - 2] === c('l') && mGt1(b, n - 1)) n--;
  return n;
}

/** The Porter stem of `token` (already folded), as FTS5's `porter` tokenizer gives it. */
export function porterStem(token: string): string {
  const bytes = Buffer.from(token, 'utf8');
  if (bytes.length > MAX_TOKEN || bytes.length < 3) return token;
  // Room for the letters a step may add.
  const b = new Uint8Array(bytes.length + 4);
  b.set(bytes);
  const n = stemBytes(b, bytes.length);
  return Buffer.from(b.buffer, 0, n).toString('utf8');
}
