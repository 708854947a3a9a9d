/** A fetched body → content kind, decoded text and (for HTML) the parsed page. Pure. */
import { type ContentKind, decodeBody, sniffContent } from '../fetch/charset/index.js';
import { parseHtml } from './html-parser.js';
import type { ParseOptions } from './options.js';
import type { ParsedPage } from './types.js';

export interface AnalyzedBody {
  content: ContentKind;
  /** Charset the text was decoded with (text-like content only). */
  charset: string | undefined;
  /** How the charset was found: bom, header, meta, detected, default (or forced). */
  charsetSource: string | undefined;
  /** The parsed page, for HTML. */
  page: ParsedPage | undefined;
  /** The decoded text, for plain text and XML (HTML's visible text is page.text). */
  text: string | undefined;
}

/**
 * Sniffs, decodes and parses one response body. Non-text content (PDF, images…) is
 * recorded as such and not decoded.
 */
export function analyzeBody(
  body: Uint8Array,
  contentType: string | undefined,
  url: string,
  opts?: ParseOptions,
): AnalyzedBody {
  const buf = Buffer.isBuffer(body)
    ? body
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const content = sniffContent(contentType, buf);
  if (content !== 'html' && content !== 'text' && content !== 'xml') {
    return {
      content,
      charset: undefined,
      charsetSource: undefined,
      page: undefined,
      text: undefined,
    };
  }
  const d = decodeBody(buf, contentType);
  if (content !== 'html') {
    return { content, charset: d.charset, charsetSource: d.source, page: undefined, text: d.text };
  }
  return {
    content,
    charset: d.charset,
    charsetSource: d.source,
    page: parseHtml(d.text, url, opts),
    text: undefined,
  };
}
