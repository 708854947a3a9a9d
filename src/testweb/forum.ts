// forum.test (English) and bbs.forum.test (Chinese): boards, thread lists, threads and the
// duplicate URL variants real forums produce. Content follows the simulated clock.
import {
  boardThreads,
  FORUM_USERS,
  type ForumHost,
  type ForumSpec,
  forumSpec,
  POSTS_PER_PAGE,
  pagesOf,
  postTimes,
  THREADS_PER_PAGE,
  type ThreadFacts,
  threadCount,
  threadFacts,
} from './forum-model.js';
import { originalPath, redesignedPath, redesignHtml } from './forum-redesign.js';
import { esc, HTML_TYPE, htmlReply, notFound, textReply } from './html.js';
import { hashString, hexId, rngOf } from './prng.js';
import type { Ctx, Handler, Reply } from './types.js';
import { LANGS, sentence, title } from './vocab.js';

export { FORUM_HOSTS } from './forum-model.js';

const F_TITLE = 0xf2;
const F_POST = 0xf3;

const EN_CHAT = [
  'Thanks for sharing!',
  'Has anyone else tried this?',
  'I agree with the previous post.',
  'Bumping this thread.',
  'Same question here, any update?',
  'Great write-up, bookmarked.',
  'Not sure about that, to be honest.',
];
const ZH_CHAT = [
  '感谢楼主分享！',
  '同问，有没有人知道？',
  '顶一下。',
  '楼上说得对。',
  '已收藏，谢谢。',
  '坐等更新。',
  '这个问题我也遇到过。',
];

const NAME_A = [
  'star',
  'blue',
  'night',
  'quick',
  'happy',
  'old',
  'green',
  'iron',
  'lucky',
  'quiet',
];
const NAME_B = ['fox', 'owl', 'chef', 'rider', 'walker', 'coder', 'fan', 'cat', 'bear', 'pilot'];
const ZH_NAME_A = ['小', '老', '大', '阿', '胖'];
const ZH_NAME_B = ['王', '李', '张', '刘', '陈', '杨', '赵', '黄', '周', '吴'];

export function userName(lang: 'en' | 'zh', u: number): string {
  if (lang === 'zh') return `${ZH_NAME_A[u % 5]}${ZH_NAME_B[Math.floor(u / 5) % 10]}${u}`;
  return `${NAME_A[u % 10]}${NAME_B[Math.floor(u / 10) % 10]}${u}`;
}

export function threadTitle(seed: number, spec: ForumSpec, f: ThreadFacts): string {
  const board = spec.boards[f.board]!;
  return title(rngOf(seed, F_TITLE, hashString(spec.host), f.id), LANGS[spec.lang], board.vocab);
}

function postText(seed: number, spec: ForumSpec, f: ThreadFacts, j: number): string {
  const rng = rngOf(seed, F_POST, hashString(spec.host), f.id, j);
  const lang = LANGS[spec.lang];
  const vocab = spec.boards[f.board]!.vocab;
  const n = j === 0 ? rng.range(4, 7) : rng.range(1, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      rng.chance(0.25)
        ? rng.pick(spec.lang === 'en' ? EN_CHAT : ZH_CHAT)
        : sentence(rng, lang, vocab),
    );
  }
  return out.join(lang.space);
}

function postAuthor(seed: number, spec: ForumSpec, f: ThreadFacts, j: number): number {
  return j === 0
    ? f.author
    : rngOf(seed, F_POST + 1, hashString(spec.host), f.id, j).int(FORUM_USERS);
}

function fmt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** Builds links that keep the session id of the request, as guest sessions on old forums do. */
function linker(sid: string | null): (path: string) => string {
  if (!sid) return (p) => p;
  return (p) => `${p}${p.includes('?') ? '&' : '?'}sid=${sid}`;
}

interface Page {
  title: string;
  body: string[];
  lastModified: number;
}

