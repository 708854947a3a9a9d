import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  LABELS_PATH,
  labels,
  listPageUrls,
  pageFacts,
  pageHtml,
  pageLinksOf,
  startTestWeb,
  type TestWeb,
  TOPIC_IDS,
  type TopicId,
  topicKeywords,
} from './index.js';
import { CLUSTER_SIZE, getModel } from './model.js';
import { homeOutLinks, pageInfo, pageOutLinks, targetTopic } from './pages.js';
import { rawGet } from './testing.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

function split(url: string): [string, string] {
  const u = new URL(url);
  return [u.hostname, u.pathname + u.search];
}

const fetchUrl = (url: string, w: TestWeb = web) => rawGet(w.port, ...split(url));

describe('topical web: determinism and size', () => {
  test('same seed gives the same bytes, another seed other bytes', async () => {
    const urls = listPageUrls({ seed: 1 }, 40).filter((_, i) => i % 7 === 0);
    const other = await startTestWeb({ seed: 2 });
    const again = await startTestWeb({ seed: 1 });
    try {
      for (const url of urls) {
        const a = await fetchUrl(url);
        const b = await fetchUrl(url, again);
        assert.equal(a.status, 200);
        assert.deepEqual(a.body, b.body, url);
        assert.equal(a.body.toString(), pageHtml({ seed: 1 }, url));
      }
      const seed2 = listPageUrls({ seed: 2 }, 5);
      assert.notDeepEqual(seed2, listPageUrls({ seed: 1 }, 5));
      const r2 = await fetchUrl(seed2[0]!, other);
      assert.equal(r2.status, 200);
      assert.notEqual(r2.body.toString(), pageHtml({ seed: 1 }, listPageUrls({ seed: 1 }, 1)[0]!));
    } finally {
      await other.close();
      await again.close();
    }
  });

  test('listPageUrls: stable, unique, limited; sizes as documented', () => {
    const all = listPageUrls({ seed: 1, size: 'small' });
    assert.equal(all.length, 2_000);
    assert.equal(new Set(all).size, all.length);
    assert.deepEqual(listPageUrls({ seed: 1, size: 'small' }, 10), all.slice(0, 10));
    assert.equal(listPageUrls({ size: 'medium' }).length, 20_000);
    assert.equal(listPageUrls({ size: 'large' }, 50_000).length, 50_000);
  });

  test('pages average about 10 KB with 20–60 links', () => {
    const urls = listPageUrls({}).filter((_, i) => i % 5 === 0);
    let bytes = 0;
    for (const url of urls) {
      const html = pageHtml({}, url)!;
      bytes += Buffer.byteLength(html);
      const f = pageFacts({}, url)!;
      const links = (html.match(/<a href=/g) ?? []).length;
      if (f.kind !== 'hub') assert.ok(links >= 20 && links <= 60, `${url}: ${links} links`);
      assert.match(html, /<title>[^<]+<\/title>/);
    }
    const avg = bytes / urls.length;
    assert.ok(avg > 8_000 && avg < 13_000, `average ${avg} bytes`);
  });

  test('Chinese pages have no spaces inside sentences', () => {
    const url = listPageUrls({}).find((u) => {
      const f = pageFacts({}, u);
      return f?.topic === 'grid' && f.kind === 'core';
    })!;
    const article = pageHtml({}, url)!.split('</article>')[0]!;
    const paras = article
      .split('<p>')
      .slice(1)
      .map((p) => p.slice(0, p.indexOf('</p>')).replace(/<[^>]*>/g, ''));
    assert.ok(paras.length > 5);
    for (const p of paras) {
      assert.match(p, /[\u4e00-\u9fff]{10}/);
      assert.doesNotMatch(p, /[\u4e00-\u9fff] [\u4e00-\u9fff]/);
    }
  });
});

