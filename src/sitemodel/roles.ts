/**
 * The content split: which URL patterns carry the pages' content and which repeat
 * the content of another pattern (a stripped-down copy, another sort order, an alias
 * that redirects), and which pages count as duplicates N_i^dup.
 *
 * Patterns here are the finest ones (patternOf of each URL). For two patterns P and Q,
 * m(P, Q) is the number of P's pages that repeat a page of Q (content.ts). P and Q
 * are a pair when m(P, Q) ≥ `minDupShare`·|P| or m(Q, P) ≥ `minDupShare`·|Q|: most
 * pages of one of them are copies of pages of the other. Of a pair, one is the
 * original and the other its duplicate; the original is, in order:
 * 1. the target of redirects (pages of P redirected to pages of Q, none the other way:
 *    Q);
 * 2. the simpler URL: fewer query keys, then fewer path segments (a view, an order,
 *    a session or a highlight is a key added to the page's own URL, a stripped view
 *    a path prefix added to it);
 * 3. the one more pages link to, counting the pages of neither pattern (lists link to
 *    an article; its other views are linked from the article itself);
 * 4. the one with more pages in the sample;
 * 5. the one with more bytes per page (the full view rather than a stripped one);
 * 6. the one first in string order (so that the result never depends on input order).
 * A pattern that loses a pair is a duplicate, of the pattern it shares most pages
 * with among those it lost to. Should every pattern of a group of pairs lose one (the
 * rules above are taken pair by pair), the one with most pages stays content.
 *
 * Duplicate pages: every page of a duplicate pattern, and every page of a content
 * pattern that repeats a content page counted before it (pages of larger patterns
 * first, then in sample order).
 */
import { DisjointSets } from './cluster.js';

/** Query keys and path segments of a pattern (`/a/{n}?x={n}&y`: 2 keys, 2 segments). */
function shape(pattern: string): { keys: number; segments: number } {
  const q = pattern.indexOf('?');
  const path = q < 0 ? pattern : pattern.slice(0, q);
  const query = q < 0 ? '' : pattern.slice(q + 1);
  return {
    keys: query === '' ? 0 : query.split('&').length,
    segments: path.split('/').filter((x) => x !== '').length,
  };
}

/** What the split needs of a page. */
export interface SplitPage {
  /** Its finest pattern. */
  fine: string;
  bytes: number;
  /** Index of the page it redirected to. */
  redirectTo?: number;
  /** Finest patterns of the pages it links to. */
  linked: ReadonlySet<string>;
}

export type PatternRoleName = 'content' | 'duplicate';

export interface PatternRole {
  role: PatternRoleName;
  /** The original, for a duplicate. */
  duplicateOf?: string;
  /** Indices of its pages. */
  pages: number[];
}

export interface ContentSplit {
  /** Finest pattern → its role. */
  patterns: Map<string, PatternRole>;
  /** Per page: whether it counts as a duplicate. */
  duplicate: boolean[];
}

interface Stats {
  pages: number[];
  bytes: number;
  /** Pages linking here, by index. */
  linkedFrom: number[];
}

/**
 * Splits the finest patterns of `pages` into content and duplicates; `partners[i]`
 * lists the pages page i repeats (both ways).
 */
