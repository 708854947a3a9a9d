/**
 * The handler that builds a ParsedPage in one streaming pass, driven by htmlparser2's
 * Parser or by the fast scanner (scanner.ts, tree.ts) with the same events.
 *
 * Speed notes: text chunks go into one array joined once; anchors and link contexts
 * are offsets into that text, sliced at the end; tag names are looked up once in a
 * flag table; an href already in canonical form is recognised by a regular expression
 * and kept as it is, any other is canonicalised once (a bounded cache shared by all
 * pages: navigation links repeat from page to page); parsing stops early
 * once the text and link caps are both reached.
 */
import type { Handler, Parser } from 'htmlparser2';
import { linkContext } from './context.js';
import {
  F_BLOCK,
  F_BREAK,
  F_CELL,
  F_CONTEXT,
  F_HIDDEN,
  F_SKIP,
  F_SPECIAL,
  tagFlags,
} from './elements.js';
import type { ResolvedParseOptions } from './options.js';
import { PageFacts } from './page-facts.js';
import { collapseWhitespace, SEP_BLOCK, SEP_SPACE, TextBuffer } from './text-buffer.js';
import type { Attribs, LinkTag, PageLink, ParsedPage } from './types.js';
import { detach, resolveHref } from './url-cache.js';

interface LinkRec {
  url: string;
  tag: LinkTag;
  nofollow: boolean;
  /** Text went to the hidden-region buffer: context is the anchor alone. */
  hidden: boolean;
  aStart: number;
  aEnd: number;
  /** The run of text between block boundaries that holds the link: [bStart, bEnd). */
  bStart: number;
  bEnd: number;
  /** Anchor when the link has no text: aria-label, else an image's alt, else `title`. */
  fallback: string;
  title: string;
  anchor: string | undefined;
  context: string | undefined;
}

const NOFOLLOW_RE = /(?:^|\s)nofollow(?:\s|$)/i;
const HIDDEN_STYLE_RE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const LINK_RELS = new Set(['alternate', 'next', 'prev', 'previous']);
// Compact retained text this far past the text cap (so compaction is rare and cheap).
const COMPACT_SLACK = 65_536;

export class PageBuilder implements Partial<Handler> {
  parser: Parser | undefined;
  private readonly o: ResolvedParseOptions;
  private readonly text = new TextBuffer();
  private readonly hid = new TextBuffer();
  private depth = 0;
  private skipAt = -1;
  private hiddenAt = -1;
  private inTitle = false;
  private titleParts: string[] | undefined;
  private title: string | undefined;
  private readonly facts: PageFacts;
  private readonly links: LinkRec[] = [];
  /** The open <a>, and the depth it was opened at. */
  private cur: LinkRec | undefined;
  private curDepth = -1;
  /** Text offset of the last block boundary (a block or cell opening or closing). */
  private runStart = 0;
  /** Visible links whose run has not ended yet. */
  private readonly ctxPending: LinkRec[] = [];
  /**
   * Links of a closed `<dt>` waiting for its `<dd>`: a term's context runs on into
   * its description (`<dt><a>gitformat-bundle(5)</a></dt><dd>The bundle file format.</dd>`).
   */
  private readonly termLinks: LinkRec[] = [];
  /** Where the last `<dt>` closed: the end of its links' context when no `<dd>` follows. */
  private termEnd = 0;
  private headText: string | undefined;
  /** Both caps reached: the rest of the input is ignored. */
  done = false;

  constructor(
    readonly pageUrl: string,
    o: ResolvedParseOptions,
  ) {
    this.o = o;
    this.facts = new PageFacts(pageUrl, o);
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
  }

  /** Whether ontext would use text now (for the fast scanner, which then skips it). */
  acceptsText(): boolean {
    return this.skipAt < 0 || this.inTitle;
  }

  /** Whether onopentag would read attributes now. */
  readsAttributes(): boolean {
    return this.skipAt < 0;
  }

