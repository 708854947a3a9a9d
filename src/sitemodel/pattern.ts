// The URL pattern language the site model writes (src/url/pattern.ts): kept in url/ so
// that stages below the site model (field extraction rules) read the same patterns.
export {
  formatPattern,
  generalizePart,
  matchPattern,
  matchTarget,
  type ParsedPattern,
  type Part,
  type Placeholder,
  parsedOfUrl,
  parsePattern,
  patternOf,
  patternRegex,
  specificity,
  type Token,
  urlId,
} from '../url/index.js';
