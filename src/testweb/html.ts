// Small HTML helpers shared by the generators.
import type { OutgoingHttpHeaders } from 'node:http';
import type { Reply } from './types.js';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function esc(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ESC[c] ?? c);
}

export const HTML_TYPE = 'text/html; charset=utf-8';

export function htmlReply(body: string, status = 200, headers: OutgoingHttpHeaders = {}): Reply {
  return { status, headers: { 'content-type': HTML_TYPE, ...headers }, body };
}

export function textReply(body: string, status = 200, type = 'text/plain; charset=utf-8'): Reply {
  return { status, headers: { 'content-type': type }, body };
}

/** A minimal English page: title, paragraphs (raw HTML) and a list of links. */
export function simplePage(
  title: string,
  paragraphs: readonly string[],
  links: readonly (readonly [href: string, text: string])[] = [],
): string {
  const parts = [
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>',
    esc(title),
    '</title></head>\n<body><h1>',
    esc(title),
    '</h1>\n',
  ];
  for (const p of paragraphs) parts.push('<p>', p, '</p>\n');
  if (links.length > 0) {
    parts.push('<ul>\n');
    for (const [href, text] of links)
      parts.push('<li><a href="', esc(href), '">', esc(text), '</a></li>\n');
    parts.push('</ul>\n');
  }
  parts.push('</body></html>\n');
  return parts.join('');
}

export function notFound(what: string): Reply {
  return htmlReply(simplePage('Not found', [esc(what)]), 404);
}
