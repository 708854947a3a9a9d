// WARC 1.1 (ISO 28500:2017) output of the stored pages (docs/export.md, "WARC"): a
// warcinfo record, then per page with a stored body a request and a response
// record, each record its own gzip member. HTTP headers are reconstructed from what
// the store keeps; the body is exact.
import { createHash, randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCb, gzipSync } from 'node:zlib';
import { defaultUserAgent } from '../fetch/index.js';
import type { PageRecord, Store } from '../store/index.js';
import { ordered } from './ahead.js';

const gzipAsync = promisify(gzipCb);

/** Records up to this size are compressed on the spot: a thread-pool round trip costs more. */
const SYNC_GZIP_BYTES = 64 * 1024;

/** One gzip member (zlib's default level). */
function gzip(data: Buffer): Promise<Buffer> {
  return data.length <= SYNC_GZIP_BYTES ? Promise.resolve(gzipSync(data)) : gzipAsync(data);
}
const CRLF = '\r\n';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (upper case, `=` padding). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let acc = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** `sha1:` and the base32 SHA-1 of the bytes, as warcio and Heritrix write digests. */
export function sha1Digest(...parts: Uint8Array[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  return `sha1:${base32(h.digest())}`;
}

/** WARC-Date: UTC, whole seconds unless the time has milliseconds (WARC 1.1 allows them). */
export function warcDate(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** A header value on one line: CR, LF and other controls become spaces. */
const oneLine = (s: string) => s.replace(/[\u0000-\u001F\u007F]/g, ' ');

const urn = () => `<urn:uuid:${randomUUID()}>`;

/** One record: the WARC header, the block, two CRLFs; uncompressed. */
function record(headers: [string, string][], block: Uint8Array[]): Buffer[] {
  const length = block.reduce((n, b) => n + b.length, 0);
  const head = ['WARC/1.1', ...headers.map(([k, v]) => `${k}: ${oneLine(v)}`)];
  head.push(`Content-Length: ${length}`, '', '');
  return [
    Buffer.from(head.join(CRLF), 'utf8'),
    ...block.map((b) => Buffer.from(b)),
    Buffer.from(CRLF + CRLF),
  ];
}

export interface WarcOptions {
  /** What the export is of (the store's directory), named in the warcinfo record. */
  source?: string | undefined;
  /** Pages read (and records compressed) at a time. */
  concurrency: number;
  /** When the export runs (the warcinfo record's date). @default Date.now() */
  now?: number;
}

/** The User-Agent of the reconstructed requests: the crawler's default one. */
export const WARC_USER_AGENT = defaultUserAgent();

/** `focuscrawl/<version>`, the product token of the User-Agent. */
const SOFTWARE = WARC_USER_AGENT.split(' ')[0] as string;

async function warcinfo(store: Store, o: WarcOptions, id: string): Promise<Buffer> {
  const topic = await store.getMeta<{ name?: unknown }>('topic');
  const fields: [string, string][] = [
    ['software', SOFTWARE],
    ['format', 'WARC File Format 1.1'],
    [
      'conformsTo',
      'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    ],
    [
      'description',
      'pages of a focuscrawl store; HTTP headers reconstructed from the store, bodies as stored',
    ],
    ['http-header-user-agent', WARC_USER_AGENT],
  ];
  if (o.source !== undefined) fields.push(['focuscrawl-store', o.source]);
  if (typeof topic?.name === 'string') fields.push(['focuscrawl-topic', topic.name]);
  const block = Buffer.from(fields.map(([k, v]) => `${k}: ${oneLine(v)}${CRLF}`).join(''));
  const rec = record(
    [
      ['WARC-Type', 'warcinfo'],
      ['WARC-Record-ID', id],
      ['WARC-Date', warcDate(o.now ?? Date.now())],
      ['Content-Type', 'application/warc-fields'],
    ],
    [block],
  );
  return gzip(Buffer.concat(rec));
}

/** The request as the crawler would have sent it (method, path, Host, User-Agent). */
export function requestHead(url: string): Buffer {
  const u = new URL(url);
  const lines = [
    `GET ${u.pathname}${u.search} HTTP/1.1`,
    `Host: ${u.host}`,
    `User-Agent: ${WARC_USER_AGENT}`,
    '',
    '',
  ];
  return Buffer.from(lines.join(CRLF), 'latin1');
}

/** The response's status line and headers, from what the store keeps of them. */
export function responseHead(p: PageRecord, bodyLength: number): Buffer {
  const reason = STATUS_CODES[p.status] ?? '';
  const lines = [`HTTP/1.1 ${p.status}${reason === '' ? '' : ` ${reason}`}`];
  if (p.contentType !== null) lines.push(`Content-Type: ${oneLine(p.contentType)}`);
  lines.push(`Content-Length: ${bodyLength}`);
  if (p.etag !== null) lines.push(`ETag: ${oneLine(p.etag)}`);
  if (p.lastModified !== null) lines.push(`Last-Modified: ${oneLine(p.lastModified)}`);
  lines.push('', '');
  return Buffer.from(lines.join(CRLF), 'utf8');
}

/** The request and response records of one page, each gzipped: one Buffer. */
async function pageRecords(p: PageRecord, body: Buffer, infoId: string): Promise<Buffer> {
  const requestId = urn();
  const responseId = urn();
  const date = warcDate(p.fetchedAt);
  const uri = oneLine(p.url);
  const req = requestHead(p.url);
  const request = record(
    [
      ['WARC-Type', 'request'],
      ['WARC-Record-ID', requestId],
      ['WARC-Date', date],
      ['WARC-Target-URI', uri],
      ['WARC-Concurrent-To', responseId],
      ['WARC-Warcinfo-ID', infoId],
      ['WARC-Block-Digest', sha1Digest(req)],
      ['Content-Type', 'application/http;msgtype=request'],
    ],
    [req],
  );
  const head = responseHead(p, body.length);
  const response = record(
    [
      ['WARC-Type', 'response'],
      ['WARC-Record-ID', responseId],
      ['WARC-Date', date],
      ['WARC-Target-URI', uri],
      ['WARC-Concurrent-To', requestId],
      ['WARC-Warcinfo-ID', infoId],
      ['WARC-Payload-Digest', sha1Digest(body)],
      ['WARC-Block-Digest', sha1Digest(head, body)],
      ['Content-Type', 'application/http;msgtype=response'],
    ],
    [head, body],
  );
  const [a, b] = await Promise.all([gzip(Buffer.concat(request)), gzip(Buffer.concat(response))]);
  return Buffer.concat([a, b]);
}

/**
 * The WARC file, a gzip member (or two) at a time: the warcinfo record, then for each
 * page whose body is stored (in the pages' order) its request and response records.
 * `onPage` is called for each page written.
 */
export async function* warcChunks(
  store: Store,
  pages: AsyncIterable<PageRecord>,
  o: WarcOptions,
  onPage: () => void = () => {},
): AsyncGenerator<Buffer> {
  const infoId = urn();
  yield await warcinfo(store, o, infoId);
  const stored = async function* () {
    for await (const p of pages) if (p.bodyFile !== null) yield p;
  };
  const chunks = ordered(
    stored(),
    async (p) => {
      const body = await store.readBody(p.url);
      return body === null ? null : pageRecords(p, body, infoId);
    },
    o.concurrency,
  );
  for await (const c of chunks) {
    if (c === null) continue;
    onPage();
    yield c;
  }
}
