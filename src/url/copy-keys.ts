/**
 * Query keys that change nothing, learnt from the copies a crawl finds (docs/dedup.md,
 * "URL copies"). A session id or a tracking id in a link (`?s=d418bb41`,
 * `;jsessionid=8F3A…`) gives every page as many URLs as there are sessions; each is
 * fetched, found an exact duplicate, and spends a request. When a page turns out an
 * exact copy of another whose URL is its own plus one or two query keys (or a
 * `;name=value` path parameter) with id-like values, those keys are counted for the
 * origin; once they have made copies of `learnAt` different pages (2 by default; 1 for
 * a key learnt on another origin already, as sites built with the same software name
 * their session ids alike), they are learnt: `strip` drops them from the origin's
 * URLs, so the copies' links lead to the page's own URL.
 *
 * What counts is narrow on purpose:
 * - only a key one of the two URLs does without: `?id=1` and `?id=2` reading alike may
 *   be two empty pages, not one page;
 * - only id-like values (six or more letters, digits, `-` or `_`, a digit among them):
 *   `?lang=en` beside a page in English by default is a copy too, but `lang` changes
 *   other pages.
 *
 * Pure and synchronous; the crawl keeps the learnt keys in its store (`toJSON`, the
 * constructor) so that a resumed crawl strips them from the start.
 */

/** A URL's parts compared: origin, path without a `;` parameter, and its keyed values. */
interface Keyed {
  origin: string;
  path: string;
  /** Key → value; a `;name=value` path parameter as key `;name`. */
  values: Map<string, string>;
}

const ID_LIKE = /^(?=.*\d)[A-Za-z0-9_-]{6,}$/;
/** Different pages whose copies a key must have made before it is learnt. */
export const COPY_KEY_LEARN_AT = 2;
/** Keys at most in which two URLs may differ for their pages' sameness to count. */
const MAX_KEYS = 2;

/** Where a URL's parts are: the origin ends at `slash`, the path at `pathEnd`, the query at `end`. */
interface Cuts {
  slash: number;
  pathEnd: number;
  /** Where the query starts (its `?`), or -1. */
  q: number;
  /** Where the fragment starts, or the URL's length. */
  end: number;
}

function cuts(url: string): Cuts | null {
  const scheme = url.indexOf('://');
  if (scheme < 0) return null;
  const slash = url.indexOf('/', scheme + 3);
  if (slash < 0) return null;
  const hash = url.indexOf('#', slash);
  const end = hash < 0 ? url.length : hash;
  const at = url.indexOf('?', slash);
  const q = at < 0 || at > end ? -1 : at;
  return { slash, pathEnd: q < 0 ? end : q, q, end };
}

/** The `;name=value` parameter at the end of a path: where it starts and its key. */
function pathParam(path: string): { at: number; key: string; value: string } | null {
  const at = path.indexOf(';', path.lastIndexOf('/'));
  if (at < 0) return null;
  const param = path.slice(at + 1);
  const eq = param.indexOf('=');
  return eq > 0
    ? { at, key: `;${param.slice(0, eq)}`, value: param.slice(eq + 1) }
    : { at, key: `;${param}`, value: '' };
}

function keyed(url: string): Keyed | null {
  const c = cuts(url);
  if (c === null) return null;
  let path = url.slice(c.slash, c.pathEnd);
  const values = new Map<string, string>();
  const param = pathParam(path);
  if (param !== null) {
    path = path.slice(0, param.at);
    values.set(param.key, param.value);
  }
  if (c.q >= 0) {
    for (const pair of url.slice(c.q + 1, c.end).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const k = eq < 0 ? pair : pair.slice(0, eq);
      const v = eq < 0 ? '' : pair.slice(eq + 1);
      // A key given twice: its values together.
      const had = values.get(k);
      values.set(k, had === undefined ? v : `${had}&${v}`);
    }
  }
  return { origin: url.slice(0, c.slash), path, values };
}

/**
 * The keys one of two URLs of one page has and the other does without, when there are
 * one or two, their values are id-like, and the URLs differ in nothing else; else null.
 */
export function copyKeys(a: string, b: string): string[] | null {
  return differing(a, b)?.keys ?? null;
}

/** `copyKeys`, with the origin the two URLs share. */
function differing(a: string, b: string): { origin: string; keys: string[] } | null {
  const x = keyed(a);
  const y = keyed(b);
  if (x === null || y === null || x.origin !== y.origin || x.path !== y.path) return null;
  const keys: string[] = [];
  for (const [k, v] of x.values) {
    const w = y.values.get(k);
    if (w === undefined) keys.push(k);
    // Two values of one key (`?id=1` and `?id=2` of one text) can be two pages that
    // happen to read alike (two empty ones): only a key one URL does without counts.
    else if (w !== v) return null;
  }
  for (const k of y.values.keys()) if (!x.values.has(k)) keys.push(k);
  if (keys.length === 0 || keys.length > MAX_KEYS) return null;
  for (const k of keys) {
    const v = x.values.get(k) ?? y.values.get(k);
    if (v === undefined || !ID_LIKE.test(v)) return null;
  }
  return { origin: x.origin, keys };
}

