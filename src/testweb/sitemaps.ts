// Sitemaps of the sitemap hosts (see variants.ts): what they list and the XML served.
// `robots` hosts: `/sitemap.xml` is an index of `/sitemap-1.xml`, `/sitemap-2.xml.gz`
// (raw gzip bytes) and `/sitemap-3.xml` (gzip content-encoded when the client accepts it),
// plus `/sitemap-news.xml`, both listed in robots.txt. `plain` hosts: `/sitemap.xml` is a
// urlset, with image entries on some pages. Sitemaps leave out the hidden regions and the
// bridges into them, so the hidden regions stay reachable only as documented.
import { gzipSync } from 'node:zlib';
import { CLUSTER_SIZE, type HostInfo, type WebModel } from './model.js';
import { clusterOf, pageInfo } from './pages.js';
import { pageDate } from './render.js';
import type { Ctx, Reply } from './types.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
const XML_TYPE = 'application/xml; charset=utf-8';
/** Child sitemaps of the index of a `robots` host. */
export const CHILD_SITEMAPS = ['/sitemap-1.xml', '/sitemap-2.xml.gz', '/sitemap-3.xml'] as const;
/** The child sent with `Content-Encoding: gzip` to clients that accept it. */
const ENCODED_CHILD = CHILD_SITEMAPS[2];
export const NEWS_SITEMAP = '/sitemap-news.xml';
/** Pages of the news sitemap: the host's latest. */
const NEWS_PAGES = 10;

/** One listed page: a page id, or -1 for the home page. */
interface Entry {
  id: number;
  lastmodMs: number;
}

/** Listed pages of a host in sitemap order: home, then each visible cluster's pages
 *  (bridges left out) followed by the sitemap-only pages that belong with the cluster. */
export function sitemapEntries(m: WebModel, host: HostInfo): Entry[] {
  const extra = new Map<number, number[]>();
  for (const id of m.sitemapOnlyByHost.get(host.index) ?? []) {
    const c = clusterOf(m, id);
    extra.set(c, [...(extra.get(c) ?? []), id]);
  }
  const out: Entry[] = [{ id: -1, lastmodMs: 0 }];
  let latest = 0;
  for (const c of host.visibleClusters) {
    const ids: number[] = [];
    for (let i = 0; i < CLUSTER_SIZE; i++) {
      const id = c * CLUSTER_SIZE + i;
      if (!m.excluded.has(id)) ids.push(id);
    }
    ids.push(...(extra.get(c) ?? []));
    for (const id of ids) {
      const lastmodMs = pageDate(m, id);
      if (lastmodMs > latest) latest = lastmodMs;
      out.push({ id, lastmodMs });
    }
  }
  (out[0] as Entry).lastmodMs = latest;
  return out;
}

/** The path of an entry on its host. */
function entryPath(m: WebModel, e: Entry): string {
  return e.id < 0 ? '/' : pageInfo(m, e.id).path;
}

/** Every URL the sitemaps of a sitemap host list (no port), in sitemap order. */
export function sitemapListedUrls(m: WebModel, host: HostInfo): string[] {
  if (!m.sitemapHosts.has(host.index)) return [];
  return sitemapEntries(m, host).map((e) => `http://${host.name}${entryPath(m, e)}`);
}

/** W3C datetime: a date alone for even ids, a full time for odd ones (both are common). */
function lastmodText(e: Entry): string {
  const iso = new Date(e.lastmodMs).toISOString();
  return e.id >= 0 && e.id % 2 === 0 ? iso.slice(0, 10) : `${iso.slice(0, 19)}+00:00`;
}

function urlXml(m: WebModel, base: string, e: Entry, images: boolean): string {
  let x = `<url>\n  <loc>${base}${entryPath(m, e)}</loc>\n  <lastmod>${lastmodText(e)}</lastmod>\n`;
  if (e.id < 0) x += '  <changefreq>daily</changefreq>\n  <priority>1.0</priority>\n';
  else if (e.id % 12 === 0) x += '  <changefreq>weekly</changefreq>\n  <priority>0.8</priority>\n';
  else if (e.id % 4 === 0) x += '  <changefreq>monthly</changefreq>\n  <priority>0.6</priority>\n';
  if (images && e.id >= 0 && e.id % 5 === 0) {
    x += `  <image:image><image:loc>${base}/static/img/${e.id}.jpg</image:loc></image:image>\n`;
  }
  return `${x}</url>\n`;
}