describe('topical web: labels', () => {
  test('labels.json on every host equals labels(); topics and keywords as documented', async () => {
    const L = labels({ seed: 1, size: 'small' });
    for (const host of ['portal.test', 'status.test', 'gbk-none.test', 'forum.test']) {
      const r = await rawGet(web.port, host, LABELS_PATH);
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(r.body.toString()), L);
    }
    assert.deepEqual(
      L.topics.map((t) => [t.id, t.language]),
      [
        ['monitor', 'zh'],
        ['grid', 'zh'],
        ['astronomy', 'en'],
        ['cooking', 'en'],
      ],
    );
    for (const t of L.topics) {
      assert.deepEqual(t.topic, topicKeywords(t.id));
      assert.ok(Object.keys(t.keywords).length >= 10);
      assert.ok(t.seeds.length >= 3);
      assert.ok(t.hiddenRegions.length >= 2);
    }
    assert.deepEqual(L.seeds, ['http://portal.test/']);
  });

  test('every labelled URL answers 200 and is of its topic', async () => {
    const L = labels();
    for (const t of L.topics) {
      assert.ok(t.relevant.length > 150, `${t.id}: ${t.relevant.length}`);
      for (const url of t.relevant) {
        assert.equal(pageFacts({}, url)?.topic, t.id, url);
        const r = await fetchUrl(url);
        assert.equal(r.status, 200, url);
      }
      for (const s of t.seeds) assert.equal(pageFacts({}, s)?.topic, t.id, s);
    }
  });

  test('off-topic pages are not labelled', () => {
    const relevant = new Set(labels().topics.flatMap((t) => t.relevant));
    const off = listPageUrls({}).filter((u) => pageFacts({}, u)?.topic === null);
    assert.ok(off.length > 1_000);
    for (const u of off) assert.ok(!relevant.has(u), u);
  });
});

/** A naive keyword VSM (as in the 2004 design): counts, x = f / f_max, cosine. */
function vsm(html: string, keywords: Record<string, number>, zh: boolean): number {
  const text = html.replace(/<[^>]+>/g, ' ').toLowerCase();
  const words = zh ? [] : (text.match(/[a-z]+/g) ?? []);
  const f = Object.keys(keywords).map((k) =>
    zh ? text.split(k).length - 1 : words.filter((w) => w === k).length,
  );
  const fmax = Math.max(...f);
  if (fmax === 0) return 0;
  let num = 0;
  let a = 0;
  let b = 0;
  Object.values(keywords).forEach((w, i) => {
    const x = (f[i] as number) / fmax;
    num += w * x * w;
    a += w * w;
    b += (x * w) ** 2;
  });
  return num / Math.sqrt(a * b);
}

describe('topical web: text', () => {
  test('a keyword VSM at 0.1 separates relevant pages well but not perfectly', () => {
    const urls = listPageUrls({}).filter((_, i) => i % 2 === 0);
    for (const id of TOPIC_IDS) {
      const { keywords } = topicKeywords(id);
      const zh = id === 'monitor' || id === 'grid';
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const url of urls) {
        const f = pageFacts({}, url)!;
        if ((f.language === 'zh') !== zh) continue;
        const hit = vsm(pageHtml({}, url)!, keywords, zh) >= 0.1;
        if (f.topic === id && hit) tp++;
        else if (f.topic === id) fn++;
        else if (hit) fp++;
      }
      const precision = tp / (tp + fp);
      const recall = tp / (tp + fn);
      assert.ok(precision > 0.6 && recall > 0.8, `${id}: precision ${precision}, recall ${recall}`);
      assert.ok(fp > 0, `${id}: some off-topic pages mention keywords`);
      assert.ok(fn > 0 || id === 'grid' || precision < 1, `${id}: not perfect`);
    }
  });
});

