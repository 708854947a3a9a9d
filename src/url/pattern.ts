/**
 * URL patterns of the site model: a URL's path segments and query pairs, each value
 * written as literal text and placeholders.
 *
 * Syntax: `/seg/seg…[?key=value&key&…]`. A segment or query value is literal text with
 * placeholders: `{n}` digits, `{hex}` hex digits (an id or hash: 6 or more, a letter
 * a–f and a digit among them; also a UUID), `{date}` a date (`2024-05-17`, `2024_5`),
 * `{w}` anything (in a path: no `/`; in a query value: no `&`). Keys are literal; their
 * order and presence matter, so `/a?x=1` and `/a?x=1&y=2` have different patterns, and
 * a pattern without a query matches only URLs without one. Literal `{` and `}` of a URL
 * are written `%7B` and `%7D`. Patterns hold no host: a model names its hosts.
 *
 * {@link patternOf} is the most specific pattern of one URL: digits, hex ids and dates
 * become placeholders, words stay literal (`/f-12-3.html?page=2` → `/f-{n}-{n}.html?page={n}`).
 * {@link inducePatterns} generalises a set of URLs: where their literal words differ,
 * `{w}`.
 */
import { InvalidOptionError } from '../errors/index.js';
import { canonicalizeUrl } from './canonicalize.js';

export type Placeholder = 'n' | 'hex' | 'date' | 'w';
export type Token = { readonly lit: string } | { readonly ph: Placeholder };
/** A path segment or query value as tokens. */
export type Part = readonly Token[];

export interface ParsedPattern {
  readonly path: readonly Part[];
  /** Query pairs in order; `value` null for a key without `=`. */
  readonly query: readonly { readonly key: string; readonly value: Part | null }[];
}

/** A path segment or query value as raw text, and query pairs, of a canonical URL. */
interface RawUrl {
  path: string[];
  query: { key: string; value: string | null }[];
}

const PLACEHOLDERS: ReadonlySet<string> = new Set(['n', 'hex', 'date', 'w']);
const DATE = /^(?:19|20)\d\d([-_.])(?:0?[1-9]|1[0-2])(?:\1(?:0?[1-9]|[12]\d|3[01]))?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^[0-9a-f]{6,}$/i;
const DIGITS = /^\d+$/;
/** Word runs (letters, digits, %XX escapes) and the delimiters between them. */
const WORD_RUN = /(?:[\p{L}\p{N}]|%[0-9A-F]{2})+/gu;
/** Pieces of a word run: an escape, digits, other characters. */
const PIECES = /%[0-9A-F]{2}|\d+|[^\d%]+/g;

function escapeBraces(s: string): string {
  return s.replace(/\{/g, '%7B').replace(/\}/g, '%7D');
}

