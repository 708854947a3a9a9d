// news.test's markup noise, read through the crawler's own HTML parser: two fetches of an
// unchanged page differ in their bytes but not in the text or links parseHtml gives, and
// a change of the article shows in the text. (src/testweb/ may not import src/parse/.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseHtml } from '../../src/parse/index.js';
import {
  NEWS_EPOCH_MS,
  newsArticles,
  newsChangeTimes,
  startTestWeb,
  type TestWeb,
} from '../../src/testweb/index.js';
import { rawGet } from '../../src/testweb/testing.js';

const DAY_MS = 86_400_000;
let web: TestWeb;
before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(() => web.close());

const parsed = async (path: string) => {
  const r = await rawGet(web.port, 'news.test', path);
  assert.equal(r.status, 200, path);
  return { body: r.body, page: parseHtml(r.body.toString(), `http://news.test${path}`) };
};

describe('news.test through parseHtml', () => {
  it('raw bytes differ between fetches of an unchanged page, its text and links do not', async () => {
    web.clock.set(NEWS_EPOCH_MS);
    const changing = newsArticles(1, 'small').filter(
      (a) =>
        a.birth < NEWS_EPOCH_MS &&
        newsChangeTimes(1, 'small', a.url, NEWS_EPOCH_MS, NEWS_EPOCH_MS + DAY_MS).length > 0,
    );
    const picks = ['etag', 'last-modified', 'none'].map(
      (v) => changing.find((a) => a.validator === v)!,
    );
    const paths = ['/', '/?page=2', '/section/tech', ...picks.map((a) => `/article/${a.id}`)];
    for (const p of paths) {
      const one = await parsed(p);
      const two = await parsed(p);
      assert.notDeepEqual(one.body, two.body, p);
      assert.ok(one.page.text.length > 200, p);
      assert.equal(one.page.text, two.page.text, p);
      assert.doesNotMatch(one.page.text, /rendered at|[0-9a-f]{16}/, p);
      assert.deepEqual(
        one.page.links.map((l) => l.url),
        two.page.links.map((l) => l.url),
        p,
      );
    }
    for (const a of picks) {
      web.clock.set(NEWS_EPOCH_MS);
      const before = (await parsed(`/article/${a.id}`)).page.text;
      web.clock.set(newsChangeTimes(1, 'small', a.url, NEWS_EPOCH_MS, NEWS_EPOCH_MS + DAY_MS)[0]!);
      assert.notEqual((await parsed(`/article/${a.id}`)).page.text, before, a.url);
    }
  });
});
