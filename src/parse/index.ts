// Public surface of the parse stage: HTML → title, visible text, links with context, robots.
export {
  createHtmlParser,
  type HtmlParser,
  type LinkTag,
  type PageLink,
  type ParsedPage,
  parseHtml,
} from './html-parser.js';
export {
  addRobotsDirectives,
  addXRobotsTag,
  metaRefreshTarget,
  type RobotsDirectives,
} from './meta.js';
export type { ParseOptions } from './options.js';
