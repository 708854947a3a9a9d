/**
 * `Sitemap:` lines of robots.txt. The fetch stage's robots.txt parser already collects
 * them (`parseRobotsTxt(text).sitemaps`, and `RobotsVerdict.sitemaps` for a cached
 * robots.txt); this module only decides which values are usable.
 *
 * - The field name is matched case-insensitively (`Sitemap`, `sitemap`, `SITEMAP`, and
 *   the misspelling `Site-map`), anywhere in the file, inside or outside groups.
 * - Only absolute http(s) URLs are used. A relative value (`/sitemap.xml`) is rejected,
 *   not resolved against the robots.txt URL: the sitemaps.org protocol asks for the full
 *   URL, and major crawlers ignore relative values too. Rejected values are returned so
 *   the caller can report them.
 * - URLs are canonicalised (canonicalizeUrl) and repeated ones dropped, first kept.
 */
import { parseRobotsTxt } from '../fetch/index.js';
import { canonicalizeUrl } from '../url/index.js';

/** The values of the `Sitemap:` lines of a robots.txt text, in file order. */
export function robotsSitemapValues(robotsTxt: string): string[] {
  return parseRobotsTxt(robotsTxt).sitemaps;
}

export interface RobotsSitemaps {
  /** Canonical absolute sitemap URLs, repeated ones dropped. */
  urls: string[];
  /** Values that are not absolute http(s) URLs (ignored). */
  rejected: string[];
}

const ABSOLUTE = /^https?:\/\//i;

/** Splits `Sitemap:` values into usable sitemap URLs and rejected values. */
export function usableSitemapUrls(values: readonly string[]): RobotsSitemaps {
  const urls: string[] = [];
  const rejected: string[] = [];
  const seen = new Set<string>();
  for (const v of values) {
    const c = ABSOLUTE.test(v) ? canonicalizeUrl(v) : null;
    if (c === null) rejected.push(v);
    else if (!seen.has(c)) {
      seen.add(c);
      urls.push(c);
    }
  }
  return { urls, rejected };
}

/** The usable sitemap URLs of a robots.txt text (see the module notes). */
export function robotsSitemaps(robotsTxt: string): RobotsSitemaps {
  return usableSitemapUrls(robotsSitemapValues(robotsTxt));
}