  onopentag(name: string, attribs: Attribs): void {
    if (this.done) return;
    const depth = this.depth++;
    if (this.skipAt >= 0) return;
    const f = tagFlags(name);
    if (f === 0) {
      if (this.hiddenAt < 0 && (attribs.hidden !== undefined || attribs.style !== undefined)) {
        this.checkHidden(attribs, depth);
      }
      return;
    }
    if (f & F_SKIP) {
      if (f & F_SPECIAL) this.special(name, attribs, depth);
      this.skipAt = depth;
      return;
    }
    if (f & F_BLOCK) this.sep(SEP_BLOCK);
    else if (f & F_CELL) this.sep(SEP_SPACE);
    else if (f & F_BREAK) this.sep(SEP_BLOCK);
    // A term with no description: its links' context ends with the term.
    if ((name === 'dt' || name === 'dl') && this.termLinks.length > 0) this.endTerm(this.termEnd);
    if (f & F_CONTEXT) this.boundary();
    if (this.hiddenAt < 0) {
      if (f & F_HIDDEN) this.enterHidden(depth);
      else if (attribs.hidden !== undefined || attribs.style !== undefined) {
        this.checkHidden(attribs, depth);
      }
    }
    // after the hidden check: a link learns whether its text is hidden
    if (f & F_SPECIAL) this.special(name, attribs, depth);
  }

  onclosetag(name: string): void {
    if (this.done) return;
    const depth = --this.depth;
    if (this.skipAt >= 0) {
      if (depth === this.skipAt) {
        this.skipAt = -1;
        if (this.inTitle) this.endTitle();
      }
      return;
    }
    // (at the end of input an unfinished tag can leave close events unmatched)
    if (depth === this.curDepth && this.cur !== undefined) this.closeAnchor();
    if (depth === this.hiddenAt) {
      this.hiddenAt = -1;
      this.hid.clear();
    }
    const f = tagFlags(name);
    if (f === 0) return;
    if (name === 'dt') {
      // The term's links wait for the description (or the next term).
      if (this.termLinks.length > 0) this.endTerm(this.termEnd);
      this.termEnd = this.text.len;
      this.termLinks.push(...this.ctxPending);
      this.ctxPending.length = 0;
    } else if (this.termLinks.length > 0 && (name === 'dd' || name === 'dl')) {
      this.endTerm(name === 'dd' ? this.text.len : this.termEnd);
    }
    if (f & F_CONTEXT) this.boundary();
    if (f & F_BLOCK) this.sep(SEP_BLOCK);
    else if (f & F_CELL) this.sep(SEP_SPACE);
  }

  private endTerm(end: number): void {
    for (const rec of this.termLinks) rec.bEnd = end;
    this.termLinks.length = 0;
  }

  ontext(data: string): void {
    if (this.done) return;
    if (this.skipAt >= 0) {
      if (this.inTitle) this.titleParts!.push(data);
      return;
    }
    if (this.hiddenAt >= 0) {
      const at = this.hid.append(data);
      const cur = this.cur;
      if (at >= 0 && cur !== undefined && cur.hidden && cur.aStart < 0) cur.aStart = at;
      return;
    }
    const t = this.text;
    const at = t.append(data);
    if (at < 0) return;
    const cur = this.cur;
    if (cur !== undefined && cur.aStart < 0) cur.aStart = at;
    if (t.len > this.o.maxTextChars) this.overCap();
  }

  private sep(s: 2 | 3): void {
    if (this.hiddenAt >= 0) this.hid.separate(s);
    else this.text.separate(s);
  }

  private checkHidden(attribs: Attribs, depth: number): void {
    const style = attribs.style;
    if (attribs.hidden !== undefined || (style !== undefined && HIDDEN_STYLE_RE.test(style))) {
      this.enterHidden(depth);
    }
  }

  private enterHidden(depth: number): void {
    this.hiddenAt = depth;
    this.hid.clear();
  }

