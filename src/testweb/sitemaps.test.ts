import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import {
  duplicateOf,
  duplicateVariants,
  labels,
  listPageUrls,
  pageFacts,
  pageHtml,
  pageLinksOf,
  type SitemapHostInfo,
  sitemapHosts,
  sitemapOnlyUrls,
  sitemapPageUrls,
  startTestWeb,
  type TestWeb,
  variantHosts,
} from './index.js';
import { getModel } from './model.js';
import { rawGet } from './testing.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] as string);
const ofStyle = (style: SitemapHostInfo['style']) =>
  sitemapHosts().find((h) => h.style === style) as SitemapHostInfo;
/** The article text of a page: title, byline and paragraphs, tags removed. */
function articleText(html: string): string {
  const start = html.indexOf('<h1>');
  let end = html.indexOf('<p class="next">');
  if (end < 0) end = html.indexOf('</article>');
  return html
    .slice(start, end)
    .replace(/<p class="(tools|printed)">.*?<\/p>\n/g, '')
    .replace(/<[^>]+>/g, '');
}

describe('test web: sitemap hosts', () => {
  test('a third of the topical hosts, both styles, disjoint from the variant hosts', () => {
    const hosts = sitemapHosts();
    const m = getModel(1, 'small');
    assert.equal(hosts.length, Math.ceil(m.hosts.length / 3));
    assert.ok(hosts.some((h) => h.style === 'robots') && hosts.some((h) => h.style === 'plain'));
    const variants = new Set(variantHosts());
    assert.ok(variants.size >= 2);
    for (const h of hosts) assert.ok(!variants.has(h.host), h.host);
    assert.deepEqual(sitemapHosts({ seed: 1 }), hosts, 'deterministic');
    assert.notDeepEqual(
      sitemapHosts({ seed: 2 }).map((h) => h.host),
      hosts.map((h) => h.host),
      'another seed, other hosts',
    );
  });

  test('robots hosts: robots.txt lines with the Host header, index → children, gzip child', async () => {
    const h = ofStyle('robots');
    const robots = (await rawGet(web.port, `${h.host}:${web.port}`, '/robots.txt')).body.toString();
    const base = `http://${h.host}:${web.port}`;
    assert.match(robots, /^User-agent: \*\nDisallow: \/search\n/);
    assert.ok(robots.includes(`\nSitemap: ${base}/sitemap.xml\n`), robots);
    assert.ok(robots.includes(`\nSitemap: ${base}/sitemap-news.xml\n`), robots);
    const noPort = (await rawGet(web.port, h.host, '/robots.txt')).body.toString();
    assert.ok(noPort.includes(`Sitemap: http://${h.host}/sitemap.xml`), 'no port when none sent');

    const index = await rawGet(web.port, `${h.host}:${web.port}`, '/sitemap.xml');
    assert.equal(index.status, 200);
    assert.match(String(index.headers['content-type']), /^application\/xml/);
    const indexXml = index.body.toString();
    assert.match(
      indexXml,
      /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const children = locs(indexXml);
    assert.deepEqual(children, [
      `${base}/sitemap-1.xml`,
      `${base}/sitemap-2.xml.gz`,
      `${base}/sitemap-3.xml`,
    ]);
    assert.match(indexXml, /<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);

    const listed: string[] = [];
    for (const child of children) {
      const path = new URL(child).pathname;
      const r = await rawGet(web.port, `${h.host}:${web.port}`, path, {
        headers: { 'accept-encoding': 'gzip' },
      });
      assert.equal(r.status, 200, path);
      let xml: string;
      if (path.endsWith('.gz')) {
        assert.equal(r.headers['content-type'], 'application/x-gzip');
        assert.equal(r.headers['content-encoding'], undefined, 'raw gzip bytes, not an encoding');
        assert.deepEqual([...r.body.subarray(0, 2)], [0x1f, 0x8b]);
        xml = gunzipSync(r.body).toString();
      } else if (path === '/sitemap-3.xml') {
        assert.equal(r.headers['content-encoding'], 'gzip');
        xml = gunzipSync(r.body).toString();
        const plain = await rawGet(web.port, `${h.host}:${web.port}`, path);
        assert.equal(plain.headers['content-encoding'], undefined);
        assert.equal(plain.body.toString(), xml);
      } else xml = r.body.toString();
      assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset /);
      listed.push(...locs(xml));
    }
    const expected = sitemapPageUrls({}, h.host).map((u) =>
      u.replace(h.host, `${h.host}:${web.port}`),
    );
    assert.deepEqual(listed, expected);

    const news = (await rawGet(web.port, h.host, '/sitemap-news.xml')).body.toString();
    const newsUrls = locs(news);
    assert.equal(newsUrls.length, 10);
    for (const u of newsUrls) assert.ok(sitemapPageUrls({}, h.host).includes(u), u);
  });

  test('plain hosts: /sitemap.xml is a urlset, no robots.txt line, no index files', async () => {
    const h = ofStyle('plain');
    const robots = (await rawGet(web.port, h.host, '/robots.txt')).body.toString();
    assert.doesNotMatch(robots, /Sitemap/i);
    const xml = (await rawGet(web.port, h.host, '/sitemap.xml')).body.toString();
    assert.match(xml, /<urlset xmlns="[^"]+" xmlns:image="[^"]+">/);
    assert.deepEqual(locs(xml), sitemapPageUrls({}, h.host));
    assert.match(xml, /<image:image><image:loc>[^<]+\.jpg<\/image:loc><\/image:image>/);
    assert.equal((await rawGet(web.port, h.host, '/sitemap-1.xml')).status, 404);
    const other = getModel(1, 'small').hosts.find(
      (x) => !sitemapHosts().some((s) => s.host === x.name),
    );
    assert.ok(other);
    assert.equal((await rawGet(web.port, other.name, '/sitemap.xml')).status, 404);
  });

  test('entries: home first, lastmod on all, priority and changefreq on some, no hidden pages', () => {
    const m = getModel(1, 'small');
    const L = labels();
    const hidden = new Set(
      L.topics.flatMap((t) => t.hiddenRegions.flatMap((r) => [...r.pages, ...r.bridges])),
    );
    for (const h of sitemapHosts()) {
      const urls = sitemapPageUrls({}, h.host);
      assert.equal(urls[0], `http://${h.host}/`);
      assert.equal(new Set(urls).size, urls.length, 'no URL twice');
      for (const u of urls) assert.ok(!hidden.has(u), `${u} is hidden or a bridge`);
      const host = m.hostByName.get(h.host);
      assert.ok(host);
      const visible = host.visibleClusters.length * 20;
      assert.ok(urls.length > visible * 0.9, `${h.host}: ${urls.length} of ${visible}`);
    }
    assert.deepEqual(sitemapPageUrls({}, 'no-such.test'), []);
  });
});

