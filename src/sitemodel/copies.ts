/**
 * Copies: a content pattern whose pages hold nothing that the other pages of the same
 * item do not (a light or archive copy of a discussion, its text under other
 * headings), where neither is a mere reordering or a near-duplicate (content.ts),
 * because the copy words its by-lines and headings its own way.
 *
 * Pages of one item share an id (`urlId`: `/t-17.html`, `?t=17`). A page is covered
 * when at least `minCover` of its word shingles (runs of `SHINGLE` tokens: words, and
 * each Han or kana character a token) are found among the shingles of the sample's
 * other pages with its id, in content patterns other than its own. A content pattern
 * is a copy when at least `minShare` of its pages that have such siblings are covered
 * (and two at least). Of two patterns that cover each other, the copy is the one
 * farther from the start of the site (the median link depth of its pages in the sample:
 * lists link to the original, the original to its copies), then the one more covered.
 * A copy becomes a duplicate of the pattern that holds most of its shingles, unless
 * that one was made a copy first.
 */
import type { ContentSplit } from './roles.js';

/** Tokens per shingle. */
export const SHINGLE = 3;

/** Word shingles of a content text (lower-cased; see the module comment). */
export function shingles(text: string): Set<string> {
  const tokens =
    text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu) ?? [];
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE <= tokens.length; i++)
    out.add(tokens.slice(i, i + SHINGLE).join(' '));
  return out;
}

/** What the copy test needs of a page. */
export interface CopyPage {
  fine: string;
  /** The item id of its URL (urlId), if any. */
  id: string | null;
  shingles: ReadonlySet<string>;
  /** Links from the sample's start page to it; null when not reached. */
  depth: number | null;
  /** Whether it redirected (a redirect has its target's body, not its own). */
  redirect: boolean;
}

export interface CopyOptions {
  /** Share of a page's shingles found in its siblings that makes it covered. @default 0.8 */
  minCover?: number;
  /** Share of a pattern's pages with siblings that must be covered. @default 0.5 */
  minShare?: number;
  /** Fewest shingles of a page for it to be judged. @default 10 */
  minShingles?: number;
}

interface Verdict {
  fine: string;
  covered: number;
  judged: number;
  /** Shingles found, by the pattern they were found in. */
  from: Map<string, number>;
}

function median(xs: number[]): number {
  if (xs.length === 0) return Number.POSITIVE_INFINITY;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The content pattern holding most of a covered pattern's shingles. */
function original(v: Verdict): string | undefined {
  return [...v.from].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/** Per content pattern with judged pages: how many are covered, and by whom. */
function coverage(
  pages: readonly CopyPage[],
  content: (fine: string) => boolean,
  minCover: number,
  minShingles: number,
): Map<string, Verdict> {
  const byId = new Map<string, number[]>();
  pages.forEach((p, i) => {
    if (p.id === null || p.redirect || !content(p.fine)) return;
    const list = byId.get(p.id);
    if (list === undefined) byId.set(p.id, [i]);
    else list.push(i);
  });
  const verdicts = new Map<string, Verdict>();
  pages.forEach((p, i) => {
    if (p.redirect || !content(p.fine) || p.id === null || p.shingles.size < minShingles) return;
    const siblings = (byId.get(p.id) ?? []).filter((j) => j !== i && pages[j]!.fine !== p.fine);
    if (siblings.length === 0) return;
    let v = verdicts.get(p.fine);
    if (v === undefined) {
      v = { fine: p.fine, covered: 0, judged: 0, from: new Map() };
      verdicts.set(p.fine, v);
    }
    v.judged++;
    let found = 0;
    for (const s of p.shingles) {
      const j = siblings.find((k) => pages[k]!.shingles.has(s));
      if (j === undefined) continue;
      found++;
      const f = pages[j]!.fine;
      v.from.set(f, (v.from.get(f) ?? 0) + 1);
    }
    if (found >= minCover * p.shingles.size) v.covered++;
  });
  return verdicts;
}

/**
 * Marks copies in `split` (in place): their role becomes duplicate (of the pattern
 * holding most of their shingles) and their pages count as duplicates. Returns the
 * copies found, pattern → original.
 */
export function markCopies(
  split: ContentSplit,
  pages: readonly CopyPage[],
  options: CopyOptions = {},
): Map<string, string> {
  const minCover = options.minCover ?? 0.8;
  const minShare = options.minShare ?? 0.5;
  const minShingles = options.minShingles ?? 10;
  const content = (fine: string) => split.patterns.get(fine)?.role === 'content';
  const depths = new Map<string, number[]>();
  pages.forEach((p) => {
    if (!p.redirect && p.depth !== null)
      depths.set(p.fine, [...(depths.get(p.fine) ?? []), p.depth]);
  });
  const depthOf = (fine: string) => median(depths.get(fine) ?? []);
  const copies = new Map<string, string>();
  // One copy at a time: a copy's text no longer covers anyone once it is a duplicate
  // (a discussion "covered" by its own archive copy is not a copy of its next page).
  for (;;) {
    const verdicts = coverage(pages, content, minCover, minShingles);
    const best = [...verdicts.values()]
      .filter((v) => v.judged >= 2 && v.covered >= 2 && v.covered >= minShare * v.judged)
      .map((v) => ({ ...v, depth: depthOf(v.fine) }))
      // Farthest from the start first, then the most covered: those are the copies.
      .sort(
        (a, b) =>
          b.depth - a.depth ||
          b.covered / b.judged - a.covered / a.judged ||
          (a.fine < b.fine ? -1 : 1),
      )
      .find((v) => {
        const o = original(v);
        return o !== undefined && depthOf(o) <= v.depth;
      });
    if (best === undefined) break;
    const r = split.patterns.get(best.fine)!;
    r.role = 'duplicate';
    r.duplicateOf = original(best)!;
    for (const i of r.pages) split.duplicate[i] = true;
    copies.set(best.fine, r.duplicateOf);
  }
  return copies;
}
