// Public surface of the dedup stage: SimHash fingerprints of page text, a
// near-duplicate index, and the duplicate detector a crawl calls per page.

export {
  type DedupRow,
  type Duplicate,
  type DuplicateCheck,
  type DuplicateCheckInput,
  DuplicateDetector,
} from './detector.js';
export { hammingDistance, parseSimhash, type SimHash, simhashHex } from './fingerprint.js';
export { MAX_INDEX_DISTANCE, NearDuplicateIndex, type NearMatch } from './index-near.js';
export {
  type DuplicateDetectorOptions,
  duplicateDetectorOptionsSchema,
  type FingerprintOptions,
  fingerprintOptionsSchema,
} from './options.js';
export {
  createFingerprinter,
  type Fingerprinter,
  MAX_TEXT_CHARS,
  simhash,
  type TextFingerprint,
} from './simhash.js';
