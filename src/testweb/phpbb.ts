// phpbb.test (English) and luntan.test (Chinese): a phpBB-like board engine with its own URL
// scheme (index.php, viewforum.php, viewtopic.php, …) and markup, over the forum simulation.
import {
  boardThreads,
  pagesOf,
  postTimes,
  type ThreadFacts,
  type ThreadState,
  threadFacts,
} from './forum-model.js';
import { esc, HTML_TYPE, notFound, textReply } from './html.js';
import {
  boardOfForum,
  PHPBB_ARCHIVE_POSTS,
  PHPBB_POSTS_PER_PAGE,
  PHPBB_TOPICS_PER_PAGE,
  PHPBB_USERS,
  type PhpbbBoard,
  type PhpbbHost,
  type PhpbbSortDir,
  type PhpbbSortKey,
  type PhpbbSpec,
  parsePhpbbUrl,
  phpbbSpec,
  topicFacts,
  topicPagePath,
  topicTitle,
} from './phpbb-model.js';
import { hashString, rngOf } from './prng.js';
import type { Ctx, Handler, Reply } from './types.js';
import { LANGS, sentence } from './vocab.js';

export { PHPBB_HOSTS } from './phpbb-model.js';

const P_POST = 0xb1;
const P_AUTHOR = 0xb2;
const P_EXTRA = 0xb3;

/** Last-Modified of pages that do not follow the clock (forms, profiles, FAQ). */
const STATIC_MS = Date.UTC(2023, 5, 1);

const W = {
  en: {
    index: 'Board index',
    faq: 'FAQ',
    search: 'Search',
    login: 'Login',
    register: 'Register',
    members: 'Members',
    privacy: 'Privacy',
    terms: 'Terms',
    forum: 'Forum',
    topics: 'Topics',
    posts: 'Posts',
    replies: 'Replies',
    views: 'Views',
    lastPost: 'Last post',
    by: 'by',
    newTopic: 'New Topic',
    postReply: 'Post Reply',
    print: 'Print view',
    lofi: 'Lo-fi version',
    fullVersion: 'Full version',
    page: (k: number, n: number) => `Page <strong>${k}</strong> of <strong>${n}</strong>`,
    previous: 'Previous',
    next: 'Next',
    topicCount: (n: number) => `${n} topic${n === 1 ? '' : 's'}`,
    postCount: (n: number) => `${n} post${n === 1 ? '' : 's'}`,
    noTopics: 'There are no topics or posts in this forum.',
    viewLatest: 'View the latest post',
    goLast: 'Go to last post',
    unanswered: 'View unanswered posts',
    newPosts: 'View new posts',
    stats: 'Statistics',
    totals: (p: number, t: number, m: number) =>
      `Total posts <strong>${p}</strong> • Total topics <strong>${t}</strong> • Total members <strong>${m}</strong>`,
    newest: 'Our newest member',
    returnTo: (name: string) => `Return to “${name}”`,
    returnIndex: 'Return to Board Index',
    sortBy: 'Display topics',
    sortNewest: 'Newest first',
    sortOldest: 'Oldest first',
    sortReplies: 'Most replies',
    sortSubject: 'Subject A–Z',
    re: 'Re: ',
    wrote: 'wrote:',
    seeAlso: 'See also:',
    rank: 'Rank',
    joined: 'Joined',
    totalPosts: 'Total posts',
    username: 'Username',
    profileOf: (n: string) => `Viewing profile - ${n}`,
    stats2: 'User statistics',
    ranks: ['Newbie', 'Member', 'Regular', 'Veteran'],
    memberNote: (n: number, k: number) => `${n} users • showing the ${k} most active`,
    subject: 'Subject',
    message: 'Message body',
    submit: 'Submit',
    postReplyTitle: 'Post a reply',
    postTopicTitle: 'Post a new topic',
    password: 'Password',
    email: 'Email address',
    loginNote: 'You need to be registered in order to post on this board.',
    registerNote:
      'By accessing this board you agree to be legally bound by its terms of use. Registration is free.',
    searchTitle: 'Search',
    searchNote: 'Sorry but you are not permitted to use the search system.',
    keywords: 'Search for keywords',
    terms2:
      'Posts express the views of their authors. Do not post anything abusive, hateful or illegal.',
    privacy2:
      'This board stores a cookie with your session and the time of your last visit. Nothing else.',
    archiveNote: (k: number, n: number) => `Showing the first ${k} of ${n} posts.`,
    times: 'All times are UTC',
    powered: 'Powered by focuscrawl testweb',
    faqItems: [
      ['Why can’t I register?', 'The administrator may have disabled registration.'],
      ['How do I change my settings?', 'Log in and open the User Control Panel.'],
      ['Why can’t I reply to a topic?', 'Guests cannot post; log in first.'],
      ['What are the ranks below my name?', 'They grow with the number of your posts.'],
      ['How do I search?', 'Use the search box at the top of every page.'],
    ],
  },
  zh: {
    index: '论坛首页',
    faq: '常见问题',
    search: '搜索',
    login: '登录',
    register: '注册',
    members: '会员列表',
    privacy: '隐私政策',
    terms: '使用条款',
    forum: '版面',
    topics: '主题',
    posts: '帖子',
    replies: '回复',
    views: '查看',
    lastPost: '最后发表',
    by: '由',
    newTopic: '发表新主题',
    postReply: '发表回复',
    print: '打印预览',
    lofi: '简洁版',
    fullVersion: '完整版本',
    page: (k: number, n: number) => `第 <strong>${k}</strong> 页 / 共 <strong>${n}</strong> 页`,
    previous: '上一页',
    next: '下一页',
    topicCount: (n: number) => `${n} 个主题`,
    postCount: (n: number) => `${n} 个帖子`,
    noTopics: '本版面暂无主题。',
    viewLatest: '查看最新帖子',
    goLast: '转到最后一个帖子',
    unanswered: '查看无回复的帖子',
    newPosts: '查看新帖',
    stats: '统计',
    totals: (p: number, t: number, m: number) =>
      `帖子总数 <strong>${p}</strong> • 主题总数 <strong>${t}</strong> • 注册会员 <strong>${m}</strong>`,
    newest: '最新注册会员',
    returnTo: (name: string) => `返回 “${name}”`,
    returnIndex: '返回论坛首页',
    sortBy: '显示主题',
    sortNewest: '最新优先',
    sortOldest: '最早优先',
    sortReplies: '回复最多',
    sortSubject: '按标题排序',
    re: '回复：',
    wrote: '写道：',
    seeAlso: '相关主题：',
    rank: '等级',
    joined: '注册时间',
    totalPosts: '发帖总数',
    username: '用户名',
    profileOf: (n: string) => `查看资料 - ${n}`,
    stats2: '用户统计',
    ranks: ['新手上路', '初级会员', '中级会员', '高级会员'],
    memberNote: (n: number, k: number) => `共 ${n} 位会员 • 显示最活跃的 ${k} 位`,
    subject: '标题',
    message: '内容',
    submit: '提交',
    postReplyTitle: '发表回复',
    postTopicTitle: '发表新主题',
    password: '密码',
    email: '电子邮件',
    loginNote: '您需要注册并登录才能发帖。',
    registerNote: '访问本论坛即表示您同意遵守使用条款。注册是免费的。',
    searchTitle: '搜索',
    searchNote: '抱歉，您没有使用搜索功能的权限。',
    keywords: '搜索关键词',
    terms2: '帖子仅代表作者本人观点。请勿发布辱骂、仇恨或违法内容。',
    privacy2: '本论坛只保存一个记录会话和上次访问时间的 Cookie。',
    archiveNote: (k: number, n: number) => `仅显示 ${n} 个帖子中的前 ${k} 个。`,
    times: '所有时间均为 UTC 时间',
    powered: 'Powered by focuscrawl testweb',
    faqItems: [
      ['为什么我无法注册？', '管理员可能关闭了注册功能。'],
      ['如何修改个人设置？', '登录后进入用户控制面板。'],
      ['为什么我不能回复主题？', '游客不能发帖，请先登录。'],
      ['用户名下面的等级是什么？', '等级随发帖数增加。'],
      ['如何搜索？', '使用每个页面顶部的搜索框。'],
    ],
  },
};
type Words = (typeof W)['en'];

