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
/**
 * `opts` with the response's `X-Robots-Tag` (lower-case header names, as fetch
 * results give them) for the parser to join to the page's `<meta name=robots>`:
 * `crawl` and `inspect` read a page's directives alike.
 */
export function withResponseHeaders(
  opts: ParseOptions | undefined,
  headers: Readonly<Record<string, string>>,
): ParseOptions | undefined {
  const xRobotsTag = headers['x-robots-tag'];
  return xRobotsTag === undefined ? opts : { ...opts, xRobotsTag };
}

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

/**
 * The visible text of a stored body, as the crawl read it: HTML's visible text, or the
 * decoded text of text and XML; undefined for other content. Links are not collected.
 */
export function visibleText(
  body: Uint8Array,
  contentType: string | undefined,
  url: string,
): string | undefined {
  const a = analyzeBody(body, contentType, url, { maxLinks: 0 });
  return a.page?.text ?? a.text;
}
