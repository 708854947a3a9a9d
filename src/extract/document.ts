/**
 * One page as the sources read it: the HTML parsed once (htmlparser2), lazily, and what
 * is derived from the tree (the page's text, its base URL, its meta elements and JSON-LD
 * objects), each worked out on first use.
 */
import { selectAll } from 'css-select';
import {
  type AnyNode,
  type Document,
  type Element,
  hasChildren,
  isCDATA,
  isTag,
  isText,
} from 'domhandler';
import { DomUtils, parseDocument } from 'htmlparser2';
import { F_BLOCK, F_BREAK, F_CELL, F_HIDDEN, F_SKIP, tagFlags } from '../parse/elements.js';

const LINE = '\n';

/**
 * The text of `nodes` as a reader sees it: script, style, template, noscript (and the
 * other elements the parse stage skips, src/parse/elements.ts) left out; every block
 * element (p, div, li, dt, dd, h1…) and `<br>` on a line of its own, table cells set
 * apart by a space; runs of whitespace in the source made one space; lines trimmed, no
 * empty lines. Elements hidden by a `hidden` attribute or a style are kept: pages often
 * fold a long description that way.
 */
export function renderText(nodes: readonly AnyNode[]): string {
  const out: string[] = [];
  // Depth-first without recursion (a malformed page can nest thousands deep); a string
  // on the stack is a separator to emit once the element's children are done.
  const stack: (AnyNode | string)[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) stack.push(nodes[i] as AnyNode);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (typeof n === 'string') {
      out.push(n);
      continue;
    }
    if (isText(n)) {
      out.push(n.data.replace(/\s+/g, ' '));
      continue;
    }
    if (isCDATA(n)) continue;
    if (!isTag(n)) {
      if (hasChildren(n))
        for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
      continue;
    }
    const f = tagFlags(n.name);
    if (f & (F_SKIP | F_HIDDEN)) continue;
    let sep = '';
    if (f & (F_BLOCK | F_BREAK)) sep = LINE;
    else if (f & F_CELL) sep = ' ';
    if (sep !== '') out.push(sep);
    if (sep !== '' && n.children.length > 0) stack.push(sep);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out
    .join('')
    .replace(/ *\n[\n ]*/g, LINE)
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** The element's inner HTML, serialised from the tree (entities only where markup needs them). */
export function innerHtml(el: Element): string {
  return DomUtils.getInnerHTML(el, { encodeEntities: 'utf8' });
}

/** The text content of an element, unrendered (for script elements). */
function rawText(el: Element): string {
  return el.children.map((c) => (isText(c) ? c.data : '')).join('');
}

export interface JsonLd {
  /** Top-level objects of every parsable script (arrays spread, `@graph` members added). */
  objects: unknown[];
  /** `<script type="application/ld+json">` elements on the page. */
  scripts: number;
  /** How many of them are not JSON. */
  broken: number;
}

export class PageDocument {
  private dom_: Document | undefined;
  private text_: string | undefined;
  private base_: string | undefined;
  private meta_: Map<string, string[]> | undefined;
  private jsonld_: JsonLd | undefined;

  constructor(
    readonly url: string,
    readonly html: string,
  ) {}

  get dom(): Document {
    this.dom_ ??= parseDocument(this.html);
    return this.dom_;
  }

  /** The page's text (see renderText); the title is not part of it. */
  get text(): string {
    this.text_ ??= renderText(this.dom.children);
    return this.text_;
  }

  select(query: Parameters<typeof selectAll<AnyNode, Element>>[0]): Element[] {
    return selectAll<AnyNode, Element>(query, this.dom);
  }

  /** The URL relative references resolve against: `<base href>`, else the page's URL. */
  get baseUrl(): string {
    if (this.base_ === undefined) {
      this.base_ = this.url;
      const href = this.select('base[href]')[0]?.attribs['href']?.trim();
      if (href !== undefined && href !== '') {
        try {
          this.base_ = new URL(href, this.url).href;
        } catch {
          // a broken <base> is ignored, as browsers do
        }
      }
    }
    return this.base_;
  }

  /**
   * The `content` of the `<meta>` elements whose `name`, `property` or `itemprop` is
   * `name` (ASCII case ignored), in page order; undefined when there is none.
   */
  meta(name: string): string[] | undefined {
    if (this.meta_ === undefined) {
      this.meta_ = new Map();
      for (const el of this.select('meta')) {
        const content = el.attribs['content'] ?? '';
        const keys = new Set<string>();
        for (const a of ['name', 'property', 'itemprop']) {
          const v = el.attribs[a]?.trim().toLowerCase();
          if (v !== undefined && v !== '') keys.add(v);
        }
        for (const k of keys) {
          const list = this.meta_.get(k);
          if (list === undefined) this.meta_.set(k, [content]);
          else list.push(content);
        }
      }
    }
    return this.meta_.get(name.toLowerCase());
  }

  get jsonld(): JsonLd {
    if (this.jsonld_ === undefined) {
      const objects: unknown[] = [];
      const scripts = this.select('script[type="application/ld+json" i]');
      let broken = 0;
      for (const el of scripts) {
        const body = rawText(el)
          .trim()
          .replace(/^(?:<!--|<!\[CDATA\[)|(?:-->|\]\]>)$/g, '');
        let value: unknown;
        try {
          value = JSON.parse(body);
        } catch {
          broken++;
          continue;
        }
        for (const v of Array.isArray(value) ? value : [value]) {
          if (v === null || typeof v !== 'object') continue;
          objects.push(v);
          const graph = (v as Record<string, unknown>)['@graph'];
          if (Array.isArray(graph)) objects.push(...graph);
          else if (graph !== null && typeof graph === 'object') objects.push(graph);
        }
      }
      this.jsonld_ = { objects, scripts: scripts.length, broken };
    }
    return this.jsonld_;
  }
}
