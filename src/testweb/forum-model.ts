// The forums' ground truth, pure: boards, threads, Poisson post arrivals, URL classes.
// A thread's content at simulated time t is a function of (seed, host, thread, t) only.

import { originalPath } from './forum-redesign.js';
import { hashString, rngOf } from './prng.js';
import { TOPICS } from './topics.js';
import type { WebSize } from './types.js';
import type { LangCode, Vocab } from './vocab.js';
import { EN_FILLER } from './words-en.js';
import { ZH_FILLER } from './words-zh.js';

export const FORUM_HOSTS = ['forum.test', 'bbs.forum.test'] as const;
export type ForumHost = (typeof FORUM_HOSTS)[number];

/** Forum time zero: thread histories are laid out around 2024-01-01T00:00:00Z. */
export const FORUM_EPOCH_MS = Date.UTC(2024, 0, 1);
export const DAY_MS = 86_400_000;
/** Threads are created between 180 days before and 60 days after the epoch. */
const CREATED_FROM_DAYS = -180;
const CREATED_TO_DAYS = 60;

export const THREADS_PER_PAGE = 20;
export const POSTS_PER_PAGE = 20;
export const FORUM_USERS = 500;

const THREADS_PER_BOARD: Record<WebSize, number> = { small: 30, medium: 120, large: 400 };

export interface Board {
  index: number;
  name: string;
  vocab: Vocab;
}

export interface ForumSpec {
  /** The forum's host name; it seeds the thread generators. */
  host: string;
  lang: LangCode;
  title: string;
  boards: Board[];
  threadsPerBoard: number;
}

const EN_BOARDS: [string, Vocab][] = [
  ['Stargazing', TOPICS.astronomy.vocab],
  ['Home cooking', TOPICS.cooking.vocab],
  ['Gardening', EN_FILLER['gardening'] as Vocab],
  ['Cars and driving', EN_FILLER['cars'] as Vocab],
  ['Sports talk', EN_FILLER['sports'] as Vocab],
  ['Travel', EN_FILLER['travel'] as Vocab],
  ['Software help', EN_FILLER['software'] as Vocab],
  ['Money matters', EN_FILLER['finance'] as Vocab],
];

const ZH_BOARDS: [string, Vocab][] = [
  ['显示器讨论区', TOPICS.monitor.vocab],
  ['电力行业', TOPICS.grid.vocab],
  ['手机数码', ZH_FILLER['phones'] as Vocab],
  ['新能源汽车', ZH_FILLER['evcars'] as Vocab],
  ['体育沙龙', ZH_FILLER['sports'] as Vocab],
  ['旅游天地', ZH_FILLER['travel'] as Vocab],
  ['美食广场', ZH_FILLER['food'] as Vocab],
  ['游戏人生', ZH_FILLER['games'] as Vocab],
];

export function forumSpec(host: ForumHost, size: WebSize): ForumSpec {
  const zh = host === 'bbs.forum.test';
  const boards = (zh ? ZH_BOARDS : EN_BOARDS).map(([name, vocab], index) => ({
    index,
    name,
    vocab,
  }));
  return {
    host,
    lang: zh ? 'zh' : 'en',
    title: zh ? '综合论坛' : 'Community Forum',
    boards,
    threadsPerBoard: THREADS_PER_BOARD[size],
  };
}

export function threadCount(spec: ForumSpec): number {
  return spec.boards.length * spec.threadsPerBoard;
}

export type ThreadActivity = 'fast' | 'slow' | 'dead';

export interface ThreadFacts {
  id: number;
  board: number;
  /** Time of the first post (ms). */
  createdAt: number;
  activity: ThreadActivity;
  /** Poisson rate of new posts after the first (posts per day); 0 for dead threads. */
  ratePerDay: number;
  /** Posts a dead thread got right after its creation (including the first). */
  initialPosts: number;
  author: number;
}

const F_THREAD = 0xf0;
const F_ARRIVALS = 0xf1;

function hostKey(host: string): number {
  return hashString(host);
}

export function threadFacts(seed: number, spec: ForumSpec, id: number): ThreadFacts {
  const rng = rngOf(seed, F_THREAD, hostKey(spec.host), id);
  const createdDay = CREATED_FROM_DAYS + rng.next() * (CREATED_TO_DAYS - CREATED_FROM_DAYS);
  const r = rng.next();
  const activity: ThreadActivity = r < 0.1 ? 'fast' : r < 0.7 ? 'slow' : 'dead';
  const ratePerDay =
    activity === 'fast' ? 2 + rng.next() * 6 : activity === 'slow' ? 0.02 + rng.next() * 0.28 : 0;
  return {
    id,
    board: Math.floor(id / spec.threadsPerBoard),
    createdAt: FORUM_EPOCH_MS + Math.floor(createdDay * DAY_MS),
    activity,
    ratePerDay,
    initialPosts: activity === 'dead' ? 1 + rng.int(12) : 1,
    author: rng.int(FORUM_USERS),
  };
}