const EN_CHAT = [
  'Thanks, this helped a lot.',
  'Any news on this?',
  'Good point, I had not thought of that.',
  'Following this topic.',
  'I second that.',
  'Welcome to the board!',
  'Could you post a photo?',
];
const ZH_CHAT = [
  '谢谢分享，很有帮助。',
  '有新进展吗？',
  '说得有道理，学习了。',
  '关注一下。',
  '同意楼上。',
  '欢迎新人！',
  '能发张图看看吗？',
];

const EN_FIRST = [
  'dave',
  'marta',
  'kev',
  'lisa',
  'tom',
  'anna',
  'rob',
  'jules',
  'sam',
  'nina',
  'pete',
  'ella',
  'mike',
  'rosa',
  'ben',
  'ivy',
];
const EN_WORD = ['_rides', 'stone', '_uk', 'bird', '.k', 'wood', '_nz', 'fisher', 'moon', '_dc'];
const ZH_FIRST = ['清风', '明月', '江南', '北方', '追梦', '阳光', '山水', '星空'];
const ZH_WORD = ['过客', '少年', '大叔', '书生', '小猫', '老鱼', '行者', '小屋'];

/** Display name of user `u` (2 … PHPBB_USERS + 1). */
export function phpbbUserName(lang: 'en' | 'zh', u: number): string {
  const i = u - 2;
  if (lang === 'zh') return `${ZH_FIRST[i % 8]}${ZH_WORD[Math.floor(i / 8) % 8]}${i}`;
  return `${EN_FIRST[i % 16]}${EN_WORD[Math.floor(i / 16) % 10]}${i}`;
}

function userPosts(u: number): number {
  return ((u - 2) * 53) % 1200;
}

function userJoined(u: number): number {
  return Date.UTC(2012 + ((u - 2) % 11), (u * 7) % 12, 1 + (u % 27));
}

function userRank(w: Words, u: number): string {
  const n = userPosts(u);
  return w.ranks[n < 20 ? 0 : n < 200 ? 1 : n < 800 ? 2 : 3]!;
}

const EN_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const EN_MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
const ZH_DAYS = '日一二三四五六';

/** phpBB's default date formats: "Mon Jan 01, 2024 3:05 pm", "2024年1月1日 星期一 15:05". */
function fmt(lang: 'en' | 'zh', ms: number): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  if (lang === 'zh') {
    return `${d.getUTCFullYear()}年${d.getUTCMonth() + 1}月${d.getUTCDate()}日 星期${ZH_DAYS[d.getUTCDay()]} ${String(h).padStart(2, '0')}:${mm}`;
  }
  const day = String(d.getUTCDate()).padStart(2, '0');
  return `${EN_DAYS[d.getUTCDay()]} ${EN_MONTHS[d.getUTCMonth()]} ${day}, ${d.getUTCFullYear()} ${h % 12 === 0 ? 12 : h % 12}:${mm} ${h < 12 ? 'am' : 'pm'}`;
}

const profile = (u: number) => `./memberlist.php?mode=viewprofile&amp;u=${u}`;
const userLink = (spec: PhpbbSpec, u: number) =>
  `<a href="${profile(u)}" class="username">${esc(phpbbUserName(spec.lang, u))}</a>`;

function postAuthor(seed: number, spec: PhpbbSpec, f: ThreadFacts, j: number): number {
  return (
    2 +
    (j === 0 ? f.author : rngOf(seed, P_AUTHOR, hashString(spec.host), f.id, j).int(PHPBB_USERS))
  );
}

