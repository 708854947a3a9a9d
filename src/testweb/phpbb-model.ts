// The phpBB-like forums' ground truth, pure: forums, topics, URL routes and URL classes.
// Topics reuse the forum simulation (creation times, Poisson post arrivals) under their own
// host names, so a topic's posts at simulated time t depend on (seed, host, topic, t) only.
import {
  type Board,
  boardThreads,
  type ForumSpec,
  type ForumUrlClass,
  pagesOf,
  postCountAt,
  type ThreadActivity,
  type ThreadFacts,
  threadCount,
  threadFacts,
} from './forum-model.js';
import { hashString, rngOf } from './prng.js';
import { TOPICS } from './topics.js';
import type { WebSize } from './types.js';
import { LANGS, title, type Vocab } from './vocab.js';
import { EN_FILLER } from './words-en.js';
import { ZH_FILLER } from './words-zh.js';

export const PHPBB_HOSTS = ['phpbb.test', 'luntan.test'] as const;
export type PhpbbHost = (typeof PHPBB_HOSTS)[number];

/** Topics per page of a forum's topic list (`viewforum.php … &start=N`). */
export const PHPBB_TOPICS_PER_PAGE = 20;
/** Posts per page of a topic (`viewtopic.php … &start=N`). */
export const PHPBB_POSTS_PER_PAGE = 15;
/** Registered users: ids 2 … PHPBB_USERS + 1 (1 is the anonymous user, as in phpBB). */
export const PHPBB_USERS = 500;
/** The lo-fi archive shows at most this many posts of a topic. */
export const PHPBB_ARCHIVE_POSTS = 200;

const TOPICS_PER_FORUM: Record<WebSize, number> = { small: 30, medium: 120, large: 400 };

export interface PhpbbBoard extends Board {
  /** The `f` of its URLs. */
  forumId: number;
  /** Id of the category it is listed under on the index. */
  category: number;
  description: string;
}

export interface PhpbbSpec extends ForumSpec {
  boards: PhpbbBoard[];
  categories: { id: number; name: string }[];
  description: string;
}

type BoardDef = [name: string, description: string, vocab: Vocab];

// Categories take ids 1 and 5; the forums under them 2–4 and 6–8, as ids run on a board
// whose administrator created a category, then its forums.
const EN_CATEGORIES = ['General discussion', 'Hobbies and everyday life'];
const EN_FORUMS: BoardDef[] = [
  ['Observing and telescopes', 'Night sky reports, gear and star parties.', TOPICS.astronomy.vocab],
  ['Recipes and kitchen tips', 'What did you cook this week?', TOPICS.cooking.vocab],
  ['Money and savings', 'Budgets, banks and bills.', EN_FILLER['finance'] as Vocab],
  ['The garden shed', 'Seeds, soil and sheds.', EN_FILLER['gardening'] as Vocab],
  ['Motoring', 'Cars, repairs and road trips.', EN_FILLER['cars'] as Vocab],
  ['Health and fitness', 'Training logs and healthy habits.', EN_FILLER['health'] as Vocab],
];
const ZH_CATEGORIES = ['综合讨论', '生活休闲'];
const ZH_FORUMS: BoardDef[] = [
  ['显示器与外设', '显示器选购、评测与使用心得。', TOPICS.monitor.vocab],
  ['电网与能源', '电力系统、电网建设与新能源。', TOPICS.grid.vocab],
  ['教育考试', '升学、考试与学习经验交流。', ZH_FILLER['education'] as Vocab],
  ['房产家居', '买房、装修与家居生活。', ZH_FILLER['housing'] as Vocab],
  ['美食天地', '家常菜谱与各地美食。', ZH_FILLER['food'] as Vocab],
  ['影视娱乐', '电影、剧集与综艺杂谈。', ZH_FILLER['entertainment'] as Vocab],
];

export function phpbbSpec(host: PhpbbHost, size: WebSize): PhpbbSpec {
  const zh = host === 'luntan.test';
  const defs = zh ? ZH_FORUMS : EN_FORUMS;
  const cats = zh ? ZH_CATEGORIES : EN_CATEGORIES;
  const half = defs.length / 2;
  const boards = defs.map(([name, description, vocab], index) => {
    const category = index < half ? 1 : half + 2;
    return { index, name, vocab, description, category, forumId: category + 1 + (index % half) };
  });
  return {
    host,
    lang: zh ? 'zh' : 'en',
    title: zh ? '家园论坛' : 'Open Hearth Boards',
    description: zh ? '一个什么都聊的中文社区' : 'A friendly place to talk about anything',
    boards,
    categories: cats.map((name, i) => ({ id: i === 0 ? 1 : half + 2, name })),
    threadsPerBoard: TOPICS_PER_FORUM[size],
  };
}

/** The board (index into `spec.boards`) whose forum id is `f`. */
export function boardOfForum(spec: PhpbbSpec, f: number): PhpbbBoard | undefined {
  return spec.boards.find((b) => b.forumId === f);
}

