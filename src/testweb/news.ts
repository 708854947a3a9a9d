// news.test: a news site whose articles change at known rates and whose lists grow as
// articles are born (ground truth in news-model.ts), for freshness benchmarks. Articles
// send ETag, Last-Modified or no validator; every page carries markup noise that changes
// on every request while its visible text stays what the simulated clock says.
import { esc, HTML_TYPE, notFound, textReply } from './html.js';
import {
  listAt,
  listPages,
  listPath,
  N_TEXT,
  N_UPDATE,
  NEWS_COUNTS,
  NEWS_HOST,
  NEWS_PER_PAGE,
  NEWS_SECTIONS,
  type NewsArticle,
  type NewsSection,
  newsArticle,
  newsETag,
  parseNewsPath,
  sectionVocab,
  versionState,
} from './news-model.js';
import { hashInts, hexId, rngOf } from './prng.js';
import type { Ctx, Handler, Reply } from './types.js';
import { LANGS, sentence } from './vocab.js';

export { NEWS_HOST } from './news-model.js';

const SITE = 'The Daily Test';
const SECTION_NAMES: Record<NewsSection, string> = {
  local: 'Local',
  business: 'Business',
  tech: 'Technology',
  sport: 'Sport',
  travel: 'Travel',
  health: 'Health',
};
const RELATED = 3;
/** How far back (in ids) an article looks for related articles of its section. */
const RELATED_SCAN = 60;
const ROBOTS = 'User-agent: *\nDisallow:\n';

function fmt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Per-request markup: a token in attributes and a comment, never in the visible text. */
interface Noise {
  token: string;
  request: number;
  t: number;
}

function noiseOf(ctx: Ctx, t: number): Noise {
  const request = ctx.state.bump(`${NEWS_HOST} render`);
  return { token: hexId(hashInts(ctx.state.seed, request, 0x4e), 16), request, t };
}

function shell(title: string, body: string, noise: Noise): string {
  const nav = NEWS_SECTIONS.map((s) => ` | <a href="/section/${s}">${SECTION_NAMES[s]}</a>`);
  return [
    `<!DOCTYPE html>\n<html lang="en" data-session="${noise.token}"><head><meta charset="utf-8">`,
    `<meta name="csrf-token" content="${noise.token}">\n<title>${esc(title)} - ${SITE}</title></head>\n`,
    `<body>\n<div class="top"><a href="/" data-track="${noise.token.slice(0, 8)}">${SITE}</a>`,
    ...nav,
    '</div>\n',
    body,
    `<div class="foot">${SITE} · Powered by focuscrawl testweb</div>\n`,
    `<!-- rendered at ${new Date(noise.t).toISOString()}, request ${noise.request}, session ${noise.token} -->\n`,
    '</body></html>\n',
  ].join('');
}

function paragraph(seed: number, kind: number, a: NewsArticle, k: number, n: number): string {
  const rng = rngOf(seed, kind, a.id, k);
  const vocab = sectionVocab(a.section);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(rng, LANGS.en, vocab));
  return esc(out.join(' '));
}

/** Up to 3 earlier articles of the same section (by id), all born before `a`. */
function related(seed: number, a: NewsArticle): NewsArticle[] {
  const out: NewsArticle[] = [];
  for (let j = a.id - 1; j >= Math.max(0, a.id - RELATED_SCAN) && out.length < RELATED; j--) {
    const b = newsArticle(seed, j);
    if (b.section === a.section && b.birth <= a.birth) out.push(b);
  }
  return out;
}

function articleBody(seed: number, a: NewsArticle, version: number, since: number): string {
  const parts = [
    `<article>\n<h1>${esc(a.title)}</h1>\n`,
    `<p class="byline"><a href="/section/${a.section}">${SECTION_NAMES[a.section]}</a> · Published <time>${fmt(a.birth)}</time></p>\n`,
  ];
  for (let k = 0; k < 3; k++) parts.push(`<p>${paragraph(seed, N_TEXT, a, k, 4)}</p>\n`);
  if (version > 0) {
    parts.push(
      `<div class="update"><h2>Update ${version}</h2>\n<p>Updated <time>${fmt(since)}</time>. `,
      `${paragraph(seed, N_UPDATE, a, version, 2)}</p></div>\n`,
    );
  }
  parts.push('</article>\n');
  const rel = related(seed, a);
  if (rel.length > 0) {
    const links = rel.map((b) => `<a href="/article/${b.id}">${esc(b.title)}</a>`);
    parts.push(`<p class="related">Related: ${links.join(' · ')}</p>\n`);
  }
  return parts.join('');
}