function postSentences(seed: number, spec: PhpbbSpec, f: ThreadFacts, j: number): string[] {
  const rng = rngOf(seed, P_POST, hashString(spec.host), f.id, j);
  const lang = LANGS[spec.lang];
  const vocab = spec.boards[f.board]!.vocab;
  const n = j === 0 ? rng.range(3, 6) : rng.range(1, 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      rng.chance(0.2)
        ? rng.pick(spec.lang === 'en' ? EN_CHAT : ZH_CHAT)
        : sentence(rng, lang, vocab),
    );
  }
  return out;
}

/** The HTML inside a post's `<div class="content">`, the same in every view of the topic. */
function postContent(
  seed: number,
  spec: PhpbbSpec,
  f: ThreadFacts,
  j: number,
  at: number,
  root = './',
): string {
  const w = W[spec.lang];
  const space = LANGS[spec.lang].space;
  const rng = rngOf(seed, P_EXTRA, hashString(spec.host), f.id, j);
  let html = '';
  if (j > 0 && rng.chance(0.15)) {
    const quoted = postSentences(seed, spec, f, j - 1)[0]!;
    const who = esc(phpbbUserName(spec.lang, postAuthor(seed, spec, f, j - 1)));
    html += `<blockquote class="uncited"><cite>${who} ${w.wrote}</cite>${esc(quoted)}</blockquote>`;
  }
  html += postSentences(seed, spec, f, j).map(esc).join(`${space}<br>`);
  if (j > 0 && rng.chance(0.08)) {
    const other = f.board * spec.threadsPerBoard + rng.int(spec.threadsPerBoard);
    const of = threadFacts(seed, spec, other);
    if (other !== f.id && of.createdAt <= at) {
      html += `<br>${w.seeAlso} <a href="${root}viewtopic.php?t=${other + 1}" class="postlink">${esc(topicTitle(seed, spec, of))}</a>`;
    }
  }
  return html;
}

// ---------------------------------------------------------------------------------------
// Page frame

interface Page {
  title: string;
  /** `section-…` class of `<body>`. */
  section: string;
  crumbs: [href: string, text: string][];
  body: string[];
  lastModified: number;
}

function shell(spec: PhpbbSpec, page: Page): string {
  const w = W[spec.lang];
  const crumbs = [[`./index.php`, w.index], ...page.crumbs]
    .map(([h, t]) => `<span class="crumb"><a href="${h}">${esc(t!)}</a></span>`)
    .join(' » ');
  return [
    `<!DOCTYPE html>\n<html dir="ltr" lang="${spec.lang === 'en' ? 'en-gb' : 'zh-cmn-hans'}">\n<head>\n<meta charset="utf-8">\n`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n`,
    `<title>${esc(page.title)} - ${esc(spec.title)}</title>\n</head>\n`,
    `<body id="phpbb" class="nojs notouch section-${page.section} ltr">\n<div id="wrap" class="wrap">\n<a id="top" class="top-anchor" accesskey="t"></a>\n`,
    `<div id="page-header">\n<div class="headerbar" role="banner"><div class="inner">\n`,
    `<div id="site-description" class="site-description"><a id="logo" class="logo" href="./index.php" title="${w.index}">${esc(spec.title)}</a>\n<p>${esc(spec.description)}</p></div>\n`,
    `<div id="search-box" class="search-box search-header"><form action="./search.php" method="get" id="search"><fieldset><input name="keywords" id="keywords" type="search" title="${w.keywords}"> <button class="button button-search" type="submit">${w.search}</button></fieldset></form></div>\n`,
    `</div></div>\n<div class="navbar" role="navigation"><div class="inner">\n<ul id="nav-main" class="nav-main linklist">\n`,
    `<li><a href="./faq.php" rel="help" title="Frequently Asked Questions">${w.faq}</a></li>\n`,
    `<li><a href="./search.php">${w.search}</a></li>\n`,
    `<li class="rightside"><a href="./ucp.php?mode=login" title="${w.login}" accesskey="x">${w.login}</a></li>\n`,
    `<li class="rightside"><a href="./ucp.php?mode=register">${w.register}</a></li>\n</ul>\n`,
    `<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks"><li class="breadcrumbs">${crumbs}</li></ul>\n`,
    `</div></div>\n</div>\n<div id="page-body" class="page-body" role="main">\n`,
    ...page.body,
    `</div>\n<div id="page-footer" class="page-footer" role="contentinfo">\n<div class="navbar"><div class="inner">\n<ul id="nav-footer" class="nav-footer linklist">\n`,
    `<li class="breadcrumbs"><span class="crumb"><a href="./index.php">${w.index}</a></span></li>\n`,
    `<li class="rightside"><a href="./memberlist.php">${w.members}</a></li>\n`,
    `<li class="rightside"><a href="./ucp.php?mode=terms">${w.terms}</a></li>\n`,
    `<li class="rightside"><a href="./ucp.php?mode=privacy">${w.privacy}</a></li>\n</ul>\n`,
    `<div class="timezone">${w.times}</div>\n</div></div>\n`,
    `<div class="copyright">${w.powered}</div>\n</div>\n</div>\n</body>\n</html>\n`,
  ].join('');
}

/** phpBB's pagination block; `href(k)` is the link of page k (1-based). */
function pagination(
  w: Words,
  page: number,
  pages: number,
  href: (k: number) => string,
  prevHref: string,
): string {
  if (pages <= 1) return '';
  const items: string[] = [];
  if (page > 1)
    items.push(
      `<li class="arrow previous"><a class="button" href="${prevHref}" rel="prev">${w.previous}</a></li>`,
    );
  let gap = false;
  for (let k = 1; k <= pages; k++) {
    if (k !== 1 && k !== pages && Math.abs(k - page) > 2) {
      if (!gap) items.push('<li class="ellipsis"><span>…</span></li>');
      gap = true;
      continue;
    }
    gap = false;
    items.push(
      k === page
        ? `<li class="active"><span>${k}</span></li>`
        : `<li><a class="button" href="${href(k)}">${k}</a></li>`,
    );
  }
  if (page < pages)
    items.push(
      `<li class="arrow next"><a class="button" href="${href(page + 1)}" rel="next">${w.next}</a></li>`,
    );
  return ` • ${w.page(page, pages)}<ul>${items.join('')}</ul>`;
}