export function splitByContent(
  pages: readonly SplitPage[],
  partners: readonly (readonly number[])[],
  minDupShare = 0.5,
): ContentSplit {
  const stats = new Map<string, Stats>();
  const of = (fine: string): Stats => {
    let s = stats.get(fine);
    if (s === undefined) {
      s = { pages: [], bytes: 0, linkedFrom: [] };
      stats.set(fine, s);
    }
    return s;
  };
  pages.forEach((p, i) => {
    const s = of(p.fine);
    s.pages.push(i);
    s.bytes += p.bytes;
  });
  pages.forEach((p, i) => {
    for (const f of p.linked) stats.get(f)?.linkedFrom.push(i);
  });

  // m(P, Q): pages of P repeating a page of Q.
  const shared = new Map<string, Map<string, number>>();
  for (const [fine, s] of stats) {
    const row = new Map<string, number>();
    for (const i of s.pages) {
      const qs = new Set<string>();
      for (const j of partners[i] ?? []) if (pages[j]!.fine !== fine) qs.add(pages[j]!.fine);
      for (const q of qs) row.set(q, (row.get(q) ?? 0) + 1);
    }
    shared.set(fine, row);
  }
  const m = (p: string, q: string) => shared.get(p)?.get(q) ?? 0;
  const redirectsInto = (p: string, q: string) =>
    stats.get(p)!.pages.some((i) => {
      const t = pages[i]!.redirectTo;
      return t !== undefined && pages[t]!.fine === q;
    });
  const inbound = (p: string, q: string) =>
    stats.get(p)!.linkedFrom.filter((i) => pages[i]!.fine !== p && pages[i]!.fine !== q).length;
  const original = (p: string, q: string): string => {
    const rp = redirectsInto(p, q);
    const rq = redirectsInto(q, p);
    if (rp !== rq) return rp ? q : p;
    const sp = stats.get(p)!;
    const sq = stats.get(q)!;
    // Fewer is simpler: the negated counts, so that the larger wins as below.
    const [kp, kq] = [shape(p), shape(q)];
    const keys: [number, number][] = [
      [-kp.keys, -kq.keys],
      [-kp.segments, -kq.segments],
      [inbound(p, q), inbound(q, p)],
      [sp.pages.length, sq.pages.length],
      [sp.bytes / sp.pages.length, sq.bytes / sq.pages.length],
    ];
    for (const [a, b] of keys) if (a !== b) return a > b ? p : q;
    return p < q ? p : q;
  };

  const fines = [...stats.keys()].sort();
  const indexOf = new Map(fines.map((f, i) => [f, i]));
  const groups = new DisjointSets(fines.length);
  const beaten = new Map<string, string[]>();
  for (const p of fines) {
    for (const q of shared.get(p)!.keys()) {
      if (q < p) continue; // seen from q's row: partners go both ways, so m(q, p) > 0 too
      const np = stats.get(p)!.pages.length;
      const nq = stats.get(q)!.pages.length;
      if (m(p, q) < minDupShare * np && m(q, p) < minDupShare * nq) continue;
      const winner = original(p, q);
      const loser = winner === p ? q : p;
      beaten.set(loser, [...(beaten.get(loser) ?? []), winner]);
      groups.union(indexOf.get(p)!, indexOf.get(q)!);
    }
  }
  // A group of pairs where every pattern lost keeps its largest as content.
  for (const group of groups.groups()) {
    if (group.length < 2) continue;
    const fineGroup = group.map((i) => fines[i]!);
    if (fineGroup.some((f) => !beaten.has(f))) continue;
    const keep = fineGroup.reduce((a, b) => {
      const na = stats.get(a)!.pages.length;
      const nb = stats.get(b)!.pages.length;
      return nb > na || (nb === na && b < a) ? b : a;
    });
    beaten.delete(keep);
  }

  const patterns = new Map<string, PatternRole>();
  for (const fine of fines) {
    const s = stats.get(fine)!;
    const winners = beaten.get(fine);
    if (winners === undefined) {
      patterns.set(fine, { role: 'content', pages: s.pages });
      continue;
    }
    const target = winners.reduce((a, b) =>
      m(fine, b) > m(fine, a) || (m(fine, b) === m(fine, a) && b < a) ? b : a,
    );
    patterns.set(fine, { role: 'duplicate', duplicateOf: target, pages: s.pages });
  }

  // Duplicate pages: those of duplicate patterns, and repeats among content pages.
  const duplicate = pages.map((p) => patterns.get(p.fine)!.role === 'duplicate');
  const order = pages
    .map((_, i) => i)
    .filter((i) => !duplicate[i])
    .sort((a, b) => {
      const d = stats.get(pages[b]!.fine)!.pages.length - stats.get(pages[a]!.fine)!.pages.length;
      return d !== 0 ? d : a - b;
    });
  const firstOf = new Map<number, number>();
  const sets = new DisjointSets(pages.length);
  for (const i of order) {
    for (const j of partners[i] ?? []) if (!duplicate[j]) sets.union(i, j);
  }
  for (const i of order) {
    const root = sets.find(i);
    if (firstOf.has(root)) duplicate[i] = true;
    else firstOf.set(root, i);
  }
  return { patterns, duplicate };
}

function sameKeys(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/**
 * View parameters: a content pattern that is another content pattern of the same path
 * with more query keys, each extra key set to a literal word (`?order=desc`,
 * `&view=print`, `&sk=t&sd=d`), shows that pattern's pages another way: a sort order,
 * a view. It is made a duplicate of it (in place), its pages counted as duplicates,
 * even when the sample holds no pair of pages to compare (a sorted copy of a long list
 * starts with other items). Ids and page numbers are never literal words (`{n}`), so
 * a pattern that adds an id or a page number (`&start={n}`, `?u={n}`) stays content.
 * Likewise a pattern that is another behind one more leading word of path (`/print`
 * in front of `/t/{n}`): a print, mobile or archive copy.
 */
export function markViewParameters(split: ContentSplit): void {
  const parsed = new Map<string, { path: string; keys: Map<string, string> }>();
  for (const [fine, r] of split.patterns) {
    if (r.role !== 'content') continue;
    const q = fine.indexOf('?');
    const keys = new Map<string, string>();
    if (q >= 0) {
      for (const kv of fine.slice(q + 1).split('&')) {
        const eq = kv.indexOf('=');
        keys.set(eq < 0 ? kv : kv.slice(0, eq), eq < 0 ? '' : kv.slice(eq + 1));
      }
    }
    parsed.set(fine, { path: q < 0 ? fine : fine.slice(0, q), keys });
  }
  const word = (v: string) => /^\p{L}+$/u.test(v);
  for (const [p, pp] of parsed) {
    let best: string | undefined;
    for (const [q, qq] of parsed) {
      if (q === p) continue;
      // A view under a path prefix of one word (`/w/…` in front of the same path and
      // query): a print, mobile or archive copy of the same pages.
      const prefix = /^\/(\p{L}+)(\/.*)$/u.exec(pp.path);
      if (prefix !== null && prefix[2] === qq.path && sameKeys(pp.keys, qq.keys)) {
        best = q;
        break;
      }
      if (qq.path !== pp.path || qq.keys.size >= pp.keys.size) continue;
      let extends_ = true;
      for (const [k, v] of qq.keys) if (pp.keys.get(k) !== v) extends_ = false;
      for (const [k, v] of pp.keys) if (!qq.keys.has(k) && !word(v)) extends_ = false;
      if (extends_ && (best === undefined || qq.keys.size > parsed.get(best)!.keys.size)) best = q;
    }
    if (best === undefined) continue;
    const r = split.patterns.get(p)!;
    r.role = 'duplicate';
    r.duplicateOf = best;
    for (const i of r.pages) split.duplicate[i] = true;
  }
}
