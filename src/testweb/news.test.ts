import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DAY_MS,
  FORUM_EPOCH_MS,
  forumPostCount,
  forumThreads,
  NEWS_EPOCH_MS,
  NEWS_PER_PAGE,
  type NewsArticle,
  newsArticles,
  newsChangeTimes,
  newsETag,
  newsFingerprint,
  newsPagesAt,
  newsVersionAt,
} from './index.js';
import { sharedTestWeb } from './testing.js';

const tw = sharedTestWeb();
const get = tw.get;
const news = (path: string, headers?: Record<string, string>) => get('news.test', path, headers);
/** Text a reader sees: no comments, no tags (so no attributes), whitespace collapsed. */
const visible = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const path = (url: string) => url.slice('http://news.test'.length);
const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);

const ARTICLES = newsArticles(1, 'small');
const T0 = NEWS_EPOCH_MS;
/** A changing article of `kind` born before T0 with a change within a day after it. */
const pick = (validator: NewsArticle['validator']) =>
  ARTICLES.find(
    (a) =>
      a.validator === validator &&
      a.birth < T0 &&
      newsChangeTimes(1, 'small', a.url, T0, T0 + DAY_MS).length > 0,
  )!;

describe('news.test ground truth', () => {
  test('the same seed gives the same articles and change instants, however asked', () => {
    assert.deepEqual(newsArticles(1, 'small'), ARTICLES);
    assert.equal(ARTICLES.length, 200);
    assert.equal(newsArticles(1, 'large').length, 1_000);
    assert.deepEqual(newsArticles(1, 'large').slice(0, 200), ARTICLES);
    assert.notDeepEqual(
      newsArticles(2, 'small').map((a) => a.birth),
      ARTICLES.map((a) => a.birth),
    );
    const end = T0 + 40 * DAY_MS;
    for (const a of ARTICLES.slice(0, 40)) {
      const all = newsChangeTimes(1, 'small', a.url, a.birth - 1, end);
      const halves = [
        ...newsChangeTimes(1, 'small', a.url, a.birth - 1, T0),
        ...newsChangeTimes(1, 'small', a.url, T0, end),
      ];
      assert.deepEqual(halves, all);
      assert.equal(all[0], a.birth);
      for (let i = 1; i < all.length; i++) assert.ok(all[i]! > all[i - 1]!);
      assert.equal(newsVersionAt(1, a.id, end), all.length - 1);
      assert.equal(newsVersionAt(1, a.id, a.birth - 1), -1);
      assert.equal(newsVersionAt(1, a.id, a.birth), 0);
    }
    const kinds = ['etag', 'last-modified', 'none'].map(
      (v) => ARTICLES.filter((a) => a.validator === v).length,
    );
    assert.deepEqual(kinds, [67, 67, 66]);
    const never = ARTICLES.filter((a) => a.ratePerDay === 0);
    assert.ok(never.length >= 15 && never.length <= 45, `${never.length} never change`);
    for (const a of never) assert.equal(newsVersionAt(1, a.id, T0 + 365 * DAY_MS), 0);
    assert.ok(ARTICLES.some((a) => a.ratePerDay > 0 && a.ratePerDay < 0.1));
    assert.ok(ARTICLES.some((a) => a.ratePerDay > 5));
    const late = ARTICLES.filter((a) => a.birth > T0).length;
    assert.ok(late >= 20 && late <= 60, `${late} born after the clock start`);
  });

  test('changes over a long span come at the article rate (Poisson counts)', () => {
    const seed = 3;
    const T = 1_000; // days, after every article is born
    const from = T0 + 40 * DAY_MS;
    let observed = 0;
    let expected = 0;
    let z2 = 0;
    let n = 0;
    for (const a of newsArticles(seed, 'large')) {
      if (a.ratePerDay === 0) continue;
      const k = newsVersionAt(seed, a.id, from + T * DAY_MS) - newsVersionAt(seed, a.id, from);
      const mean = a.ratePerDay * T;
      const z = (k - mean) / Math.sqrt(mean);
      assert.ok(Math.abs(z) < 5, `article ${a.id}: ${k} changes, expected ${mean}`);
      observed += k;
      expected += mean;
      z2 += z * z;
      n++;
    }
    assert.ok(n > 700);
    assert.ok(
      Math.abs(observed / expected - 1) < 0.01,
      `observed ${observed}, expected ${expected}`,
    );
    const dispersion = z2 / n;
    assert.ok(dispersion > 0.8 && dispersion < 1.2, `dispersion ${dispersion}`);
  });

  test('fingerprints change exactly at the change instants (an article and a list page)', () => {
    const fast = ARTICLES.find((a) => a.birth < T0 && a.ratePerDay > 3)!;
    for (const url of [fast.url, 'http://news.test/?page=2', 'http://news.test/section/tech']) {
      const end = T0 + 20 * DAY_MS;
      const times = newsChangeTimes(1, 'small', url, T0, end);
      assert.ok(times.length >= 3, url);
      const fp = (t: number) => newsFingerprint(1, 'small', url, t);
      let prev = T0;
      for (const c of times) {
        assert.equal(fp(Math.floor((prev + c) / 2)), fp(c - 1), `${url} steady before ${c}`);
        assert.notEqual(fp(c), fp(c - 1), `${url} changes at ${c}`);
        prev = c;
      }
      assert.equal(fp(end), fp(prev));
    }
  });
});

