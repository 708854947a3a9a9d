/**
 * A whole-document HTML scanner: the fast engine of parseHtml. It finds tags with
 * indexOf and char-code loops, hands each run of text over in one piece (decoded
 * only when it holds a `&`), reads only the attributes the page builder uses (none,
 * and no text either, where the builder ignores them: script, svg …), and drives
 * the builder through TreeBuilder's element stack. Tokenising follows
 * htmlparser2's Tokenizer (v12, HTML mode) so that both engines give the same pages:
 * - `<` starts a tag only before an ASCII letter, `/`, `!` or `?`; otherwise it is text;
 * - comments (`<!--…-->`, `<!-->`), doctype, CDATA outside svg/math, `<?…>` and other
 *   `<!…>` are skipped; an unfinished one at the end of input hides the rest;
 * - script, style, xmp, iframe, noembed, noframes hold raw text up to their end tag;
 *   title and textarea too, with entities decoded; plaintext holds the rest;
 * - a tag cut off by the end of input is dropped (its element still opens if its
 *   name was complete);
 * - attribute names are lower-cased, the first of duplicates wins, values are
 *   entity-decoded (attribute rules: `&copy=` stays as it is).
 * Known difference: htmlparser2 hands text over in pieces cut at entities, and the
 * text buffer joins whitespace pieces with a space; so between two CJK characters a
 * whitespace run that holds a line break and a character reference (`文&#10; 字`,
 * `文&nbsp;\n字`) keeps a space with htmlparser2 and goes away here, as the buffer's
 * rules say it should (see scanner.test.ts).
 */
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { internTag, nameHash, wantedAttr } from './names.js';
import { NO_ATTRIBS, type TreeBuilder, type TreeHandler } from './tree.js';
import type { Attribs } from './types.js';

/** What the scanner asks of the handler, beside its events. */
export interface ScanHandler extends TreeHandler {
  /** Set once nothing more is wanted: scanning stops. */
  readonly done: boolean;
  /** Whether text now would be used (not inside script, svg, …). */
  acceptsText(): boolean;
  /** Whether an opening tag's attributes now would be read. */
  readsAttributes(): boolean;
}

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQ = 0x3d;
const DQ = 0x22;
const SQ = 0x27;
const DASH = 0x2d;
const AMP = '&';

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}
function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
/** Ends a tag or attribute name: whitespace, `/`, `>` (false for NaN past the end). */
function endsName(c: number): boolean {
  return c === GT || c === SLASH || isWs(c);
}

const RAW = 1;
const RCDATA = 2;
const PLAINTEXT = 3;
/** Elements whose content is text up to their end tag (outside svg and math). */
const TEXT_ONLY = new Map<string, number>([
  ['script', RAW],
  ['style', RAW],
  ['xmp', RAW],
  ['iframe', RAW],
  ['noembed', RAW],
  ['noframes', RAW],
  ['title', RCDATA],
  ['textarea', RCDATA],
  ['plaintext', PLAINTEXT],
]);

const TEXT_ONLY_NAMES = [...TEXT_ONLY.keys()];

/**
 * In title and textarea, htmlparser2 leaves a `&` literal when it follows a `<` or a
 * partial end tag (`</`, `</ti` …); s[i] is such a `&` when this returns true.
 */
function afterPartialEndTag(s: string, i: number, name: string): boolean {
  const lt = s.lastIndexOf('<', i - 1);
  if (lt < 0) return false;
  const k = i - lt - 1;
  if (k > name.length) return false;
  for (let j = 0; j < k; j++) {
    const want = j === 0 ? SLASH : name.charCodeAt(j - 1);
    if ((s.charCodeAt(lt + 1 + j) | 0x20) !== want) return false;
  }
  return true;
}

function decodeRcdata(s: string, name: string): string {
  let out = '';
  let from = 0;
  for (let i = s.indexOf(AMP); i >= 0; i = s.indexOf(AMP, i + 1)) {
    if (afterPartialEndTag(s, i, name)) {
      out += `${decodeHTML(s.slice(from, i))}&`;
      from = i + 1;
    }
  }
  return from === 0 ? decodeHTML(s) : out + decodeHTML(s.slice(from));
}

/** Scans a whole document into `tree`, whose handler is `h`. */
export function scanHtml(html: string, tree: TreeBuilder, h: ScanHandler): void {
  new Scanner(html, tree, h).run();
}

class Scanner {
  private readonly n: number;
  /** Index of the next `&` at or after the last query (n when none). */
  private amp = -1;
  /** Attributes of the tag being read, or NO_ATTRIBS when it has none worth keeping. */
  private attribs: Attribs = NO_ATTRIBS;

  constructor(
    private readonly html: string,
    private readonly tree: TreeBuilder,
    private readonly h: ScanHandler,
  ) {
    this.n = html.length;
  }

