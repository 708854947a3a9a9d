/**
 * What kind of content a response holds: the Content-Type header when it is
 * specific, else the first bytes (a small subset of the WHATWG MIME Sniffing rules).
 * Only `html` is parsed for links; the rest is recorded.
 */
import { mimeEssence } from './content-type.js';

export type ContentKind = 'html' | 'xml' | 'text' | 'pdf' | 'image' | 'other';

// Header values that say nothing: sniff the bytes instead.
const VAGUE = new Set([
  '',
  'unknown/unknown',
  'application/unknown',
  '*/*',
  'application/octet-stream',
]);

function kindOfMime(mime: string): ContentKind | undefined {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html';
  if (mime === 'application/pdf' || mime === 'application/x-pdf') return 'pdf';
  if (mime.startsWith('image/')) return 'image';
  if (mime === 'text/xml' || mime === 'application/xml' || mime.endsWith('+xml')) return 'xml';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'text';
  if (mime.startsWith('text/')) return 'text';
  return undefined;
}

function startsWith(b: Uint8Array, at: number, sig: readonly number[]): boolean {
  if (at + sig.length > b.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF = [0x47, 0x49, 0x46, 0x38]; // GIF8
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];
const ICO = [0x00, 0x00, 0x01, 0x00];
const BMP = [0x42, 0x4d];

// Tags the WHATWG sniffing algorithm takes as HTML when they open a document.
const HTML_TAGS = [
  '!doctype html',
  'html',
  'head',
  'script',
  'iframe',
  'h1',
  'div',
  'font',
  'table',
  'a',
  'style',
  'title',
  'b',
  'body',
  'br',
  'p',
  '!--',
];

function binaryKind(b: Uint8Array): ContentKind | undefined {
  if (startsWith(b, 0, PDF)) return 'pdf';
  if (startsWith(b, 0, PNG) || startsWith(b, 0, JPEG) || startsWith(b, 0, GIF)) return 'image';
  if (startsWith(b, 0, RIFF) && startsWith(b, 8, WEBP)) return 'image';
  if (startsWith(b, 0, ICO) || (startsWith(b, 0, BMP) && b.length > 14)) return 'image';
  return undefined;
}

/** The first 512 bytes as ASCII-ish text, BOM and leading whitespace removed, lower case. */
function head(b: Uint8Array): string {
  let start = 0;
  let step = 1;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
  else if (b[0] === 0xff && b[1] === 0xfe) [start, step] = [2, 2];
  else if (b[0] === 0xfe && b[1] === 0xff) [start, step] = [3, 2];
  let s = '';
  for (let i = start; i < b.length && s.length < 512; i += step) s += String.fromCharCode(b[i]!);
  return s.trimStart().toLowerCase();
}

function markupKind(h: string): ContentKind | undefined {
  if (!h.startsWith('<')) return undefined;
  if (h.startsWith('<?xml')) {
    return /<(?:!doctype\s+html|html[\s>])/.test(h) ? 'html' : 'xml';
  }
  for (const tag of HTML_TAGS) {
    if (!h.startsWith(tag, 1)) continue;
    const after = h.charCodeAt(1 + tag.length);
    // the tag name must end here ('<a ' or '<a>' but not '<abbr')
    if (tag === '!--' || after === 0x20 || after === 0x3e || (after >= 0x09 && after <= 0x0d)) {
      return 'html';
    }
  }
  if (/^<(?:rss|feed|rdf:rdf|urlset|sitemapindex)[\s>]/.test(h)) return 'xml';
  return undefined;
}

/** True when the first bytes hold no control bytes a text file would not have. */
function looksTextual(b: Uint8Array): boolean {
  const n = Math.min(b.length, 512);
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d && c !== 0x1b) {
      return false;
    }
  }
  return true;
}

/**
 * Classifies a response: `html` (parse it), `xml`, `text`, `pdf`, `image` or `other`.
 * A specific Content-Type decides; a missing, vague (`application/octet-stream`) or
 * `text/plain` one lets the first bytes decide (`%PDF-`, PNG, JPEG, GIF, WebP
 * signatures, `<!doctype html`, `<html`, `<?xml` …).
 * @example sniffContent(undefined, Buffer.from('<!DOCTYPE html><p>x')) // 'html'
 */
export function sniffContent(contentType: string | undefined, body: Uint8Array): ContentKind {
  const mime = mimeEssence(contentType);
  if (!VAGUE.has(mime) && mime !== 'text/plain') {
    const k = kindOfMime(mime);
    if (k !== undefined) return k;
    return 'other';
  }
  const bin = binaryKind(body);
  if (bin !== undefined) return bin;
  if (mime === 'text/plain') return 'text';
  const mk = markupKind(head(body));
  if (mk !== undefined) return mk;
  return looksTextual(body) ? 'text' : 'other';
}