/**
 * Times (ms) of the thread's posts up to `t`, oldest first; empty when the thread does not
 * exist yet. Dead threads got their posts within hours of creation; others get posts as a
 * Poisson process (exponential gaps) with their rate.
 */
export function postTimes(seed: number, spec: ForumSpec, f: ThreadFacts, t: number): number[] {
  const out: number[] = [];
  if (f.createdAt > t) return out;
  const rng = rngOf(seed, F_ARRIVALS, hostKey(spec.host), f.id);
  out.push(f.createdAt);
  if (f.activity === 'dead') {
    let at = f.createdAt;
    for (let i = 1; i < f.initialPosts; i++) {
      at += Math.floor(rng.next() * 3_600_000 * 6);
      if (at > t) break;
      out.push(at);
    }
    return out;
  }
  const ratePerMs = f.ratePerDay / DAY_MS;
  let at = f.createdAt;
  for (;;) {
    at += Math.max(1, Math.floor(rng.exp(ratePerMs)));
    if (at > t) return out;
    out.push(at);
  }
}

/** Number of posts of a thread at time `t` (0 if not created yet). */
export function postCountAt(seed: number, spec: ForumSpec, id: number, t: number): number {
  return postTimes(seed, spec, threadFacts(seed, spec, id), t).length;
}

export interface ThreadState {
  facts: ThreadFacts;
  posts: number;
  lastPostAt: number;
}

/** Threads of a board existing at `t`, latest activity first. */
export function boardThreads(
  seed: number,
  spec: ForumSpec,
  board: number,
  t: number,
): ThreadState[] {
  const out: ThreadState[] = [];
  const first = board * spec.threadsPerBoard;
  for (let id = first; id < first + spec.threadsPerBoard; id++) {
    const facts = threadFacts(seed, spec, id);
    const times = postTimes(seed, spec, facts, t);
    if (times.length === 0) continue;
    out.push({ facts, posts: times.length, lastPostAt: times[times.length - 1] as number });
  }
  out.sort((a, b) => b.lastPostAt - a.lastPostAt || a.facts.id - b.facts.id);
  return out;
}

export function pagesOf(items: number, perPage: number): number {
  return Math.max(1, Math.ceil(items / perPage));
}

/** 'valid': a distinct page (index, board list page, thread page); 'duplicate': a variant of
 *  one (print view, sort order, highlight, session id, explicit page=1); 'other': user
 *  profiles, login, register, search. */
export type ForumUrlClass = 'valid' | 'duplicate' | 'other';

export function classifyForumUrl(url: string): ForumUrlClass {
  const u = new URL(url, 'http://forum.test/');
  // The redesigned scheme's URLs are classed as the old ones they stand for.
  const p = originalPath(u.pathname) ?? u.pathname;
  const q = u.searchParams;
  const keys = [...q.keys()];
  if (p.startsWith('/print/')) return 'duplicate';
  if (p === '/' || /^\/board\/\d+$/.test(p) || /^\/thread\/\d+$/.test(p)) {
    if (keys.length === 0) return 'valid';
    if (
      keys.length === 1 &&
      keys[0] === 'page' &&
      /^[1-9]\d*$/.test(q.get('page') ?? '') &&
      q.get('page') !== '1'
    ) {
      return 'valid';
    }
    return 'duplicate';
  }
  return 'other';
}

/** The valid URLs (no port) of a forum at time `t`: index, board list pages, thread pages. */
export function forumValidUrls(seed: number, size: WebSize, host: ForumHost, t: number): string[] {
  const spec = forumSpec(host, size);
  const out = [`http://${host}/`];
  for (const b of spec.boards) {
    const threads = boardThreads(seed, spec, b.index, t);
    const pages = pagesOf(threads.length, THREADS_PER_PAGE);
    out.push(`http://${host}/board/${b.index}`);
    for (let k = 2; k <= pages; k++) out.push(`http://${host}/board/${b.index}?page=${k}`);
    for (const th of threads) {
      out.push(`http://${host}/thread/${th.facts.id}`);
      const tp = pagesOf(th.posts, POSTS_PER_PAGE);
      for (let k = 2; k <= tp; k++) out.push(`http://${host}/thread/${th.facts.id}?page=${k}`);
    }
  }
  return out;
}