/** Topic ids start at 1: topic T is thread T − 1 of the simulation. */
export function topicFacts(seed: number, spec: PhpbbSpec, topic: number): ThreadFacts | undefined {
  if (!Number.isInteger(topic) || topic < 1 || topic > threadCount(spec)) return undefined;
  return threadFacts(seed, spec, topic - 1);
}

const P_TITLE = 0xb0;

export function topicTitle(seed: number, spec: PhpbbSpec, f: ThreadFacts): string {
  const board = spec.boards[f.board]!;
  return title(rngOf(seed, P_TITLE, hashString(spec.host), f.id), LANGS[spec.lang], board.vocab);
}

// ---------------------------------------------------------------------------------------
// URLs

export type PhpbbSortKey = 't' | 'r' | 's';
export type PhpbbSortDir = 'a' | 'd';

/** What a path and query ask for; `null` from `parsePhpbbUrl` when nothing (404). */
export type PhpbbRoute =
  | { kind: 'root' }
  | { kind: 'index' }
  | { kind: 'forum'; forum: number; start: number; sk: PhpbbSortKey; sd: PhpbbSortDir }
  | { kind: 'topic'; topic: number; start: number; print: boolean }
  | { kind: 'newest'; topic: number }
  | { kind: 'archive-topic'; topic: number }
  | { kind: 'archive-forum'; forum: number }
  | { kind: 'memberlist' }
  | { kind: 'profile'; user: number }
  | { kind: 'reply'; topic: number }
  | { kind: 'post'; forum: number }
  | { kind: 'ucp'; mode: 'login' | 'register' | 'terms' | 'privacy' }
  | { kind: 'search' }
  | { kind: 'faq' }
  | { kind: 'robots' };

export interface PhpbbParsed {
  route: PhpbbRoute;
  /** The URL is the one spelling of a distinct page (index, forum list page, topic page). */
  canonical: boolean;
}

function idParam(q: URLSearchParams, name: string): number | undefined {
  const s = q.get(name);
  if (s === null || !/^\d{1,9}$/.test(s)) return undefined;
  const n = Number(s);
  return n >= 1 ? n : undefined;
}

/** `start` of a paged list: absent → 0; else a multiple of `per`, or undefined (404). */
function startParam(q: URLSearchParams, per: number): number | undefined {
  const s = q.get('start');
  if (s === null) return 0;
  if (!/^\d{1,9}$/.test(s)) return undefined;
  const n = Number(s);
  return n % per === 0 ? n : undefined;
}

const UCP_MODES = new Set(['login', 'register', 'terms', 'privacy']);

/**
 * Routes a path and raw query string (without `?`) of a phpBB-like forum. The server and
 * `classifyPhpbbUrl` both use it, so what a URL serves and how it is classified agree.
 */
export function parsePhpbbUrl(pathname: string, search: string): PhpbbParsed | null {
  const q = new URLSearchParams(search);
  const plain = (route: PhpbbRoute): PhpbbParsed => ({ route, canonical: false });
  switch (pathname) {
    case '/':
      return plain({ kind: 'root' });
    case '/robots.txt':
      return plain({ kind: 'robots' });
    case '/index.php':
      return { route: { kind: 'index' }, canonical: search === '' };
    case '/viewforum.php': {
      const forum = idParam(q, 'f');
      const start = startParam(q, PHPBB_TOPICS_PER_PAGE);
      if (forum === undefined || start === undefined) return null;
      const sk = q.get('sk');
      const sd = q.get('sd');
      return {
        route: {
          kind: 'forum',
          forum,
          start,
          sk: sk === 'r' || sk === 's' ? sk : 't',
          sd: sd === 'a' ? 'a' : 'd',
        },
        canonical: search === (start > 0 ? `f=${forum}&start=${start}` : `f=${forum}`),
      };
    }
    case '/viewtopic.php': {
      const topic = idParam(q, 't');
      if (topic === undefined) return null;
      const view = q.get('view');
      if (view === 'unread' || view === 'newest') return plain({ kind: 'newest', topic });
      const start = startParam(q, PHPBB_POSTS_PER_PAGE);
      if (start === undefined) return null;
      const print = view === 'print';
      return {
        route: { kind: 'topic', topic, start, print },
        canonical: !print && search === (start > 0 ? `t=${topic}&start=${start}` : `t=${topic}`),
      };
    }
    case '/memberlist.php': {
      const mode = q.get('mode');
      if (mode === null) return plain({ kind: 'memberlist' });
      const user = idParam(q, 'u');
      return mode === 'viewprofile' && user !== undefined ? plain({ kind: 'profile', user }) : null;
    }
    case '/posting.php': {
      const mode = q.get('mode');
      const topic = idParam(q, 't');
      const forum = idParam(q, 'f');
      if (mode === 'reply' && topic !== undefined) return plain({ kind: 'reply', topic });
      if (mode === 'post' && forum !== undefined) return plain({ kind: 'post', forum });
      return null;
    }
    case '/ucp.php': {
      const mode = q.get('mode') ?? '';
      return UCP_MODES.has(mode)
        ? plain({ kind: 'ucp', mode: mode as 'login' | 'register' | 'terms' | 'privacy' })
        : null;
    }
    case '/search.php':
      return plain({ kind: 'search' });
    case '/faq.php':
      return plain({ kind: 'faq' });
  }
  const m = /^\/archive\/([tf])-(\d{1,9})\.html$/.exec(pathname);
  if (!m) return null;
  const n = Number(m[2]);
  if (n < 1) return null;
  return plain(
    m[1] === 't' ? { kind: 'archive-topic', topic: n } : { kind: 'archive-forum', forum: n },
  );
}