const W = {
  en: {
    boards: 'Boards',
    threads: 'Threads',
    posts: 'Posts',
    last: 'Last post',
    login: 'Log in',
    register: 'Register',
    search: 'Search',
    page: 'Page',
    print: 'Print view',
    newest: 'Newest first',
    oldest: 'Oldest first',
    by: 'by',
    joined: 'Joined',
    home: 'Forum index',
    quick: 'Quick links',
  },
  zh: {
    boards: '版块',
    threads: '主题',
    posts: '回复',
    last: '最后发表',
    login: '登录',
    register: '注册',
    search: '搜索',
    page: '页',
    print: '打印版',
    newest: '倒序浏览',
    oldest: '正序浏览',
    by: '作者',
    joined: '注册时间',
    home: '论坛首页',
    quick: '快速链接',
  },
};

function shell(spec: ForumSpec, page: Page, link: (p: string) => string, back: string): string {
  const w = W[spec.lang];
  return [
    `<!DOCTYPE html>\n<html lang="${spec.lang === 'en' ? 'en' : 'zh-CN'}"><head><meta charset="utf-8">`,
    `<title>${esc(page.title)} - ${spec.title}</title></head>\n<body>\n`,
    `<div class="top"><a href="${link('/')}">${w.home}</a> | <a href="/login?redirect=${encodeURIComponent(back)}">${w.login}</a> | `,
    `<a href="/register">${w.register}</a> | <a href="/search?q=">${w.search}</a></div>\n`,
    ...page.body,
    `<div class="foot">${spec.title} · Powered by focuscrawl testweb</div>\n</body></html>\n`,
  ].join('');
}

function indexPage(seed: number, spec: ForumSpec, t: number, link: (p: string) => string): Page {
  const w = W[spec.lang];
  const body = [
    `<h1>${spec.title}</h1>\n<table class="boards">\n<tr><th>${w.boards}</th><th>${w.threads}</th><th>${w.last}</th></tr>\n`,
  ];
  let last = 0;
  for (const b of spec.boards) {
    const threads = boardThreads(seed, spec, b.index, t);
    const lp = threads[0]?.lastPostAt ?? 0;
    last = Math.max(last, lp);
    body.push(
      `<tr><td><a href="${link(`/board/${b.index}`)}">${esc(b.name)}</a></td><td>${threads.length}</td><td>${lp ? fmt(lp) : '-'}</td></tr>\n`,
    );
  }
  body.push(`</table>\n<div class="quick"><h2>${w.quick}</h2>\n`);
  for (const b of spec.boards) {
    const sid = hexId(hashString(`${seed}|${b.index}|${Math.floor(t / 3_600_000)}`), 32);
    body.push(`<a href="/board/${b.index}?sid=${sid}">${esc(b.name)}</a>\n`);
  }
  body.push('</div>\n');
  return { title: W[spec.lang].home, body, lastModified: last };
}

function boardPage(
  seed: number,
  spec: ForumSpec,
  ctx: Ctx,
  b: number,
  t: number,
  link: (p: string) => string,
): Page | undefined {
  const w = W[spec.lang];
  const board = spec.boards[b];
  if (!board) return undefined;
  let threads = boardThreads(seed, spec, b, t);
  const order = ctx.query.get('order');
  if (order === 'asc') threads = threads.slice().reverse();
  const pages = pagesOf(threads.length, THREADS_PER_PAGE);
  const page = Number(ctx.query.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1 || page > pages) return undefined;
  const body = [
    `<h1>${esc(board.name)}</h1>\n<p class="sort"><a href="${link(`/board/${b}?order=desc`)}">${w.newest}</a> | <a href="${link(`/board/${b}?order=asc`)}">${w.oldest}</a></p>\n<table class="threads">\n`,
  ];
  for (const th of threads.slice((page - 1) * THREADS_PER_PAGE, page * THREADS_PER_PAGE)) {
    const f = th.facts;
    const tp = pagesOf(th.posts, POSTS_PER_PAGE);
    const name = userName(spec.lang, f.author);
    body.push(
      `<tr><td><a class="thread" href="${link(`/thread/${f.id}`)}">${esc(threadTitle(seed, spec, f))}</a>`,
      tp > 1
        ? ` <a class="lastpage" href="${link(`/thread/${f.id}?page=${tp}`)}">${w.page} ${tp}</a>`
        : '',
      f.id % 4 === 0
        ? ` <a class="hl" href="${link(`/thread/${f.id}?highlight=${encodeURIComponent(name)}`)}">#</a>`
        : '',
      `</td><td>${w.by} <a href="${link(`/user/${f.author}`)}">${esc(name)}</a></td><td>${th.posts - 1}</td><td>${fmt(th.lastPostAt)}</td></tr>\n`,
    );
  }
  body.push('</table>\n<p class="pages">');
  for (let k = 1; k <= pages; k++) {
    const href = k === 1 ? `/board/${b}` : `/board/${b}?page=${k}`;
    body.push(
      k === page
        ? `<b>${k}</b> `
        : `<a href="${link(order ? `${href}${k === 1 ? '?' : '&'}order=${order}` : href)}">${k}</a> `,
    );
  }
  body.push('</p>\n');
  const last = threads.reduce((m, x) => Math.max(m, x.lastPostAt), 0);
  return { title: board.name, body, lastModified: last };
}