  /** Whether html[from, to) holds a `&`. Queries come in increasing order of `from`. */
  private hasAmp(from: number, to: number): boolean {
    if (this.amp < from) {
      const i = this.html.indexOf(AMP, from);
      this.amp = i < 0 ? this.n : i;
    }
    return this.amp < to;
  }

  private text(from: number, to: number): void {
    if (!this.h.acceptsText()) return;
    const s = this.html.slice(from, to);
    this.tree.text(this.hasAmp(from, to) ? decodeHTML(s) : s);
  }

  private rawText(from: number, to: number): void {
    if (from < to && this.h.acceptsText()) this.tree.text(this.html.slice(from, to));
  }

  run(): void {
    const html = this.html;
    const h = this.h;
    let pos = 0;
    let textFrom = 0;
    // Leaves the loop with lt < 0 (text runs to the end) or next < 0 (a tag, comment
    // or raw text ran to the end).
    let next = 0;
    while (!h.done) {
      const lt = html.indexOf('<', pos);
      if (lt < 0) break;
      const c = html.charCodeAt(lt + 1);
      let c2 = 0;
      if (c === SLASH) {
        if (lt + 2 >= this.n) {
          pos = lt + 2; // `</` at the end of input is text
          continue;
        }
        c2 = html.charCodeAt(lt + 2);
      } else if (!isAlpha(c) && c !== BANG && c !== QUESTION) {
        pos = lt + 1; // a stray `<` is text
        continue;
      }
      if (lt > textFrom) {
        this.text(textFrom, lt);
        if (h.done) return;
      }
      if (c === SLASH) {
        if (c2 === GT) next = lt + 3;
        else if (isAlpha(c2)) next = this.closeTag(lt + 2);
        else next = html.indexOf('>', lt + 3) + 1 || -1; // `</ x>`, `</1>`: a bogus comment
      } else if (c === BANG) {
        next = this.declaration(lt);
      } else if (c === QUESTION) {
        next = html.indexOf('>', lt + 2) + 1 || -1;
      } else {
        next = this.openTag(lt);
      }
      if (next < 0) break;
      pos = textFrom = next;
    }
    if (h.done) return;
    if (next >= 0 && textFrom < this.n) this.text(textFrom, this.n);
    this.tree.end();
  }

  /** `<!…` at lt: the index after it, or -1 when it runs to the end of input. */
  private declaration(lt: number): number {
    const html = this.html;
    if (html.charCodeAt(lt + 2) === DASH && html.charCodeAt(lt + 3) === DASH) {
      const start = lt + 4;
      const c = html.charCodeAt(start);
      if (c === GT) return start + 1; // `<!-->`
      if (c === DASH && html.charCodeAt(start + 1) === GT) return start + 2; // `<!--->`
      let k = start;
      for (;;) {
        k = html.indexOf('--', k);
        if (k < 0) return -1;
        k += 2;
        while (html.charCodeAt(k) === DASH) k++;
        const e = html.charCodeAt(k);
        if (e === GT) return k + 1;
        if (e === BANG && html.charCodeAt(k + 1) === GT) return k + 2;
      }
    }
    if (html.startsWith('[CDATA[', lt + 2)) {
      const start = lt + 9;
      let k = start;
      for (;;) {
        k = html.indexOf(']]', k);
        if (k < 0) return -1;
        let e = k + 2;
        while (html.charCodeAt(e) === 0x5d) e++;
        if (html.charCodeAt(e) === GT) {
          // CDATA is text in svg and math, a comment elsewhere
          if (this.tree.inForeign()) this.rawText(start, e - 2);
          return e + 1;
        }
        k = e;
      }
    }
    return html.indexOf('>', lt + 2) + 1 || -1;
  }