/** Path and query of an absolute http(s) URL (canonicalised), or of a `/path?query` string. */
function rawUrl(where: string, url: string): RawUrl {
  let pathAndQuery: string;
  if (url.startsWith('/')) pathAndQuery = url;
  else {
    const canonical = canonicalizeUrl(url);
    if (canonical === null) {
      throw new InvalidOptionError(
        `${where}: url must be an absolute http(s) URL or a /path, got ${JSON.stringify(url)}`,
      );
    }
    const u = new URL(canonical);
    pathAndQuery = u.pathname + u.search;
  }
  const s = escapeBraces(pathAndQuery.replace(/#.*$/s, ''));
  const q = s.indexOf('?');
  const path = (q < 0 ? s : s.slice(0, q)).slice(1).split('/');
  const search = q < 0 ? '' : s.slice(q + 1);
  const query = search === '' ? [] : search.split('&').map(pair);
  return { path, query };
}

function pair(p: string): { key: string; value: string | null } {
  const eq = p.indexOf('=');
  return eq < 0 ? { key: p, value: null } : { key: p.slice(0, eq), value: p.slice(eq + 1) };
}

function isHexId(run: string): boolean {
  return HEX.test(run) && /\d/.test(run) && /[a-f]/i.test(run);
}

/**
 * The most specific tokens of one segment or query value. Delimiter runs (`-`, `.` …)
 * are tokens of their own, apart from the words around them, so that `a-{n}.html`
 * and `b-{n}.html` differ in one token only.
 */
export function generalizePart(s: string): Token[] {
  if (s === '') return [{ lit: '' }];
  if (DATE.test(s)) return [{ ph: 'date' }];
  if (UUID.test(s)) return [{ ph: 'hex' }];
  const out: Token[] = [];
  let at = 0;
  for (const m of s.matchAll(WORD_RUN)) {
    if (m.index > at) out.push({ lit: s.slice(at, m.index) });
    const run = m[0];
    if (DIGITS.test(run)) out.push({ ph: 'n' });
    else if (isHexId(run)) out.push({ ph: 'hex' });
    else {
      let word = '';
      for (const piece of run.match(PIECES) ?? []) {
        if (!DIGITS.test(piece)) word += piece;
        else {
          if (word !== '') out.push({ lit: word });
          word = '';
          out.push({ ph: 'n' });
        }
      }
      if (word !== '') out.push({ lit: word });
    }
    at = m.index + run.length;
  }
  if (at < s.length) out.push({ lit: s.slice(at) });
  return out;
}

function partText(part: Part): string {
  return part.map((t) => ('lit' in t ? t.lit : `{${t.ph}}`)).join('');
}

/** The pattern string of a parsed pattern. */
export function formatPattern(p: ParsedPattern): string {
  const path = `/${p.path.map(partText).join('/')}`;
  if (p.query.length === 0) return path;
  const q = p.query.map((x) => (x.value === null ? x.key : `${x.key}=${partText(x.value)}`));
  return `${path}?${q.join('&')}`;
}

/** The most specific parsed pattern of `url`; `where` names the caller in errors. */
export function parsedOfUrl(where: string, url: string): ParsedPattern {
  const raw = rawUrl(where, url);
  return {
    path: raw.path.map(generalizePart),
    query: raw.query.map((x) => ({
      key: x.key,
      value:
        x.value === null
          ? null
          : x.value === '0'
            ? [{ lit: '0' }]
            : identifierValue(generalizePart(x.value)),
    })),
  };
}

/*
 * A query value of `0` stays literal: an offset or a page number of 0 is the first
 * page spelled another way (`?start=0` against no `start`), not one of the pages the
 * other values number, and its own pattern lets the content split see that.
 */

/**
 * A query value whose words are glued to a number (`oldowl3`, `user_12`) is an
 * identifier, a name made of a word and a number: its words are `{w}` too, so that
 * one pattern takes every such value. A value of words alone (`desc`) stays literal.
 */
function identifierValue(tokens: Token[]): Token[] {
  if (!tokens.some((t) => 'ph' in t)) return tokens;
  return tokens.map((t) => ('lit' in t && /\p{L}/u.test(t.lit) ? { ph: 'w' as const } : t));
}

/**
 * The most specific pattern of `url` (absolute http(s), canonicalised first; or a
 * `/path?query`): `https://x.test/t/42?page=2` → `/t/{n}?page={n}`.
 * @throws InvalidOptionError when `url` is neither.
 */
export function patternOf(url: string): string {
  return formatPattern(parsedOfUrl('patternOf', url));
}

function parsePart(s: string, what: string): Token[] {
  const out: Token[] = [];
  let at = 0;
  for (const m of s.matchAll(/\{([^{}]*)\}/g)) {
    if (m.index > at) out.push({ lit: s.slice(at, m.index) });
    const name = m[1] ?? '';
    if (!PLACEHOLDERS.has(name)) {
      throw new Error(`${what}: unknown placeholder {${name}} (known: {n}, {hex}, {date}, {w})`);
    }
    out.push({ ph: name as Placeholder });
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push({ lit: s.slice(at) });
  if (out.length === 0) out.push({ lit: '' });
  for (const t of out) {
    if ('lit' in t && /[{}]/.test(t.lit)) throw new Error(`${what}: unbalanced { or }`);
  }
  return out;
}

/**
 * Parses a pattern string.
 * @throws Error (a plain one: callers wrap it) naming what is wrong.
 */
export function parsePattern(pattern: string): ParsedPattern {
  if (!pattern.startsWith('/')) throw new Error('a pattern starts with /');
  if (pattern.includes('#')) throw new Error('a pattern has no #fragment');
  const q = pattern.indexOf('?');
  const pathText = q < 0 ? pattern : pattern.slice(0, q);
  const path = pathText
    .slice(1)
    .split('/')
    .map((s, i) => parsePart(s, `path segment ${i + 1}`));
  const query =
    q < 0
      ? []
      : pattern
          .slice(q + 1)
          .split('&')
          .map((p, i) => {
            const { key, value } = pair(p);
            if (/[{}]/.test(key)) throw new Error(`query key ${i + 1}: keys are literal`);
            return { key, value: value === null ? null : parsePart(value, `query value ${key}`) };
          });
  return { path, query };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const HEX_RE = '[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)*';
const DATE_RE = '\\d{4}[-_.]\\d{1,2}(?:[-_.]\\d{1,2})?';

function partRegex(part: Part, any: string): string {
  return part
    .map((t) => {
      if ('lit' in t) return escapeRegex(t.lit);
      if (t.ph === 'n') return '\\d+';
      if (t.ph === 'hex') return HEX_RE;
      if (t.ph === 'date') return DATE_RE;
      return any;
    })
    .join('');
}

/** A pattern as a regular expression over `/path?query` (braces escaped as in URLs). */
export function patternRegex(p: ParsedPattern): RegExp {
  let s = `^/${p.path.map((x) => partRegex(x, '[^/]+')).join('/')}`;
  if (p.query.length > 0) {
    const q = p.query.map((x) =>
      x.value === null
        ? escapeRegex(x.key)
        : `${escapeRegex(x.key)}=${partRegex(x.value, '[^&]+')}`,
    );
    s += `\\?${q.join('&')}`;
  }
  return new RegExp(`${s}$`, 'u');
}

/** `/path?query` of a URL as patterns see it (canonical, braces escaped); null if not http(s). */
export function matchTarget(url: string): string | null {
  if (url.startsWith('/')) return escapeBraces(url.replace(/#.*$/s, ''));
  const canonical = canonicalizeUrl(url);
  if (canonical === null) return null;
  const u = new URL(canonical);
  return escapeBraces(u.pathname + u.search);
}

const compiled = new Map<string, RegExp>();

/**
 * Whether `url` (absolute http(s), or a `/path?query`) matches `pattern`. The host is
 * not looked at. A URL that is not http(s) matches nothing.
 * @throws InvalidOptionError when `pattern` is malformed.
 */
export function matchPattern(pattern: string, url: string): boolean {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = patternRegex(parsePattern(pattern));
    } catch (e) {
      throw new InvalidOptionError(
        `matchPattern: pattern ${JSON.stringify(pattern)}: ${(e as Error).message}`,
        { cause: e },
      );
    }
    if (compiled.size >= 4096) compiled.clear();
    compiled.set(pattern, re);
  }
  const target = matchTarget(url);
  return target !== null && re.test(target);
}

const WEIGHT: Record<Placeholder, number> = { date: 12, n: 1, hex: 0.5, w: 0 };

function partWeight(part: Part): number {
  let s = 0;
  for (const t of part) s += 'lit' in t ? 2 * t.lit.length : WEIGHT[t.ph];
  return s;
}

/**
 * How specific a pattern is: 2 per literal character (and per `/`, `?`, `&`, `=`),
 * `{date}` 12, `{n}` 1, `{hex}` 0.5, `{w}` 0: a placeholder that matches less weighs
 * more, and a literal more than the placeholder of the same text (`start=0` beats
 * `start={n}`). When several patterns match a URL, the most specific one speaks for it.
 */
export function specificity(p: ParsedPattern): number {
  let s = p.path.length * 2 + (p.query.length > 0 ? 2 : 0);
  for (const x of p.path) s += partWeight(x);
  for (const x of p.query) s += 2 * x.key.length + (x.value === null ? 0 : 2 + partWeight(x.value));
  return s;
}

/**
 * The item id of a URL: its first run of digits that makes a whole path segment or
 * query value, or ends one after a separator (`/t/12`, `?t=12`, `/t-12.html`); null
 * when it has none. Not digits inside a longer token (a session id's hex), nor later
 * runs (a page number), which would pair unrelated URLs. Two URLs with one id are
 * often two views of one item (a page and its print view).
 */
export function urlId(url: string): string | null {
  const m = ID.exec(url);
  return m === null ? null : (m[1] as string);
}

const ID = /(?<=[/=\-_])(\d+)(?=$|[/?&#.\-_])/;
const IDS = new RegExp(ID.source, 'g');

/**
 * Every run of digits of a URL that urlId could take, in order, each once
 * (`/item?g=2&i=17`: 2 and 17): the ids of the items a URL names, its page
 * number among them.
 */
export function urlIds(url: string): string[] {
  return [...new Set(Array.from(url.matchAll(IDS), (m) => m[1] as string))];
}
