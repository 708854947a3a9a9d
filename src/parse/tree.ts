/**
 * The element stack behind the fast scanner: turns tag tokens into balanced
 * open/close events, with htmlparser2's Parser rules (v12, HTML mode), so that
 * PageBuilder sees the same events from either engine:
 * - void elements close at once; `</br>` is `<br>`, `</p>` with no open p is `<p></p>`;
 * - an opening tag closes the open elements it implies (`<p>` an open p, `<li>` an
 *   open li, `<td>` a td or th …), a second `<form>` inside a form is ignored;
 * - an end tag closes everything above its element; one with no open element is ignored;
 * - inside svg and math, `<x/>` closes x and tag names take their SVG case;
 * - the end of input closes everything still open.
 */
import type { Attribs } from './types.js';

/** The callbacks PageBuilder implements. */
export interface TreeHandler {
  onopentag(name: string, attribs: Attribs): void;
  ontext(data: string): void;
  onclosetag(name: string): void;
}

const F_VOID = 1;
const F_SVG = 2;
const F_MATH = 4;
/** An HTML integration point inside foreign content (its content is HTML again). */
const F_INTEGRATION = 8;
const F_FORM = 16;
const F_IMPLIES = 32;

const FLAGS = new Map<string, number>();
function set(names: string, flag: number): void {
  for (const n of names.split(' ')) FLAGS.set(n, (FLAGS.get(n) ?? 0) | flag);
}
set(
  'area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr',
  F_VOID,
);
set('svg', F_SVG);
set('math', F_MATH);
// SVG-cased, as they are compared after the SVG case adjustment.
set('mi mo mn ms mtext annotation-xml foreignObject desc title', F_INTEGRATION);
set('form', F_FORM);

/** Elements an opening tag closes while they are the innermost open element. */
const IMPLIES = new Map<string, ReadonlySet<string>>();
function implies(names: string, closes: string): void {
  const s = new Set(closes.split(' '));
  for (const n of names.split(' ')) {
    IMPLIES.set(n, s);
    set(n, F_IMPLIES);
  }
}
implies('tr', 'tr th td');
implies('th', 'th');
implies('td', 'thead th td');
implies('body', 'head link script');
implies('a', 'a');
implies('li', 'li');
implies(
  'p address article aside blockquote details div dl fieldset figcaption figure footer form ' +
    'header hr main nav ol pre section table ul',
  'p',
);
implies('h1 h2 h3 h4 h5 h6', 'h1 h2 h3 h4 h5 h6 p');
implies(
  'select input output button datalist textarea',
  'input option optgroup select button datalist textarea',
);
implies('option', 'option');
implies('optgroup', 'optgroup option');
implies('dd dt', 'dd dt');
implies('rt rp', 'rt rp');
implies('tbody tfoot', 'thead tbody');

const SVG_CASE = new Map<string, string>();
for (const n of (
  'altGlyph altGlyphDef altGlyphItem animateColor animateMotion animateTransform clipPath ' +
  'feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting ' +
  'feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR ' +
  'feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset fePointLight ' +
  'feSpecularLighting feSpotLight feTile feTurbulence foreignObject glyphRef linearGradient ' +
  'radialGradient textPath'
).split(' ')) {
  SVG_CASE.set(n.toLowerCase(), n);
}

const NS_HTML = 0;
const NS_SVG = 1;
const NS_MATH = 2;

/** Attributes of implied tags (`</p>`, `</br>`) and of tags with none worth reading. */
export const NO_ATTRIBS: Attribs = Object.freeze({});

export class TreeBuilder {
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /** FLAGS of each open element. */
  private readonly flags: number[] = [];
  /** Namespace of each foreign or integration element, innermost last; [0] is the document. */
  private readonly ns: number[] = [NS_HTML];
  private forms = 0;
  /** The tag being opened; '' when it is ignored (a nested form). */
  private tag = '';
  private tagFlags = 0;

  constructor(private readonly h: TreeHandler) {}

  /** Inside svg or math (and not in an HTML integration point there). */
  inForeign(): boolean {
    return this.ns[this.ns.length - 1] !== NS_HTML;
  }

  /** A lower-cased tag name as the stack knows it: SVG case in svg, `image` is `img` in HTML. */
  name(lower: string): string {
    const ns = this.ns;
    const cur = ns[ns.length - 1];
    if (cur === NS_SVG) return SVG_CASE.get(lower) ?? lower;
    if (ns.length > 1) {
      const svg = SVG_CASE.get(lower);
      if (svg !== undefined && this.stack.includes(svg)) return svg;
    }
    return cur === NS_HTML && lower === 'image' ? 'img' : lower;
  }

  /** The name of an opening tag is complete: implied closes, then the element opens. */
  openName(name: string): void {
    const f = FLAGS.get(name) ?? 0;
    if (f & F_FORM && this.forms > 0) {
      this.tag = '';
      return;
    }
    this.tag = name;
    this.tagFlags = f;
    const stack = this.stack;
    if (f & F_IMPLIES) {
      const closes = IMPLIES.get(name)!;
      while (stack.length > 0 && closes.has(stack[stack.length - 1]!)) this.pop();
    }
    if (f & F_VOID) return;
    stack.push(name);
    this.flags.push(f);
    if (f & F_FORM) this.forms++;
    if (f & F_SVG) this.ns.push(NS_SVG);
    else if (f & F_MATH) this.ns.push(NS_MATH);
    else if (f & F_INTEGRATION) this.ns.push(NS_HTML);
  }

  /** The opening tag ends (`>`); `selfClosing` for `/>`. */
  openEnd(attribs: Attribs, selfClosing: boolean): void {
    const name = this.tag;
    if (name === '') return;
    this.tag = '';
    this.h.onopentag(name, attribs);
    if (this.tagFlags & F_VOID) this.h.onclosetag(name);
    else if (selfClosing && this.inForeign()) {
      const stack = this.stack;
      if (stack[stack.length - 1] === name) this.pop();
    }
  }

  /** An end tag, its name lower-cased. */
  close(lower: string): void {
    const stack = this.stack;
    // The usual case: it closes the innermost element, outside svg and math.
    if (this.ns.length === 1 && stack[stack.length - 1] === lower) {
      this.pop();
      return;
    }
    const name = this.name(lower);
    const f = FLAGS.get(name) ?? 0;
    if (f & F_VOID) {
      if (name === 'br') {
        this.h.onopentag('br', NO_ATTRIBS);
        this.h.onclosetag('br');
      }
      return;
    }
    const at = stack.lastIndexOf(name);
    if (at >= 0) {
      while (stack.length > at) this.pop();
    } else if (name === 'p') {
      this.h.onopentag('p', NO_ATTRIBS);
      this.h.onclosetag('p');
    }
  }

  text(data: string): void {
    this.h.ontext(data);
  }

  /** End of input: closes every open element, innermost first. */
  end(): void {
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) this.h.onclosetag(stack[i]!);
    stack.length = 0;
    this.flags.length = 0;
  }

  private pop(): void {
    const name = this.stack.pop()!;
    const f = this.flags.pop()!;
    if (f & (F_SVG | F_MATH | F_INTEGRATION)) this.ns.pop();
    if (f & F_FORM) this.forms--;
    this.h.onclosetag(name);
  }
}