// ---------------------------------------------------------------------------------------
// Content pages

interface Model {
  seed: number;
  spec: PhpbbSpec;
  t: number;
}

function lastPoster(m: Model, th: ThreadState): number {
  return postAuthor(m.seed, m.spec, th.facts, th.posts - 1);
}

function indexPage(m: Model): Page {
  const { seed, spec, t } = m;
  const w = W[spec.lang];
  const body = [
    `<div class="action-bar compact"><ul class="linklist"><li><a href="./search.php?search_id=unanswered">${w.unanswered}</a></li>`,
    ` • <li><a href="./search.php?search_id=newposts">${w.newPosts}</a></li></ul></div>\n`,
  ];
  let last = 0;
  let posts = 0;
  let topics = 0;
  for (const cat of spec.categories) {
    body.push(
      `<div class="forabg"><div class="inner">\n<ul class="topiclist"><li class="header"><dl class="row-item"><dt><div class="list-inner">${esc(cat.name)}</div></dt>`,
      `<dd class="topics">${w.topics}</dd><dd class="posts">${w.posts}</dd><dd class="lastpost"><span>${w.lastPost}</span></dd></dl></li></ul>\n<ul class="topiclist forums">\n`,
    );
    for (const b of spec.boards.filter((x) => x.category === cat.id)) {
      const threads = boardThreads(seed, spec, b.index, t);
      const n = threads.reduce((s, x) => s + x.posts, 0);
      posts += n;
      topics += threads.length;
      const lp = threads[0];
      let lastCell = '';
      if (lp) {
        last = Math.max(last, lp.lastPostAt);
        const tid = lp.facts.id + 1;
        const ttl = esc(topicTitle(seed, spec, lp.facts));
        lastCell = `<a href="./viewtopic.php?f=${b.forumId}&amp;t=${tid}" title="${ttl}" class="lastsubject">${ttl}</a><br>${w.by} ${userLink(spec, lastPoster(m, lp))} <a href="./viewtopic.php?f=${b.forumId}&amp;t=${tid}&amp;view=unread#unread" title="${w.viewLatest}">»</a><br><time>${fmt(spec.lang, lp.lastPostAt)}</time>`;
      }
      body.push(
        `<li class="row"><dl class="row-item forum_read"><dt title="No unread posts"><div class="list-inner"><a href="./viewforum.php?f=${b.forumId}" class="forumtitle">${esc(b.name)}</a><br>${esc(b.description)}</div></dt>`,
        `<dd class="topics">${threads.length} <dfn>${w.topics}</dfn></dd><dd class="posts">${n} <dfn>${w.posts}</dfn></dd><dd class="lastpost"><span>${lastCell}</span></dd></dl></li>\n`,
      );
    }
    body.push('</ul>\n</div></div>\n');
  }
  const newest = PHPBB_USERS + 1;
  body.push(
    `<div class="stat-block statistics"><h3>${w.stats}</h3><p>${w.totals(posts, topics, PHPBB_USERS)} • ${w.newest} <strong>${userLink(spec, newest)}</strong></p></div>\n`,
  );
  return { title: w.index, section: 'index', crumbs: [], body, lastModified: last };
}

function sortThreads(
  m: Model,
  threads: ThreadState[],
  sk: PhpbbSortKey,
  sd: PhpbbSortDir,
): ThreadState[] {
  if (sk === 't') return sd === 'd' ? threads : threads.slice().reverse();
  let out: ThreadState[];
  if (sk === 'r') {
    out = threads.slice().sort((a, b) => b.posts - a.posts || a.facts.id - b.facts.id);
    return sd === 'd' ? out : out.reverse();
  }
  const titles = new Map(threads.map((x) => [x.facts.id, topicTitle(m.seed, m.spec, x.facts)]));
  out = threads.slice().sort((a, b) => {
    const ta = titles.get(a.facts.id)!;
    const tb = titles.get(b.facts.id)!;
    return ta < tb ? -1 : ta > tb ? 1 : a.facts.id - b.facts.id;
  });
  return sd === 'a' ? out : out.reverse();
}

function topicRow(m: Model, th: ThreadState, bg: number): string {
  const { seed, spec } = m;
  const w = W[spec.lang];
  const f = th.facts;
  const tid = f.id + 1;
  const tp = pagesOf(th.posts, PHPBB_POSTS_PER_PAGE);
  let mini = '';
  if (tp > 1) {
    const ks = tp <= 4 ? [...Array(tp).keys()].map((k) => k + 1) : [1, 0, tp - 2, tp - 1, tp];
    mini = `<div class="pagination"><ul>${ks
      .map((k) =>
        k === 0
          ? '<li class="ellipsis"><span>…</span></li>'
          : `<li><a class="button" href=".${topicPagePath(tid, (k - 1) * PHPBB_POSTS_PER_PAGE).replace('&', '&amp;')}">${k}</a></li>`,
      )
      .join('')}</ul></div>`;
  }
  const views = th.posts * 11 + ((f.id * 37) % 200);
  return [
    `<li class="row bg${bg}"><dl class="row-item topic_read"><dt title="No unread posts"><div class="list-inner">`,
    `<a href="./viewtopic.php?t=${tid}" class="topictitle">${esc(topicTitle(seed, spec, f))}</a><br>\n`,
    `<div class="topic-poster responsive-hide left-box">${w.by} ${userLink(spec, f.author + 2)} » <time>${fmt(spec.lang, f.createdAt)}</time></div>${mini}</div></dt>\n`,
    `<dd class="posts">${th.posts - 1} <dfn>${w.replies}</dfn></dd><dd class="views">${views} <dfn>${w.views}</dfn></dd>`,
    `<dd class="lastpost"><span><dfn>${w.lastPost} </dfn>${w.by} ${userLink(spec, lastPoster(m, th))} `,
    `<a href="./viewtopic.php?t=${tid}&amp;view=newest" title="${w.goLast}">»</a><br><time>${fmt(spec.lang, th.lastPostAt)}</time></span></dd></dl></li>\n`,
  ].join('');
}