function listBody(items: NewsArticle[], section: NewsSection | null, page: number): string {
  const heading = section === null ? 'Latest news' : SECTION_NAMES[section];
  const pages = listPages(items.length);
  const parts = [`<h1>${heading}${page > 1 ? ` (page ${page})` : ''}</h1>\n<ul class="news">\n`];
  for (const a of items.slice((page - 1) * NEWS_PER_PAGE, page * NEWS_PER_PAGE)) {
    parts.push(
      `<li><a href="/article/${a.id}">${esc(a.title)}</a> <span class="section">${SECTION_NAMES[a.section]}</span> <time>${fmt(a.birth)}</time></li>\n`,
    );
  }
  parts.push('</ul>\n<p class="pages">');
  for (let k = 1; k <= pages; k++)
    parts.push(k === page ? `<b>${k}</b> ` : `<a href="${listPath(section, k)}">${k}</a> `);
  parts.push('</p>\n');
  return parts.join('');
}

/** The Last-Modified header of simulated time `t`, on the server's HTTP clock. */
function lastModifiedOf(ctx: Ctx, t: number): string {
  return new Date(ctx.state.clock.httpMs(t)).toUTCString();
}

function notModifiedSince(ctx: Ctx, lastModified: number): boolean {
  const since = Date.parse(String(ctx.req.headers['if-modified-since'] ?? ''));
  return Number.isFinite(since) && since >= ctx.state.clock.httpMs(lastModified);
}

function etagMatches(ctx: Ctx, etag: string): boolean {
  const header = ctx.req.headers['if-none-match'];
  if (header === undefined) return false;
  return header
    .split(',')
    .map((x) => x.trim().replace(/^W\//, ''))
    .some((x) => x === '*' || x === etag);
}

function page(title: string, body: string, noise: Noise, headers: Record<string, string>): Reply {
  return {
    status: 200,
    headers: { 'content-type': HTML_TYPE, ...headers },
    body: shell(title, body, noise),
  };
}

function articleReply(ctx: Ctx, id: number, t: number): Reply {
  const { seed, size } = ctx.state;
  if (id >= NEWS_COUNTS[size]) return notFound(`No such article: ${ctx.path}`);
  const a = newsArticle(seed, id);
  const { version, since } = versionState(seed, a, t);
  if (version < 0) return notFound(`No such article at this time: ${ctx.path}`);
  const headers: Record<string, string> = {};
  if (a.validator === 'etag') {
    headers['etag'] = newsETag(seed, id, version);
    if (etagMatches(ctx, headers['etag'])) return { status: 304, headers };
  } else if (a.validator === 'last-modified') {
    headers['last-modified'] = lastModifiedOf(ctx, since);
    if (notModifiedSince(ctx, since)) return { status: 304, headers };
  }
  return page(a.title, articleBody(seed, a, version, since), noiseOf(ctx, t), headers);
}

function listReply(ctx: Ctx, section: NewsSection | null, pageNo: number, t: number): Reply {
  const { seed, size } = ctx.state;
  const items = listAt(seed, size, section, t);
  if (pageNo > listPages(items.length)) return notFound(`No such page at this time: ${ctx.path}`);
  const headers: Record<string, string> = {};
  const newest = items[0]?.birth;
  if (newest !== undefined) {
    headers['last-modified'] = lastModifiedOf(ctx, newest);
    if (notModifiedSince(ctx, newest)) return { status: 304, headers };
  }
  const title = section === null ? 'Latest news' : SECTION_NAMES[section];
  return page(title, listBody(items, section, pageNo), noiseOf(ctx, t), headers);
}

export const newsHandler: Handler = (ctx) => {
  if (ctx.pathname === '/robots.txt') return textReply(ROBOTS);
  const p = parseNewsPath(ctx.pathname, ctx.search === '' ? null : ctx.query.get('page'));
  if (!p) return notFound(`No such page on ${NEWS_HOST}: ${ctx.path}`);
  const t = ctx.state.clock.now();
  return p.kind === 'article' ? articleReply(ctx, p.id, t) : listReply(ctx, p.section, p.page, t);
};
