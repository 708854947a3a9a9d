// Public surface of full-text search: how text is segmented for the index, how a
// query becomes its words, the order of hits, and the memory store's index.
export { type MemoryHit, MemoryTextIndex, TITLE_WEIGHT } from './memory-index.js';
export { blendScore, ftsMatch, MARK_END, MARK_START, MARKS, queryTerms } from './query.js';
export { isSegmentChar, MAX_INDEX_CHARS, segmentForIndex, unsegment } from './segment.js';
export { cutSnippet, SNIPPET_TOKENS } from './snippet.js';
