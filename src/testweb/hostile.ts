// hostile.test and the hostile robots.txt hosts: servers that misbehave on purpose, for
// the fetcher's hardening tests. Big bodies are streamed (never held whole); broken
// framing and header floods are hand-made HTTP written to the socket. See docs/testweb.md.
import { constants, createBrotliCompress } from 'node:zlib';
import { BOMB_INFLATED_BYTES, deflateBomb, gzipBomb } from './bomb.js';
import { esc, HTML_TYPE, htmlReply, notFound, simplePage, textReply } from './html.js';
import type { Ctx, Handler, Reply } from './types.js';

export const HOSTILE_HOST = 'hostile.test';

/** Largest `/huge?mb=M`. */
const MAX_HUGE_MB = 4096;
/** Default and largest `n` of `/deep` and `/links`. */
const DEFAULT_N = 100_000;
const MAX_N = 1_000_000;
/** Headers of `/header-flood`, and the length of `/header-huge`'s one header. */
const FLOOD_HEADERS = 5000;
const HUGE_HEADER_BYTES = 1024 * 1024;

/** Every path of hostile.test with what it does (its home page lists them). */
export const HOSTILE_PATHS: readonly (readonly [string, string])[] = [
  ['/huge', 'a 200 MB body (Content-Length), streamed'],
  ['/endless', 'a chunked body that never ends, a chunk every 50 ms'],
  ['/endless?fast=1', 'a chunked body that never ends, as fast as it is read'],
  ['/drip', 'one byte a second of a 1000-byte body'],
  ['/gzip-bomb', '1 GiB of zeros, gzip-encoded (about 1 MB)'],
  ['/deflate-bomb', '1 GiB of zeros, deflate-encoded (about 1 MB)'],
  ['/br-bomb', '1 GiB of zeros, brotli-encoded (about 200 KB)'],
  ['/loop/a', 'redirects to /loop/b, which redirects back'],
  ['/chain/50', 'a chain of 50 redirects'],
  ['/deep', 'markup nested 100,000 deep'],
  ['/links', 'a page with 100,000 links'],
  ['/reset', 'half a body, then the connection is reset'],
  ['/short', 'a clean close after 1000 of 100,000 promised bytes'],
  ['/bad-chunk', 'a chunked body with a malformed chunk size'],
  ['/cl-te', 'both Content-Length and Transfer-Encoding: chunked'],
  ['/two-lengths', 'two different Content-Length headers'],
  ['/header-flood', '5,000 response headers'],
  ['/header-huge', 'one 1 MiB response header'],
];

function intParam(ctx: Ctx, name: string, fallback: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? Math.min(n, max) : fallback;
}

/**
 * Writes `total` bytes (Infinity: forever) of `block` repeated, as fast as the client
 * reads them (waiting for 'drain'), then ends the response unless `total` is Infinity.
 */
function pump(ctx: Ctx, block: Buffer, total: number): null {
  const res = ctx.res;
  let sent = 0;
  const more = (): void => {
    while (!res.destroyed && sent < total) {
      const n = Math.min(block.length, total - sent);
      sent += n;
      ctx.entry.bytes = Number.isFinite(sent) ? sent : 0;
      if (!res.write(n === block.length ? block : block.subarray(0, n))) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
  return null;
}

const FILLER = Buffer.from(`<p>${'Filler of a hostile page. '.repeat(36)}</p>\n`.repeat(64));

/** A HEAD request gets the headers alone (the streamed bodies below are for GET). */
function headOnly(ctx: Ctx): null {
  ctx.res.end();
  return null;
}

function huge(ctx: Ctx): null {
  const total = intParam(ctx, 'mb', 200, MAX_HUGE_MB) * 1000 * 1000;
  ctx.res.writeHead(200, { 'content-type': HTML_TYPE, 'content-length': total });
  if (ctx.method === 'HEAD') return headOnly(ctx);
  return pump(ctx, FILLER, total);
}

function endless(ctx: Ctx): null {
  const res = ctx.res;
  res.writeHead(200, { 'content-type': HTML_TYPE });
  if (ctx.method === 'HEAD') return headOnly(ctx);
  if (ctx.query.get('fast') === '1') return pump(ctx, FILLER, Number.POSITIVE_INFINITY);
  const chunk = `<p>${'more '.repeat(200)}</p>\n`;
  const t = setInterval(() => res.write(chunk), 50);
  res.write(chunk);
  res.on('close', () => clearInterval(t));
  return null;
}

function drip(ctx: Ctx, type: string, bytes: number, everyMs: number): null {
  const res = ctx.res;
  res.writeHead(200, { 'content-type': type, 'content-length': bytes });
  if (ctx.method === 'HEAD') return headOnly(ctx);
  let sent = 1;
  res.write('#');
  const t = setInterval(() => {
    res.write('#');
    if (++sent >= bytes) {
      clearInterval(t);
      res.end();
    }
  }, everyMs);
  res.on('close', () => clearInterval(t));
  return null;
}

let brotli: Promise<Buffer> | undefined;

/** Brotli of 1 GiB of zeros (about 200 KB), built once (in about 0.2 s) and kept. */
function brotliBomb(): Promise<Buffer> {
  brotli ??= new Promise<Buffer>((resolve, reject) => {
    const c = createBrotliCompress({
      params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_LGWIN]: 24 },
    });
    const out: Buffer[] = [];
    c.on('data', (d: Buffer) => out.push(d));
    c.on('end', () => resolve(Buffer.concat(out)));
    c.on('error', reject);
    const zeros = Buffer.alloc(16 * 1024 * 1024);
    for (let i = 0; i < BOMB_INFLATED_BYTES / zeros.length; i++) c.write(zeros);
    c.end();
  });
  return brotli;
}

