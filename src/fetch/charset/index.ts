// Public surface of charset decoding and content sniffing (re-exported by src/fetch).
export { charsetFromContentType, charsetFromMetaContent, mimeEssence } from './content-type.js';
export { decodeAs } from './decode.js';
export {
  type CharsetSource,
  type DecodeBodyOptions,
  type DecodedBody,
  decodeBody,
} from './decode-body.js';
export { type CharsetDetection, detectCharset, isUtf8Lenient } from './detect.js';
export { type Charset, normalizeCharset } from './labels.js';
export { prescanMetaCharset } from './prescan.js';
export { type ContentKind, sniffContent } from './sniff.js';
