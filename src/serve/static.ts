/**
 * The dashboard's files: `/` is `assets/index.html`, `/assets/NAME` (and `/NAME`) a file
 * of the assets folder (src/serve/assets, copied to dist/serve/assets by the build), and
 * `/assets/uplot.iife.min.js`, `/assets/uPlot.min.css` the charting library's files
 * from its package. A name is served only when the folder lists it as a regular file:
 * no path is ever built from the request (no `..`, no folders, no links followed out).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../errors/index.js';

/** The dashboard's folder (next to this module, in src/ and in dist/ alike). */
export const ASSETS_DIR = fileURLToPath(new URL('./assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The files of uPlot the dashboard loads, by the name it asks for. */
const UPLOT_FILES: Record<string, string> = {
  'uplot.iife.min.js': 'uPlot.iife.min.js',
  'uPlot.iife.min.js': 'uPlot.iife.min.js',
  'uPlot.min.css': 'uPlot.min.css',
  'uplot.min.css': 'uPlot.min.css',
};

function uplotDir(): string | null {
  try {
    const main = createRequire(import.meta.url).resolve('uplot');
    return dirname(main);
  } catch {
    return null;
  }
}

/** `dir/name` when `dir` lists `name` as a regular file; else null. */
async function listed(dir: string, name: string): Promise<string | null> {
  if (name === '' || name.startsWith('.') || name.includes('/') || name.includes('\\')) return null;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  if (!names.includes(name)) return null;
  const path = join(dir, name);
  try {
    return (await stat(path)).isFile() ? path : null;
  } catch {
    return null;
  }
}

async function send(reply: FastifyReply, path: string | null, what: string): Promise<FastifyReply> {
  if (path === null) throw new NotFoundError(`no file ${what}`);
  const body = await readFile(path);
  return reply
    .type(TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream')
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .send(body);
}

export function staticRoutes(app: FastifyInstance, assetsDir: string = ASSETS_DIR): void {
  const uplot = uplotDir();
  const asset = async (name: string) => {
    const lib = UPLOT_FILES[name];
    if (lib !== undefined && uplot !== null) return listed(uplot, lib);
    return listed(assetsDir, name);
  };
  app.get('/', async (_req, reply) =>
    send(reply, await listed(assetsDir, 'index.html'), 'index.html'),
  );
  app.get('/assets/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    return send(reply, await asset(name), `/assets/${name}`);
  });
  app.get('/:name', async (req, reply) => {
    const { name } = req.params as { name: string };
    return send(reply, await asset(name), `/${name}`);
  });
}
