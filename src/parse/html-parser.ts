/**
 * HTML → ParsedPage in one streaming pass of htmlparser2's callback Parser.
 *
 * Speed notes: text chunks go into one array joined once; anchors and link contexts
 * are offsets into that text, sliced at the end; tag names are looked up once in a
 * flag table; each distinct href is canonicalised once per page; parsing stops early
 * once the text and link caps are both reached.
 */
import { type Handler, Parser } from 'htmlparser2';
import { InvalidUrlError } from '../errors/index.js';
import { charsetFromMetaContent, normalizeCharset } from '../fetch/charset/index.js';
import { canonicalizeUrl } from '../url/index.js';
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
import {
  addRobotsDirectives,
  addXRobotsTag,
  emptyRobots,
  metaRefreshTarget,
  type RobotsDirectives,
} from './meta.js';
import { type ParseOptions, type ResolvedParseOptions, resolveParseOptions } from './options.js';
import { collapseWhitespace, SEP_BLOCK, SEP_SPACE, TextBuffer } from './text-buffer.js';
import { originOf, resolveHref } from './url-cache.js';

export type LinkTag = 'a' | 'area' | 'frame' | 'iframe' | 'link';

export interface PageLink {
  /** Absolute, canonical URL (see canonicalizeUrl). */
  url: string;
  /** Visible text of the link (else an image's alt, aria-label or title), whitespace-collapsed. */
  anchor: string;
  /** The anchor with up to `contextChars` of text on each side, within its block. */
  context: string;
  /** rel=nofollow on the link, or nofollow in the page's robots directives. */
  nofollow: boolean;
  tag: LinkTag;
}

export interface ParsedPage {
  /** Text of the first <title>, whitespace-collapsed; '' when none. */
  title: string;
  /** Visible text: blocks on their own lines, whitespace collapsed. */
  text: string;
  /** <html lang>, when present. */
  lang: string | undefined;
  /** URL relative links resolve against: the first <base href>, else the page URL. */
  baseUrl: string;
  /** <link rel=canonical>, resolved and canonicalised. */
  canonical: string | undefined;
  /** From <meta name=robots|focuscrawl> and the X-Robots-Tag option. */
  robots: RobotsDirectives;
  links: PageLink[];
  /** Target of <meta http-equiv=refresh>, resolved and canonicalised; undefined for none or a plain reload. */
  metaRefresh: string | undefined;
  /** Encoding declared by <meta charset> or <meta http-equiv=Content-Type> (WHATWG name, or the raw label if unknown). */
  metaCharset: string | undefined;
}

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
  /** Anchor replacement when the link has no text (img alt, aria-label, title). */
  fallback: string;
  anchor: string | undefined;
  context: string | undefined;
}

/** The attributes this parser reads (htmlparser2 gives lower-case names). */
interface Attribs {
  [name: string]: string | undefined;
  href?: string;
  src?: string;
  rel?: string;
  alt?: string;
  title?: string;
  name?: string;
  lang?: string;
  hidden?: string;
  style?: string;
  charset?: string;
  content?: string;
}

const NOFOLLOW_RE = /(?:^|\s)nofollow(?:\s|$)/i;
const HIDDEN_STYLE_RE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const LINK_RELS = new Set(['alternate', 'next', 'prev', 'previous']);
// Compact retained text this far past the text cap (so compaction is rare and cheap).
const COMPACT_SLACK = 65_536;

class PageBuilder implements Partial<Handler> {
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
  private lang: string | undefined;
  private baseUrl: string;
  private baseSeen = false;
  private canonical: string | undefined;
  private metaRefresh: string | undefined;
  private metaCharset: string | undefined;
  private readonly robots = emptyRobots();
  private readonly links: LinkRec[] = [];
  /** The open <a>, and the depth it was opened at. */
  private cur: LinkRec | undefined;
  private curDepth = -1;
  /** Text offset of the last block boundary (a block or cell opening or closing). */
  private runStart = 0;
  /** Visible links whose run has not ended yet. */
  private ctxPending: LinkRec[] = [];
  private origin: string;
  private headText: string | undefined;
  private done = false;

