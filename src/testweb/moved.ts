// Hosts for the crawl's handling of redirects and unreachable hosts:
// - moved.test: MOVED_PAGES pages whose links mostly go through redirects: `/old/page-K`
//   answers 301 → `/page-K`, `/legacy/K` 301 → `/old/page-K` (two hops), `/p?id=K` 302 →
//   `/page-K`. A crawl should fetch each `/page-K` once and keep it under that URL.
//   `/refresh` is a page whose `<meta http-equiv=refresh>` points to `/hidden`, which no
//   link names: a crawl follows the refresh as it follows a redirect.
// - deadlinks.test: a page linking DEAD_LIVE_PAGES live pages and DEAD_LINKS URLs on each of
//   refused.test, blackhole.test (tests map them to a closed port and to a server whose
//   pages never answer) and gone.invalid (unresolvable), before the live pages.
// - robotstag.test: pages that ask crawlers not to index them or follow their links, by
//   `X-Robots-Tag` header or `<meta name=robots>` (ROBOTS_TAG_PAGES); each links one
//   child page of its own, `/child/<page>`.
import { htmlReply, notFound, simplePage } from './html.js';
import type { Handler, Reply } from './types.js';

export const MOVED_HOST = 'moved.test';
export const MOVED_PAGES = 24;
export const DEADLINKS_HOST = 'deadlinks.test';
export const DEAD_LIVE_PAGES = 10;
export const DEAD_LINKS = 30;
/** Hosts linked from deadlinks.test that a test makes unreachable. */
export const DEAD_HOSTS = ['refused.test', 'blackhole.test', 'gone.invalid'] as const;

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'pu', 'ra', 'si', 'to', 'vu', 'ze', 'bo', 'di'];

/** Words of page `k`: made up, distinct from every other page's (no two pages are near duplicates). */
function words(k: number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = SYLLABLES[(k * 7 + i) % SYLLABLES.length] as string;
    const b = SYLLABLES[(k * 3 + i * 5) % SYLLABLES.length] as string;
    out.push(`${a}${b}${k}x${i}`);
  }
  return out.join(' ');
}

function redirect(status: number, location: string): Reply {
  return htmlReply(simplePage('Moved', ['Moved.']), status, { location });
}

const page = (k: number): number => ((k % MOVED_PAGES) + MOVED_PAGES) % MOVED_PAGES;

const movedHost: Handler = (ctx) => {
  const p = ctx.pathname;
  if (p === '/') {
    const links: [string, string][] = [['/page-0', 'Page 0']];
    for (let k = 0; k < MOVED_PAGES; k++) links.push([`/old/page-${k}`, `Old page ${k}`]);
    for (let k = 0; k < 4; k++) links.push([`/legacy/${k}`, `Legacy page ${k}`]);
    links.push(['/p?id=5', 'Page 5 by id']);
    links.push(['/refresh', 'Refreshing page']);
    return htmlReply(simplePage('moved.test', ['Pages that moved.'], links));
  }
  let m = /^\/page-(\d{1,3})$/.exec(p);
  if (m) {
    const k = Number(m[1]);
    if (k >= MOVED_PAGES) return notFound(`No such page on moved.test: ${ctx.path}`);
    return htmlReply(
      simplePage(
        `Page ${k}`,
        [`Page ${k} of moved.test. ${words(k, 40)}`],
        [
          [`/page-${page(k + 1)}`, `Page ${page(k + 1)}`],
          [`/old/page-${page(k + 2)}`, `Page ${page(k + 2)}, old address`],
          [`/legacy/${page(k + 3)}`, `Page ${page(k + 3)}, legacy address`],
          [`/p?id=${page(k + 4)}`, `Page ${page(k + 4)} by id`],
          ['/', 'Home'],
        ],
      ),
    );
  }
  m = /^\/old\/page-(\d{1,3})$/.exec(p);
  if (m) return redirect(301, `/page-${m[1]}`);
  m = /^\/legacy\/(\d{1,3})$/.exec(p);
  if (m) return redirect(301, `/old/page-${m[1]}`);
  if (p === '/p') return redirect(302, `/page-${ctx.query.get('id') ?? '0'}`);
  if (p === '/refresh')
    return htmlReply(
      '<!doctype html><html><head><meta http-equiv="refresh" content="0; URL=/hidden">' +
        '<title>Refreshing</title></head><body><p>This page moves on.</p></body></html>',
    );
  if (p === '/hidden')
    return htmlReply(simplePage('Hidden', [`Reached only through a refresh. ${words(99, 40)}`]));
  return notFound(`No such page on moved.test: ${ctx.path}`);
};

