// The focuscrawl library: the public surface of every stage.
export * from './errors/index.js';
export * from './fetch/index.js';
export { type InspectOptions, type InspectReport, inspectUrl } from './inspect/index.js';
export * from './parse/index.js';
export * from './relevance/index.js';
export {
  describeTestWeb,
  labels as testWebLabels,
  listPageUrls as testWebPageUrls,
  startTestWeb,
  type TestWeb,
  type TestWebOptions,
} from './testweb/index.js';
export * from './text/index.js';
export * from './url/index.js';
