/**
 * Sitemap documents (sitemaps.org protocol 0.9), parsed from the bytes fetched. Pure.
 *
 * - gzip is recognised by its magic bytes (whatever the URL or Content-Type says) and
 *   inflated up to `maxBytes` (the protocol's 50 MiB); a larger document throws
 *   `SitemapTooLargeError`.
 * - XML is read with a small tokenizer (xml-scan.ts): `<urlset>` and `<sitemapindex>` roots,
 *   any namespace prefix (`<sm:url>`), CDATA, entities, whitespace around values. Only direct
 *   children of `<url>`/`<sitemap>` count, so extension elements such as
 *   `<image:image><image:loc>` are not taken for page URLs. Tag names are compared
 *   case-insensitively.
 * - Plain-text sitemaps (one absolute URL per line, UTF-8) are read as a urlset.
 * - An entry without a usable `<loc>` (missing, not an absolute http(s) URL, longer than
 *   2,048 characters), an entry cut off by the end of the document, and every entry past
 *   `maxUrls` are counted in `skipped`. A malformed `<lastmod>`, `<changefreq>` or
 *   `<priority>` is dropped; the entry is kept.
 * - Anything else (HTML, a feed, JSON, broken gzip, an empty body) throws `SitemapError`
 *   naming the sitemap URL. Nothing else is thrown.
 */
import { constants, gunzipSync } from 'node:zlib';
import { decodeXML } from 'entities';
import { type FocusCrawlError, SitemapError, SitemapTooLargeError } from '../errors/index.js';
import { scanXml } from './xml-scan.js';

/** The protocol's limits: 50 MiB uncompressed and 50,000 entries per file. */
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
export const SITEMAP_MAX_URLS = 50_000;
/** Longest `<loc>` accepted (the protocol asks for less than 2,048 characters). */
export const SITEMAP_MAX_LOC_LENGTH = 2048;

export type ChangeFreq = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';
const CHANGE_FREQS = new Set(['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never']);

export interface SitemapUrlEntry {
  /** The URL as written (trimmed, entities decoded); not canonicalised. */
  loc: string;
  /** W3C datetime as written, when well-formed. */
  lastmod?: string;
  changefreq?: ChangeFreq;
  /** 0.0 – 1.0. */
  priority?: number;
}

export interface SitemapRef {
  loc: string;
  lastmod?: string;
}

export interface ParsedSitemap {
  /** `urlset` lists pages; `index` lists other sitemaps. */
  kind: 'urlset' | 'index';
  /** `xml`, or `text` for a plain list of URLs. */
  format: 'xml' | 'text';
  /** Pages (urlset); empty for an index. */
  urls: SitemapUrlEntry[];
  /** Sitemaps (index); empty for a urlset. */
  sitemaps: SitemapRef[];
  /** Entries not returned (see the module notes). */
  skipped: number;
}

export interface ParseSitemapOptions {
  /** The sitemap's URL, named in errors. */
  url: string;
  /** Largest document, after decompression. @default 52428800 (50 MiB) */
  maxBytes?: number;
  /** Most entries returned. @default 50000 */
  maxUrls?: number;
  /** The body was cut short (e.g. at the fetcher's byte cap): read what is complete. @default false */
  truncated?: boolean;
}

const GZIP_MAGIC_0 = 0x1f;
const GZIP_MAGIC_1 = 0x8b;

