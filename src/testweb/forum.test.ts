import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyForumUrl,
  DAY_MS,
  FORUM_EPOCH_MS,
  forumPostCount,
  forumThreadRate,
  forumThreads,
  forumValidUrls,
  POSTS_PER_PAGE,
} from './index.js';
import { sharedTestWeb } from './testing.js';

const tw = sharedTestWeb();
const get = tw.get;
const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

describe('forum ground truth', () => {
  test('posts only grow with the clock; threads appear when created', () => {
    const threads = forumThreads({ seed: 1, size: 'small' });
    assert.equal(threads.length, 240);
    let grew = 0;
    for (const th of threads) {
      let prev = 0;
      for (const days of [-200, -30, 0, 1, 7, 30, 90]) {
        const n = forumPostCount({}, th.id, FORUM_EPOCH_MS + days * DAY_MS);
        assert.ok(n >= prev, `thread ${th.id} shrank at day ${days}`);
        if (FORUM_EPOCH_MS + days * DAY_MS < th.createdAt) assert.equal(n, 0);
        else assert.ok(n >= 1);
        if (days === 30 && n > forumPostCount({}, th.id, FORUM_EPOCH_MS)) grew++;
        prev = n;
      }
      assert.equal(th.ratePerDay, forumThreadRate({}, th.id));
      if (th.activity === 'dead') assert.equal(th.ratePerDay, 0);
    }
    assert.ok(grew > 50, `${grew} threads grew in 30 days`);
    const kinds = new Set(threads.map((t) => t.activity));
    assert.deepEqual([...kinds].sort(), ['dead', 'fast', 'slow']);
  });

  test('new posts arrive as Poisson processes: mean ≈ rate·t, variance ≈ mean', () => {
    const id = { seed: 3, size: 'large' as const };
    const t0 = FORUM_EPOCH_MS + 60 * DAY_MS; // after every thread is created
    const dtDays = 10;
    let observed = 0;
    let expected = 0;
    const ratios: number[] = [];
    for (const host of ['forum.test', 'bbs.forum.test'] as const) {
      for (const th of forumThreads({ ...id, host })) {
        if (th.activity !== 'slow') continue;
        const k =
          forumPostCount({ ...id, host }, th.id, t0 + dtDays * DAY_MS) -
          forumPostCount({ ...id, host }, th.id, t0);
        observed += k;
        expected += th.ratePerDay * dtDays;
        ratios.push(k / (th.ratePerDay * dtDays));
      }
    }
    assert.ok(ratios.length > 2_000);
    assert.ok(
      Math.abs(observed / expected - 1) < 0.05,
      `observed ${observed}, expected ${expected}`,
    );
    // Poisson dispersion for the fast threads of one forum: variance of counts ≈ their mean.
    const fast = forumThreads({ ...id, host: 'forum.test' }).filter((t) => t.activity === 'fast');
    let z2 = 0;
    for (const th of fast) {
      const k =
        forumPostCount({ ...id, host: 'forum.test' }, th.id, t0 + DAY_MS) -
        forumPostCount({ ...id, host: 'forum.test' }, th.id, t0);
      z2 += (k - th.ratePerDay) ** 2 / th.ratePerDay;
    }
    const dispersion = z2 / fast.length;
    assert.ok(dispersion > 0.7 && dispersion < 1.3, `dispersion ${dispersion}`);
  });

  test('classifyForumUrl', () => {
    const table: [string, string][] = [
      ['http://forum.test/', 'valid'],
      ['http://forum.test/board/3', 'valid'],
      ['http://forum.test/board/3?page=2', 'valid'],
      ['http://forum.test/thread/17', 'valid'],
      ['http://forum.test/thread/17?page=4', 'valid'],
      ['http://forum.test/thread/17?page=1', 'duplicate'],
      ['http://forum.test/thread/17?print=1', 'duplicate'],
      ['http://forum.test/print/thread/17', 'duplicate'],
      ['http://forum.test/thread/17?order=desc', 'duplicate'],
      ['http://forum.test/thread/17?page=2&order=desc', 'duplicate'],
      ['http://forum.test/thread/17?highlight=x', 'duplicate'],
      ['http://forum.test/board/3?sid=abc', 'duplicate'],
      ['http://forum.test/board/3?order=asc', 'duplicate'],
      ['http://forum.test/user/5', 'other'],
      ['http://forum.test/login?redirect=%2F', 'other'],
      ['http://forum.test/register', 'other'],
    ];
    for (const [url, cls] of table) assert.equal(classifyForumUrl(url), cls, url);
  });
});