const deadlinksHost: Handler = (ctx) => {
  const p = ctx.pathname;
  if (p === '/') {
    // Dead links first: a crawl in discovery order tries them before the live pages.
    const links: [string, string][] = [];
    for (const h of DEAD_HOSTS) {
      for (let k = 0; k < DEAD_LINKS; k++) links.push([`http://${h}/page/${k}`, `${h} ${k}`]);
    }
    for (let k = 0; k < DEAD_LIVE_PAGES; k++) links.push([`/live/${k}`, `Live page ${k}`]);
    return htmlReply(simplePage('deadlinks.test', ['Links to hosts that are gone.'], links));
  }
  const m = /^\/live\/(\d{1,3})$/.exec(p);
  if (m && Number(m[1]) < DEAD_LIVE_PAGES) {
    const k = Number(m[1]);
    return htmlReply(simplePage(`Live page ${k}`, [`Live page ${k}. ${words(k + 100, 40)}`]));
  }
  return notFound(`No such page on deadlinks.test: ${ctx.path}`);
};

export const ROBOTS_TAG_HOST = 'robotstag.test';
/**
 * robotstag.test's pages: the `X-Robots-Tag` header each sends (null: none), its
 * `<meta name=robots>` (null: none), and what a crawler named focuscrawl should do:
 * keep the page (index) and follow its link (follow).
 */
export const ROBOTS_TAG_PAGES: Record<
  string,
  { header: string | null; meta: string | null; index: boolean; follow: boolean }
> = {
  plain: { header: null, meta: null, index: true, follow: true },
  'header-nofollow': { header: 'nofollow', meta: null, index: true, follow: false },
  'header-noindex': { header: 'noindex', meta: null, index: false, follow: true },
  'header-none': { header: 'none', meta: null, index: false, follow: false },
  'header-agent': { header: 'focuscrawl: nofollow', meta: null, index: true, follow: false },
  'header-other-agent': {
    header: 'otherbot: noindex, nofollow',
    meta: null,
    index: true,
    follow: true,
  },
  'meta-noindex': { header: null, meta: 'noindex', index: false, follow: true },
  'meta-nofollow': { header: null, meta: 'nofollow', index: true, follow: false },
};

const robotsTagHost: Handler = (ctx) => {
  const p = ctx.pathname;
  const names = Object.keys(ROBOTS_TAG_PAGES);
  if (p === '/') {
    const links = names.map((n) => [`/${n}`, `Page ${n}`] as [string, string]);
    return htmlReply(simplePage('robotstag.test', ['Pages with robots directives.'], links));
  }
  let m = /^\/child\/([a-z-]+)$/.exec(p);
  if (m && ROBOTS_TAG_PAGES[m[1] as string]) {
    const k = names.indexOf(m[1] as string);
    return htmlReply(simplePage(`Child of ${m[1]}`, [`A child page. ${words(k + 300, 40)}`]));
  }
  m = /^\/([a-z-]+)$/.exec(p);
  const spec = m ? ROBOTS_TAG_PAGES[m[1] as string] : undefined;
  if (m && spec) {
    const k = names.indexOf(m[1] as string);
    let html = simplePage(
      `Page ${m[1]}`,
      [`Page ${m[1]}. ${words(k + 200, 40)}`],
      [[`/child/${m[1]}`, `Child of ${m[1]}`]],
    );
    if (spec.meta !== null) {
      html = html.replace('<title>', `<meta name="robots" content="${spec.meta}"><title>`);
    }
    return htmlReply(html, 200, spec.header === null ? {} : { 'x-robots-tag': spec.header });
  }
  return notFound(`No such page on robotstag.test: ${ctx.path}`);
};

export const movedHosts: Record<string, Handler> = {
  [MOVED_HOST]: movedHost,
  [DEADLINKS_HOST]: deadlinksHost,
  [ROBOTS_TAG_HOST]: robotsTagHost,
};
