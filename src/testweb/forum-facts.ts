// Public ground truth of the forums, keyed by (seed, size, host) like the rest of the API.

import { threadTitle } from './forum.js';
import {
  type ForumHost,
  forumSpec,
  postCountAt,
  type ThreadActivity,
  threadCount,
  threadFacts,
} from './forum-model.js';
import type { WebSize } from './types.js';

export interface ForumThreadInfo {
  id: number;
  board: number;
  url: string;
  title: string;
  /** First post time (ms); the thread answers 404 before it. */
  createdAt: number;
  activity: ThreadActivity;
  /** Poisson rate of new posts, per day (0 for dead threads). */
  ratePerDay: number;
}

export interface ForumId {
  /** @default 1 */
  seed?: number;
  /** @default 'small' */
  size?: WebSize;
  /** @default 'forum.test' */
  host?: ForumHost;
}

function specOf(id: ForumId) {
  return forumSpec(id.host ?? 'forum.test', id.size ?? 'small');
}

/** Every thread of a forum (including those created later than the current clock). */
export function forumThreads(id: ForumId = {}): ForumThreadInfo[] {
  const spec = specOf(id);
  const seed = id.seed ?? 1;
  const out: ForumThreadInfo[] = [];
  for (let i = 0; i < threadCount(spec); i++) {
    const f = threadFacts(seed, spec, i);
    out.push({
      id: i,
      board: f.board,
      url: `http://${spec.host}/thread/${i}`,
      title: threadTitle(seed, spec, f),
      createdAt: f.createdAt,
      activity: f.activity,
      ratePerDay: f.ratePerDay,
    });
  }
  return out;
}

/** Poisson rate (posts per day) of thread `thread`. */
export function forumThreadRate(id: ForumId, thread: number): number {
  return threadFacts(id.seed ?? 1, specOf(id), thread).ratePerDay;
}

/** Number of posts of `thread` at simulated time `t` (ms); 0 before it is created. */
export function forumPostCount(id: ForumId, thread: number, t: number): number {
  return postCountAt(id.seed ?? 1, specOf(id), thread, t);
}