describe('forum hosts', () => {
  test('every valid URL answers 200 now; links are valid, duplicate or other', async () => {
    tw.web.clock.set(FORUM_EPOCH_MS);
    const urls = forumValidUrls(1, 'small', 'forum.test', FORUM_EPOCH_MS);
    assert.ok(urls.length > 100);
    const classes = new Set<string>();
    for (const url of urls.filter((_, i) => i % 3 === 0)) {
      const u = new URL(url);
      const r = await get('forum.test', u.pathname + u.search);
      assert.equal(r.status, 200, url);
      for (const h of hrefs(r.text)) classes.add(classifyForumUrl(new URL(h, url).href));
    }
    assert.deepEqual([...classes].sort(), ['duplicate', 'other', 'valid']);
  });

  test('thread pages show the posts of the clock; future threads are 404 until created', async () => {
    const later = forumThreads({}).find((t) => t.createdAt > FORUM_EPOCH_MS + DAY_MS)!;
    tw.web.clock.set(FORUM_EPOCH_MS);
    assert.equal((await get('forum.test', `/thread/${later.id}`)).status, 404);
    tw.web.clock.set(later.createdAt + 1000);
    const r = await get('forum.test', `/thread/${later.id}`);
    assert.equal(r.status, 200);
    const n = forumPostCount({}, later.id, later.createdAt + 1000);
    assert.equal((r.text.match(/class="post"/g) ?? []).length, Math.min(n, POSTS_PER_PAGE));

    const fast = forumThreads({}).find(
      (t) => t.activity === 'fast' && t.createdAt < FORUM_EPOCH_MS,
    )!;
    for (const t of [FORUM_EPOCH_MS, FORUM_EPOCH_MS + 3 * DAY_MS]) {
      tw.web.clock.set(t);
      const count = forumPostCount({}, fast.id, t);
      const pages = Math.ceil(count / POSTS_PER_PAGE);
      const last = await get('forum.test', `/thread/${fast.id}?page=${pages}`);
      assert.equal(last.status, 200);
      assert.equal(
        (last.text.match(/class="post"/g) ?? []).length,
        count - (pages - 1) * POSTS_PER_PAGE,
      );
      assert.equal((await get('forum.test', `/thread/${fast.id}?page=${pages + 1}`)).status, 404);
    }
    tw.web.clock.set(FORUM_EPOCH_MS);
  });

  test('thread lists are ordered by last post; Last-Modified and If-Modified-Since', async () => {
    tw.web.clock.set(FORUM_EPOCH_MS + 2 * DAY_MS);
    const r = await get('forum.test', '/board/0');
    const times = [...r.text.matchAll(/<td>(\d{4}-\d\d-\d\d \d\d:\d\d)<\/td><\/tr>/g)].map(
      (m) => m[1]!,
    );
    assert.ok(times.length >= 10);
    assert.deepEqual(times, [...times].sort().reverse());
    const lm = r.headers['last-modified']!;
    assert.ok(Date.parse(lm) <= FORUM_EPOCH_MS + 2 * DAY_MS);
    assert.equal((await get('forum.test', '/board/0', { 'if-modified-since': lm })).status, 304);
    tw.web.clock.advance(30 * DAY_MS);
    assert.equal((await get('forum.test', '/board/0', { 'if-modified-since': lm })).status, 200);
    tw.web.clock.set(FORUM_EPOCH_MS);
  });

  test('duplicate variants show the same posts', async () => {
    tw.web.clock.set(FORUM_EPOCH_MS);
    const th = forumThreads({}).find(
      (t) => t.createdAt < FORUM_EPOCH_MS && forumPostCount({}, t.id, FORUM_EPOCH_MS) > 3,
    )!;
    const posts = (html: string) =>
      [...html.matchAll(/<p>([^<]*(?:<span class="hl">[^<]*<\/span>[^<]*)*)<\/p><\/div>/g)].map(
        (m) => m[1]!.replace(/<[^>]+>/g, ''),
      );
    const base = posts((await get('forum.test', `/thread/${th.id}`)).text);
    assert.ok(base.length > 3);
    assert.deepEqual(posts((await get('forum.test', `/thread/${th.id}?sid=0123abcd`)).text), base);
    assert.deepEqual(posts((await get('forum.test', `/thread/${th.id}?highlight=the`)).text), base);
    const print = posts((await get('forum.test', `/print/thread/${th.id}`)).text);
    assert.deepEqual(print.slice(0, base.length), base);
    assert.deepEqual(posts((await get('forum.test', `/thread/${th.id}?print=1`)).text), print);
    const n = forumPostCount({}, th.id, FORUM_EPOCH_MS);
    if (n <= POSTS_PER_PAGE) {
      assert.deepEqual(
        posts((await get('forum.test', `/thread/${th.id}?order=desc`)).text),
        [...base].reverse(),
      );
    }
    const withSid = (await get('forum.test', `/board/${th.board}?sid=feed`)).text;
    for (const h of hrefs(withSid).filter((x) => x.startsWith('/thread/')))
      assert.match(h, /sid=feed/);
  });

  test('user, login and register pages; Chinese forum', async () => {
    assert.equal((await get('forum.test', '/user/3')).status, 200);
    assert.equal((await get('forum.test', '/user/99999')).status, 404);
    assert.match((await get('forum.test', '/login?redirect=%2F')).text, /<form/);
    assert.match((await get('forum.test', '/register')).text, /<form/);
    assert.match((await get('forum.test', '/robots.txt')).text, /Disallow: \/search/);
    const zh = await get('bbs.forum.test', '/');
    assert.equal(zh.status, 200);
    assert.match(zh.text, /显示器讨论区/);
    const th = forumThreads({ host: 'bbs.forum.test' }).find((t) => t.createdAt < FORUM_EPOCH_MS)!;
    const page = await get('bbs.forum.test', `/thread/${th.id}`);
    assert.match(page.text, /[\u4e00-\u9fff]{8}/);
  });
});
