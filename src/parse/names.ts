/**
 * Names the fast scanner recognises in the source without slicing it: common tag
 * names (returned as shared lower-case constants, so that flag lookups hash nothing)
 * and the attribute names the page builder reads.
 */

const TAG_NAMES = (
  'a abbr address area article aside audio b base bdi bdo blockquote body br button ' +
  'canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir ' +
  'div dl dt em embed fieldset figcaption figure font footer form frame frameset h1 h2 h3 ' +
  'h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main ' +
  'map mark math menu meta meter nav noembed noframes noscript object ol optgroup option ' +
  'output p param picture plaintext pre progress q rp rt ruby s samp script section select ' +
  'small source span strike strong style sub summary sup svg table tbody td template ' +
  'textarea tfoot th thead time title tr track tt u ul var video wbr xmp'
).split(' ');

const SLOTS = 1024;
const TABLE: Array<string | undefined> = new Array(SLOTS).fill(undefined);

/** Hash step of a name character; case-folds ASCII letters (and a few others: verified later). */
export function nameHash(h: number, c: number): number {
  return (Math.imul(h, 31) + (c | 0x20)) | 0;
}

for (const name of TAG_NAMES) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = nameHash(h, name.charCodeAt(i));
  const slot = h & (SLOTS - 1);
  // A name whose slot is taken is simply not interned (it is sliced instead).
  if (TABLE[slot] === undefined) TABLE[slot] = name;
}

/**
 * The known tag name equal to s[from, to) ignoring ASCII case, whose nameHash is
 * `hash`; undefined when it is not one of them.
 */
export function internTag(s: string, from: number, to: number, hash: number): string | undefined {
  const name = TABLE[hash & (SLOTS - 1)];
  if (name === undefined || name.length !== to - from) return undefined;
  for (let i = 0; i < name.length; i++) {
    const k = name.charCodeAt(i);
    const c = s.charCodeAt(from + i);
    if (c !== k && (k < 0x61 || k > 0x7a || (c | 0x20) !== k)) return undefined;
  }
  return name;
}

/** s[a…] equals the lower-case ASCII word w (from its second letter), ignoring ASCII case. */
function same(s: string, a: number, w: string): boolean {
  for (let k = 1; k < w.length; k++) {
    const want = w.charCodeAt(k);
    const c = s.charCodeAt(a + k);
    if (c !== want && (want === 0x2d || (c | 0x20) !== want)) return false;
  }
  return true;
}

/**
 * The attribute name s[a, e), lower-cased, when the page builder reads it (PageBuilder,
 * PageFacts: keep in step with the reads there); undefined for all others.
 */
export function wantedAttr(s: string, a: number, e: number): string | undefined {
  const c = s.charCodeAt(a) | 0x20;
  switch (e - a) {
    case 3:
      if (c === 0x73) return same(s, a, 'src') ? 'src' : undefined;
      if (c === 0x72) return same(s, a, 'rel') ? 'rel' : undefined;
      if (c === 0x61) return same(s, a, 'alt') ? 'alt' : undefined;
      return undefined;
    case 4:
      if (c === 0x68) return same(s, a, 'href') ? 'href' : undefined;
      if (c === 0x6e) return same(s, a, 'name') ? 'name' : undefined;
      if (c === 0x6c) return same(s, a, 'lang') ? 'lang' : undefined;
      return undefined;
    case 5:
      if (c === 0x74) return same(s, a, 'title') ? 'title' : undefined;
      if (c === 0x73) return same(s, a, 'style') ? 'style' : undefined;
      return undefined;
    case 6:
      return c === 0x68 && same(s, a, 'hidden') ? 'hidden' : undefined;
    case 7:
      if (c !== 0x63) return undefined;
      if (same(s, a, 'charset')) return 'charset';
      return same(s, a, 'content') ? 'content' : undefined;
    case 10:
      if (c === 0x68) return same(s, a, 'http-equiv') ? 'http-equiv' : undefined;
      if (c === 0x61) return same(s, a, 'aria-label') ? 'aria-label' : undefined;
      return undefined;
    default:
      return undefined;
  }
}
