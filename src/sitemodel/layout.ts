/**
 * Layout features of a page: the counts of its repeated DOM patterns (template blocks).
 *
 * Each element has a signature: its tag name and up to `maxClassTokens` of its class
 * tokens (lower-cased, sorted; tokens holding a digit are dropped, being instance ids
 * such as `item-123` rather than part of the template), e.g. `div.entry`. Its pattern
 * is the path of the last `pathDepth` signatures down to it (`table.list>tr>td.title`).
 * A pattern found at least `minRepeat` (2) times on the page is a repeated structure:
 * the rows of a table, the messages of a discussion and each block inside each one.
 * Its count n^i is the number of elements with that path; together they form the
 * page's sparse vector (pattern i → n^i). Head, script, style, template, noscript,
 * svg and math content is left out, and so are br and wbr (line breaks in written
 * text are not layout); html and body, implied when missing, are not part of paths.
 * `minRepeat: 1` counts every element (the one-off blocks of the template too).
 *
 * Distance between two pages: dist(a, b) = sqrt(Σ_i (ℓ(n_a^i) − ℓ(n_b^i))²) with
 * ℓ(x) = ln(1 + x) (`scale: 'log'`, the default) or ℓ(x) = x (`'raw'`). The log
 * makes the presence of a block weigh more than how often it repeats: two list pages
 * with 20 and 35 rows are 0.54 apart, a page with 20 rows and one without the list
 * 3.04; in raw counts those are 15 and 20, and the length of a list would matter
 * nearly as much as whether the page has one.
 */
import { Parser } from 'htmlparser2';

export type CountScale = 'log' | 'raw';

/** Pattern → count of its occurrences on a page (repeated ones only). */
export type LayoutCounts = Map<string, number>;

export interface LayoutOptions {
  /** Signatures in a pattern's path, the element's own included (1 … 16). @default 4 */
  pathDepth?: number;
  /** Class tokens kept in a signature (0 … 8). @default 3 */
  maxClassTokens?: number;
  /** Fewest occurrences on the page for a pattern to count (1 … 100). @default 2 */
  minRepeat?: number;
}

/** Longest HTML read, in UTF-16 code units; the rest of a longer page is ignored. */
export const MAX_LAYOUT_CHARS = 2 << 20;

const SKIP = new Set(['head', 'script', 'style', 'template', 'svg', 'math', 'noscript']);
const IGNORE = new Set(['br', 'wbr']);
/** Always there (implied when missing): left out of paths, so pages with and without them agree. */
const TRANSPARENT = new Set(['html', 'body']);

function signature(tag: string, cls: string | undefined, maxTokens: number): string {
  if (cls === undefined || maxTokens === 0) return tag;
  const tokens = [
    ...new Set(
      cls
        .toLowerCase()
        .split(/\s+/)
        .filter((t) => t !== '' && !/\d/.test(t)),
    ),
  ].sort();
  return tokens.length === 0 ? tag : `${tag}.${tokens.slice(0, maxTokens).join('.')}`;
}

function lastSignatures(path: string, sig: string, keep: number): string {
  const parts = path === '' ? [sig] : [...path.split('>'), sig];
  return parts.slice(Math.max(0, parts.length - keep)).join('>');
}

/**
 * The layout vector of an HTML page: repeated pattern → count.
 * @example layoutCounts('<ul><li>a</li><li>b</li></ul>') // Map { 'ul>li' => 2 }
 */
export function layoutCounts(html: string, options: LayoutOptions = {}): LayoutCounts {
  const depth = options.pathDepth ?? 4;
  const maxTokens = options.maxClassTokens ?? 3;
  const minRepeat = options.minRepeat ?? 2;
  const all = new Map<string, number>();
  const stack: string[] = [''];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipping > 0 || SKIP.has(name)) {
          skipping++;
          return;
        }
        if (IGNORE.has(name) || TRANSPARENT.has(name)) return;
        const sig = signature(name, attribs['class'], maxTokens);
        const path = lastSignatures(stack[stack.length - 1]!, sig, depth);
        all.set(path, (all.get(path) ?? 0) + 1);
        stack.push(path);
      },
      onclosetag(name) {
        if (skipping > 0) {
          skipping--;
          return;
        }
        if (IGNORE.has(name) || TRANSPARENT.has(name) || stack.length === 1) return;
        stack.pop();
      },
    },
    { decodeEntities: false },
  );
  parser.end(html.length > MAX_LAYOUT_CHARS ? html.slice(0, MAX_LAYOUT_CHARS) : html);
  const counts: LayoutCounts = new Map();
  for (const [path, n] of all) if (n >= minRepeat) counts.set(path, n);
  return counts;
}

/** A layout vector with ℓ applied and its patterns as sorted ids: what distances are taken on. */
export interface ScaledLayout {
  readonly ids: Int32Array;
  readonly values: Float64Array;
}

/** Gives each pattern name a number, the same for every page of one learning run. */
export class PatternIds {
  private readonly ids = new Map<string, number>();

  scale(counts: ReadonlyMap<string, number>, scale: CountScale = 'log'): ScaledLayout {
    const entries: [number, number][] = [];
    for (const [key, n] of counts) {
      let id = this.ids.get(key);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(key, id);
      }
      entries.push([id, scale === 'log' ? Math.log1p(n) : n]);
    }
    entries.sort((a, b) => a[0] - b[0]);
    return {
      ids: Int32Array.from(entries, (e) => e[0]),
      values: Float64Array.from(entries, (e) => e[1]),
    };
  }
}

/** Euclidean distance of two scaled layouts (a merge over their sorted pattern ids). */
export function scaledDistance(a: ScaledLayout, b: ScaledLayout): number {
  let sum = 0;
  let i = 0;
  let j = 0;
  const na = a.ids.length;
  const nb = b.ids.length;
  while (i < na || j < nb) {
    const ia = i < na ? a.ids[i]! : Number.POSITIVE_INFINITY;
    const ib = j < nb ? b.ids[j]! : Number.POSITIVE_INFINITY;
    let d: number;
    if (ia === ib) d = a.values[i++]! - b.values[j++]!;
    else if (ia < ib) d = a.values[i++]!;
    else d = b.values[j++]!;
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/**
 * dist(a, b) = sqrt(Σ_i (ℓ(n_a^i) − ℓ(n_b^i))²) over the union of both pages'
 * patterns (a pattern missing from a page counts 0), ℓ = ln(1 + x) or x by `scale`.
 */
export function layoutDistance(
  a: ReadonlyMap<string, number>,
  b: ReadonlyMap<string, number>,
  scale: CountScale = 'log',
): number {
  const ids = new PatternIds();
  return scaledDistance(ids.scale(a, scale), ids.scale(b, scale));
}
