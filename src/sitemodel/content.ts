/**
 * What a page says, apart from the site's template: its content text, the size used
 * by informativeness, and which pages repeat one another.
 *
 * Template lines: a line of visible text (a block: the parser puts blocks on their
 * own lines; whitespace collapsed) found on at least `templateShare` of the sample's
 * pages (and on two at least) is the site's: menus, footers, stock buttons. The rest
 * of a page is its content text; its size is the length of that text in characters
 * (UTF-16 code units, line breaks not counted). Visible text rather than bytes: a
 * page's bytes are mostly markup, the same template on every page, and a sign-in page
 * weighs as much as an article in bytes but not in text.
 *
 * Two pages repeat one another when their content texts are equal once lower-cased
 * (two empty ones too: the same nothing), or hold the same lines in another order (a
 * list or a discussion sorted the other way), or when both have a SimHash (src/dedup:
 * too short a text has none) and the two are at most `maxHamming` bits apart. A page
 * that redirected to another repeats it.
 */
import { hammingDistance, type SimHash, simhash } from '../dedup/index.js';

/** Content of one page. */
export interface PageContent {
  /** Characters of content text (line breaks not counted). */
  size: number;
  /** SimHash of the content text; null when too short to have one. */
  simhash: SimHash | null;
  /** The content text lower-cased, lines joined by `\n`: equal keys are equal content. */
  key: string;
  /** The same with its distinct lines sorted: equal for the same lines in another order. */
  linesKey: string;
}

function lines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+/g, ' ').trim();
    if (line !== '') out.push(line);
  }
  return out;
}

/**
 * Lines found on at least `share` of the texts (and at least two of them), each text
 * counting a line once.
 */
export function templateLines(texts: readonly string[], share = 0.5): Set<string> {
  const pages = new Map<string, number>();
  for (const t of texts) {
    for (const line of new Set(lines(t))) pages.set(line, (pages.get(line) ?? 0) + 1);
  }
  const need = Math.max(2, share * texts.length);
  const template = new Set<string>();
  for (const [line, n] of pages) if (n >= need) template.add(line);
  return template;
}

/** The content of one text, its template lines left out. */
export function pageContent(text: string, template: ReadonlySet<string>): PageContent {
  const kept = lines(text).filter((l) => !template.has(l));
  let size = 0;
  for (const l of kept) size += l.length;
  const content = kept.join('\n');
  const key = content.toLowerCase();
  const linesKey = [...new Set(key.split('\n'))].sort().join('\n');
  return { size, simhash: simhash(content), key, linesKey };
}

/** Whether two contents repeat one another (see the module comment). */
export function sameContent(a: PageContent, b: PageContent, maxHamming: number): boolean {
  if (a.key === b.key || a.linesKey === b.linesKey) return true;
  return (
    a.simhash !== null && b.simhash !== null && hammingDistance(a.simhash, b.simhash) <= maxHamming
  );
}

/**
 * For each page, the pages it repeats (both ways), sorted: equal keys, SimHashes at
 * most `maxHamming` apart, and `redirects` (page → the page it redirected to).
 */
export function duplicatePartners(
  contents: readonly PageContent[],
  maxHamming: number,
  redirects: ReadonlyMap<number, number> = new Map(),
): number[][] {
  const n = contents.length;
  const partners: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  const link = (i: number, j: number) => {
    if (i === j) return;
    partners[i]!.add(j);
    partners[j]!.add(i);
  };
  for (const keyOf of [(c: PageContent) => c.key, (c: PageContent) => c.linesKey]) {
    const byKey = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const k = keyOf(contents[i]!);
      const same = byKey.get(k);
      if (same === undefined) byKey.set(k, [i]);
      else {
        for (const j of same) link(i, j);
        same.push(i);
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const fi = contents[i]!.simhash;
    if (fi === null) continue;
    for (let j = i + 1; j < n; j++) {
      const fj = contents[j]!.simhash;
      if (fj !== null && hammingDistance(fi, fj) <= maxHamming) link(i, j);
    }
  }
  for (const [from, to] of redirects) link(from, to);
  return partners.map((s) => [...s].sort((a, b) => a - b));
}
