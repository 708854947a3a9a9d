// Public surface of the parse stage: HTML → title, visible text, links with context, robots.

export { type AnalyzedBody, analyzeBody, visibleText, withResponseHeaders } from './analyze.js';
export { createHtmlParser, type HtmlParser, parseHtml } from './html-parser.js';
export {
  addRobotsDirectives,
  addXRobotsTag,
  metaRefreshTarget,
  type RobotsDirectives,
} from './meta.js';
export type { ParseOptions } from './options.js';
export type { LinkTag, PageLink, ParsedPage } from './types.js';
export { detach } from './url-cache.js';
