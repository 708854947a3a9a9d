/**
 * The tokens of the PostgreSQL store's full-text index, made here rather than by
 * PostgreSQL's parser so that they are the SQLite store's (FTS5 `porter unicode61
 * remove_diacritics 2 categories 'L* N* Co M*'`, schema.ts): text segmented by
 * `segmentForIndex` is cut into runs of letters, digits, marks and private-use
 * characters; each is folded to lower case with its diacritics removed (FTS5's
 * table, ported below; the case folding is JavaScript's lower case of each code
 * point, FTS5's simple case folding but for a few letters outside Latin), then
 * stemmed (pg-search-porter.ts). The result is a lexeme; its position is its
 * token's index. Both the pages and the queries go through `lexemeOf`.
 */
import { porterStem } from './pg-search-porter.js';

const TOKEN_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ASCII_RE = /^[\x00-\x7f]*$/;

/** Longest lexeme kept (UTF-8 bytes): PostgreSQL refuses lexemes of 2 KB and more. */
export const MAX_LEXEME_BYTES = 2000;

// fts5_remove_diacritic (SQLite, public domain): code point ranges (start << 3 | length)
// and the letter each maps to (0: removed; 0x80 set: only with remove_diacritics 2).
const DIA = [
  0, 1797, 1848, 1859, 1891, 1928, 1940, 1995, 2024, 2040, 2060, 2110, 2168, 2206, 2264, 2286, 2344,
  2383, 2472, 2488, 2516, 2596, 2668, 2732, 2782, 2842, 2894, 2954, 2984, 3000, 3028, 3336, 3456,
  3696, 3712, 3728, 3744, 3766, 3832, 3896, 3912, 3928, 3944, 3968, 4008, 4040, 4056, 4106, 4138,
  4170, 4202, 4234, 4266, 4296, 4312, 4344, 4408, 4424, 4442, 4472, 4488, 4504, 6148, 6198, 6264,
  6280, 6360, 6429, 6505, 6529, 61448, 61468, 61512, 61534, 61592, 61610, 61642, 61672, 61688,
  61704, 61726, 61784, 61800, 61816, 61836, 61880, 61896, 61914, 61948, 61998, 62062, 62122, 62154,
  62184, 62200, 62218, 62252, 62302, 62364, 62410, 62442, 62478, 62536, 62554, 62584, 62604, 62640,
  62648, 62656, 62664, 62730, 62766, 62830, 62890, 62924, 62974, 63032, 63050, 63082, 63118, 63182,
  63242, 63274, 63310, 63368, 63390,
];
// The letters of DIA, upper case where FTS5 sets the high bit (the complex ones).
const DIA_CHAR =
  '\0aceinouyyacdeeghijklnorstuuwyzouaiouUAgkoOjgnAaeiorusthaeOoOy\0\0\0\0\0\0\0\0abCdd' +
  'EeEfghhiIklLlmnOprRrsStuUvwwxyzhtwyaAAAeEEioOOOuUUy';

/** Code point `cp` without its diacritic (FTS5's table with remove_diacritics 2); 0: dropped. */
function removeDiacritic(cp: number): number {
  const key = (cp << 3) | 7;
  let lo = 0;
  let hi = DIA.length - 1;
  let res = 0;
  while (hi >= lo) {
    const mid = (hi + lo) >> 1;
    if (key >= (DIA[mid] ?? 0)) {
      res = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const entry = DIA[res] ?? 0;
  if (cp > (entry >> 3) + (entry & 7)) return cp;
  const ch = DIA_CHAR[res] ?? '\0';
  return ch === '\0' ? 0 : ch.toLowerCase().charCodeAt(0);
}

/** Case folds of FTS5's table where JavaScript's lower case differs (µ, ſ, final ς, …). */
const FOLD = new Map<number, number>([
  [0xb5, 0x3bc],
  [0x17f, 0x73],
  [0x345, 0x3b9],
  [0x3c2, 0x3c3],
  [0x3d0, 0x3b2],
  [0x3d1, 0x3b8],
  [0x3d5, 0x3c6],
  [0x3d6, 0x3c0],
  [0x3f0, 0x3ba],
  [0x3f1, 0x3c1],
  [0x3f5, 0x3b5],
  [0x1e9b, 0x1e61],
  [0x1fbe, 0x3b9],
]);

/** A token folded as unicode61 folds it: lower case, diacritics removed. */
export function foldToken(token: string): string {
  if (ASCII_RE.test(token)) return token.toLowerCase();
  let out = '';
  for (const ch of token) {
    let cp = ch.codePointAt(0) ?? 0;
    if (cp < 65536 || (cp >= 66560 && cp < 66600)) {
      const lower = ch.toLowerCase();
      const lcp = lower.codePointAt(0) ?? cp;
      // Only a one-to-one mapping: FTS5 folds each code point to one code point.
      if (lower.length === ch.length) cp = lcp;
      cp = FOLD.get(cp) ?? cp;
      if (cp < 65536 && cp >= 128) cp = removeDiacritic(cp);
    }
    if (cp !== 0) out += String.fromCodePoint(cp);
  }
  return out;
}

/** Lexemes already made, by token (text is Zipfian: most tokens repeat). */
const cache = new Map<string, string>();
const CACHE_MAX = 50_000;

/** The lexeme of a token: folded and stemmed ('' when folding leaves nothing). */
export function lexemeOf(token: string): string {
  let lex = cache.get(token);
  if (lex === undefined) {
    const folded = foldToken(token);
    lex = folded === '' ? '' : porterStem(folded);
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(token, lex);
  }
  return lex;
}

/** The lexemes of segmented text, one per token, in order. */
export function lexemes(segmented: string): string[] {
  const out: string[] = [];
  for (const m of segmented.matchAll(TOKEN_RE)) out.push(lexemeOf(m[0]));
  return out;
}

/** A token of segmented text: its lexeme and where it is (UTF-16 offsets). */
export interface Token {
  lex: string;
  start: number;
  end: number;
}

/** The tokens of segmented text with their places, for highlighting. */
export function tokens(segmented: string): Token[] {
  const out: Token[] = [];
  for (const m of segmented.matchAll(TOKEN_RE)) {
    out.push({ lex: lexemeOf(m[0]), start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Whether a lexeme can go into a tsvector (not empty, not too long). */
export function storable(lex: string): boolean {
  return (
    lex !== '' && (lex.length * 3 <= MAX_LEXEME_BYTES || Buffer.byteLength(lex) <= MAX_LEXEME_BYTES)
  );
}

/** A lexeme as a quoted element of a tsvector or tsquery literal. */
export function quoteLexeme(lex: string): string {
  return `'${lex.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}
