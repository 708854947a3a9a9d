// Public surface of the text stage: normalisation, tokenisation, keyword counting.
export {
  hasSegmentScript,
  normalizeKeyword,
  normalizeText,
  SEGMENT_CHAR_CLASS,
} from './chars.js';
export {
  countKeywords,
  createKeywordCounter,
  type KeywordCounter,
  type KeywordMatch,
  keywordMatchMode,
} from './keywords.js';
export { ENGLISH_STOP_WORDS } from './stopwords-en.js';
export { CHINESE_STOP_WORDS } from './stopwords-zh.js';
export {
  createTokenizer,
  DEFAULT_STOP_WORDS,
  type TokenizeOptions,
  type Tokenizer,
  termFrequencies,
  tokenize,
  tokenizeOptionsSchema,
} from './tokenize.js';