function bombReply(encoding: string, body: Buffer): Reply {
  return {
    status: 200,
    headers: { 'content-type': HTML_TYPE, 'content-encoding': encoding },
    body,
  };
}

function redirect(location: string): Reply {
  return htmlReply(simplePage('Moved', [`Moved to ${esc(location)}.`]), 302, { location });
}

function deep(ctx: Ctx): Reply {
  const n = intParam(ctx, 'n', DEFAULT_N, MAX_N);
  const body =
    '<!DOCTYPE html><html><head><title>Deep markup</title></head><body>' +
    '<div>'.repeat(n) +
    '<p>At the bottom. <a href="/deep-bottom">A link at the bottom</a></p>' +
    '</div>'.repeat(n) +
    '</body></html>';
  return htmlReply(body);
}

function links(ctx: Ctx): Reply {
  const n = intParam(ctx, 'n', DEFAULT_N, MAX_N);
  const parts = ['<!DOCTYPE html><html><head><title>Many links</title></head><body>'];
  // 20 bytes a link: the 100,000 fit under the default 2 MiB cap, so the parser sees them all.
  for (let i = 0; i < n; i++) parts.push(`<a href=/l/${i.toString(36)}></a>`);
  parts.push('</body></html>');
  return htmlReply(parts.join(''));
}

/** Writes hand-made HTTP to the request's socket, then closes it (`reset`: destroys it). */
function raw(ctx: Ctx, head: string, body: string, reset = false): null {
  const socket = ctx.req.socket;
  ctx.entry.bytes = body.length;
  socket.write(head + body, () => {
    if (reset) socket.destroy();
    else socket.end();
  });
  return null;
}

const PAGE = '<!DOCTYPE html><html><head><title>Cut</title></head><body><p>';

function rawPath(ctx: Ctx): null | undefined {
  const ok = 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n';
  switch (ctx.pathname) {
    case '/reset':
      return raw(ctx, `${ok}Content-Length: 100000\r\n\r\n`, PAGE + 'x'.repeat(5000), true);
    case '/short':
      return raw(ctx, `${ok}Content-Length: 100000\r\n\r\n`, PAGE + 'x'.repeat(1000 - PAGE.length));
    case '/bad-chunk':
      return raw(
        ctx,
        `${ok}Transfer-Encoding: chunked\r\n\r\n`,
        `10\r\n${PAGE.slice(0, 16)}\r\nzz\r\n`,
      );
    case '/cl-te':
      return raw(
        ctx,
        `${ok}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`,
        `${PAGE.length.toString(16)}\r\n${PAGE}\r\n0\r\n\r\n`,
      );
    case '/two-lengths':
      return raw(ctx, `${ok}Content-Length: ${PAGE.length}\r\nContent-Length: 5\r\n\r\n`, PAGE);
    case '/header-flood': {
      let h = ok;
      for (let i = 0; i < FLOOD_HEADERS; i++) h += `X-Flood-${i}: ${i}\r\n`;
      return raw(ctx, `${h}Content-Length: ${PAGE.length}\r\n\r\n`, PAGE);
    }
    case '/header-huge':
      return raw(
        ctx,
        `${ok}X-Huge: ${'h'.repeat(HUGE_HEADER_BYTES)}\r\nContent-Length: ${PAGE.length}\r\n\r\n`,
        PAGE,
      );
    default:
      return undefined;
  }
}

/** The pages of the hostile robots.txt hosts the home page links to (none may be fetched but /page of robots-10mb.test). */
const ROBOTS_PAGES: readonly (readonly [string, string])[] = [
  ...['503', '429', 'reset', 'slow', 'refused'].map(
    (k) => [`http://robots-${k}.test/page`, `A page of robots-${k}.test`] as const,
  ),
  ['http://robots-10mb.test/page', 'An allowed page of robots-10mb.test'],
  ['http://robots-10mb.test/blocked-early/page', 'A disallowed page of robots-10mb.test'],
];