describe('test web: sitemap-only pages', () => {
  test('served like other pages, with a topic and language like their host, linked from nowhere', async () => {
    const only = sitemapOnlyUrls();
    assert.ok(only.length >= 3 * sitemapHosts().length, String(only.length));
    const listed = new Set(listPageUrls());
    const m = getModel(1, 'small');
    const linked = new Set<string>();
    for (const u of listed) for (const l of pageLinksOf({}, u)) linked.add(l);
    for (const h of m.hosts) for (const l of pageLinksOf({}, `http://${h.name}/`)) linked.add(l);
    for (const url of only) {
      assert.ok(!listed.has(url), url);
      assert.ok(!linked.has(url), `${url} is linked`);
      const host = new URL(url).hostname;
      assert.ok(sitemapPageUrls({}, host).includes(url), `${url} in its host's sitemap`);
      const f = pageFacts({}, url);
      assert.ok(f, url);
      const hostInfo = m.hostByName.get(host)!;
      assert.equal(f.language, hostInfo.lang);
      assert.equal(f.topic, hostInfo.topic, `${url}: topic like its host's`);
      assert.equal(f.hidden, false);
      const r = await rawGet(web.port, host, new URL(url).pathname);
      assert.equal(r.status, 200, url);
      assert.equal(r.body.toString(), pageHtml({}, url));
      assert.ok(r.body.length > 5_000, `${url}: ${r.body.length} bytes`);
      assert.ok(r.headers['last-modified']);
    }
    // The path of a sitemap-only page on another host, or an id past them, is 404.
    const first = new URL(only[0] as string);
    const other = m.hosts.find((h) => h.name !== first.hostname)!.name;
    assert.equal((await rawGet(web.port, other, first.pathname)).status, 404);
    const past = first.pathname.replace(/\d+\.html$/, '99999.html');
    assert.equal((await rawGet(web.port, first.hostname, past)).status, 404);
  });

  test('labels: not in relevant, listed per topic in sitemapOnly', () => {
    const L = labels();
    const only = new Set(sitemapOnlyUrls());
    for (const t of L.topics) {
      for (const u of t.relevant) assert.ok(!only.has(u), u);
      for (const u of t.sitemapOnly) {
        assert.ok(only.has(u), u);
        assert.equal(pageFacts({}, u)?.topic, t.id);
      }
    }
    const labelled = L.topics.flatMap((t) => t.sitemapOnly).length;
    const topical = [...only].filter((u) => pageFacts({}, u)?.topic !== null).length;
    assert.equal(labelled, topical);
    assert.ok(labelled > 0);
  });
});