function forumPage(
  m: Model,
  ctx: Ctx,
  board: PhpbbBoard,
  start: number,
  sk: PhpbbSortKey,
  sd: PhpbbSortDir,
): Page | undefined {
  const { seed, spec, t } = m;
  const w = W[spec.lang];
  const all = boardThreads(seed, spec, board.index, t);
  if (start > 0 && start >= all.length) return undefined;
  const threads = sortThreads(m, all, sk, sd);
  const F = board.forumId;
  const sorted = ctx.query.has('sk') || ctx.query.has('sd');
  const base = sorted
    ? `./viewforum.php?f=${F}&amp;sk=${sk}&amp;sd=${sd}`
    : `./viewforum.php?f=${F}`;
  const per = PHPBB_TOPICS_PER_PAGE;
  const pages = pagesOf(all.length, per);
  const page = start / per + 1;
  const href = (k: number) => (k === 1 ? base : `${base}&amp;start=${(k - 1) * per}`);
  const pager = `<div class="pagination">${w.topicCount(all.length)}${pagination(w, page, pages, href, `${base}&amp;start=${(page - 2) * per}`)}</div>`;
  const body = [
    `<h2 class="forum-title"><a href="./viewforum.php?f=${F}">${esc(board.name)}</a></h2>\n<div class="forum-desc"><p>${esc(board.description)}</p></div>\n`,
    `<div class="action-bar bar-top"><a href="./posting.php?mode=post&amp;f=${F}" class="button" title="${w.newTopic}"><span>${w.newTopic}</span></a>\n${pager}</div>\n`,
  ];
  const rows = threads.slice(start, start + per);
  if (rows.length === 0) {
    body.push(`<div class="panel"><div class="inner"><strong>${w.noTopics}</strong></div></div>\n`);
  } else {
    body.push(
      `<div class="forumbg"><div class="inner">\n<ul class="topiclist"><li class="header"><dl class="row-item"><dt><div class="list-inner">${w.topics}</div></dt>`,
      `<dd class="posts">${w.replies}</dd><dd class="views">${w.views}</dd><dd class="lastpost"><span>${w.lastPost}</span></dd></dl></li></ul>\n<ul class="topiclist topics">\n`,
    );
    rows.forEach((th, i) => {
      body.push(topicRow(m, th, (i % 2) + 1));
    });
    body.push('</ul>\n</div></div>\n');
  }
  const sorts: [PhpbbSortKey, PhpbbSortDir, string][] = [
    ['t', 'd', w.sortNewest],
    ['t', 'a', w.sortOldest],
    ['r', 'd', w.sortReplies],
    ['s', 'a', w.sortSubject],
  ];
  body.push(
    `<div class="action-bar bar-bottom"><div class="display-options">${w.sortBy}: `,
    sorts
      .map(([k, d, label]) =>
        sorted && k === sk && d === sd
          ? `<strong>${label}</strong>`
          : `<a href="./viewforum.php?f=${F}&amp;sk=${k}&amp;sd=${d}">${label}</a>`,
      )
      .join(' | '),
    `</div>\n${pager}</div>\n`,
    `<div class="jumpbox-return"><a href="./index.php" class="left-box arrow-left" accesskey="r">${w.returnIndex}</a> • <a href="./archive/f-${F}.html">${w.lofi}</a></div>\n`,
  );
  const last = all[0]?.lastPostAt ?? 0;
  return {
    title: board.name,
    section: 'viewforum',
    crumbs: [[`./viewforum.php?f=${F}`, board.name]],
    body,
    lastModified: last,
  };
}

interface TopicView {
  f: ThreadFacts;
  times: number[];
  title: string;
  board: PhpbbBoard;
}

function topicView(m: Model, topic: number): TopicView | undefined {
  const f = topicFacts(m.seed, m.spec, topic);
  if (!f) return undefined;
  const times = postTimes(m.seed, m.spec, f, m.t);
  if (times.length === 0) return undefined;
  return { f, times, title: topicTitle(m.seed, m.spec, f), board: m.spec.boards[f.board]! };
}

function postId(v: TopicView, j: number): number {
  return (v.f.id + 1) * 100_000 + j;
}