describe('news.test over HTTP', () => {
  test('every page of newsPagesAt answers 200 and links only to pages of it', async () => {
    for (const t of [T0, T0 + 25 * DAY_MS]) {
      tw.web.clock.set(t);
      const pages = newsPagesAt(1, 'small', t);
      const known = new Set(pages.map(path));
      assert.ok(pages.length > 150);
      for (const url of pages.filter((u) => !u.includes('/article/'))) {
        const r = await news(path(url));
        assert.equal(r.status, 200, url);
        for (const h of hrefs(r.text)) assert.ok(known.has(h), `${url} links ${h}`);
      }
      for (const url of pages.filter((u) => u.includes('/article/')).slice(0, 30)) {
        const r = await news(path(url));
        assert.equal(r.status, 200, url);
        for (const h of hrefs(r.text)) assert.ok(known.has(h), `${url} links ${h}`);
        assert.equal(
          newsFingerprint(1, 'small', url, t),
          `article/${path(url).slice(9)}@${newsVersionAt(1, Number(path(url).slice(9)), t)}`,
        );
      }
      const lastIndex = pages.filter((u) => /^http:\/\/news\.test\/(\?page=\d+)?$/.test(u)).length;
      assert.equal((await news(`/?page=${lastIndex + 1}`)).status, 404);
    }
    assert.equal((await news('/article/200')).status, 404);
    assert.equal((await news('/section/nope')).status, 404);
    assert.equal((await news('/?page=x')).status, 404);
    assert.match((await news('/robots.txt')).text, /User-agent: \*/);
  });

  test('the version advances with the clock', async () => {
    const a = ARTICLES.find((x) => x.birth < T0 && x.ratePerDay > 2)!;
    let last = -1;
    for (const days of [0, 1, 3, 10]) {
      const t = T0 + days * DAY_MS;
      tw.web.clock.set(t);
      const v = newsVersionAt(1, a.id, t);
      assert.ok(v > last);
      last = v;
      const r = await news(`/article/${a.id}`);
      assert.match(r.text, new RegExp(`<h2>Update ${v}</h2>`));
    }
  });

  test('ETag articles answer If-None-Match with 304 until they change', async () => {
    const a = pick('etag');
    tw.web.clock.set(T0);
    const r = await news(`/article/${a.id}`);
    const etag = r.headers.etag!;
    assert.equal(etag, newsETag(1, a.id, newsVersionAt(1, a.id, T0)));
    assert.equal(r.headers['last-modified'], undefined);
    const nm = await news(`/article/${a.id}`, { 'if-none-match': etag });
    assert.equal(nm.status, 304);
    assert.equal(nm.body.length, 0);
    assert.equal(nm.headers.etag, etag);
    assert.equal(
      (await news(`/article/${a.id}`, { 'if-none-match': `"x", W/${etag}` })).status,
      304,
    );
    assert.equal((await news(`/article/${a.id}`, { 'if-none-match': '"other"' })).status, 200);
    tw.web.clock.set(newsChangeTimes(1, 'small', a.url, T0, T0 + DAY_MS)[0]!);
    const changed = await news(`/article/${a.id}`, { 'if-none-match': etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.etag, etag);
  });

  test('Last-Modified articles and list pages answer If-Modified-Since with 304', async () => {
    const a = pick('last-modified');
    tw.web.clock.set(T0);
    const r = await news(`/article/${a.id}`);
    const lm = r.headers['last-modified']!;
    const before = newsChangeTimes(1, 'small', a.url, a.birth - 1, T0);
    assert.equal(Date.parse(lm), before[before.length - 1]);
    assert.equal(r.headers.etag, undefined);
    assert.equal((await news(`/article/${a.id}`, { 'if-modified-since': lm })).status, 304);
    const next = newsChangeTimes(1, 'small', a.url, T0, T0 + DAY_MS)[0]!;
    tw.web.clock.set(next - 1000);
    assert.equal((await news(`/article/${a.id}`, { 'if-modified-since': lm })).status, 304);
    tw.web.clock.set(next);
    const changed = await news(`/article/${a.id}`, { 'if-modified-since': lm });
    assert.equal(changed.status, 200);
    assert.equal(Date.parse(changed.headers['last-modified']!), next);

    tw.web.clock.set(T0);
    const index = await news('/');
    const ilm = index.headers['last-modified']!;
    assert.equal((await news('/', { 'if-modified-since': ilm })).status, 304);
    tw.web.clock.set(newsChangeTimes(1, 'small', 'http://news.test/', T0, T0 + 30 * DAY_MS)[0]!);
    assert.equal((await news('/', { 'if-modified-since': ilm })).status, 200);
  });

  test('articles without validators always answer 200', async () => {
    const a = pick('none');
    tw.web.clock.set(T0);
    const r = await news(`/article/${a.id}`);
    assert.equal(r.headers.etag, undefined);
    assert.equal(r.headers['last-modified'], undefined);
    const since = new Date(T0 + DAY_MS).toUTCString();
    const again = await news(`/article/${a.id}`, {
      'if-modified-since': since,
      'if-none-match': '*',
    });
    assert.equal(again.status, 200);
  });

  test('births: 404 before, 200 after, then first on the index and its section', async () => {
    const a = ARTICLES.filter((x) => x.birth > T0).sort((x, y) => x.birth - y.birth)[3]!;
    tw.web.clock.set(a.birth - 1000);
    assert.equal((await news(`/article/${a.id}`)).status, 404);
    assert.ok(!hrefs((await news('/')).text).includes(`/article/${a.id}`));
    assert.ok(!newsPagesAt(1, 'small', a.birth - 1000).includes(a.url));
    const fp = newsFingerprint(1, 'small', 'http://news.test/', a.birth - 1000);
    tw.web.clock.set(a.birth);
    assert.equal((await news(`/article/${a.id}`)).status, 200);
    assert.ok(newsPagesAt(1, 'small', a.birth).includes(a.url));
    assert.notEqual(newsFingerprint(1, 'small', 'http://news.test/', a.birth), fp);
    for (const list of ['/', `/section/${a.section}`]) {
      const links = hrefs((await news(list)).text).filter((h) => h.startsWith('/article/'));
      assert.equal(links[0], `/article/${a.id}`, list);
      assert.ok(links.length <= NEWS_PER_PAGE);
    }
  });

  test('markup noise changes on every request, the visible text does not', async () => {
    const a = pick('last-modified');
    tw.web.clock.set(T0);
    for (const p of ['/', '/section/sport?page=2', `/article/${a.id}`]) {
      const one = await news(p);
      const two = await news(p);
      assert.equal(one.status, 200, p);
      assert.notDeepEqual(one.body, two.body, p);
      assert.equal(visible(one.text), visible(two.text), p);
      assert.match(one.text, /<!-- rendered at /);
    }
    const before = visible((await news(`/article/${a.id}`)).text);
    tw.web.clock.set(newsChangeTimes(1, 'small', a.url, T0, T0 + DAY_MS)[0]!);
    assert.notEqual(visible((await news(`/article/${a.id}`)).text), before);
  });
});

describe('forum If-Modified-Since', () => {
  test('a thread page answers 304 while it has no new post, 200 after one', async () => {
    const th = forumThreads({}).find((t) => t.activity === 'fast' && t.createdAt < FORUM_EPOCH_MS)!;
    tw.web.clock.set(FORUM_EPOCH_MS);
    const n = forumPostCount({}, th.id, FORUM_EPOCH_MS);
    const r = await get('forum.test', `/thread/${th.id}?page=last`);
    const lm = r.headers['last-modified']!;
    assert.equal(r.status, 200);
    const nm = await get('forum.test', `/thread/${th.id}?page=last`, { 'if-modified-since': lm });
    assert.equal(nm.status, 304);
    assert.equal(nm.body.length, 0);
    let t = FORUM_EPOCH_MS;
    while (forumPostCount({}, th.id, t) === n) t += 600_000;
    tw.web.clock.set(t);
    const later = await get('forum.test', `/thread/${th.id}?page=last`, {
      'if-modified-since': lm,
    });
    assert.equal(later.status, 200);
    assert.ok(Date.parse(later.headers['last-modified']!) > Date.parse(lm));
    tw.web.clock.set(FORUM_EPOCH_MS);
  });
});
