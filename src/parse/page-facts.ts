/**
 * Page-level facts gathered while parsing: <html lang>, <base href>, canonical link,
 * robots directives, meta refresh and meta charset. First occurrence wins, except
 * robots directives, which add up.
 */
import { charsetFromMetaContent, normalizeCharset } from '../fetch/charset/index.js';
import { canonicalizeUrl } from '../url/index.js';
import {
  addRobotsDirectives,
  addXRobotsTag,
  emptyRobots,
  metaRefreshTarget,
  type RobotsDirectives,
} from './meta.js';
import type { ResolvedParseOptions } from './options.js';
import type { Attribs } from './types.js';
import { canonicalAsIs, originOf } from './url-cache.js';

export class PageFacts {
  lang: string | undefined;
  /** What relative URLs resolve against, and its origin. */
  baseUrl: string;
  origin: string;
  /** The origin is canonical as it is (see canonicalAsIs). */
  originAsIs: boolean;
  canonical: string | undefined;
  metaRefresh: string | undefined;
  metaCharset: string | undefined;
  readonly robots: RobotsDirectives = emptyRobots();
  private baseSeen = false;
  private readonly robotsName: string;

  constructor(
    readonly pageUrl: string,
    o: ResolvedParseOptions,
  ) {
    this.baseUrl = pageUrl;
    this.origin = originOf(pageUrl);
    this.originAsIs = canonicalAsIs(`${this.origin}/`);
    this.robotsName = o.robotsToken.toLowerCase();
    if (o.xRobotsTag !== undefined) addXRobotsTag(o.xRobotsTag, o.robotsToken, this.robots);
  }

  html(a: Attribs): void {
    if (this.lang === undefined && a.lang !== undefined) {
      const lang = a.lang.trim();
      if (lang !== '') this.lang = lang;
    }
  }

  /** The first <base href>; an invalid or non-http(s) one is ignored. */
  base(href: string): void {
    if (this.baseSeen) return;
    this.baseSeen = true;
    try {
      const u = new URL(href.trim(), this.pageUrl);
      if (u.protocol === 'http:' || u.protocol === 'https:') {
        this.baseUrl = u.href;
        this.origin = originOf(u.href);
        this.originAsIs = canonicalAsIs(`${this.origin}/`);
      }
    } catch {
      // an invalid <base href> is ignored
    }
  }

  canonicalLink(href: string): void {
    if (this.canonical === undefined) {
      this.canonical = canonicalizeUrl(href.trim(), this.baseUrl) ?? undefined;
    }
  }

  meta(a: Attribs): void {
    if (a.charset !== undefined) {
      this.metaCharset ??= normalizeCharset(a.charset) ?? a.charset.trim().toLowerCase();
      return;
    }
    const content = a.content;
    if (content === undefined) return;
    if (a.name !== undefined) {
      const n = a.name.trim().toLowerCase();
      if (n === 'robots' || n === this.robotsName) addRobotsDirectives(content, this.robots);
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
    } else if (equiv === 'content-type') {
      this.metaCharset ??= charsetFromMetaContent(content);
    }
  }
}