function topicPage(m: Model, v: TopicView, start: number): Page | undefined {
  const { seed, spec } = m;
  const w = W[spec.lang];
  const n = v.times.length;
  if (start >= n && start > 0) return undefined;
  const tid = v.f.id + 1;
  const F = v.board.forumId;
  const per = PHPBB_POSTS_PER_PAGE;
  const pages = pagesOf(n, per);
  const page = start / per + 1;
  const href = (k: number) => `.${topicPagePath(tid, (k - 1) * per).replace('&', '&amp;')}`;
  const pager = `<div class="pagination">${w.postCount(n)}${pagination(w, page, pages, href, `./viewtopic.php?t=${tid}&amp;start=${(page - 2) * per}`)}</div>`;
  const printHref =
    start > 0
      ? `./viewtopic.php?t=${tid}&amp;start=${start}&amp;view=print`
      : `./viewtopic.php?t=${tid}&amp;view=print`;
  const body = [
    `<h2 class="topic-title"><a href="./viewtopic.php?t=${tid}">${esc(v.title)}</a></h2>\n`,
    `<div class="action-bar bar-top"><a href="./posting.php?mode=reply&amp;t=${tid}" class="button" title="${w.postReply}"><span>${w.postReply}</span></a>\n`,
    `<div class="dropdown-container topic-tools"><a href="${printHref}" title="${w.print}" accesskey="p">${w.print}</a> • <a href="./archive/t-${tid}.html">${w.lofi}</a></div>\n${pager}</div>\n`,
  ];
  for (let j = start; j < Math.min(n, start + per); j++) {
    const u = postAuthor(seed, spec, v.f, j);
    const pid = postId(v, j);
    const subject = esc(j === 0 ? v.title : `${w.re}${v.title}`);
    body.push(
      `<div id="p${pid}" class="postrow has-profile bg${(j % 2) + 1}"><div class="inner">\n`,
      `<dl class="postprofile" id="profile${pid}"><dt class="has-profile-rank">${userLink(spec, u)}</dt><dd class="profile-rank">${userRank(w, u)}</dd>`,
      `<dd class="profile-posts"><strong>${w.posts}:</strong> ${userPosts(u)}</dd><dd class="profile-joined"><strong>${w.joined}:</strong> ${fmt(spec.lang, userJoined(u)).replace(/ \d+:\d\d.*$/, '')}</dd></dl>\n`,
      `<div class="postbody"><div id="post_content${pid}"><h3${j === start ? ' class="first"' : ''}><a href="#p${pid}">${subject}</a></h3>\n`,
      `<p class="postinfo"><span class="responsive-hide">${w.by} <strong>${userLink(spec, u)}</strong> » </span><time>${fmt(spec.lang, v.times[j]!)}</time></p>\n`,
      `<div class="content">${postContent(seed, spec, v.f, j, v.times[j]!)}</div>\n</div></div>\n`,
      `<div class="back2top"><a href="#top" class="top-link" title="Top">↑</a></div>\n</div></div>\n<hr class="divider">\n`,
    );
  }
  body.push(
    `<div class="action-bar bar-bottom"><a href="./posting.php?mode=reply&amp;t=${tid}" class="button" title="${w.postReply}"><span>${w.postReply}</span></a>\n${pager}</div>\n`,
    `<div class="jumpbox-return"><a href="./viewforum.php?f=${F}" class="left-box arrow-left" accesskey="r">${w.returnTo(esc(v.board.name))}</a></div>\n`,
  );
  return {
    title: v.title,
    section: 'viewtopic',
    crumbs: [[`./viewforum.php?f=${F}`, v.board.name]],
    body,
    lastModified: v.times[n - 1]!,
  };
}

/** `view=print`: the posts of the same page, bare markup, one link back to the topic. */
function printHtml(m: Model, v: TopicView, start: number): string {
  const { seed, spec } = m;
  const w = W[spec.lang];
  const n = v.times.length;
  const tid = v.f.id + 1;
  const pages = pagesOf(n, PHPBB_POSTS_PER_PAGE);
  const pageNo = `<div class="page-number">${w.page(start / PHPBB_POSTS_PER_PAGE + 1, pages)}</div>`;
  const out = [
    `<!DOCTYPE html>\n<html dir="ltr" lang="${spec.lang === 'en' ? 'en-gb' : 'zh-cmn-hans'}">\n<head>\n<meta charset="utf-8">\n`,
    `<title>${esc(spec.title)} • ${esc(v.title)}</title>\n<style>body{font-family:"Times New Roman",serif;font-size:11pt}</style>\n</head>\n<body id="phpbb">\n`,
    `<div id="wrap-print">\n<div id="page-header-print"><h1>${esc(spec.title)}</h1>\n<h2>${esc(v.title)}</h2>\n`,
    `<p><a href="./viewtopic.php?t=${tid}">viewtopic.php?t=${tid}</a></p></div>\n<div id="page-body-print">\n${pageNo}\n`,
  ];
  for (let j = start; j < Math.min(n, start + PHPBB_POSTS_PER_PAGE); j++) {
    const u = postAuthor(seed, spec, v.f, j);
    out.push(
      `<div class="print-entry">\n<h3>${esc(j === 0 ? v.title : `${w.re}${v.title}`)}</h3>\n`,
      `<div class="print-date">${fmt(spec.lang, v.times[j]!)}</div>\n<div class="print-by">${w.by} <strong>${esc(phpbbUserName(spec.lang, u))}</strong></div>\n`,
      `<div class="content">${postContent(seed, spec, v.f, j, v.times[j]!)}</div>\n</div>\n<hr>\n`,
    );
  }
  out.push(
    `</div>\n<div id="page-footer-print">${pageNo}\n<div class="copyright">${w.times}</div></div>\n</div>\n</body>\n</html>\n`,
  );
  return out.join('');
}

function lofi(spec: PhpbbSpec, title: string, parts: string[]): string {
  return [
    `<!DOCTYPE html>\n<html lang="${spec.lang === 'en' ? 'en' : 'zh-CN'}">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width">\n`,
    `<title>${esc(title)} [${W[spec.lang].lofi}] - ${esc(spec.title)}</title>\n</head>\n<body class="lofi">\n`,
    ...parts,
    `<p class="lofi-foot">${W[spec.lang].powered}</p>\n</body>\n</html>\n`,
  ].join('');
}

/** `/archive/t-T.html`: the topic's first posts on one light page. */
function archiveTopicHtml(m: Model, v: TopicView): string {
  const { seed, spec } = m;
  const w = W[spec.lang];
  const tid = v.f.id + 1;
  const F = v.board.forumId;
  const n = v.times.length;
  const k = Math.min(n, PHPBB_ARCHIVE_POSTS);
  const parts = [
    `<div class="lofi-bar"><a href="../index.php">${esc(spec.title)}</a> › <a href="f-${F}.html">${esc(v.board.name)}</a> › ${esc(v.title)}</div>\n`,
    `<p class="lofi-full">${w.fullVersion}: <a href="../viewtopic.php?f=${F}&amp;t=${tid}">${esc(v.title)}</a></p>\n<h1>${esc(v.title)}</h1>\n`,
  ];
  for (let j = 0; j < k; j++) {
    const u = postAuthor(seed, spec, v.f, j);
    parts.push(
      `<div class="lofi-entry"><div class="lofi-head"><b>${esc(phpbbUserName(spec.lang, u))}</b> <span class="lofi-date">${fmt(spec.lang, v.times[j]!)}</span></div>\n`,
      `<div class="content">${postContent(seed, spec, v.f, j, v.times[j]!, '../')}</div></div>\n`,
    );
  }
  if (k < n) parts.push(`<p class="lofi-note">${w.archiveNote(k, n)}</p>\n`);
  return lofi(spec, v.title, parts);
}