/** Whether the bytes start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC_0 && bytes[1] === GZIP_MAGIC_1;
}

function tooLarge(url: string, maxBytes: number, cause?: unknown): FocusCrawlError {
  return new SitemapTooLargeError(
    `sitemap ${url} is larger than ${maxBytes} bytes uncompressed (the protocol's limit is 50 MiB)`,
    cause === undefined ? { url } : { url, cause },
  );
}

/** Inflates a gzip body, bounded by `maxBytes`. */
function gunzip(bytes: Uint8Array, o: Required<ParseSitemapOptions>): Buffer {
  try {
    return gunzipSync(bytes, {
      maxOutputLength: o.maxBytes,
      // A body cut short still gives what was inflated so far.
      ...(o.truncated ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw tooLarge(o.url, o.maxBytes, err);
    const why = err instanceof Error ? err.message : String(err);
    throw new SitemapError(`sitemap ${o.url}: invalid gzip data (${why})`, {
      url: o.url,
      cause: err,
    });
  }
}

const W3C_DATETIME =
  /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** Milliseconds since the epoch of a W3C datetime (`2024`, `2024-05`, `2024-05-01T10:00Z`, …). */
export function parseW3cDatetime(s: string): number | undefined {
  if (!W3C_DATETIME.test(s)) return undefined;
  const full = s.length === 4 ? `${s}-01-01` : s.length === 7 ? `${s}-01` : s;
  const ms = Date.parse(full);
  return Number.isFinite(ms) ? ms : undefined;
}

const ABSOLUTE_HTTP = /^https?:\/\/[^\s/?#]/i;

function usableLoc(loc: string): boolean {
  return loc.length <= SITEMAP_MAX_LOC_LENGTH && ABSOLUTE_HTTP.test(loc);
}

// Element codes: the names that matter, whatever their prefix; everything else is OTHER.
const OTHER = 0;
const URLSET = 1;
const SITEMAPINDEX = 2;
const URL_TAG = 3;
const SITEMAP = 4;
const LOC = 5;
const LASTMOD = 6;
const CHANGEFREQ = 7;
const PRIORITY = 8;
const CODES = new Map<string, number>([
  ['urlset', URLSET],
  ['sitemapindex', SITEMAPINDEX],
  ['url', URL_TAG],
  ['sitemap', SITEMAP],
  ['loc', LOC],
  ['lastmod', LASTMOD],
  ['changefreq', CHANGEFREQ],
  ['priority', PRIORITY],
]);
const FIELD_OF: (Field | undefined)[] = [];
FIELD_OF[LOC] = 'loc';
FIELD_OF[LASTMOD] = 'lastmod';
FIELD_OF[CHANGEFREQ] = 'changefreq';
FIELD_OF[PRIORITY] = 'priority';

/** The code of the element named `s.slice(start, end)`: prefix dropped, case ignored. */
function codeOf(s: string, start: number, end: number): number {
  let from = start;
  for (let i = start; i < end; i++) if (s.charCodeAt(i) === 58 /* : */) from = i + 1;
  // Fast path: the usual lower-case names, compared in place.
  switch (end - from) {
    case 3:
      if (s.startsWith('url', from)) return URL_TAG;
      if (s.startsWith('loc', from)) return LOC;
      break;
    case 6:
      if (s.startsWith('urlset', from)) return URLSET;
      break;
    case 7:
      if (s.startsWith('lastmod', from)) return LASTMOD;
      if (s.startsWith('sitemap', from)) return SITEMAP;
      break;
    case 8:
      if (s.startsWith('priority', from)) return PRIORITY;
      break;
    case 10:
      if (s.startsWith('changefreq', from)) return CHANGEFREQ;
      break;
    case 12:
      if (s.startsWith('sitemapindex', from)) return SITEMAPINDEX;
      break;
    default:
      return OTHER;
  }
  return CODES.get(s.slice(from, end).toLowerCase()) ?? OTHER;
}

type Field = 'loc' | 'lastmod' | 'changefreq' | 'priority';

/** Reads an XML sitemap; throws SitemapError when the root is not urlset/sitemapindex. */
function parseXml(text: string, o: Required<ParseSitemapOptions>): ParsedSitemap {
  const out: ParsedSitemap = { kind: 'urlset', format: 'xml', urls: [], sitemaps: [], skipped: 0 };
  let root: number | undefined;
  let rootName = '';
  /** Element codes of the open elements: root, entry, field. */
  const stack: number[] = [];
  let entry: Partial<Record<Field, string>> | undefined;
  let field: Field | undefined;
  let value = '';
  const add = (e: Partial<Record<Field, string>>) => {
    const loc = e.loc?.trim() ?? '';
    if (!usableLoc(loc) || out.urls.length + out.sitemaps.length >= o.maxUrls) {
      out.skipped++;
      return;
    }
    const lastmod = e.lastmod?.trim();
    const okLastmod = lastmod !== undefined && W3C_DATETIME.test(lastmod) ? lastmod : undefined;
    if (out.kind === 'index') {
      out.sitemaps.push(okLastmod === undefined ? { loc } : { loc, lastmod: okLastmod });
      return;
    }
    const u: SitemapUrlEntry = { loc };
    if (okLastmod !== undefined) u.lastmod = okLastmod;
    const freq = e.changefreq?.trim().toLowerCase();
    if (freq !== undefined && CHANGE_FREQS.has(freq)) u.changefreq = freq as ChangeFreq;
    const pr = e.priority?.trim();
    const p = pr === undefined || pr === '' ? Number.NaN : Number(pr);
    if (p >= 0 && p <= 1) u.priority = p;
    out.urls.push(u);
  };
  /** Ends the element at `level` (0 = the root). */
  const endAt = (level: number) => {
    if (level === 2 && field !== undefined) {
      if (entry !== undefined && entry[field] === undefined) entry[field] = value;
      field = undefined;
    } else if (level === 1 && entry !== undefined) {
      add(entry);
      entry = undefined;
      field = undefined;
    }
  };
  scanXml(text, {
    open(start, end, selfClosing) {
      const code = codeOf(text, start, end);
      const level = stack.length;
      if (level === 0 && root === undefined) {
        root = code;
        rootName = text.slice(start, end);
        if (code === SITEMAPINDEX) out.kind = 'index';
      } else if (level === 1 && code === (out.kind === 'index' ? SITEMAP : URL_TAG)) {
        if (selfClosing) out.skipped++;
        else entry = {};
      } else if (level === 2 && entry !== undefined && FIELD_OF[code] && !selfClosing) {
        field = FIELD_OF[code];
        value = '';
      }
      if (!selfClosing) stack.push(code);
    },
    close(start, end) {
      // An end tag closes its element and any left open inside it; a stray one is ignored.
      const at = stack.lastIndexOf(codeOf(text, start, end));
      while (at >= 0 && stack.length > at) {
        stack.pop();
        endAt(stack.length);
      }
    },
    text(start, end) {
      if (field === undefined) return;
      const raw = text.slice(start, end);
      value += raw.includes('&') ? decodeXML(raw) : raw;
    },
    cdata(start, end) {
      if (field !== undefined) value += text.slice(start, end);
    },
  });
  // An entry the document ends in was cut off.
  if (entry !== undefined) out.skipped++;
  if (root !== URLSET && root !== SITEMAPINDEX) {
    const what = root === undefined ? 'no XML element' : `root element <${rootName}>`;
    throw new SitemapError(`sitemap ${o.url} is not a sitemap: ${what}`, { url: o.url });
  }
  return out;
}

/** Reads a text sitemap: one URL per line. */
function parseText(text: string, o: Required<ParseSitemapOptions>): ParsedSitemap {
  const out: ParsedSitemap = { kind: 'urlset', format: 'text', urls: [], sitemaps: [], skipped: 0 };
  const lines = text.split(/\r\n|\r|\n/);
  // A cut body loses its last, partial line.
  if (o.truncated) lines.pop();
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '') continue;
    if (out.urls.length === 0 && out.skipped === 0 && !usableLoc(line)) {
      const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
      throw new SitemapError(
        `sitemap ${o.url} is not a sitemap: neither XML nor a list of URLs (starts with ${JSON.stringify(shown)})`,
        { url: o.url },
      );
    }
    if (usableLoc(line) && out.urls.length < o.maxUrls) out.urls.push({ loc: line });
    else out.skipped++;
  }
  return out;
}

/**
 * Parses one sitemap document (XML or text, optionally gzipped). Throws `SitemapError`
 * or `SitemapTooLargeError` (both naming `options.url`), nothing else.
 */
export function parseSitemap(bytes: Uint8Array, options: ParseSitemapOptions): ParsedSitemap {
  const o: Required<ParseSitemapOptions> = {
    url: options.url,
    maxBytes: options.maxBytes ?? SITEMAP_MAX_BYTES,
    maxUrls: options.maxUrls ?? SITEMAP_MAX_URLS,
    truncated: options.truncated ?? false,
  };
  const body = isGzip(bytes) ? gunzip(bytes, o) : bytes;
  if (body.length > o.maxBytes) throw tooLarge(o.url, o.maxBytes);
  let text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = text.search(/\S/);
  if (start < 0) throw new SitemapError(`sitemap ${o.url} is empty`, { url: o.url });
  try {
    return text.charCodeAt(start) === 60 /* < */ ? parseXml(text, o) : parseText(text, o);
  } catch (err) {
    if (err instanceof SitemapError) throw err;
    const why = err instanceof Error ? err.message : String(err);
    throw new SitemapError(`sitemap ${o.url} could not be parsed: ${why}`, {
      url: o.url,
      cause: err,
    });
  }
}