  private special(name: string, a: Attribs, depth: number): void {
    switch (name) {
      case 'a':
        if (a.href !== undefined) this.openAnchor(a, depth);
        break;
      case 'img':
        if (this.cur !== undefined && a.alt !== undefined && this.cur.fallback === '') {
          this.cur.fallback = a.alt;
        }
        break;
      case 'area':
        if (a.href !== undefined) this.addLink('area', a.href, a.rel, a.alt ?? '');
        break;
      case 'frame':
      case 'iframe':
        if (a.src !== undefined) this.addLink(name, a.src, undefined, a.title ?? a.name ?? '');
        break;
      case 'link':
        this.onLink(a);
        break;
      case 'meta':
        this.facts.meta(a);
        break;
      case 'base':
        if (a.href !== undefined) this.facts.base(a.href);
        break;
      case 'title':
        if (this.title === undefined && !this.inTitle) {
          this.inTitle = true;
          this.titleParts = [];
        }
        break;
      case 'html':
        this.facts.html(a);
        break;
    }
  }

  private endTitle(): void {
    this.inTitle = false;
    // Detached: a title often outlives the page (crawl outcomes, events), and a
    // slice would keep the whole document alive with it.
    this.title = detach(collapseWhitespace(this.titleParts!.join('')));
    this.titleParts = undefined;
  }

  /** `href` resolved against the page's base; null for none and same-document links. */
  private resolve(href: string): string | null {
    const c = href.charCodeAt(0);
    const h = c <= 0x20 || href.charCodeAt(href.length - 1) <= 0x20 ? trimC0(href) : href;
    // '' and '#…' name this same document: not a link to follow
    if (h === '' || h.charCodeAt(0) === 0x23) return null;
    return resolveHref(h, this.facts.baseUrl, this.facts.origin, this.facts.originAsIs);
  }

  private newLink(tag: LinkTag, href: string, rel: string | undefined, fallback: string) {
    if (this.links.length >= this.o.maxLinks) return undefined;
    const url = this.resolve(href);
    if (url === null) return undefined;
    const hidden = this.hiddenAt >= 0;
    const rec: LinkRec = {
      url,
      tag,
      nofollow: rel !== undefined && NOFOLLOW_RE.test(rel),
      hidden,
      aStart: -1,
      aEnd: -1,
      bStart: this.runStart,
      bEnd: -1,
      fallback,
      title: '',
      anchor: undefined,
      context: undefined,
    };
    this.links.push(rec);
    if (!hidden) this.ctxPending.push(rec);
    return rec;
  }

  private openAnchor(a: Attribs, depth: number): void {
    if (this.cur !== undefined) this.closeAnchor();
    const rec = this.newLink('a', a.href!, a.rel, a['aria-label'] ?? '');
    if (rec === undefined) return;
    if (a.title !== undefined) rec.title = a.title;
    this.cur = rec;
    this.curDepth = depth;
  }

  private closeAnchor(): void {
    const rec = this.cur!;
    this.cur = undefined;
    this.curDepth = -1;
    const buf = rec.hidden ? this.hid : this.text;
    rec.aEnd = buf.len;
    if (rec.aStart < 0) rec.aStart = rec.aEnd;
    if (rec.hidden) {
      rec.anchor = this.anchorOf(rec, buf);
      rec.context = rec.anchor;
    }
  }

  /** A link with no text of its own (area, frame, iframe, link). */
  private addLink(tag: LinkTag, href: string, rel: string | undefined, label: string): void {
    const rec = this.newLink(tag, href, rel, label);
    if (rec === undefined) return;
    const buf = rec.hidden ? this.hid : this.text;
    rec.aStart = rec.aEnd = buf.len;
    rec.anchor = collapseWhitespace(label).slice(0, this.o.maxAnchorChars);
    if (rec.hidden || tag === 'link') rec.context = rec.anchor;
  }

