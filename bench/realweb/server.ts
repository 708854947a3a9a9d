// One node:http server on 127.0.0.1 (port 0) serving every site as a virtual host, plus
// a portal whose home page links each site's home page. Files are served as they are:
// symlinks followed, `X.html.gz` (decompressed) when `X.html` is missing, a directory
// path without its slash redirected (301) to the path with it, `dir/` → `dir/index.html`,
// 404 otherwise (robots.txt included). Every request is logged in arrival order.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, posix } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DOMAIN, PORTAL_HOST, type Site } from './sites.js';

export interface LogEntry {
  /** Milliseconds since the log was last reset. */
  t: number;
  host: string;
  /** Path and query as requested. */
  path: string;
  status: number;
  /** The file served (its real path, symlinks resolved), null when none. */
  file: string | null;
  /** False for /robots.txt: not a fetch. */
  counted: boolean;
}

export interface Resolved {
  status: number;
  /** Real path of the file served (for a decompressed page: of its .gz file). */
  file: string | null;
  /** The name whose extension gives the content type. */
  name?: string;
  gz?: boolean;
  location?: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
};

function statOf(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** How a site answers a path (no query): pure apart from reading the file system. */
export function resolvePath(root: string, rawPath: string): Resolved {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { status: 404, file: null };
  }
  if (decoded.includes('\0')) return { status: 404, file: null };
  const path = posix.normalize(`/${decoded}`);
  const full = root + path;
  const st = statOf(full);
  if (st?.isDirectory()) {
    if (!path.endsWith('/')) return { status: 301, file: null, location: `${rawPath}/` };
    const index = `${full}index.html`;
    if (statOf(index)?.isFile()) return { status: 200, file: realpathSync(index), name: index };
    return { status: 404, file: null };
  }
  if (st?.isFile()) return { status: 200, file: realpathSync(full), name: full };
  if (/\.html?$/.test(full) && statOf(`${full}.gz`)?.isFile()) {
    return { status: 200, file: realpathSync(`${full}.gz`), name: full, gz: true };
  }
  return { status: 404, file: null };
}

export interface RealWebServer {
  port: number;
  sites: Site[];
  /** `--resolve` value mapping every host of the web to the server. */
  resolveArg: string;
  log: LogEntry[];
  /** Counted requests (robots.txt excluded) since the last reset. */
  fetches: number;
  /** performance.now() of the last request (robots.txt included). */
  lastAt: number;
  /** Called after each counted request with the count so far. */
  onFetch: ((n: number) => void) | undefined;
  /** Empties the log and restarts its clock. */
  reset(): void;
  /** The answer to a URL of the web (used to map labelled URLs to files). */
  resolveUrl(url: string): Resolved & { host: string };
  portalHtml: string;
  close(): Promise<void>;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

export function portalPage(sites: Site[]): string {
  const items = sites.map((s) => {
    const [home, ...more] = s.entries;
    const link = (e: [string, string] | undefined, text: string) =>
      `<a href="http://${s.host}${esc(e?.[0] ?? '/')}">${esc(text)}</a>`;
    const extra = more.map((e) => link(e, e[1])).join(' · ');
    return `<li>${link(home, s.title)}${extra ? ` — ${extra}` : ''}</li>`;
  });
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<title>Documentation portal</title></head><body>\n<h1>Documentation portal</h1>\n' +
    `<ul>\n${items.join('\n')}\n</ul>\n</body></html>\n`
  );
}

export async function startServer(sites: Site[]): Promise<RealWebServer> {
  const byHost = new Map(sites.map((s) => [s.host, s]));
  const portalHtml = portalPage(sites);
  const cache = new Map<string, Resolved>();
  const gzCache = new Map<string, Buffer>();
  let t0 = performance.now();

  const resolveHostPath = (host: string, path: string): Resolved => {
    if (host === PORTAL_HOST)
      return path === '/' ? { status: 200, file: 'portal:/' } : { status: 404, file: null };
    const site = byHost.get(host);
    if (!site) return { status: 404, file: null };
    const key = `${host}${path}`;
    let r = cache.get(key);
    if (!r) {
      r = resolvePath(site.root, path);
      cache.set(key, r);
    }
    return r;
  };

  const web: RealWebServer = {
    port: 0,
    sites,
    resolveArg: '',
    log: [],
    fetches: 0,
    lastAt: 0,
    onFetch: undefined,
    reset() {
      web.log = [];
      web.fetches = 0;
      t0 = performance.now();
    },
    resolveUrl(url) {
      const u = new URL(url);
      return { ...resolveHostPath(u.hostname, u.pathname), host: u.hostname };
    },
    portalHtml,
    close: () =>
      new Promise<void>((res) => {
        server.closeAllConnections();
        server.close(() => res());
      }),
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    const counted = path !== '/robots.txt';
    const r: Resolved =
      !counted || (req.method !== 'GET' && req.method !== 'HEAD')
        ? { status: 404, file: null }
        : resolveHostPath(host, path);
    web.log.push({
      t: performance.now() - t0,
      host,
      path: target,
      status: r.status,
      file: r.file,
      counted,
    });
    let body: Buffer;
    let type = 'text/plain; charset=utf-8';
    if (r.status === 200 && r.file === 'portal:/') {
      body = Buffer.from(portalHtml);
      type = 'text/html; charset=utf-8';
    } else if (r.status === 200 && r.file && r.name) {
      if (r.gz) {
        let b = gzCache.get(r.file);
        if (!b) {
          b = gunzipSync(readFileSync(r.file));
          gzCache.set(r.file, b);
        }
        body = b;
      } else {
        body = readFileSync(r.file);
      }
      type = TYPES[extname(r.name).toLowerCase()] ?? 'application/octet-stream';
    } else if (r.status === 301 && r.location) {
      body = Buffer.from('Moved Permanently\n');
      res.setHeader('location', `${r.location}${q < 0 ? '' : target.slice(q)}`);
    } else {
      body = Buffer.from('Not Found\n');
    }
    res.writeHead(r.status, { 'content-type': type, 'content-length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
    if (counted) {
      web.fetches++;
      web.onFetch?.(web.fetches);
    }
  };

  const server = createServer({ keepAliveTimeout: 60_000 }, handle);
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  web.port = (server.address() as AddressInfo).port;
  web.resolveArg = `*.${DOMAIN}=127.0.0.1:${web.port}`;
  return web;
}
