/** Public result types of the parse stage. */
import type { RobotsDirectives } from './meta.js';

export type LinkTag = 'a' | 'area' | 'frame' | 'iframe' | 'link';

export interface PageLink {
  /** Absolute, canonical URL (see canonicalizeUrl). */
  url: string;
  /**
   * Visible text of the link, whitespace-collapsed; for a link without text its
   * aria-label, an image's alt or its title (area: alt; iframe, frame, link: title).
   */
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

/**
 * The attributes this parser reads, by lower-case name. htmlparser2 gives all of a
 * tag's attributes; the fast scanner only these (wantedAttr in names.ts: keep in step).
 */
export interface Attribs {
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