  constructor(
    readonly pageUrl: string,
    o: ResolvedParseOptions,
  ) {
    this.o = o;
    this.baseUrl = pageUrl;
    this.origin = originOf(pageUrl);
    if (o.xRobotsTag !== undefined) addXRobotsTag(o.xRobotsTag, o.robotsToken, this.robots);
  }

  onparserinit(parser: Parser): void {
    this.parser = parser;
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
    if (f & F_SPECIAL) this.special(name, attribs, depth);
    if (f & F_SKIP) {
      this.skipAt = depth;
      return;
    }
    if (f & F_BLOCK) this.sep(SEP_BLOCK);
    else if (f & F_CELL) this.sep(SEP_SPACE);
    else if (f & F_BREAK) this.sep(SEP_BLOCK);
    if (f & F_CONTEXT) this.boundary();
    if (f & F_HIDDEN) {
      if (this.hiddenAt < 0) this.enterHidden(depth);
    } else if (this.hiddenAt < 0 && (attribs.hidden !== undefined || attribs.style !== undefined)) {
      this.checkHidden(attribs, depth);
    }
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
    if (depth === this.curDepth) this.closeAnchor();
    if (depth === this.hiddenAt) {
      this.hiddenAt = -1;
      this.hid.clear();
    }
    const f = tagFlags(name);
    if (f === 0) return;
    if (f & F_CONTEXT) this.boundary();
    if (f & F_BLOCK) this.sep(SEP_BLOCK);
    else if (f & F_CELL) this.sep(SEP_SPACE);
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
        this.onMeta(a);
        break;
      case 'base':
        if (!this.baseSeen && a.href !== undefined) this.onBase(a.href);
        break;
      case 'title':
        if (this.title === undefined && !this.inTitle) {
          this.inTitle = true;
          this.titleParts = [];
        }
        break;
      case 'html':
        if (this.lang === undefined && a.lang !== undefined) {
          const lang = a.lang.trim();
          if (lang !== '') this.lang = lang;
        }
        break;
    }
  }

  private endTitle(): void {
    this.inTitle = false;
    this.title = collapseWhitespace(this.titleParts!.join(''));
    this.titleParts = undefined;
  }

  private resolve(href: string): string | null {
    const c = href.charCodeAt(0);
    const h = c <= 0x20 || href.charCodeAt(href.length - 1) <= 0x20 ? href.trim() : href;
    // '' and '#…' name this same document: not a link to follow
    if (h === '' || h.charCodeAt(0) === 0x23) return null;
    return resolveHref(h, this.baseUrl, this.origin);
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
      anchor: undefined,
      context: undefined,
    };
    this.links.push(rec);
    if (!hidden) this.ctxPending.push(rec);
    return rec;
  }

  private openAnchor(a: Attribs, depth: number): void {
    if (this.cur !== undefined) this.closeAnchor();
    const rec = this.newLink('a', a.href!, a.rel, a['aria-label'] ?? a.title ?? '');
    if (rec === undefined) return;
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
    if (tokens.includes('canonical')) {
      if (this.canonical === undefined) {
        this.canonical = canonicalizeUrl(href.trim(), this.baseUrl) ?? undefined;
      }
      return;
    }
    if (tokens.some((t) => LINK_RELS.has(t))) this.addLink('link', href, rel, a.title ?? '');
  }

  private onMeta(a: Attribs): void {
    if (a.charset !== undefined) {
      if (this.metaCharset === undefined) {
        this.metaCharset = normalizeCharset(a.charset) ?? a.charset.trim().toLowerCase();
      }
      return;
    }
    const content = a.content;
    if (content === undefined) return;
    const name = a.name;
    if (name !== undefined) {
      const n = name.trim().toLowerCase();
      if (n === 'robots' || n === this.o.robotsToken.toLowerCase()) {
        addRobotsDirectives(content, this.robots);
      }
      return;
    }
    const equiv = a['http-equiv']?.trim().toLowerCase();
    if (equiv === 'refresh') {
      if (this.metaRefresh === undefined) {
        const target = metaRefreshTarget(content);
        if (target !== undefined) {
          this.metaRefresh = canonicalizeUrl(target, this.baseUrl) ?? undefined;
        }
      }
    } else if (equiv === 'content-type' && this.metaCharset === undefined) {
      this.metaCharset = charsetFromMetaContent(content);
    }
  }

  private onBase(href: string): void {
    this.baseSeen = true;
    try {
      const u = new URL(href.trim(), this.pageUrl);
      if (u.protocol === 'http:' || u.protocol === 'https:') {
        this.baseUrl = u.href;
        this.origin = originOf(u.href);
      }
    } catch {
      // an invalid <base href> is ignored
    }
  }

  /** A block or cell opens or closes: the current run of text ends here. */
  private boundary(): void {
    const end = this.text.len;
    this.runStart = end;
    const pending = this.ctxPending;
    if (pending.length === 0) return;
    for (const rec of pending) rec.bEnd = end;
    this.ctxPending = [];
  }

  private anchorOf(rec: LinkRec, buf: TextBuffer): string {
    const max = this.o.maxAnchorChars;
    const s = buf.slice(rec.aStart, Math.min(rec.aEnd, rec.aStart + max));
    if (s !== '') return s.indexOf('\n') >= 0 ? s.replace(/\n/g, ' ') : s;
    return collapseWhitespace(rec.fallback).slice(0, max);
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
    const t = this.text;
    const s = t.flat();
    const nofollowAll = this.robots.nofollow;
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
      lang: this.lang,
      baseUrl: this.baseUrl,
      canonical: this.canonical,
      robots: { ...this.robots },
      links,
      metaRefresh: this.metaRefresh,
      metaCharset: this.metaCharset,
    };
  }
}