function threadPage(
  seed: number,
  spec: ForumSpec,
  ctx: Ctx,
  id: number,
  t: number,
  link: (p: string) => string,
  print: boolean,
): Page | undefined {
  const w = W[spec.lang];
  if (!Number.isInteger(id) || id < 0 || id >= threadCount(spec)) return undefined;
  const f = threadFacts(seed, spec, id);
  const times = postTimes(seed, spec, f, t);
  if (times.length === 0) return undefined;
  const pages = pagesOf(times.length, POSTS_PER_PAGE);
  const desc = ctx.query.get('order') === 'desc';
  const rawPage = ctx.query.get('page') ?? '1';
  const page = rawPage === 'last' ? pages : Number(rawPage);
  if (!print && (!Number.isInteger(page) || page < 1 || page > pages)) return undefined;
  const highlight = ctx.query.get('highlight');
  const ttl = threadTitle(seed, spec, f);
  const idx: number[] = [];
  if (print) for (let j = 0; j < Math.min(times.length, 500); j++) idx.push(j);
  else {
    for (
      let k = (page - 1) * POSTS_PER_PAGE;
      k < Math.min(times.length, page * POSTS_PER_PAGE);
      k++
    ) {
      idx.push(desc ? times.length - 1 - k : k);
    }
  }
  const body = [`<h1>${esc(ttl)}</h1>\n`];
  if (!print) {
    body.push(
      `<p class="nav"><a href="${link(`/board/${f.board}`)}">${esc(spec.boards[f.board]!.name)}</a> | `,
      `<a href="${link(`/thread/${id}?print=1`)}">${w.print}</a> | <a href="${link(`/print/thread/${id}`)}">${w.print} (2)</a> | `,
      `<a href="${link(`/thread/${id}?order=desc`)}">${w.newest}</a></p>\n`,
    );
  }
  for (const j of idx) {
    const u = postAuthor(seed, spec, f, j);
    let text = esc(postText(seed, spec, f, j));
    if (highlight)
      text = text.split(esc(highlight)).join(`<span class="hl">${esc(highlight)}</span>`);
    body.push(
      `<div class="post" id="p${j}"><div class="author"><a href="${link(`/user/${u}`)}">${esc(userName(spec.lang, u))}</a> · <time>${fmt(times[j]!)}</time> · #${j + 1}</div>\n<p>${text}</p></div>\n`,
    );
  }
  if (!print) {
    body.push('<p class="pages">');
    for (let k = 1; k <= pages; k++) {
      const base = k === 1 ? `/thread/${id}` : `/thread/${id}?page=${k}`;
      const href = desc ? `${base}${k === 1 ? '?' : '&'}order=desc` : base;
      body.push(k === page ? `<b>${k}</b> ` : `<a href="${link(href)}">${k}</a> `);
    }
    body.push('</p>\n');
  }
  return { title: ttl, body, lastModified: times[times.length - 1]! };
}