/** Drops `keys` (query keys, and `;name` for a path parameter) from a URL. */
export function withoutKeys(url: string, keys: ReadonlySet<string>): string {
  const c = cuts(url);
  if (c === null) return url;
  let path = url.slice(c.slash, c.pathEnd);
  const param = pathParam(path);
  if (param !== null && keys.has(param.key)) path = path.slice(0, param.at);
  let query = c.q >= 0 ? url.slice(c.q, c.end) : '';
  if (query !== '') {
    const pairs = query.slice(1).split('&');
    const kept = pairs.filter((pair) => {
      const eq = pair.indexOf('=');
      return !keys.has(eq < 0 ? pair : pair.slice(0, eq));
    });
    // Nothing dropped: the query stays as it was, written the same.
    if (kept.length < pairs.length) query = kept.length > 0 ? `?${kept.join('&')}` : '';
  }
  return url.slice(0, c.slash) + path + query + url.slice(c.end);
}

/** What a likely copy's priority is multiplied by (`likelyCopies`): it waits, not dropped. */
export const LIKELY_COPY_FACTOR = 0.5;

/**
 * The links of one page that are most likely copies of pages known already, before any
 * copy was fetched to teach a key: a link that is a known URL (the page's own, or one
 * the crawl has seen) plus an id-like key (`?s=49cf4720`), and any other link carrying
 * the same key and value (the session id the page hands every link). `known` says
 * whether a URL is known.
 */
export function likelyCopies(urls: Iterable<string>, known: (url: string) => boolean): Set<string> {
  const copies = new Set<string>();
  /** `origin key=value` of the ids found in copies. */
  const ids = new Set<string>();
  const rest: { url: string; origin: string; values: Map<string, string> }[] = [];
  for (const url of urls) {
    if (url.indexOf('?') < 0 && url.indexOf(';') < 0) continue;
    const k = keyed(url);
    if (k === null || k.values.size === 0) continue;
    let copy = false;
    for (const [key, value] of k.values) {
      if (!ID_LIKE.test(value)) continue;
      const bare = withoutKeys(url, new Set([key]));
      if (bare === url || !known(bare)) continue;
      copy = true;
      ids.add(`${k.origin} ${key}=${value}`);
    }
    if (copy) copies.add(url);
    else rest.push({ url, origin: k.origin, values: k.values });
  }
  if (ids.size === 0) return copies;
  for (const r of rest)
    for (const [key, value] of r.values)
      if (ids.has(`${r.origin} ${key}=${value}`)) copies.add(r.url);
  return copies;
}

export type CopyKeysJson = Record<string, string[]>;

export class CopyKeys {
  readonly #learnAt: number;
  /** Per origin and key: the pages whose copies it made, until learnt (at most learnAt each). */
  readonly #evidence = new Map<string, Map<string, Set<string>>>();
  /** Per origin: the keys learnt. */
  readonly #learnt = new Map<string, Set<string>>();
  /** Every key learnt, whatever its origin. */
  readonly #anywhere = new Set<string>();

  constructor(learnAt = COPY_KEY_LEARN_AT, learnt: CopyKeysJson = {}) {
    this.#learnAt = learnAt;
    for (const [origin, keys] of Object.entries(learnt)) {
      this.#learnt.set(origin, new Set(keys));
      for (const k of keys) this.#anywhere.add(k);
    }
  }

  /** Keys learnt, by origin (`http://host:port`). */
  toJSON(): CopyKeysJson {
    const out: CopyKeysJson = {};
    for (const [origin, keys] of this.#learnt) out[origin] = [...keys].sort();
    return out;
  }

  /** How many keys are learnt, over all origins. */
  get size(): number {
    let n = 0;
    for (const keys of this.#learnt.values()) n += keys.size;
    return n;
  }

  /**
   * The page of `copy` was found an exact duplicate of the page of `original`: counts
   * the keys their URLs differ in. Returns the keys this learnt (usually none).
   */
  observe(copy: string, original: string): string[] {
    const d = differing(copy, original);
    if (d === null) return [];
    const { origin, keys } = d;
    // The page: its URL without the keys (pages that differ only in their query count apart).
    const page = withoutKeys(original, new Set(keys));
    const learnt: string[] = [];
    const byKey = this.#evidence.get(origin) ?? new Map<string, Set<string>>();
    this.#evidence.set(origin, byKey);
    for (const key of keys) {
      if (this.#learnt.get(origin)?.has(key)) continue;
      const pages = byKey.get(key) ?? new Set<string>();
      byKey.set(key, pages);
      pages.add(page);
      // A key learnt on another site (the same software's session id) needs one page.
      if (pages.size < (this.#anywhere.has(key) ? 1 : this.#learnAt)) continue;
      byKey.delete(key);
      const set = this.#learnt.get(origin) ?? new Set<string>();
      this.#learnt.set(origin, set);
      set.add(key);
      this.#anywhere.add(key);
      learnt.push(key);
    }
    return learnt;
  }

  /** `url` without the keys learnt for its origin (the same string when none applies). */
  strip(url: string): string {
    if (this.#learnt.size === 0) return url;
    const c = cuts(url);
    if (c === null) return url;
    const keys = this.#learnt.get(url.slice(0, c.slash));
    if (keys === undefined) return url;
    if (c.q < 0 && url.indexOf(';', c.slash) < 0) return url;
    return withoutKeys(url, keys);
  }
}