function urlset(m: WebModel, base: string, entries: readonly Entry[], images: boolean): string {
  const ns = images ? ` xmlns:image="${IMAGE_NS}"` : '';
  const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}"${ns}>\n`];
  for (const e of entries) parts.push(urlXml(m, base, e, images));
  parts.push('</urlset>\n');
  return parts.join('');
}

/** Entries of child sitemap `k` (0-based) of a `robots` host: consecutive thirds. */
function childEntries(all: readonly Entry[], k: number): Entry[] {
  const per = Math.ceil(all.length / CHILD_SITEMAPS.length);
  return all.slice(k * per, (k + 1) * per);
}

function indexXml(base: string, all: readonly Entry[]): string {
  const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n`];
  CHILD_SITEMAPS.forEach((path, k) => {
    const latest = Math.max(0, ...childEntries(all, k).map((e) => e.lastmodMs));
    const lastmod = new Date(latest).toISOString().slice(0, 10);
    parts.push(
      `<sitemap>\n  <loc>${base}${path}</loc>\n  <lastmod>${lastmod}</lastmod>\n</sitemap>\n`,
    );
  });
  parts.push('</sitemapindex>\n');
  return parts.join('');
}

/** `host[:port]` as the client sent it (the name as routed, the port as given). */
export function requestAuthority(ctx: Ctx): string {
  const raw = ctx.req.headers.host ?? '';
  const port = /:(\d{1,5})$/.exec(raw)?.[1];
  return port === undefined ? ctx.host : `${ctx.host}:${port}`;
}

/** robots.txt lines announcing the sitemaps of a `robots` host, else ''. */
export function robotsSitemapLines(m: WebModel, host: HostInfo, ctx: Ctx): string {
  if (m.sitemapHosts.get(host.index) !== 'robots') return '';
  const base = `http://${requestAuthority(ctx)}`;
  return `\nSitemap: ${base}/sitemap.xml\nSitemap: ${base}${NEWS_SITEMAP}\n`;
}

const CACHE_LIMIT = 256;

/** Serves the sitemaps of the sitemap hosts; documents are cached per authority and path. */
export function sitemapServer(m: WebModel): (host: HostInfo, ctx: Ctx) => Reply | undefined {
  const cache = new Map<string, Buffer>();
  const entries = new Map<number, Entry[]>();
  const entriesOf = (host: HostInfo) => {
    let e = entries.get(host.index);
    if (e === undefined) {
      e = sitemapEntries(m, host);
      entries.set(host.index, e);
    }
    return e;
  };
  const doc = (key: string, make: () => Buffer) => {
    let b = cache.get(key);
    if (b === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      b = make();
      cache.set(key, b);
    }
    return b;
  };
  return (host, ctx) => {
    const style = m.sitemapHosts.get(host.index);
    const p = ctx.pathname;
    if (style === undefined || !p.startsWith('/sitemap')) return undefined;
    const authority = requestAuthority(ctx);
    const base = `http://${authority}`;
    const key = `${authority}${p}`;
    const xml = (body: Buffer): Reply => ({
      status: 200,
      headers: { 'content-type': XML_TYPE },
      body,
    });
    if (style === 'plain') {
      if (p !== '/sitemap.xml') return undefined;
      return xml(doc(key, () => Buffer.from(urlset(m, base, entriesOf(host), true))));
    }
    const all = entriesOf(host);
    if (p === '/sitemap.xml') return xml(doc(key, () => Buffer.from(indexXml(base, all))));
    if (p === NEWS_SITEMAP) {
      const latest = all
        .filter((e) => e.id >= 0)
        .sort((a, b) => b.lastmodMs - a.lastmodMs || a.id - b.id)
        .slice(0, NEWS_PAGES);
      return xml(doc(key, () => Buffer.from(urlset(m, base, latest, false))));
    }
    const k = (CHILD_SITEMAPS as readonly string[]).indexOf(p);
    if (k < 0) return undefined;
    const text = () => Buffer.from(urlset(m, base, childEntries(all, k), false));
    if (p.endsWith('.gz')) {
      const body = doc(key, () => gzipSync(text()));
      return { status: 200, headers: { 'content-type': 'application/x-gzip' }, body };
    }
    const encoded = p === ENCODED_CHILD;
    if (!encoded || !/\bgzip\b/.test(String(ctx.req.headers['accept-encoding'] ?? ''))) {
      return xml(doc(key, text));
    }
    const body = doc(`${key} gzip`, () => gzipSync(text()));
    return {
      status: 200,
      headers: { 'content-type': XML_TYPE, 'content-encoding': 'gzip', vary: 'accept-encoding' },
      body,
    };
  };
}