function userPage(spec: ForumSpec, u: number, link: (p: string) => string): Page | undefined {
  if (!Number.isInteger(u) || u < 0 || u >= FORUM_USERS) return undefined;
  const w = W[spec.lang];
  const name = userName(spec.lang, u);
  const body = [
    `<h1>${esc(name)}</h1>\n<p>${w.joined}: ${2015 + (u % 9)}-${String((u % 12) + 1).padStart(2, '0')}-01</p>\n`,
    `<p>${w.posts}: ${(u * 37) % 900}</p>\n<p><a href="${link('/')}">${w.home}</a></p>\n`,
  ];
  return { title: name, body, lastModified: Date.UTC(2023, 0, 1) };
}

function formPage(spec: ForumSpec, kind: 'login' | 'register'): Page {
  const w = W[spec.lang];
  const label = kind === 'login' ? w.login : w.register;
  return {
    title: label,
    body: [
      `<h1>${label}</h1>\n<form method="post" action="/${kind}"><input name="user"> <input name="password" type="password"> <button>${label}</button></form>\n`,
    ],
    lastModified: Date.UTC(2023, 0, 1),
  };
}

const ROBOTS = 'User-agent: *\nDisallow: /search\n';

function route(
  ctx: Ctx,
  seed: number,
  spec: ForumSpec,
  t: number,
  link: (p: string) => string,
): Page | 'search' | undefined {
  const p = ctx.pathname;
  if (p === '/' || p === '/index.php') return indexPage(seed, spec, t, link);
  if (p === '/login' || p === '/register')
    return formPage(spec, p === '/login' ? 'login' : 'register');
  if (p === '/search') return 'search';
  const m = /^\/(board|thread|print\/thread|user)\/(\d{1,9})$/.exec(p);
  if (!m) return undefined;
  const n = Number(m[2]);
  switch (m[1]) {
    case 'board':
      return boardPage(seed, spec, ctx, n, t, link);
    case 'thread':
      return threadPage(seed, spec, ctx, n, t, link, ctx.query.get('print') === '1');
    case 'print/thread':
      return threadPage(seed, spec, ctx, n, t, link, true);
    default:
      return userPage(spec, n, link);
  }
}

function reply(
  ctx: Ctx,
  spec: ForumSpec,
  page: Page,
  link: (p: string) => string,
  back: string,
): Reply {
  const lastModified = ctx.state.clock.httpMs(page.lastModified);
  const since = Date.parse(String(ctx.req.headers['if-modified-since'] ?? ''));
  const headers = {
    'last-modified': new Date(lastModified).toUTCString(),
    'content-type': HTML_TYPE,
  };
  if (Number.isFinite(since) && since >= lastModified) return { status: 304, headers };
  return { status: 200, headers, body: shell(spec, page, link, back) };
}

export function forumHandler(host: ForumHost): Handler {
  const specs = new Map<string, ForumSpec>();
  return (ctx) => {
    const { seed, size, clock } = ctx.state;
    let spec = specs.get(size);
    if (!spec) {
      spec = forumSpec(host, size);
      specs.set(size, spec);
    }
    const t = clock.now();
    const p = ctx.pathname;
    if (p === '/robots.txt') return textReply(ROBOTS);
    // The redesign: new paths stand for old ones; old ones move (forum-redesign.ts).
    const redesignAt = ctx.state.forumRedesignMs;
    const redesigned = redesignAt !== undefined && t >= redesignAt;
    const moved = redesigned ? redesignedPath(p) : null;
    if (moved !== null) {
      const to = `${moved}${ctx.search === '' ? '' : `?${ctx.search}`}`;
      return { status: 301, headers: { location: to, 'content-type': HTML_TYPE }, body: '' };
    }
    const original = originalPath(p);
    if (original !== null && !redesigned)
      return notFound(`No such page on ${host} at this time: ${ctx.path}`);
    const c = original === null ? ctx : { ...ctx, pathname: original };
    const link = linker(ctx.query.get('sid'));
    const page = route(c, seed, spec, t, link);
    const r =
      page === 'search'
        ? htmlReply(
            shell(
              spec,
              { title: 'Search', body: ['<p>Search is disabled.</p>\n'], lastModified: 0 },
              link,
              p,
            ),
          )
        : page === undefined
          ? notFound(`No such page on ${host} at this time: ${ctx.path}`)
          : reply(c, spec, page, link, p);
    if (redesigned && typeof r.body === 'string') r.body = redesignHtml(r.body);
    return r;
  };
}
