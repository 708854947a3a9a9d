// Special hosts about bodies: media types, content-encodings, slow answers, huge pages.
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { crc32, gzipBomb } from './bomb.js';
import { esc, HTML_TYPE, htmlReply, notFound, simplePage } from './html.js';
import type { Ctx, Handler, Reply } from './types.js';

// ---------------------------------------------------------------- media.test

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid 16×16 RGB PNG (a diagonal gradient). */
function makePng(): Buffer {
  const w = 16;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(w, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc(w * (1 + w * 3));
  for (let y = 0; y < w; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * (1 + w * 3) + 1 + x * 3;
      raw[o] = x * 16;
      raw[o + 1] = y * 16;
      raw[o + 2] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1×1 baseline JPEG (JFIF). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP////////////////////////////////////////////////' +
    '//////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/a' +
    'AAgBAQABPxA=',
  'base64',
);

/** A one-page PDF 1.4 with correct cross-reference offsets. */
function makePdf(): Buffer {
  const stream = 'BT /F1 18 Tf 72 720 Td (focuscrawl test document) Tj ET';
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

let media: Record<string, Reply> | undefined;

function mediaReplies(): Record<string, Reply> {
  if (media) return media;
  const page = simplePage(
    'Media test page',
    ['Links to documents of several types.'],
    [
      ['/doc.pdf', 'A PDF document'],
      ['/image.png', 'A PNG image'],
      ['/image.jpg', 'A JPEG image'],
      ['/data.json', 'Some JSON data'],
      ['/page.html', 'An HTML page'],
      ['/no-type', 'A page without Content-Type'],
    ],
  );
  media = {
    '/': htmlReply(page),
    '/page.html': htmlReply(page),
    '/doc.pdf': { status: 200, headers: { 'content-type': 'application/pdf' }, body: makePdf() },
    '/image.png': { status: 200, headers: { 'content-type': 'image/png' }, body: makePng() },
    '/image.jpg': { status: 200, headers: { 'content-type': 'image/jpeg' }, body: JPEG },
    '/data.json': {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: `${JSON.stringify({ name: 'focuscrawl', items: [1, 2, 3], nested: { ok: true } })}\n`,
    },
    '/no-type': { status: 200, headers: {}, body: page },
  };
  return media;
}

const mediaHost: Handler = (ctx) =>
  mediaReplies()[ctx.pathname] ?? notFound(`No such file on media.test: ${ctx.path}`);

// ---------------------------------------------------------------- gzip.test

function encodedPage(kind: string, n: number): string {
  const paras: string[] = [];
  for (let i = 0; i < 20; i++) {
    paras.push(
      `Paragraph ${i} of ${kind} page ${n}. Compressed bodies must be decoded before parsing; ` +
        'repeated text compresses well, which is the point of this page.',
    );
  }
  return simplePage(`${kind} page ${n}`, paras, [
    [`/${kind === 'gzip' ? 'page' : kind}/${n + 1}`, `Next ${kind} page`],
    [`/page/${n}`, 'gzip version'],
    [`/br/${n}`, 'brotli version'],
    [`/deflate/${n}`, 'deflate version'],
  ]);
}

const gzipHost: Handler = (ctx) => {
  const p = ctx.pathname;
  if (p === '/bomb') {
    return {
      status: 200,
      headers: { 'content-type': HTML_TYPE, 'content-encoding': 'gzip' },
      body: gzipBomb(),
    };
  }
  if (p === '/') {
    return htmlReply(
      simplePage(
        'gzip.test',
        ['Compressed pages.'],
        [
          ['/page/0', 'gzip'],
          ['/br/0', 'brotli'],
          ['/deflate/0', 'deflate'],
          ['/bomb', 'Do not open'],
        ],
      ),
    );
  }
  const m = /^\/(page|br|deflate)\/(\d{1,6})$/.exec(p);
  if (!m) return notFound(`No such page on gzip.test: ${ctx.path}`);
  const n = Number(m[2]);
  const kind = m[1] === 'page' ? 'gzip' : (m[1] as string);
  const plain = Buffer.from(encodedPage(kind, n));
  let body: Buffer;
  let encoding: string;
  if (kind === 'gzip') {
    body = gzipSync(plain);
    encoding = 'gzip';
  } else if (kind === 'br') {
    body = brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    encoding = 'br';
  } else {
    body = deflateSync(plain);
    encoding = 'deflate';
  }
  return {
    status: 200,
    headers: { 'content-type': HTML_TYPE, 'content-encoding': encoding, vary: 'Accept-Encoding' },
    body,
  };
};

// ---------------------------------------------------------------- slow.test

/** Runs `fn` after `ms` unless the response is closed first. */
function later(res: ServerResponse, ms: number, fn: () => void): void {
  const t = setTimeout(fn, ms);
  res.once('close', () => clearTimeout(t));
}

function msParam(ctx: Ctx, fallback: number): number {
  const n = Number(ctx.query.get('ms') ?? fallback);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 600_000) : fallback;
}

function sendLater(ctx: Ctx, ms: number, reply: Reply, send: (ctx: Ctx, r: Reply) => void): null {
  later(ctx.res, ms, () => send(ctx, reply));
  return null;
}

export function slowHost(send: (ctx: Ctx, r: Reply) => void): Handler {
  return (ctx) => {
    const p = ctx.pathname;
    if (p === '/hang') return null; // never answers; the socket closes when the client gives up
    if (p === '/headers') {
      const ms = msParam(ctx, 1000);
      return sendLater(ctx, ms, htmlReply(simplePage('Slow headers', [`Waited ${ms} ms.`])), send);
    }
    if (p === '/body') {
      const ms = msParam(ctx, 1000);
      const pieces = 10;
      const chunk = `<p>${'A slowly trickling body. '.repeat(8)}</p>\n`;
      const head = '<!DOCTYPE html>\n<html><head><title>Slow body</title></head><body>\n';
      const tail = '</body></html>\n';
      const total = head.length + chunk.length * pieces + tail.length;
      const res = ctx.res;
      res.writeHead(200, { 'content-type': HTML_TYPE, 'content-length': total });
      res.write(head);
      ctx.entry.bytes += head.length;
      let i = 0;
      let timer: NodeJS.Timeout | undefined;
      res.once('close', () => clearTimeout(timer));
      const step = () => {
        if (res.destroyed) return;
        i++;
        res.write(chunk);
        ctx.entry.bytes += chunk.length;
        if (i < pieces) timer = setTimeout(step, ms / pieces);
        else {
          res.end(tail);
          ctx.entry.bytes += tail.length;
        }
      };
      timer = setTimeout(step, ms / pieces);
      return null;
    }
    const m = /^\/page\/(\d{1,6})$/.exec(p);
    if (m || p === '/') {
      const n = m ? Number(m[1]) : 0;
      const page = simplePage(
        `Slow page ${n}`,
        ['Every page of this host takes 200 ms.'],
        [
          [`/page/${n + 1}`, 'Next slow page'],
          [`/page/${n + 2}`, 'The page after'],
        ],
      );
      return sendLater(ctx, 200, htmlReply(page), send);
    }
    return notFound(`No such page on slow.test: ${ctx.path}`);
  };
}

// ---------------------------------------------------------------- big.test

const MAX_KB = 1024 * 1024;

/** Streams an HTML page of exactly `kb` KiB, with a link near the start and one near the end. */
function streamLarge(ctx: Ctx, kb: number): null {
  const total = kb * 1024;
  const head =
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>A very large page</title></head>\n' +
    `<body><h1>A page of ${kb} KiB</h1>\n<p><a href="/early-link">A link near the start</a></p>\n`;
  const tail = '<p><a href="/late-link">A link near the end</a></p>\n</body></html>\n';
  const para = `<p>${esc('Filler text for a very large page. ').repeat(20)}</p>\n`;
  const res = ctx.res;
  res.writeHead(200, { 'content-type': HTML_TYPE, 'content-length': total });
  if (ctx.method === 'HEAD') {
    res.end();
    return null;
  }
  if (total < head.length + tail.length) {
    const small = (head + tail).slice(0, total);
    res.end(small);
    ctx.entry.bytes = small.length;
    return null;
  }
  let middle = total - head.length - tail.length;
  const block = para.repeat(Math.ceil(65536 / para.length));
  res.write(head);
  const pump = (): void => {
    while (middle > 0) {
      const piece = middle >= block.length ? block : ' '.repeat(middle);
      middle -= piece.length;
      if (!res.write(piece)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(tail);
    ctx.entry.bytes = total;
  };
  pump();
  return null;
}

const bigHost: Handler = (ctx) => {
  if (ctx.pathname === '/large') {
    const raw = ctx.query.get('kb');
    const kb = raw === null || raw === '' ? 5000 : Number(raw);
    if (!Number.isInteger(kb) || kb < 0 || kb > MAX_KB) {
      return htmlReply(simplePage('Bad request', [`kb must be an integer 0..${MAX_KB}`]), 400);
    }
    return streamLarge(ctx, kb);
  }
  if (ctx.pathname === '/') {
    return htmlReply(
      simplePage(
        'big.test',
        ['Very large pages.'],
        [
          ['/large', 'A 5,000 KiB page'],
          ['/large?kb=100', 'A 100 KiB page'],
        ],
      ),
    );
  }
  return htmlReply(simplePage(`big.test ${ctx.pathname}`, ['A small page.']));
};

export const mediaHosts: Record<string, Handler> = {
  'media.test': mediaHost,
  'gzip.test': gzipHost,
  'big.test': bigHost,
};