/**
 * 'valid': the one spelling of a distinct page (`/index.php`, `/viewforum.php?f=F`,
 * `…&start=N`, `/viewtopic.php?t=T`, `…&start=N`); 'duplicate': another URL of the same
 * content (`/`, extra or reordered parameters, `start=0`, sort orders, print view,
 * view=unread|newest redirects, the lo-fi archive); 'other': member list, profiles,
 * posting forms, login, register, search, FAQ, robots.txt and anything answering 404.
 * Like `classifyForumUrl`, it reads the URL only: a well-formed URL of a page that does not
 * exist (yet) keeps the class of its form.
 */
export function classifyPhpbbUrl(url: string): ForumUrlClass {
  const u = new URL(url, 'http://phpbb.test/');
  const parsed = parsePhpbbUrl(u.pathname, u.search.slice(1));
  if (!parsed) return 'other';
  switch (parsed.route.kind) {
    case 'index':
    case 'forum':
    case 'topic':
      return parsed.canonical ? 'valid' : 'duplicate';
    case 'root':
    case 'newest':
    case 'archive-topic':
    case 'archive-forum':
      return 'duplicate';
    default:
      return 'other';
  }
}

/** Path and query of a topic's page holding post `k` (0-based). */
export function topicPagePath(topic: number, k: number): string {
  const start = Math.floor(k / PHPBB_POSTS_PER_PAGE) * PHPBB_POSTS_PER_PAGE;
  return start > 0 ? `/viewtopic.php?t=${topic}&start=${start}` : `/viewtopic.php?t=${topic}`;
}

/** The valid URLs (no port) of a phpBB-like forum at time `t`: index, forum list pages, topic pages. */
export function phpbbValidUrls(seed: number, size: WebSize, host: PhpbbHost, t: number): string[] {
  const spec = phpbbSpec(host, size);
  const out = [`http://${host}/index.php`];
  for (const b of spec.boards) {
    const threads = boardThreads(seed, spec, b.index, t);
    const pages = pagesOf(threads.length, PHPBB_TOPICS_PER_PAGE);
    out.push(`http://${host}/viewforum.php?f=${b.forumId}`);
    for (let k = 1; k < pages; k++) {
      out.push(`http://${host}/viewforum.php?f=${b.forumId}&start=${k * PHPBB_TOPICS_PER_PAGE}`);
    }
    for (const th of threads) {
      const topic = th.facts.id + 1;
      const tp = pagesOf(th.posts, PHPBB_POSTS_PER_PAGE);
      for (let k = 0; k < tp; k++) {
        out.push(`http://${host}${topicPagePath(topic, k * PHPBB_POSTS_PER_PAGE)}`);
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Public ground truth

export interface PhpbbTopicInfo {
  /** The `t` of its URLs (from 1). */
  id: number;
  /** The `f` of its forum. */
  forum: number;
  url: string;
  title: string;
  /** First post time (ms); the topic answers 404 before it. */
  createdAt: number;
  activity: ThreadActivity;
  /** Poisson rate of new posts, per day (0 for dead topics). */
  ratePerDay: number;
}

export interface PhpbbId {
  /** @default 1 */
  seed?: number;
  /** @default 'small' */
  size?: WebSize;
  /** @default 'phpbb.test' */
  host?: PhpbbHost;
}

function specOf(id: PhpbbId): PhpbbSpec {
  return phpbbSpec(id.host ?? 'phpbb.test', id.size ?? 'small');
}

/** Every topic of a phpBB-like forum (including those created later than the clock). */
export function phpbbThreads(id: PhpbbId = {}): PhpbbTopicInfo[] {
  const spec = specOf(id);
  const seed = id.seed ?? 1;
  const out: PhpbbTopicInfo[] = [];
  for (let i = 0; i < threadCount(spec); i++) {
    const f = threadFacts(seed, spec, i);
    out.push({
      id: i + 1,
      forum: spec.boards[f.board]!.forumId,
      url: `http://${spec.host}/viewtopic.php?t=${i + 1}`,
      title: topicTitle(seed, spec, f),
      createdAt: f.createdAt,
      activity: f.activity,
      ratePerDay: f.ratePerDay,
    });
  }
  return out;
}

/** Number of posts of topic `topic` at simulated time `t` (ms); 0 before it is created. */
export function phpbbPostCount(id: PhpbbId, topic: number, t: number): number {
  const spec = specOf(id);
  if (!Number.isInteger(topic) || topic < 1 || topic > threadCount(spec)) return 0;
  return postCountAt(id.seed ?? 1, spec, topic - 1, t);
}