/** `/archive/f-F.html`: every topic of the forum, latest activity first. */
function archiveForumHtml(m: Model, board: PhpbbBoard): string {
  const { seed, spec, t } = m;
  const w = W[spec.lang];
  const parts = [
    `<div class="lofi-bar"><a href="../index.php">${esc(spec.title)}</a> › ${esc(board.name)}</div>\n`,
    `<p class="lofi-full">${w.fullVersion}: <a href="../viewforum.php?f=${board.forumId}">${esc(board.name)}</a></p>\n<h1>${esc(board.name)}</h1>\n<ol class="lofi-topics">\n`,
  ];
  for (const th of boardThreads(seed, spec, board.index, t)) {
    parts.push(
      `<li><a href="t-${th.facts.id + 1}.html">${esc(topicTitle(seed, spec, th.facts))}</a> (${th.posts - 1} ${w.replies})</li>\n`,
    );
  }
  parts.push('</ol>\n');
  return lofi(spec, board.name, parts);
}

// ---------------------------------------------------------------------------------------
// Pages without content of their own

function staticPage(title: string, section: string, body: string[]): Page {
  return { title, section, crumbs: [], body, lastModified: STATIC_MS };
}

function memberlistPage(spec: PhpbbSpec): Page {
  const w = W[spec.lang];
  const users = [...Array(PHPBB_USERS).keys()].map((i) => i + 2);
  users.sort((a, b) => userPosts(b) - userPosts(a) || a - b);
  const top = users.slice(0, 30);
  const body = [
    `<h2 class="solo">${w.members}</h2>\n<p>${w.memberNote(PHPBB_USERS, top.length)}</p>\n`,
    `<table class="table1 memberlist"><thead><tr><th class="name">${w.username}</th><th class="rank">${w.rank}</th><th class="posts">${w.posts}</th><th class="joined">${w.joined}</th></tr></thead><tbody>\n`,
  ];
  top.forEach((u, i) => {
    body.push(
      `<tr class="bg${(i % 2) + 1}"><td>${userLink(spec, u)}</td><td>${userRank(w, u)}</td><td class="posts">${userPosts(u)}</td><td>${fmt(spec.lang, userJoined(u))}</td></tr>\n`,
    );
  });
  body.push('</tbody></table>\n');
  return staticPage(w.members, 'memberlist', body);
}

function profilePage(spec: PhpbbSpec, u: number): Page | undefined {
  if (u < 2 || u > PHPBB_USERS + 1) return undefined;
  const w = W[spec.lang];
  const name = esc(phpbbUserName(spec.lang, u));
  return staticPage(w.profileOf(phpbbUserName(spec.lang, u)), 'memberlist', [
    `<h2 class="memberlist-title">${w.profileOf(name)}</h2>\n`,
    `<div class="panel bg1"><div class="inner"><dl class="left-box details profile-details"><dt>${w.username}:</dt><dd><span>${name}</span></dd><dt>${w.rank}:</dt><dd>${userRank(w, u)}</dd></dl></div></div>\n`,
    `<div class="panel bg2"><div class="inner"><h3>${w.stats2}</h3><dl class="details"><dt>${w.joined}:</dt><dd>${fmt(spec.lang, userJoined(u))}</dd><dt>${w.totalPosts}:</dt><dd>${userPosts(u)}</dd></dl></div></div>\n`,
  ]);
}

function postingForm(w: Words, action: string, heading: string, subject: string): string {
  return [
    `<form id="postform" method="post" action="${action}"><div class="panel" id="postingbox"><div class="inner">\n<h3>${heading}</h3>\n<fieldset class="fields1">\n`,
    `<dl><dt><label for="subject">${w.subject}:</label></dt><dd><input type="text" name="subject" id="subject" size="45" maxlength="120" value="${subject}" class="inputbox autowidth"></dd></dl>\n`,
    `<div id="message-box" class="message-box"><label for="message">${w.message}</label><textarea name="message" id="message" rows="15" cols="76" class="inputbox"></textarea></div>\n`,
    `</fieldset>\n<fieldset class="submit-buttons"><input type="submit" accesskey="s" name="post" value="${w.submit}" class="button1 default-submit-action"></fieldset>\n</div></div></form>\n`,
  ].join('');
}

function replyPage(m: Model, v: TopicView): Page {
  const w = W[m.spec.lang];
  const tid = v.f.id + 1;
  return {
    title: w.postReplyTitle,
    section: 'posting',
    crumbs: [[`./viewforum.php?f=${v.board.forumId}`, v.board.name]],
    body: [
      `<h2 class="posting-title"><a href="./viewtopic.php?t=${tid}">${esc(v.title)}</a></h2>\n`,
      `<p class="error">${w.loginNote}</p>\n`,
      postingForm(
        w,
        `./posting.php?mode=reply&amp;t=${tid}`,
        w.postReplyTitle,
        esc(`${w.re}${v.title}`),
      ),
    ],
    lastModified: v.f.createdAt,
  };
}

function newTopicPage(spec: PhpbbSpec, board: PhpbbBoard): Page {
  const w = W[spec.lang];
  return {
    ...staticPage(w.postTopicTitle, 'posting', [
      `<h2 class="posting-title"><a href="./viewforum.php?f=${board.forumId}">${esc(board.name)}</a></h2>\n`,
      `<p class="error">${w.loginNote}</p>\n`,
      postingForm(w, `./posting.php?mode=post&amp;f=${board.forumId}`, w.postTopicTitle, ''),
    ]),
    crumbs: [[`./viewforum.php?f=${board.forumId}`, board.name]],
  };
}