  /**
   * The opening tag at lt (`<` then a letter). Returns the index after it (and after
   * the text of a raw-text element), or -1 when the input ends inside it.
   */
  private openTag(lt: number): number {
    const html = this.html;
    const n = this.n;
    const tree = this.tree;
    let i = lt + 1;
    let hash = 0;
    for (; i < n; i++) {
      const c = html.charCodeAt(i);
      if (endsName(c)) break;
      hash = nameHash(hash, c);
    }
    if (i >= n) {
      // htmlparser2 gives a cut-off name that could still become a raw-text element's
      // name (`<scr`, `<t`) as text.
      const part = html.slice(lt + 1).toLowerCase();
      if (!tree.inForeign() && TEXT_ONLY_NAMES.some((t) => t.startsWith(part)))
        this.rawText(lt + 1, n);
      return -1;
    }
    const raw = internTag(html, lt + 1, i, hash) ?? html.slice(lt + 1, i).toLowerCase();
    const textOnly = tree.inForeign() ? 0 : (TEXT_ONLY.get(raw) ?? 0);
    const name = tree.name(raw);
    tree.openName(name);
    const keep = this.h.readsAttributes();
    this.attribs = NO_ATTRIBS;
    let self = false;
    // Attributes, up to `>`.
    for (;;) {
      if (i >= n) return this.cutOff();
      let c = html.charCodeAt(i);
      if (c === GT) break;
      if (c === SLASH) {
        i++;
        while (i < n && isWs(html.charCodeAt(i))) i++;
        if (i >= n) {
          this.cutOff();
          return this.lastChar();
        }
        if (html.charCodeAt(i) === GT) {
          self = true;
          break;
        }
        continue;
      }
      if (isWs(c)) {
        i++;
        continue;
      }
      // A name: its first character whatever it is, then up to `=`, space, `/`, `>`.
      const ns = i++;
      while (i < n) {
        c = html.charCodeAt(i);
        if (c === EQ || endsName(c)) break;
        i++;
      }
      const ne = i;
      while (i < n && isWs(html.charCodeAt(i))) i++;
      if (i >= n) return this.cutOff();
      if (html.charCodeAt(i) !== EQ) {
        if (keep) this.attr(ns, ne, i, i);
        continue;
      }
      i++;
      while (i < n && isWs(html.charCodeAt(i))) i++;
      if (i >= n) return this.cutOff();
      c = html.charCodeAt(i);
      if (c === DQ || c === SQ) {
        const end = html.indexOf(c === DQ ? '"' : "'", i + 1);
        if (end < 0) return this.cutOff();
        if (keep) this.attr(ns, ne, i + 1, end);
        i = end + 1;
      } else {
        const vs = i;
        while (i < n) {
          c = html.charCodeAt(i);
          if (c === GT || isWs(c)) break;
          i++;
        }
        if (i >= n) return this.cutOff();
        if (keep) this.attr(ns, ne, vs, i);
      }
    }
    tree.openEnd(this.attribs, self);
    this.attribs = NO_ATTRIBS;
    const after = i + 1;
    if (textOnly === 0 || this.h.done) return after;
    if (textOnly === PLAINTEXT) {
      this.rawText(after, n);
      return -1;
    }
    return this.textOnly(after, raw, textOnly);
  }

  /** The input ends inside a tag: the tag is dropped. */
  private cutOff(): number {
    this.attribs = NO_ATTRIBS;
    return -1;
  }

  private attr(ns: number, ne: number, vs: number, ve: number): void {
    const name = wantedAttr(this.html, ns, ne);
    if (name === undefined) return;
    let a = this.attribs;
    if (a === NO_ATTRIBS) {
      a = {};
      this.attribs = a;
    } else if (a[name] !== undefined) return;
    const v = this.html.slice(vs, ve);
    a[name] = this.hasAmp(vs, ve) ? decodeHTMLAttribute(v) : v;
  }

  /** Content of a raw-text or RCDATA element from `from`, then its end tag. */
  private textOnly(from: number, raw: string, kind: number): number {
    const html = this.html;
    const len = raw.length;
    let k = from;
    for (;;) {
      k = html.indexOf('</', k);
      if (k < 0) {
        this.contentText(from, this.n, raw, kind);
        return -1;
      }
      let j = 0;
      while (j < len && (html.charCodeAt(k + 2 + j) | 0x20) === raw.charCodeAt(j)) j++;
      if (j === len && endsName(html.charCodeAt(k + 2 + len))) break;
      k += 2;
    }
    this.contentText(from, k, raw, kind);
    if (this.h.done) return this.n;
    return this.endTagRest(k + 2, k + 2 + len, raw);
  }

  private contentText(from: number, to: number, raw: string, kind: number): void {
    if (from >= to || !this.h.acceptsText()) return;
    const s = this.html.slice(from, to);
    this.tree.text(kind === RCDATA && this.hasAmp(from, to) ? decodeRcdata(s, raw) : s);
  }

  /** The end tag whose name starts at `at` (a letter). */
  private closeTag(at: number): number {
    const html = this.html;
    const n = this.n;
    let i = at;
    let hash = 0;
    for (; i < n; i++) {
      const c = html.charCodeAt(i);
      if (endsName(c)) break;
      hash = nameHash(hash, c);
    }
    if (i >= n) return -1;
    return this.endTagRest(at, i, internTag(html, at, i, hash));
  }

  /**
   * Closes the element named by html[from, to) (`known`: the name when internTag
   * knows it), then skips to the tag's `>`.
   */
  private endTagRest(from: number, to: number, known: string | undefined): number {
    const html = this.html;
    const tree = this.tree;
    tree.close(known ?? html.slice(from, to).toLowerCase());
    const gt = html.charCodeAt(to) === GT ? to : html.indexOf('>', to);
    return gt >= 0 ? gt + 1 : this.lastChar();
  }

  /**
   * The input ends after an end tag's name or after `/` in an opening tag: htmlparser2
   * then reports the last character of the input as text.
   */
  private lastChar(): number {
    if (!this.h.done && this.h.acceptsText()) this.tree.text(this.html.slice(this.n - 1));
    return -1;
  }
}
