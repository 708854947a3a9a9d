// Handlers of the topical hosts and of portal.test.
import { esc, htmlReply, notFound, textReply } from './html.js';
import type { HostInfo, WebModel } from './model.js';
import { pageIdFromPath } from './pages.js';
import { type PageView, pageDate, renderHome, renderPage, siteName } from './render.js';
import { robotsSitemapLines, sitemapServer } from './sitemaps.js';
import { TOPICS } from './topics.js';
import type { Handler, Reply } from './types.js';
import { isSessionId, PRINT_PREFIX, SESSION_PARAM } from './variants.js';
import { LANGS } from './vocab.js';

const CSS = 'body{font-family:sans-serif;max-width:60em;margin:auto}nav a{margin:0 .3em}\n';
const ROBOTS = 'User-agent: *\nDisallow: /search\n';

function staticPage(host: HostInfo, kind: 'about' | 'contact'): string {
  const lang = LANGS[host.lang];
  const site = esc(siteName(host));
  const text =
    host.lang === 'en'
      ? kind === 'about'
        ? `${site} is an independent website. We publish articles written by our editors and readers.`
        : `Write to editors@${host.name} with questions and corrections.`
      : kind === 'about'
        ? `${site}是一家独立网站，发布编辑和读者撰写的文章。`
        : `如有问题或更正，请发送邮件至 editors@${host.name}。`;
  const heading = kind === 'about' ? lang.words.about : lang.words.contact;
  return (
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${heading} - ${site}</title></head>\n` +
    `<body><h1>${heading}</h1>\n<p>${text}</p>\n<p><a href="/">${lang.words.home}</a></p>\n</body></html>\n`
  );
}

/** A content page, its print view or a session variant, as `view` says. */
function pageReply(m: WebModel, id: number, view: PageView): Reply {
  return htmlReply(renderPage(m, id, view), 200, {
    'last-modified': new Date(pageDate(m, id)).toUTCString(),
  });
}

export function topicalHandler(m: WebModel): Handler {
  const sitemaps = sitemapServer(m);
  return (ctx) => {
    const host = m.hostByName.get(ctx.host);
    if (!host) return notFound(`No such host: ${ctx.host}`);
    const p = ctx.pathname;
    if (p === '/' || p === '/index.html') return htmlReply(renderHome(m, host));
    if (p.endsWith('.html')) {
      const id = pageIdFromPath(m, host, p);
      if (id !== undefined) {
        if (!m.variantHosts.has(host.index)) return pageReply(m, id, {});
        const s = ctx.search === '' ? null : ctx.query.get(SESSION_PARAM);
        return pageReply(m, id, isSessionId(s) ? { session: s } : {});
      }
      if (p === '/about.html') return htmlReply(staticPage(host, 'about'));
      if (p === '/contact.html') return htmlReply(staticPage(host, 'contact'));
      if (p.startsWith(`${PRINT_PREFIX}/`) && m.variantHosts.has(host.index)) {
        const printed = pageIdFromPath(m, host, p.slice(PRINT_PREFIX.length));
        if (printed !== undefined) return pageReply(m, printed, { print: true });
      }
    }
    if (p === '/robots.txt') return textReply(ROBOTS + robotsSitemapLines(m, host, ctx));
    if (p === '/static/site.css') return textReply(CSS, 200, 'text/css');
    const sitemap = sitemaps(host, ctx);
    if (sitemap !== undefined) return sitemap;
    return notFound(`No such page on ${ctx.host}: ${ctx.path}`);
  };
}

/** Extra hosts the portal links to (besides every topical host). */
export const PORTAL_EXTRA_LINKS: readonly (readonly [string, string])[] = [
  ['http://forum.test/', 'Forum (English)'],
  ['http://bbs.forum.test/', '论坛 (中文)'],
  ['http://jobs.test/', '招聘 (jobs)'],
];

export function portalHandler(m: WebModel): Handler {
  let page: string | undefined;
  return (ctx) => {
    if (ctx.pathname === '/robots.txt') return textReply(ROBOTS);
    if (ctx.pathname !== '/' && ctx.pathname !== '/index.html') {
      return notFound(`No such page on portal.test: ${ctx.path}`);
    }
    if (page === undefined) {
      const parts = [
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Web portal · 网址导航</title></head>\n',
        '<body><h1>Web portal · 网址导航</h1>\n<p>Sites of the focuscrawl test web.</p>\n<ul>\n',
      ];
      for (const h of m.hosts) {
        const about = h.topic === null ? '' : ` (${esc(TOPICS[h.topic].name)})`;
        parts.push(`<li><a href="http://${h.name}/">${esc(siteName(h))}</a>${about}</li>\n`);
      }
      for (const [href, text] of PORTAL_EXTRA_LINKS)
        parts.push(`<li><a href="${href}">${esc(text)}</a></li>\n`);
      parts.push('</ul>\n</body></html>\n');
      page = parts.join('');
    }
    return htmlReply(page);
  };
}