export interface HtmlParser {
  /** Feeds the next chunk of decoded HTML. */
  write(chunk: string): void;
  /** Ends the input (optionally with a last chunk) and returns the parsed page. */
  end(chunk?: string): ParsedPage;
}

function checkPageUrl(pageUrl: string): void {
  try {
    new URL(pageUrl);
  } catch (e) {
    throw new InvalidUrlError(`parseHtml: page URL is not an absolute URL: ${pageUrl}`, {
      cause: e,
      url: pageUrl,
    });
  }
}

/**
 * A streaming parser: write decoded chunks as they arrive, `end()` for the result.
 * Throws InvalidUrlError for a page URL that is not absolute, InvalidOptionError
 * for malformed options (options objects are validated once and cached: do not
 * mutate one after use).
 */
export function createHtmlParser(pageUrl: string, opts?: ParseOptions): HtmlParser {
  checkPageUrl(pageUrl);
  const b = new PageBuilder(pageUrl, resolveParseOptions(opts));
  const p = new Parser(b, { decodeEntities: true });
  let ended: ParsedPage | undefined;
  return {
    write(chunk) {
      if (ended === undefined) p.write(chunk);
    },
    end(chunk) {
      if (ended === undefined) {
        p.end(chunk);
        ended = b.result();
      }
      return ended;
    },
  };
}

/**
 * Parses a whole HTML document (already decoded, see decodeBody): title, visible
 * text, links with anchor and context, base, canonical, robots directives, meta
 * refresh and meta charset.
 * @example parseHtml('<title>Hi</title><p>See <a href="/x">this</a>.</p>', 'http://a.test/')
 */
export function parseHtml(html: string, pageUrl: string, opts?: ParseOptions): ParsedPage {
  return createHtmlParser(pageUrl, opts).end(html);
}