function ucpPage(spec: PhpbbSpec, mode: 'login' | 'register' | 'terms' | 'privacy'): Page {
  const w = W[spec.lang];
  if (mode === 'terms' || mode === 'privacy') {
    const label = mode === 'terms' ? w.terms : w.privacy;
    return staticPage(label, 'ucp', [
      `<div class="panel"><div class="inner"><div class="agreement"><h2 class="sitename-title">${esc(spec.title)} - ${label}</h2>\n<p>${mode === 'terms' ? w.terms2 : w.privacy2}</p></div></div></div>\n`,
    ]);
  }
  const label = mode === 'login' ? w.login : w.register;
  const extra =
    mode === 'register'
      ? `<dl><dt><label for="email">${w.email}:</label></dt><dd><input type="email" name="email" id="email" class="inputbox"></dd></dl>\n`
      : '';
  return staticPage(label, 'ucp', [
    `<form action="./ucp.php?mode=${mode}" method="post" id="${mode}"><div class="panel"><div class="inner"><div class="login-box">\n`,
    `<h2 class="login-title">${label}</h2>\n<p>${mode === 'login' ? w.loginNote : w.registerNote}</p>\n<fieldset class="fields1">\n`,
    `<dl><dt><label for="username">${w.username}:</label></dt><dd><input type="text" name="username" id="username" class="inputbox autowidth"></dd></dl>\n`,
    `<dl><dt><label for="password">${w.password}:</label></dt><dd><input type="password" name="password" id="password" class="inputbox autowidth" autocomplete="off"></dd></dl>\n${extra}`,
    `<dl><dt>&nbsp;</dt><dd><input type="submit" name="${mode}" value="${label}" class="button1"></dd></dl>\n</fieldset>\n</div></div></div></form>\n`,
  ]);
}

function searchPage(spec: PhpbbSpec): Page {
  const w = W[spec.lang];
  return staticPage(w.searchTitle, 'search', [
    `<h2 class="solo">${w.searchTitle}</h2>\n<div class="panel"><div class="inner"><p class="error">${w.searchNote}</p>\n`,
    `<form method="get" action="./search.php" id="search-page"><fieldset><label for="kw">${w.keywords}:</label> <input type="search" name="keywords" id="kw" class="inputbox"> <input type="submit" value="${w.search}" class="button1"></fieldset></form></div></div>\n`,
  ]);
}

function faqPage(spec: PhpbbSpec): Page {
  const w = W[spec.lang];
  const body = [
    `<h2 class="faq-title">${w.faq}</h2>\n<div class="panel bg1" id="faqlinks"><div class="inner">\n`,
  ];
  for (const [q, a] of w.faqItems) {
    body.push(`<dl class="faq"><dt><strong>${esc(q!)}</strong></dt><dd>${esc(a!)}</dd></dl>\n`);
  }
  body.push('</div></div>\n');
  return staticPage(w.faq, 'faq', body);
}

// ---------------------------------------------------------------------------------------
// Handler

const ROBOTS = 'User-agent: *\nDisallow: /search.php\n';

function withValidators(ctx: Ctx, lastModifiedSim: number, body: () => string): Reply {
  const lastModified = ctx.state.clock.httpMs(lastModifiedSim);
  const since = Date.parse(String(ctx.req.headers['if-modified-since'] ?? ''));
  const headers = {
    'last-modified': new Date(lastModified).toUTCString(),
    'content-type': HTML_TYPE,
  };
  if (Number.isFinite(since) && since >= lastModified) return { status: 304, headers };
  return { status: 200, headers, body: body() };
}

function redirect(status: 301 | 302, location: string): Reply {
  return {
    status,
    headers: { location, 'content-type': HTML_TYPE },
    body: `<!DOCTYPE html>\n<html><head><title>Redirect</title></head><body><a href="${esc(location)}">${esc(location)}</a></body></html>\n`,
  };
}

function serve(ctx: Ctx, m: Model): Reply | undefined {
  const parsed = parsePhpbbUrl(ctx.pathname, ctx.search);
  if (!parsed) return undefined;
  const r = parsed.route;
  const { spec } = m;
  const page = (p: Page | undefined) =>
    p && withValidators(ctx, p.lastModified, () => shell(spec, p));
  switch (r.kind) {
    case 'robots':
      return textReply(ROBOTS);
    case 'root':
      return redirect(301, '/index.php');
    case 'index':
      return page(indexPage(m));
    case 'forum': {
      const board = boardOfForum(spec, r.forum);
      return board && page(forumPage(m, ctx, board, r.start, r.sk, r.sd));
    }
    case 'archive-forum': {
      const board = boardOfForum(spec, r.forum);
      if (!board) return undefined;
      const last = boardThreads(m.seed, spec, board.index, m.t)[0]?.lastPostAt ?? 0;
      return withValidators(ctx, last, () => archiveForumHtml(m, board));
    }
    case 'memberlist':
      return page(memberlistPage(spec));
    case 'profile':
      return page(profilePage(spec, r.user));
    case 'post': {
      const board = boardOfForum(spec, r.forum);
      return board && page(newTopicPage(spec, board));
    }
    case 'ucp':
      return page(ucpPage(spec, r.mode));
    case 'search':
      return page(searchPage(spec));
    case 'faq':
      return page(faqPage(spec));
  }
  const v = topicView(m, r.topic);
  if (!v) return undefined;
  const last = v.times[v.times.length - 1]!;
  switch (r.kind) {
    case 'topic':
      if (!r.print) return page(topicPage(m, v, r.start));
      if (r.start > 0 && r.start >= v.times.length) return undefined;
      return withValidators(ctx, last, () => printHtml(m, v, r.start));
    case 'newest':
      return redirect(302, topicPagePath(r.topic, v.times.length - 1));
    case 'archive-topic':
      return withValidators(ctx, last, () => archiveTopicHtml(m, v));
    case 'reply':
      return page(replyPage(m, v));
  }
}

export function phpbbHandler(host: PhpbbHost): Handler {
  const specs = new Map<string, PhpbbSpec>();
  return (ctx) => {
    const { seed, size, clock } = ctx.state;
    let spec = specs.get(size);
    if (!spec) {
      spec = phpbbSpec(host, size);
      specs.set(size, spec);
    }
    const reply = serve(ctx, { seed, spec, t: clock.now() });
    return reply ?? notFound(`No such page on ${host} at this time: ${ctx.path}`);
  };
}
