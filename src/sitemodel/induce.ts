/**
 * Pattern induction: the least general patterns that cover a set of URLs.
 *
 * URLs are first grouped by skeleton: the number of path segments, which of them are
 * empty, and the query keys in order with whether each has a value (`k`, `k=`, `k=v`).
 * URLs of different skeletons never share a pattern. Within a skeleton, each segment
 * and query value is generalised over the group from the URLs' own most specific
 * tokens (patternOf):
 * - equal everywhere: kept (`/t/{n}` stays `/t/{n}`, a constant word stays literal);
 * - the same token structure: token by token, equal tokens are kept, differing
 *   placeholders widen (`{n}` with `{hex}` is `{hex}`), anything else is `{w}`
 *   (`/u/alice`, `/u/bob` → `/u/{w}`; `a-{n}.html`, `b-{n}.html` → `{w}-{n}.html`);
 * - different structures: the tokens common to all at the start and at the end are
 *   kept and the middle is `{w}` (`{n}-my-story`, `{n}-other-title` → `{n}-{w}`), a
 *   middle of one token at least in every part (`{w}` is never empty: `{n}` and
 *   `user{n}` give `{w}`, not `{w}{n}`, which would miss `7`).
 */
import {
  formatPattern,
  type ParsedPattern,
  type Part,
  parsedOfUrl,
  type Token,
} from '../url/index.js';

/** An induced pattern and the URLs (of those given) it was induced from. */
export interface InducedPattern {
  pattern: string;
  urls: string[];
}

function skeleton(p: ParsedPattern): string {
  const path = p.path.map((x) => (x.length === 1 && 'lit' in x[0]! && x[0].lit === '' ? 'e' : 's'));
  const query = p.query.map((x) => {
    if (x.value === null) return `${x.key}`;
    const empty = x.value.length === 1 && 'lit' in x.value[0]! && x.value[0].lit === '';
    return `${x.key}=${empty ? '' : '*'}`;
  });
  return `${path.join('')}?${query.join('&')}`;
}

function sameToken(a: Token, b: Token): boolean {
  return 'lit' in a ? 'lit' in b && a.lit === b.lit : 'ph' in b && a.ph === b.ph;
}

function tokenKey(t: Token): string {
  return 'lit' in t ? `l${t.lit}` : `p${t.ph}`;
}

/** Whether two parts have the same token structure: same length, literals where literals. */
function sameShape(a: Part, b: Part): boolean {
  return a.length === b.length && a.every((t, i) => 'lit' in t === 'lit' in b[i]!);
}

function widen(a: Token, b: Token): Token {
  if (sameToken(a, b)) return a;
  if ('ph' in a && 'ph' in b) {
    const kinds = new Set([a.ph, b.ph]);
    if (kinds.size === 2 && kinds.has('n') && kinds.has('hex')) return { ph: 'hex' };
  }
  return { ph: 'w' };
}

/** Joins adjacent `{w}` (`{w}{w}` matches what `{w}` matches) and adjacent literals. */
function tidy(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (last !== undefined && 'ph' in last && 'ph' in t && last.ph === 'w' && t.ph === 'w')
      continue;
    if (last !== undefined && 'lit' in last && 'lit' in t) {
      out[out.length - 1] = { lit: last.lit + t.lit };
      continue;
    }
    out.push(t);
  }
  return out;
}

/** The least general generalisation of parts of one position. */
export function generalizeParts(parts: readonly Part[]): Part {
  const first = parts[0];
  if (first === undefined) return [{ ph: 'w' }];
  const distinct = new Map<string, Part>();
  for (const p of parts) distinct.set(p.map(tokenKey).join('\u0000'), p);
  if (distinct.size === 1) return first;
  const all = [...distinct.values()];
  if (all.every((p) => sameShape(p, first))) {
    return tidy(first.map((t, i) => all.reduce((acc, p) => widen(acc, p[i]!), t)));
  }
  const shortest = Math.min(...all.map((p) => p.length));
  let pre = 0;
  while (pre < shortest && all.every((p) => sameToken(p[pre]!, first[pre]!))) pre++;
  let suf = 0;
  while (
    suf < shortest - pre &&
    all.every((p) => sameToken(p[p.length - 1 - suf]!, first[first.length - 1 - suf]!))
  ) {
    suf++;
  }
  // `{w}` matches one character or more: every part keeps a token for it.
  while (pre + suf >= shortest && pre + suf > 0) {
    if (suf > 0) suf--;
    else pre--;
  }
  return tidy([...first.slice(0, pre), { ph: 'w' }, ...first.slice(first.length - suf)]);
}

/** The least general pattern of URLs sharing one skeleton. */
function generalizeGroup(ps: readonly ParsedPattern[]): ParsedPattern {
  const first = ps[0]!;
  return {
    path: first.path.map((_, i) => generalizeParts(ps.map((p) => p.path[i]!))),
    query: first.query.map((q, i) => ({
      key: q.key,
      value: q.value === null ? null : generalizeParts(ps.map((p) => p.query[i]!.value!)),
    })),
  };
}

/**
 * Patterns covering `urls` (absolute http(s) URLs or `/path?query` strings): one per
 * skeleton, in order of first appearance. Each URL matches the pattern it is listed under.
 * @throws InvalidOptionError for a URL that is neither.
 */
export function inducePatterns(urls: readonly string[]): InducedPattern[] {
  const groups = new Map<string, { parsed: ParsedPattern[]; urls: string[] }>();
  for (const url of urls) {
    const p = parsedOfUrl('inducePatterns', url);
    const key = skeleton(p);
    let g = groups.get(key);
    if (g === undefined) {
      g = { parsed: [], urls: [] };
      groups.set(key, g);
    }
    g.parsed.push(p);
    g.urls.push(url);
  }
  return [...groups.values()].map((g) => ({
    pattern: formatPattern(generalizeGroup(g.parsed)),
    urls: g.urls,
  }));
}
