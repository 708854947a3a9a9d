/**
 * Copies: a content pattern that shows what another pattern's pages of the same item
 * show, under other by-lines and headings (a light or archive copy of a discussion, a
 * print view of all its pages, a reply form quoting it), which neither equal lines nor
 * SimHash pair (content.ts) because the wording around the text differs.
 *
 * Pages of one item share an id (`urlId`: `/t-17.html`, `?t=17`). A page p of pattern
 * P is contained in Q when at least `minContained` of its word shingles (runs of
 * `SHINGLE` tokens: words, and each Han or kana character a token) are found on the
 * sample's pages of Q with its id. P and Q are one content when, of P's pages that
 * have such pages of Q, at least `minShare` (and two) are contained in Q, or the same
 * the other way: the one holds the other's text, whichever is longer (an archive
 * holding a discussion's first pages, a page of it held in the archive). Of the two,
 * the copy is the one farther from the start of the site: the median, over its pages,
 * of the links from the sample's first page (lists link to the original, the original
 * links to its copies). Two as near as each other stay as they are.
 *
 * One copy is marked at a time, the farthest first, and the rest judged again
 * without it: a copy is no one's original, and its text pairs no other pattern.
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
  /** Share of a page's shingles found on the other pattern's pages that makes it contained. @default 0.6 */
  minContained?: number;
  /** Share of a pattern's judged pages that must be contained. @default 0.5 */
  minShare?: number;
  /** Fewest shingles of a page for it to be judged. @default 10 */
  minShingles?: number;
}

/** Pages of P judged against Q's pages of the same item, and how many were contained. */
interface Tally {
  judged: number;
  contained: number;
}

function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.POSITIVE_INFINITY;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** For each content pattern P and each other Q: P's pages judged against Q and contained in it. */
function containment(
  pages: readonly CopyPage[],
  content: (fine: string) => boolean,
  minContained: number,
  minShingles: number,
): Map<string, Map<string, Tally>> {
  const byId = new Map<string, number[]>();
  pages.forEach((p, i) => {
    if (p.id === null || p.redirect || !content(p.fine)) return;
    const list = byId.get(p.id);
    if (list === undefined) byId.set(p.id, [i]);
    else list.push(i);
  });
  const out = new Map<string, Map<string, Tally>>();
  for (const p of pages) {
    if (p.redirect || !content(p.fine) || p.id === null || p.shingles.size < minShingles) continue;
    const others = new Map<string, number[]>();
    for (const j of byId.get(p.id) ?? []) {
      const q = pages[j]!.fine;
      if (q !== p.fine) others.set(q, [...(others.get(q) ?? []), j]);
    }
    let row = out.get(p.fine);
    if (row === undefined) {
      row = new Map();
      out.set(p.fine, row);
    }
    for (const [q, js] of others) {
      let found = 0;
      for (const s of p.shingles) if (js.some((j) => pages[j]!.shingles.has(s))) found++;
      const t = row.get(q) ?? { judged: 0, contained: 0 };
      t.judged++;
      if (found >= minContained * p.shingles.size) t.contained++;
      row.set(q, t);
    }
  }
  return out;
}

/**
 * Marks copies in `split` (in place): their role becomes duplicate (of the pattern
 * they are one content with) and their pages count as duplicates. Returns the copies
 * found, pattern → original.
 */
export function markCopies(
  split: ContentSplit,
  pages: readonly CopyPage[],
  options: CopyOptions = {},
): Map<string, string> {
  const minContained = options.minContained ?? 0.6;
  const minShare = options.minShare ?? 0.5;
  const minShingles = options.minShingles ?? 10;
  const content = (fine: string) => split.patterns.get(fine)?.role === 'content';
  const depths = new Map<string, number[]>();
  pages.forEach((p) => {
    if (!p.redirect && p.depth !== null)
      depths.set(p.fine, [...(depths.get(p.fine) ?? []), p.depth]);
  });
  const depthOf = (fine: string) => median(depths.get(fine) ?? []);
  const held = (t: Tally | undefined) =>
    t !== undefined && t.contained >= 2 && t.contained >= minShare * t.judged;
  const copies = new Map<string, string>();
  for (;;) {
    const c = containment(pages, content, minContained, minShingles);
    let best: { copy: string; original: string; depth: number; share: number } | undefined;
    for (const [p, row] of c) {
      for (const [q, t] of row) {
        if (!held(t) && !held(c.get(q)?.get(p))) continue;
        const [dp, dq] = [depthOf(p), depthOf(q)];
        if (dp === dq) continue;
        const [copy, original] = dp > dq ? [p, q] : [q, p];
        const depth = Math.max(dp, dq);
        const share = t.contained / t.judged;
        if (
          best === undefined ||
          depth > best.depth ||
          (depth === best.depth &&
            (share > best.share || (share === best.share && copy < best.copy)))
        )
          best = { copy, original, depth, share };
      }
    }
    if (best === undefined) break;
    const r = split.patterns.get(best.copy)!;
    r.role = 'duplicate';
    r.duplicateOf = best.original;
    for (const i of r.pages) split.duplicate[i] = true;
    copies.set(best.copy, best.original);
  }
  return copies;
}