for (const size of ['small', 'medium'] as const) {
  describe(`topical web: link structure (${size})`, () => {
    const m = getModel(1, size);
    const N = m.pages;
    const node = (t: number) => (t < 0 ? N + (-1 - t) : t);
    const out: number[][] = [];
    for (let i = 0; i < N; i++) out.push(pageOutLinks(m, i).map(node));
    for (const h of m.hosts) out.push(homeOutLinks(m, h).map(node));
    const topicOf = (n: number): TopicId | null => targetTopic(m, n < N ? n : -1 - (n - N));

    test('topical locality: relevant pages link mostly to the same topic', () => {
      let same = 0;
      let total = 0;
      let offToTopic = 0;
      let offTotal = 0;
      for (let i = 0; i < N; i++) {
        const t = topicOf(i);
        const links = (out[i] as number[]).slice(1); // without the site's home link
        for (const x of links) {
          if (t !== null) {
            total++;
            if (topicOf(x) === t) same++;
          } else {
            offTotal++;
            if (topicOf(x) !== null) offToTopic++;
          }
        }
      }
      assert.ok(same / total > 0.75, `relevant→same topic ${same / total}`);
      assert.ok(offToTopic / offTotal < 0.15, `off-topic→topical ${offToTopic / offTotal}`);
    });

    test('hubs: many in-links and many out-links', () => {
      const indeg = new Array(out.length).fill(0);
      for (const links of out) for (const x of links) indeg[x]++;
      const sorted = [...indeg].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      for (const id of TOPIC_IDS) {
        for (const hub of m.hubs[id]) {
          assert.ok(indeg[hub] > 10 * median, `hub ${hub}: ${indeg[hub]} vs median ${median}`);
          assert.ok((out[hub] as number[]).length >= 55);
        }
      }
    });

    test('hidden regions: reachable only through as many irrelevant pages as documented', () => {
      const L = labels({ size });
      for (const topic of L.topics) {
        // 0-1 BFS from the topic's seeds: entering an off-topic page costs 1.
        const dist = new Array(out.length).fill(Number.POSITIVE_INFINITY);
        const deque: number[] = [];
        for (const s of topic.seeds) {
          const f = pageFacts({ size }, s)!;
          const n =
            f.kind === 'home' ? N + m.hostByName.get(new URL(s).hostname)!.index : pageIdOf(s);
          dist[n] = 0;
          deque.push(n);
        }
        while (deque.length > 0) {
          const n = deque.shift() as number;
          for (const x of out[n] as number[]) {
            const d = dist[n] + (topicOf(x) === topic.id ? 0 : 1);
            if (d < dist[x]) {
              dist[x] = d;
              if (topicOf(x) === topic.id) deque.unshift(x);
              else deque.push(x);
            }
          }
        }
        const hiddenPages = new Set<number>();
        for (const region of topic.hiddenRegions) {
          for (const url of region.pages) {
            const id = pageIdOf(url);
            hiddenPages.add(id);
            assert.equal(dist[id], region.depth, `${topic.id} ${url}`);
            assert.equal(pageFacts({ size }, url)?.hidden, true);
          }
          for (const b of region.bridges) assert.equal(pageFacts({ size }, b)?.topic, null);
          assert.deepEqual(pageLinksOf({ size }, region.entry).includes(region.bridges[0]!), true);
        }
        assert.ok(new Set(topic.hiddenRegions.map((r) => r.depth)).size === 2, 'depths 1 and 2');
        // Every other relevant page is reachable through relevant pages only.
        for (const url of topic.relevant) {
          const f = pageFacts({ size }, url)!;
          if (f.kind === 'home') continue;
          const id = pageIdOf(url);
          if (!hiddenPages.has(id)) assert.equal(dist[id], 0, url);
        }
      }
    });

    function pageIdOf(url: string): number {
      const id = Number(/\/(\d+)\.html$/.exec(url)?.[1]);
      assert.equal(pageInfo(m, id).cluster, Math.floor(id / CLUSTER_SIZE));
      return id;
    }
  });
}

describe('topical hosts', () => {
  test('home, about, robots.txt, 404 and portal', async () => {
    const L = labels();
    const home = L.topics[2]!.seeds.find((s) => s.endsWith('.test/'))!;
    const r = await fetchUrl(home);
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), pageHtml({}, home));
    const [host] = split(home);
    assert.equal((await rawGet(web.port, host, '/about.html')).status, 200);
    assert.match((await rawGet(web.port, host, '/robots.txt')).body.toString(), /User-agent: \*/);
    assert.equal((await rawGet(web.port, host, '/news/999999.html')).status, 404);
    const portal = (await rawGet(web.port, 'portal.test', '/')).body.toString();
    for (const h of getModel(1, 'small').hosts)
      assert.ok(portal.includes(`http://${h.name}/`), h.name);
    assert.ok(portal.includes('http://forum.test/'));
  });

  test('a page is only served on its own host and path', async () => {
    const url = listPageUrls({}, 1)[0]!;
    const [host, path] = split(url);
    assert.equal((await rawGet(web.port, host, path)).status, 200);
    const other = getModel(1, 'small').hosts.find((h) => h.name !== host)!.name;
    assert.equal((await rawGet(web.port, other, path)).status, 404);
    assert.equal((await rawGet(web.port, host, path.replace(/^\/[a-z]+/, '/zzz'))).status, 404);
  });
});