describe('test web: duplicate variants', () => {
  test('variant pages link to their print view and carry session ids in tool links', () => {
    const [print, self, next] = duplicateVariants({}, 3);
    assert.ok(print && self && next);
    assert.match(print.url, /^http:\/\/[^/]+\/print\/[a-z]+\/\d+\.html$/);
    assert.equal(self.of, print.of);
    assert.match(self.url, /\?s=[0-9a-f]{8}$/);
    const html = pageHtml({}, print.of)!;
    const host = new URL(print.of).hostname;
    assert.ok(variantHosts().includes(host));
    assert.ok(html.includes(`href="${new URL(print.url).pathname}"`), 'print link');
    assert.ok(html.includes(`href="${self.url}"`), 'session link to itself');
    assert.ok(html.includes(`href="${next.url}"`), 'session link to the next page');
    assert.equal(duplicateOf({}, next.url), next.of);
    // Only the variant hosts have them.
    const plain = listPageUrls().find((u) => !variantHosts().includes(new URL(u).hostname))!;
    assert.doesNotMatch(pageHtml({}, plain)!, /\?s=|\/print\//);
    assert.equal(duplicateOf({}, plain), undefined);
    assert.equal(duplicateOf({}, `${plain}?s=0123abcd`), undefined);
    assert.equal(duplicateOf({}, print.of), undefined);
  });

  test('print view: same article text, another layout; served', async () => {
    const { url, of } = duplicateVariants({}, 1)[0]!;
    const u = new URL(url);
    const r = await rawGet(web.port, u.hostname, u.pathname);
    assert.equal(r.status, 200);
    const printed = r.body.toString();
    assert.equal(printed, pageHtml({}, url));
    const page = pageHtml({}, of)!;
    assert.equal(articleText(printed), articleText(page));
    assert.doesNotMatch(printed, /<nav>/);
    assert.match(page, /<nav>/);
    assert.ok(printed.includes(`<a href="${of}">${of}</a>`), 'printed-from line');
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
    assert.notEqual(title(printed), title(page));
    assert.equal((printed.match(/<a href=/g) ?? []).length, 1, 'only the printed-from link');
    assert.equal(pageFacts({}, url), undefined);
    // No print views elsewhere.
    const plain = listPageUrls().find((x) => !variantHosts().includes(new URL(x).hostname))!;
    const p = new URL(plain);
    assert.equal((await rawGet(web.port, p.hostname, `/print${p.pathname}`)).status, 404);
  });

  test('session variants: the same page, differing only in the session ids of its links', async () => {
    const vs = duplicateVariants({}, 60).filter((v) => v.url.includes('?s='));
    // vs[0] is the first page in its own session (the same bytes as the page itself);
    // vs[1] is the next page in that session.
    const same = new URL(vs[0]!.url);
    const r0 = await rawGet(web.port, same.hostname, same.pathname + same.search);
    assert.equal(r0.body.toString(), pageHtml({}, vs[0]!.of));
    const { url, of } = vs[1]!;
    const u = new URL(url);
    const served = (await rawGet(web.port, u.hostname, u.pathname + u.search)).body.toString();
    assert.equal(served, pageHtml({}, url));
    const canonical = pageHtml({}, of)!;
    const sid = u.searchParams.get('s')!;
    assert.ok(served.includes(`?s=${sid}"`), 'the session carries on in the links');
    assert.notEqual(served, canonical);
    const strip = (html: string) => html.replace(/\?s=[0-9a-f]{8}/g, '?s=');
    assert.equal(strip(served), strip(canonical));
    // Another session: another URL, the same difference only.
    const other = `${of}?s=0123abcd`;
    assert.equal(duplicateOf({}, other), of);
    const o = new URL(other);
    const third = (await rawGet(web.port, o.hostname, o.pathname + o.search)).body.toString();
    assert.equal(strip(third), strip(canonical));
    assert.ok(third.includes('?s=0123abcd"'));
    // A malformed session id is no session: the canonical page.
    const bad = (await rawGet(web.port, o.hostname, `${o.pathname}?s=xyz`)).body.toString();
    assert.equal(bad, canonical);
    // Variants of one page all point to it.
    for (const v of vs) assert.equal(duplicateOf({}, v.url), v.of);
  });

  test('labels and link facts ignore the variants', () => {
    const L = labels();
    const all = new Set(L.topics.flatMap((t) => t.relevant));
    for (const v of duplicateVariants({}, 200)) assert.ok(!all.has(v.url), v.url);
    const { of } = duplicateVariants({}, 1)[0]!;
    for (const l of pageLinksOf({}, of)) assert.doesNotMatch(l, /\?s=|\/print\//);
  });
});