  private onLink(a: Attribs): void {
    const rel = a.rel;
    const href = a.href;
    if (rel === undefined || href === undefined) return;
    const tokens = rel.toLowerCase().split(/\s+/);
    if (tokens.includes('canonical')) this.facts.canonicalLink(href);
    else if (tokens.some((t) => LINK_RELS.has(t))) this.addLink('link', href, rel, a.title ?? '');
  }

  /** A block or cell opens or closes: the current run of text ends here. */
  private boundary(): void {
    const end = this.text.len;
    this.runStart = end;
    const pending = this.ctxPending;
    if (pending.length === 0) return;
    for (const rec of pending) rec.bEnd = end;
    pending.length = 0;
  }

  private anchorOf(rec: LinkRec, buf: TextBuffer): string {
    const max = this.o.maxAnchorChars;
    const s = buf.slice(rec.aStart, Math.min(rec.aEnd, rec.aStart + max));
    if (s !== '') return s.indexOf('\n') >= 0 ? s.replace(/\n/g, ' ') : s;
    return collapseWhitespace(rec.fallback || rec.title).slice(0, max);
  }

  /** Computes anchor and context of a visible link whose block has closed. */
  private finalize(rec: LinkRec, s: string, base: number, len: number): void {
    if (rec.anchor === undefined) rec.anchor = this.anchorOf(rec, this.text);
    if (rec.context === undefined) {
      const bEnd = rec.bEnd < 0 ? len : rec.bEnd;
      rec.context = linkContext(
        s,
        rec.aStart - base,
        rec.aEnd - base,
        Math.max(rec.bStart, base) - base,
        bEnd - base,
        this.o.contextChars,
        rec.anchor,
        rec.aEnd > rec.aStart,
      );
    }
  }

  /** Text grew past maxTextChars: stop, or drop text no link needs any more. */
  private overCap(): void {
    const t = this.text;
    if (this.links.length >= this.o.maxLinks && this.cur === undefined) {
      this.stop();
      return;
    }
    if (t.len - t.base <= this.o.maxTextChars + COMPACT_SLACK) return;
    const s = t.flat();
    if (this.headText === undefined) this.headText = s.slice(0, this.o.maxTextChars);
    let keepFrom = t.len - this.o.contextChars;
    for (const rec of this.links) {
      if (rec.context !== undefined || rec.hidden) continue;
      if (rec.bEnd >= 0 && rec.aEnd >= 0) this.finalize(rec, s, t.base, t.len);
      else keepFrom = Math.min(keepFrom, Math.max(rec.bStart, rec.aStart - this.o.contextChars));
    }
    t.compact(keepFrom);
  }

  private stop(): void {
    this.done = true;
    this.parser?.pause();
  }

  result(): ParsedPage {
    if (this.cur !== undefined) this.closeAnchor();
    if (this.inTitle) this.endTitle();
    if (this.termLinks.length > 0) this.endTerm(this.termEnd);
    const t = this.text;
    const s = t.flat();
    const f = this.facts;
    const nofollowAll = f.robots.nofollow;
    const links: PageLink[] = [];
    for (const rec of this.links) {
      this.finalize(rec, s, t.base, t.len);
      links.push({
        url: rec.url,
        anchor: rec.anchor!,
        context: rec.context!,
        nofollow: rec.nofollow || nofollowAll,
        tag: rec.tag,
      });
    }
    const max = this.o.maxTextChars;
    const text = this.headText ?? (s.length > max ? s.slice(0, max) : s);
    return {
      title: this.title ?? '',
      text,
      lang: f.lang,
      baseUrl: f.baseUrl,
      canonical: f.canonical,
      robots: { ...f.robots },
      links,
      metaRefresh: f.metaRefresh,
      metaCharset: f.metaCharset,
    };
  }
}

/**
 * `s` without leading and trailing C0 controls and spaces, as the URL standard strips
 * them (String.prototype.trim would strip U+00A0 and other Unicode spaces too, which
 * a browser keeps, percent-encoded, in the URL).
 */
function trimC0(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}