const hostileHost: Handler = (ctx) => {
  const p = ctx.pathname;
  const r = rawPath(ctx);
  if (r !== undefined) return r;
  switch (p) {
    case '/':
      return htmlReply(
        simplePage(
          'hostile.test',
          ['Servers that misbehave.'],
          [...HOSTILE_PATHS, ...ROBOTS_PAGES],
        ),
      );
    case '/huge':
      return huge(ctx);
    case '/endless':
      return endless(ctx);
    case '/drip':
      return drip(ctx, HTML_TYPE, 1000, 1000);
    case '/gzip-bomb':
      return bombReply('gzip', gzipBomb());
    case '/deflate-bomb':
      return bombReply('deflate', deflateBomb());
    case '/br-bomb':
      brotliBomb().then(
        (b) => ctx.res.destroyed || sendReply(ctx, bombReply('br', b)),
        () => ctx.res.destroy(),
      );
      return null;
    case '/loop/a':
      return redirect('/loop/b');
    case '/loop/b':
      return redirect('/loop/a');
    case '/deep':
      return deep(ctx);
    case '/links':
      return links(ctx);
  }
  const chain = /^\/chain\/(\d{1,3})$/.exec(p);
  if (chain) {
    const n = Number(chain[1]);
    if (n === 0) return htmlReply(simplePage('End of the chain', ['The last hop.']));
    return redirect(`/chain/${n - 1}`);
  }
  if (/^\/(l\/[0-9a-z]+|deep-bottom)$/.test(p)) {
    return htmlReply(simplePage(`hostile.test ${p}`, ['A small page.']));
  }
  return notFound(`No such page on hostile.test: ${ctx.path}`);
};

/** Sends a reply after the handler returned (the brotli bomb, built asynchronously). */
function sendReply(ctx: Ctx, reply: Reply): void {
  const body = reply.body as Buffer;
  ctx.entry.status = reply.status;
  ctx.entry.bytes = body.length;
  ctx.res.writeHead(reply.status, { ...reply.headers, 'content-length': body.length });
  ctx.res.end(body);
}

// ---------------------------------------------------------------- robots.txt hosts

const ROBOTS_LINKS: readonly (readonly [string, string])[] = [
  ['/page', 'A page'],
  ['/blocked-early/page', 'A page disallowed early in a 10 MB robots.txt'],
  ['/blocked-late/page', 'A page disallowed only after 5 MB of it'],
];

/** A 10 MB robots.txt: `/blocked-early/` disallowed at once, `/blocked-late/` after 5 MB. */
const BIG_ROBOTS_BYTES = 10 * 1000 * 1000;
const LATE_AT = 5 * 1000 * 1000;

function bigRobots(ctx: Ctx): null {
  const head = 'User-agent: *\nDisallow: /blocked-early/\n';
  const late = 'Disallow: /blocked-late/\n';
  const filler = Buffer.from('Disallow: /filler/x/\n'.repeat(3120));
  const blocks = Math.ceil((BIG_ROBOTS_BYTES - head.length - late.length) / filler.length);
  const lateAfter = Math.floor(LATE_AT / filler.length);
  const total = head.length + late.length + blocks * filler.length;
  const res = ctx.res;
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': total });
  res.write(head);
  let i = 0;
  const more = (): void => {
    while (!res.destroyed && i < blocks) {
      if (i === lateAfter) res.write(late);
      i++;
      if (!res.write(filler)) {
        res.once('drain', more);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  more();
  return null;
}

function robotsHost(robots: (ctx: Ctx) => Reply | null): Handler {
  return (ctx) => {
    if (ctx.pathname === '/robots.txt') return robots(ctx);
    return htmlReply(
      simplePage(`${ctx.host} ${ctx.pathname}`, [`This is ${esc(ctx.path)}.`], ROBOTS_LINKS),
    );
  };
}

/**
 * Hosts whose robots.txt cannot be had: a fetcher must fetch none of their pages.
 * `robots-refused.test` serves pages like the others; tests map it to a closed port.
 */
export const hostileRobotsHosts: Record<string, Handler> = {
  'robots-503.test': robotsHost(() =>
    htmlReply(simplePage('Unavailable', ['robots.txt is down']), 503),
  ),
  'robots-429.test': robotsHost(() =>
    htmlReply(simplePage('Too many requests', ['slow down']), 429, { 'retry-after': '1' }),
  ),
  'robots-reset.test': robotsHost((ctx) => {
    ctx.req.socket.destroy();
    return null;
  }),
  'robots-slow.test': robotsHost((ctx) => drip(ctx, 'text/plain', 1000, 1000)),
  'robots-10mb.test': robotsHost(bigRobots),
  'robots-refused.test': robotsHost(() => textReply('User-agent: *\nDisallow:\n')),
};

export const hostileHosts: Record<string, Handler> = {
  [HOSTILE_HOST]: hostileHost,
  ...hostileRobotsHosts,
};
