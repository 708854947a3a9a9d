// Public surface of the discover stage: sitemaps (parsing, robots.txt lines, discovery).

export type { DiscoveredUrl, DiscoverSitemapsOptions, SitemapDiscoveryOptions } from './options.js';
export {
  type RobotsSitemaps,
  robotsSitemaps,
  robotsSitemapValues,
  usableSitemapUrls,
} from './robots-sitemaps.js';
export {
  type ChangeFreq,
  isGzip,
  type ParsedSitemap,
  type ParseSitemapOptions,
  parseSitemap,
  parseW3cDatetime,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  type SitemapRef,
  type SitemapUrlEntry,
} from './sitemap-parse.js';
export {
  createSitemapDiscovery,
  type DiscoverSitemapsResult,
  discoverSitemaps,
  type SitemapDiscovery,
  type SitemapDiscoveryError,
} from './sitemaps.js';
