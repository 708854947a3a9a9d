// Sitemap discovery against the real test web: every URL its sitemaps list, the
// sitemap-only pages included, through robots.txt lines, indexes and gzip children.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createFetcher, type Fetcher } from '../fetch/index.js';
import {
  listPageUrls,
  sitemapHosts,
  sitemapOnlyUrls,
  sitemapPageUrls,
  startTestWeb,
  type TestWeb,
} from '../testweb/index.js';
import { createSitemapDiscovery, type DiscoveredUrl, discoverSitemaps } from './index.js';

let web: TestWeb;
let fetcher: Fetcher;
before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  fetcher = createFetcher({
    resolve: [web.resolve],
    delayMs: 0,
    concurrency: 16,
    perHostConcurrency: 2,
    retryBaseDelayMs: 10,
  });
});
after(async () => {
  await fetcher.close();
  await web.close();
});

const topicalHosts = () => [...new Set(listPageUrls().map((u) => new URL(u).hostname))].sort();
const sorted = (xs: Iterable<string>) => [...xs].sort();

describe('discoverSitemaps on the test web', () => {
  test('all listed URLs of the sitemap hosts, sitemap-only pages included; scope applied', async () => {
    const hosts = topicalHosts();
    const inScope = (u: string) => !new URL(u).pathname.startsWith('/blog/');
    const got = new Map<string, DiscoveredUrl>();
    let batches = 0;
    web.clearLog();
    const r = await discoverSitemaps({
      fetcher,
      origins: hosts.map((h) => `http://${h}`),
      inScope,
      batchSize: 100,
      onUrls: async (urls) => {
        batches++;
        assert.ok(urls.length > 0 && urls.length <= 100);
        for (const u of urls) {
          assert.ok(!got.has(u.url), `${u.url} delivered twice`);
          got.set(u.url, u);
        }
      },
    });
    const sm = sitemapHosts();
    const listed = sm.flatMap((h) => sitemapPageUrls({}, h.host));
    const expected = listed.filter(inScope);
    assert.ok(expected.length < listed.length, 'the scope leaves some out');
    assert.deepEqual(sorted(got.keys()), sorted(expected));
    const only = sitemapOnlyUrls().filter(inScope);
    assert.ok(only.length > 0);
    for (const u of only) assert.ok(got.has(u), `sitemap-only ${u} found`);

    const robots = sm.filter((h) => h.style === 'robots');
    assert.deepEqual(r.errors, []);
    assert.equal(r.origins, hosts.length);
    assert.equal(r.withoutSitemap, hosts.length - sm.length);
    assert.equal(r.sitemaps, robots.length * 5 + (sm.length - robots.length));
    assert.equal(r.inScope, got.size);
    assert.equal(r.urls, listed.length + robots.length * 10, 'news sitemaps list 10 each');
    assert.equal(r.inScope + r.outOfScope + r.duplicates, r.urls);
    assert.equal(r.skipped, 0);
    assert.equal(r.aborted, false);
    assert.ok(batches >= sm.length);

    // The gzip child (raw gzip bytes) and the gzip-encoded one were fetched and read.
    for (const h of robots) {
      for (const path of ['/sitemap-2.xml.gz', '/sitemap-3.xml']) {
        const hit = web.requests.find((q) => q.host === h.host && q.path === path);
        assert.equal(hit?.status, 200, `${h.host}${path}`);
      }
      const third = sitemapPageUrls({}, h.host).filter(inScope).at(-1) as string;
      assert.ok(got.has(third), 'the last child is read');
    }
    // Hosts without sitemaps: /sitemap.xml answered 404, nothing else was asked.
    const without = hosts.filter((h) => !sm.some((s) => s.host === h));
    for (const h of without) {
      const asked = web.requests.filter((q) => q.host === h).map((q) => `${q.path} ${q.status}`);
      assert.deepEqual(asked.sort(), ['/robots.txt 200', '/sitemap.xml 404']);
    }

    // Fields: lastmod (both forms) as written and in ms, priority and changefreq.
    const withTime = [...got.values()].find((u) => u.lastmod?.includes('T'));
    assert.ok(withTime?.lastmodMs === Date.parse(withTime?.lastmod ?? ''));
    const dateOnly = [...got.values()].find((u) => u.lastmod?.length === 10);
    assert.equal(dateOnly?.lastmodMs, Date.parse(`${dateOnly?.lastmod}T00:00:00Z`));
    assert.ok([...got.values()].some((u) => u.priority === 0.8 && u.changefreq === 'weekly'));
    const home = got.get(`http://${robots[0]?.host}/`);
    assert.equal(home?.priority, 1);
    assert.equal(home?.changefreq, 'daily');
    assert.match(home?.sitemap ?? '', /\/sitemap-1\.xml$/);
    for (const u of got.values()) assert.doesNotMatch(u.url, /\.jpg$/, 'image entries left out');
  });

  test('origins with a port: robots.txt lines carry it; the default scope is the origin host', async () => {
    const h = sitemapHosts().find((x) => x.style === 'robots');
    assert.ok(h);
    const got: string[] = [];
    const r = await discoverSitemaps({
      fetcher,
      origins: [`${web.origin(h.host)}/some/page.html`, web.origin(h.host)],
      onUrls: (urls) => {
        got.push(...urls.map((u) => u.url));
      },
    });
    const expected = sitemapPageUrls({}, h.host).map((u) =>
      u.replace(`//${h.host}/`, `//${h.host}:${web.port}/`),
    );
    assert.deepEqual(sorted(got), sorted(expected));
    assert.equal(r.origins, 1, 'an origin given twice is read once');
    assert.equal(r.sitemaps, 5);
    assert.deepEqual(r.errors, []);
  });

  test('in the background: origins added as they are met, each read once', async () => {
    const sm = sitemapHosts();
    const got = new Set<string>();
    const d = createSitemapDiscovery({
      fetcher,
      originConcurrency: 2,
      onUrls: (urls) => {
        for (const u of urls) got.add(u.url);
      },
    });
    assert.equal(d.add(`http://${sm[0]?.host}/`), true);
    assert.equal(d.add(`http://${sm[0]?.host}/other.html`), false, 'same origin');
    assert.ok(d.pending >= 1);
    const first = await d.idle();
    assert.equal(first.origins, 1);
    assert.equal(d.pending, 0);
    for (const h of sm) d.add(`http://${h.host}`);
    const all = await d.idle();
    assert.equal(all.origins, sm.length);
    assert.deepEqual(sorted(got), sorted(sm.flatMap((h) => sitemapPageUrls({}, h.host))));
    assert.deepEqual(d.stats(), all);
    const closed = await d.close();
    assert.equal(closed.aborted, false);
    assert.equal(d.add('http://late.test/'), false, 'closed');
  });
});
