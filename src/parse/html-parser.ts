/** HTML → ParsedPage: the whole-document and the streaming entry points. */
import { Parser } from 'htmlparser2';
import { InvalidUrlError } from '../errors/index.js';
import { type ParseOptions, resolveParseOptions } from './options.js';
import { PageBuilder } from './page-builder.js';
import { scanHtml } from './scanner.js';
import { TreeBuilder } from './tree.js';
import type { ParsedPage } from './types.js';

export interface HtmlParser {
  /** Feeds the next chunk of decoded HTML. */
  write(chunk: string): void;
  /** Ends the input (optionally with a last chunk) and returns the parsed page. */
  end(chunk?: string): ParsedPage;
}

function checkPageUrl(pageUrl: string): void {
  try {
    new URL(pageUrl);
  } catch (e) {
    throw new InvalidUrlError(`parseHtml: page URL is not an absolute URL: ${pageUrl}`, {
      cause: e,
      url: pageUrl,
    });
  }
}

/**
 * A streaming parser: write decoded chunks as they arrive, `end()` for the result.
 * It tokenises with htmlparser2 (the `engine` option applies to parseHtml only).
 * Throws InvalidUrlError for a page URL that is not absolute, InvalidOptionError
 * for malformed options (options objects are validated once and cached: do not
 * mutate one after use).
 */
export function createHtmlParser(pageUrl: string, opts?: ParseOptions): HtmlParser {
  checkPageUrl(pageUrl);
  const b = new PageBuilder(pageUrl, resolveParseOptions(opts));
  const p = new Parser(b, { decodeEntities: true });
  let ended: ParsedPage | undefined;
  return {
    write(chunk) {
      if (ended === undefined && !b.done) p.write(chunk);
    },
    end(chunk) {
      if (ended === undefined) {
        p.end(chunk);
        ended = b.result();
      }
      return ended;
    },
  };
}

/**
 * Parses a whole HTML document (already decoded, see decodeBody): title, visible
 * text, links with anchor and context, base, canonical, robots directives, meta
 * refresh and meta charset.
 * @example parseHtml('<title>Hi</title><p>See <a href="/x">this</a>.</p>', 'http://a.test/')
 */
export function parseHtml(html: string, pageUrl: string, opts?: ParseOptions): ParsedPage {
  checkPageUrl(pageUrl);
  const o = resolveParseOptions(opts);
  if (o.engine === 'htmlparser2') return createHtmlParser(pageUrl, opts).end(html);
  const b = new PageBuilder(pageUrl, o);
  scanHtml(html, new TreeBuilder(b), b);
  return b.result();
}
