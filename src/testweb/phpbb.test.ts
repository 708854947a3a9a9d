import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyPhpbbUrl,
  DAY_MS,
  FORUM_EPOCH_MS,
  forumPostCount,
  forumThreads,
  PHPBB_POSTS_PER_PAGE,
  PHPBB_TOPICS_PER_PAGE,
  phpbbPostCount,
  phpbbThreads,
  phpbbValidUrls,
} from './index.js';
import { sharedTestWeb } from './testing.js';

const tw = sharedTestWeb();
const get = tw.get;
const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
/** Visible text of the posts of a page (topic page, print view or archive). */
const posts = (html: string) =>
  [...html.matchAll(/<div class="content">([\s\S]*?)<\/div>/g)].map((m) =>
    m[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
/** Topic ids listed by a forum list page or a lo-fi forum page. */
const listedTopics = (html: string) => [
  ...[...html.matchAll(/viewtopic\.php\?t=(\d+)" class="topictitle"/g)].map((m) => Number(m[1])),
  ...[...html.matchAll(/<li><a href="t-(\d+)\.html">/g)].map((m) => Number(m[1])),
];
const classTokens = (html: string) =>
  new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/)));

const T0 = FORUM_EPOCH_MS;

describe('phpBB-like forum ground truth', () => {
  test('topics, forums and post counts', () => {
    const topics = phpbbThreads();
    assert.equal(topics.length, 180);
    assert.deepEqual(
      topics.map((t) => t.id),
      topics.map((_, i) => i + 1),
    );
    assert.deepEqual([...new Set(topics.map((t) => t.forum))], [2, 3, 4, 6, 7, 8]);
    for (const th of topics) {
      assert.equal(classifyPhpbbUrl(th.url), 'valid');
      let prev = 0;
      for (const days of [-200, -30, 0, 1, 7, 30, 90]) {
        const t = T0 + days * DAY_MS;
        const n = phpbbPostCount({}, th.id, t);
        assert.ok(n >= prev, `topic ${th.id} shrank at day ${days}`);
        assert.equal(n === 0, t < th.createdAt);
        prev = n;
      }
      if (th.activity === 'dead') assert.equal(th.ratePerDay, 0);
    }
    assert.equal(phpbbPostCount({}, 0, T0), 0);
    assert.equal(phpbbPostCount({}, 181, T0), 0);
    // Its own topics: other titles and times than forum.test's threads.
    const forum = forumThreads();
    assert.notDeepEqual(
      topics.slice(0, 20).map((t) => t.createdAt),
      forum.slice(0, 20).map((t) => t.createdAt),
    );
    assert.equal(phpbbThreads({ host: 'luntan.test', size: 'medium' }).length, 720);
  });

  test('valid URLs only grow with the clock and are all classified valid', () => {
    const a = phpbbValidUrls(1, 'small', 'phpbb.test', T0);
    const b = phpbbValidUrls(1, 'small', 'phpbb.test', T0 + 30 * DAY_MS);
    assert.equal(new Set(a).size, a.length);
    assert.ok(a.length > 300);
    for (const u of a) assert.ok(b.includes(u), u);
    assert.ok(b.length > a.length);
    for (const u of b) assert.equal(classifyPhpbbUrl(u), 'valid', u);
    assert.equal(a[0], 'http://phpbb.test/index.php');
    const zh = phpbbValidUrls(1, 'small', 'luntan.test', T0);
    assert.ok(zh.every((u) => u.startsWith('http://luntan.test/')));
  });

  test('classifyPhpbbUrl', () => {
    const table: [string, string][] = [
      ['http://phpbb.test/index.php', 'valid'],
      ['http://phpbb.test/viewforum.php?f=3', 'valid'],
      ['http://phpbb.test/viewforum.php?f=3&start=20', 'valid'],
      ['http://phpbb.test/viewtopic.php?t=17', 'valid'],
      ['http://phpbb.test/viewtopic.php?t=17&start=30', 'valid'],
      ['http://phpbb.test/viewtopic.php?t=17#p1700003', 'valid'],
      ['http://phpbb.test/', 'duplicate'],
      ['http://phpbb.test/index.php?x=1', 'duplicate'],
      ['http://phpbb.test/viewforum.php?f=3&start=0', 'duplicate'],
      ['http://phpbb.test/viewforum.php?start=20&f=3', 'duplicate'],
      ['http://phpbb.test/viewforum.php?f=3&sk=t&sd=d', 'duplicate'],
      ['http://phpbb.test/viewforum.php?f=3&sk=s&sd=a&start=20', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?f=3&t=17', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?t=17&start=0', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?t=017', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?t=17&view=print', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?t=17&start=15&view=print', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?t=17&view=unread#unread', 'duplicate'],
      ['http://phpbb.test/viewtopic.php?f=3&t=17&view=newest', 'duplicate'],
      ['http://phpbb.test/archive/t-17.html', 'duplicate'],
      ['http://phpbb.test/archive/f-3.html', 'duplicate'],
      ['http://phpbb.test/memberlist.php', 'other'],
      ['http://phpbb.test/memberlist.php?mode=viewprofile&u=9', 'other'],
      ['http://phpbb.test/posting.php?mode=reply&t=17', 'other'],
      ['http://phpbb.test/posting.php?mode=post&f=3', 'other'],
      ['http://phpbb.test/ucp.php?mode=login', 'other'],
      ['http://phpbb.test/ucp.php?mode=register', 'other'],
      ['http://phpbb.test/search.php?search_id=newposts', 'other'],
      ['http://phpbb.test/faq.php', 'other'],
      ['http://phpbb.test/robots.txt', 'other'],
      ['http://phpbb.test/viewtopic.php?t=17&start=7', 'other'],
      ['http://phpbb.test/viewtopic.php?p=5', 'other'],
      ['http://phpbb.test/viewforum.php', 'other'],
      ['http://phpbb.test/thread/17', 'other'],
    ];
    for (const [url, cls] of table) assert.equal(classifyPhpbbUrl(url), cls, url);
  });
});

describe('phpBB-like forum hosts', () => {
  test('every valid URL answers 200 at t', async () => {
    tw.web.clock.set(T0);
    for (const host of ['phpbb.test', 'luntan.test'] as const) {
      const urls = phpbbValidUrls(1, 'small', host, T0);
      for (const url of host === 'phpbb.test' ? urls : urls.filter((_, i) => i % 4 === 0)) {
        const r = await get(host, pathOf(url));
        assert.equal(r.status, 200, url);
        assert.equal(classifyPhpbbUrl(url), 'valid', url);
      }
    }
    assert.ok(tw.web.hosts.includes('phpbb.test') && tw.web.hosts.includes('luntan.test'));
  });

  test('duplicate variants show the same posts or redirect to the valid page', async () => {
    tw.web.clock.set(T0);
    const th = phpbbThreads().find((t) => {
      const n = phpbbPostCount({}, t.id, T0);
      return n > 2 * PHPBB_POSTS_PER_PAGE && n < 200;
    })!;
    const n = phpbbPostCount({}, th.id, T0);
    const T = th.id;
    const page1 = posts((await get('phpbb.test', `/viewtopic.php?t=${T}`)).text);
    const page2 = posts((await get('phpbb.test', `/viewtopic.php?t=${T}&start=15`)).text);
    assert.equal(page1.length, PHPBB_POSTS_PER_PAGE);
    assert.equal(page2.length, PHPBB_POSTS_PER_PAGE);
    const same = async (path: string, expected: string[]) => {
      const r = await get('phpbb.test', path);
      assert.equal(r.status, 200, path);
      assert.deepEqual(posts(r.text), expected, path);
    };
    await same(`/viewtopic.php?f=${th.forum}&t=${T}`, page1);
    await same(`/viewtopic.php?t=${T}&start=0`, page1);
    await same(`/viewtopic.php?t=${T}&view=print`, page1);
    await same(`/viewtopic.php?t=${T}&start=15&view=print`, page2);
    await same(`/viewtopic.php?f=${th.forum}&t=${T}&start=15`, page2);
    const archive = posts((await get('phpbb.test', `/archive/t-${T}.html`)).text);
    assert.equal(archive.length, n);
    assert.deepEqual(archive.slice(0, 30), [...page1, ...page2]);
    const lastStart = Math.floor((n - 1) / PHPBB_POSTS_PER_PAGE) * PHPBB_POSTS_PER_PAGE;
    const lastPage = `/viewtopic.php?t=${T}&start=${lastStart}`;
    for (const view of ['newest', 'unread']) {
      const r = await get('phpbb.test', `/viewtopic.php?f=${th.forum}&t=${T}&view=${view}`);
      assert.equal(r.status, 302);
      assert.equal(r.headers.location, lastPage);
    }
    assert.ok(
      phpbbValidUrls(1, 'small', 'phpbb.test', T0).includes(`http://phpbb.test${lastPage}`),
    );
    const root = await get('phpbb.test', '/');
    assert.equal(root.status, 301);
    assert.equal(root.headers.location, '/index.php');

    const forumPage = listedTopics((await get('phpbb.test', `/viewforum.php?f=${th.forum}`)).text);
    assert.equal(forumPage.length, PHPBB_TOPICS_PER_PAGE);
    const sorted = await get('phpbb.test', `/viewforum.php?f=${th.forum}&sk=t&sd=d`);
    assert.deepEqual(listedTopics(sorted.text), forumPage);
    const all = [
      ...forumPage,
      ...listedTopics(
        (await get('phpbb.test', `/viewforum.php?f=${th.forum}&start=${PHPBB_TOPICS_PER_PAGE}`))
          .text,
      ),
    ];
    assert.deepEqual(
      listedTopics((await get('phpbb.test', `/viewforum.php?f=${th.forum}&start=0`)).text),
      forumPage,
    );
    assert.deepEqual(
      listedTopics((await get('phpbb.test', `/archive/f-${th.forum}.html`)).text),
      all,
    );
    const oldest = listedTopics(
      (await get('phpbb.test', `/viewforum.php?f=${th.forum}&sk=t&sd=a`)).text,
    );
    assert.deepEqual(oldest, [...all].reverse().slice(0, PHPBB_TOPICS_PER_PAGE));
  });

  test('pages without content answer and classify other', async () => {
    tw.web.clock.set(T0);
    const th = phpbbThreads().find((t) => t.createdAt < T0)!;
    for (const path of [
      '/memberlist.php',
      '/memberlist.php?mode=viewprofile&u=2',
      '/memberlist.php?mode=viewprofile&u=501',
      `/posting.php?mode=reply&t=${th.id}`,
      `/posting.php?mode=post&f=${th.forum}`,
      '/ucp.php?mode=login',
      '/ucp.php?mode=register',
      '/ucp.php?mode=terms',
      '/ucp.php?mode=privacy',
      '/search.php',
      '/search.php?search_id=newposts',
      '/faq.php',
    ]) {
      const r = await get('phpbb.test', path);
      assert.equal(r.status, 200, path);
      assert.equal(classifyPhpbbUrl(`http://phpbb.test${path}`), 'other', path);
      assert.deepEqual(posts(r.text), [], path);
      assert.deepEqual(listedTopics(r.text), [], path);
    }
    assert.match((await get('phpbb.test', '/ucp.php?mode=login')).text, /<form/);
    assert.match((await get('phpbb.test', `/posting.php?mode=reply&t=${th.id}`)).text, /<textarea/);
    for (const path of [
      '/memberlist.php?mode=viewprofile&u=1',
      '/memberlist.php?mode=viewprofile&u=502',
      `/viewtopic.php?t=${th.id}&start=7`,
      '/viewtopic.php?p=5',
      '/ucp.php?mode=delete_cookies',
      '/thread/1',
    ]) {
      assert.equal((await get('phpbb.test', path)).status, 404, path);
      assert.equal(classifyPhpbbUrl(`http://phpbb.test${path}`), 'other', path);
    }
    // Well-formed URLs of pages that do not exist keep the class of their form, as with
    // classifyForumUrl: categories (f=1, f=5), topics beyond the last, pages beyond the end.
    for (const path of [
      '/viewforum.php?f=1',
      '/viewforum.php?f=5',
      '/viewtopic.php?t=181',
      '/viewforum.php?f=2&start=400',
    ]) {
      assert.equal((await get('phpbb.test', path)).status, 404, path);
      assert.equal(classifyPhpbbUrl(`http://phpbb.test${path}`), 'valid', path);
    }
    assert.equal(
      (await get('phpbb.test', '/robots.txt')).text,
      'User-agent: *\nDisallow: /search.php\n',
    );
  });

  test('topics appear at their creation; pages follow new posts', async () => {
    const later = phpbbThreads().find((t) => t.createdAt > T0 + DAY_MS)!;
    const T = later.id;
    const boardPages = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let start = 0; ; start += PHPBB_TOPICS_PER_PAGE) {
        const r = await get('phpbb.test', `/viewforum.php?f=${later.forum}&start=${start}`);
        if (r.status === 404) return out;
        out.push(...listedTopics(r.text));
      }
    };
    tw.web.clock.set(T0);
    for (const path of [
      `/viewtopic.php?t=${T}`,
      `/viewtopic.php?t=${T}&view=newest`,
      `/viewtopic.php?t=${T}&view=print`,
      `/archive/t-${T}.html`,
      `/posting.php?mode=reply&t=${T}`,
    ]) {
      assert.equal((await get('phpbb.test', path)).status, 404, path);
    }
    assert.ok(!(await boardPages()).includes(T));
    assert.ok(!phpbbValidUrls(1, 'small', 'phpbb.test', T0).includes(later.url));
    tw.web.clock.set(later.createdAt + 1000);
    const r = await get('phpbb.test', `/viewtopic.php?t=${T}`);
    assert.equal(r.status, 200);
    assert.equal(posts(r.text).length, phpbbPostCount({}, T, later.createdAt + 1000));
    assert.ok((await boardPages()).includes(T));
    assert.ok(
      listedTopics((await get('phpbb.test', `/archive/f-${later.forum}.html`)).text).includes(T),
    );
    assert.ok(phpbbValidUrls(1, 'small', 'phpbb.test', later.createdAt + 1000).includes(later.url));

    const fast = phpbbThreads().find((t) => t.activity === 'fast' && t.createdAt < T0)!;
    const seen = new Set<string>();
    for (const t of [T0, T0 + 3 * DAY_MS]) {
      tw.web.clock.set(t);
      const n = phpbbPostCount({}, fast.id, t);
      const pages = Math.ceil(n / PHPBB_POSTS_PER_PAGE);
      const start = (pages - 1) * PHPBB_POSTS_PER_PAGE;
      const last = await get('phpbb.test', `/viewtopic.php?t=${fast.id}&start=${start}`);
      assert.equal(last.status, 200);
      assert.equal(posts(last.text).length, n - start);
      const next = start + PHPBB_POSTS_PER_PAGE;
      assert.equal(
        (await get('phpbb.test', `/viewtopic.php?t=${fast.id}&start=${next}`)).status,
        404,
      );
      seen.add(last.headers['last-modified']!);
    }
    assert.equal(seen.size, 2);
    tw.web.clock.set(T0);
  });

  test('If-Modified-Since gives 304 until a new post arrives', async () => {
    tw.web.clock.set(T0);
    const fast = phpbbThreads().find((t) => t.activity === 'fast' && t.createdAt < T0)!;
    for (const path of [
      '/index.php',
      `/viewforum.php?f=${fast.forum}`,
      `/viewtopic.php?t=${fast.id}`,
      `/viewtopic.php?t=${fast.id}&view=print`,
      `/archive/t-${fast.id}.html`,
      '/faq.php',
    ]) {
      const r = await get('phpbb.test', path);
      const lm = r.headers['last-modified']!;
      assert.ok(Date.parse(lm) <= T0, path);
      const nm = await get('phpbb.test', path, { 'if-modified-since': lm });
      assert.equal(nm.status, 304, path);
      assert.equal(nm.body.length, 0);
    }
    const lm = (await get('phpbb.test', `/viewtopic.php?t=${fast.id}`)).headers['last-modified']!;
    tw.web.clock.advance(10 * DAY_MS);
    const r = await get('phpbb.test', `/viewtopic.php?t=${fast.id}`, { 'if-modified-since': lm });
    assert.equal(r.status, 200);
    tw.web.clock.set(T0);
  });

  test('a crawl from /index.php meets only URLs whose class matches what they serve', async () => {
    tw.web.clock.set(T0);
    const host = 'phpbb.test';
    const valid = new Set(phpbbValidUrls(1, 'small', host, T0));
    interface Seen {
      cls: string;
      status: number;
      location?: string;
      posts: string[];
      topics: number[];
      html: string;
    }
    const seen = new Map<string, Seen>();
    const queue = [`http://${host}/`];
    const enqueue = (href: string, base: string) => {
      const u = new URL(href, base);
      u.hash = '';
      if (u.host !== host) return;
      if (!seen.has(u.href) && !queue.includes(u.href)) queue.push(u.href);
    };
    while (queue.length > 0) {
      const batch = queue.splice(0, 16);
      const results = await Promise.all(batch.map((url) => get(host, pathOf(url))));
      batch.forEach((url, i) => {
        const r = results[i]!;
        const location = r.headers.location;
        seen.set(url, {
          cls: classifyPhpbbUrl(url),
          status: r.status,
          ...(location ? { location: new URL(location, url).href } : {}),
          posts: posts(r.text),
          topics: listedTopics(r.text),
          html: r.text,
        });
      });
      batch.forEach((url, i) => {
        const r = results[i]!;
        if (r.headers.location) enqueue(r.headers.location, url);
        else if (r.status === 200) for (const h of hrefs(r.text)) enqueue(h, url);
      });
    }
    const validPosts = new Set<string>();
    const validTopics = new Set<number>();
    for (const [, s] of seen) {
      if (s.cls !== 'valid') continue;
      for (const p of s.posts) validPosts.add(p);
      for (const t of s.topics) validTopics.add(t);
    }
    const counts = { valid: 0, duplicate: 0, other: 0 };
    for (const [url, s] of seen) {
      counts[s.cls as keyof typeof counts]++;
      if (s.cls === 'valid') {
        assert.equal(s.status, 200, url);
        assert.ok(valid.has(url), `${url} is not in phpbbValidUrls`);
        assert.ok(
          s.posts.length > 0 || s.topics.length > 0 || /class="forumtitle"/.test(s.html),
          url,
        );
      } else if (s.cls === 'duplicate') {
        if (s.status === 301 || s.status === 302) {
          assert.ok(s.location && valid.has(s.location), `${url} → ${s.location}`);
        } else {
          assert.equal(s.status, 200, url);
          if (/\/index\.php$/.test(new URL(url).pathname)) continue;
          assert.ok(s.posts.length > 0 || s.topics.length > 0, url);
          for (const p of s.posts) assert.ok(validPosts.has(p), `${url}: post not on a valid page`);
          for (const t of s.topics) assert.ok(validTopics.has(t), `${url}: topic ${t}`);
        }
      } else {
        assert.equal(s.status, 200, url);
        assert.deepEqual(s.posts, [], url);
        assert.deepEqual(s.topics, [], url);
      }
    }
    for (const url of valid) assert.ok(seen.has(url), `${url} was not reached`);
    assert.ok(counts.duplicate > counts.valid / 2, JSON.stringify(counts));
    assert.ok(counts.other > 50, JSON.stringify(counts));
    const kinds = new Set([...seen.keys()].map((u) => new URL(u).pathname.replace(/\d+/g, 'N')));
    for (const k of [
      '/',
      '/index.php',
      '/viewforum.php',
      '/viewtopic.php',
      '/archive/t-N.html',
      '/archive/f-N.html',
      '/memberlist.php',
      '/posting.php',
      '/ucp.php',
      '/search.php',
      '/faq.php',
    ]) {
      assert.ok(kinds.has(k), k);
    }
  });

  test('luntan.test serves Chinese boards, titles and posts', async () => {
    tw.web.clock.set(T0);
    const index = await get('luntan.test', '/index.php');
    assert.equal(index.status, 200);
    assert.match(index.text, /显示器与外设/);
    assert.match(index.text, /lang="zh-cmn-hans"/);
    const th = phpbbThreads({ host: 'luntan.test' }).find(
      (t) => phpbbPostCount({ host: 'luntan.test' }, t.id, T0) > 3,
    )!;
    assert.match(th.title, /[\u4e00-\u9fff]{4}/);
    const page = await get('luntan.test', `/viewtopic.php?t=${th.id}`);
    assert.equal(page.status, 200);
    const ps = posts(page.text);
    assert.ok(ps.length > 3);
    for (const p of ps) assert.match(p, /[\u4e00-\u9fff]{4}/);
    const base = `http://luntan.test/viewtopic.php?t=${th.id}`;
    for (const h of hrefs(page.text)) {
      const url = new URL(h, base);
      const r = await get('luntan.test', url.pathname + url.search);
      if (classifyPhpbbUrl(url.href) === 'valid') assert.equal(r.status, 200, h);
      else assert.ok(r.status === 200 || r.status === 302, h);
    }
  });

  test('its markup shares no class names with forum.test', async () => {
    tw.web.clock.set(T0);
    const fth = forumThreads().find((t) => forumPostCount({}, t.id, T0) > 3)!;
    const forumHtml = (await get('forum.test', `/thread/${fth.id}`)).text;
    const pth = phpbbThreads().find((t) => phpbbPostCount({}, t.id, T0) > 3)!;
    const phpbbHtml = (await get('phpbb.test', `/viewtopic.php?t=${pth.id}`)).text;
    const a = classTokens(forumHtml);
    const b = classTokens(phpbbHtml);
    assert.ok(a.has('post') && b.has('postbody') && b.has('postrow'));
    assert.deepEqual(
      [...a].filter((c) => b.has(c)),
      [],
    );
    const listA = classTokens((await get('forum.test', `/board/${fth.board}`)).text);
    const listB = classTokens((await get('phpbb.test', `/viewforum.php?f=${pth.forum}`)).text);
    assert.deepEqual(
      [...listA].filter((c) => listB.has(c)),
      [],
    );
    assert.match(
      (await get('phpbb.test', `/viewforum.php?f=${pth.forum}`)).text,
      /<dl class="row-item/,
    );
  });
});
