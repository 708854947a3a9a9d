// The report built from real SQLite stores written through the Store API.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { rankStore, topPagesByScore } from '../ranking/index.js';
import { createMemoryStore, openStore, type PageRecord, type Store } from '../store/index.js';
import { buildReport, gatherReport, writeReport } from './index.js';
import { EVIL_TITLE, type SyntheticCrawl, writeSyntheticCrawl } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-report-'));
after(() => rmSync(root, { recursive: true, force: true }));

const charts = (html: string) => html.match(/<svg class="chart"/g)?.length ?? 0;
const cell = (label: string, html: string) =>
  new RegExp(`<th>${label}</th><td class="n">([^<]*)</td>`).exec(html)?.[1];

/** Markup that would make the page load something: it must have none. */
function assertSelfContained(html: string): void {
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<link/i);
  assert.doesNotMatch(html, /<(img|iframe|object|embed|audio|video|source|use|image)\b/i);
  assert.doesNotMatch(html, /<[^>]*\s(src|srcset|xlink:href|action|formaction|background)\s*=/i);
  assert.doesNotMatch(html, /url\(|@import/i);
  assert.doesNotMatch(html, /<[^>]*\son\w+\s*=/i, 'no event handler attributes');
  // The only href attributes are links to http(s) pages.
  for (const m of html.matchAll(/<(\w+)[^>]*\shref\s*=\s*"([^"]*)"/gi)) {
    assert.equal(m[1]?.toLowerCase(), 'a', m[0]);
    assert.match(m[2] ?? '', /^https?:\/\//, m[0]);
  }
  // Every http(s):// in the markup is either an <a href> or escaped text of a cell.
  const withoutLinks = html.replace(/<a href="https?:\/\/[^"]*"/g, '<a');
  for (const m of withoutLinks.matchAll(/https?:\/\/[^\s"<]*/g)) {
    const before = withoutLinks.slice(0, m.index);
    assert.ok(before.lastIndexOf('>') > before.lastIndexOf('<'), `URL inside a tag: ${m[0]}`);
  }
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">/,
  );
  assert.match(html, /^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/);
}

describe('report of a crawl of a few hundred URLs', () => {
  let store: Store;
  let crawl: SyntheticCrawl;
  let html: string;
  let pages: PageRecord[];
  const dir = join(root, 'grid');
  const now = Date.UTC(2030, 0, 1);

  before(async () => {
    const w = await openStore(dir, { create: true });
    crawl = await writeSyntheticCrawl(w, { outcomes: 400 });
    await w.close();
    store = await openStore(dir, { readonly: true });
    html = await buildReport(store, { now, storePath: dir });
    pages = [];
    for await (const p of store.pages()) pages.push(p);
  });
  after(() => store.close());

  it('shows the statistics table of DESIGN 1.1', async () => {
    assert.equal(crawl.fetched, 400);
    assert.equal(cell('Docs fetched', html), '400');
    assert.equal(cell('Failed', html), String(crawl.error));
    assert.equal(cell('Rejected', html), String(crawl.discard));
    assert.equal(cell('Kept', html), String(crawl.complete));
    const s = await store.stats();
    assert.equal(cell('Discovered', html), String(s.discovered));
    const rate = crawl.complete / (crawl.complete + crawl.discard);
    assert.equal(cell('Harvest rate', html), `${(rate * 100).toFixed(1)}%`);
    // Two runs: 500 ms before the first fetch → 500 ms after the last.
    const totalMs = crawl.lastFetchAt - crawl.firstFetchAt + 250 + 1000;
    const m = Math.floor(totalMs / 60_000);
    const sec = Math.floor(totalMs / 1000) % 60;
    assert.equal(cell('Total time', html), `${m}m${String(sec).padStart(2, '0')}s`);
    assert.match(html, /<h3>Runs \(2\)<\/h3>/);
    assert.match(html, /<td>stopped<\/td>.*<td>max-pages<\/td>/s);
    for (const k of ['waiting', 'processing', 'complete', 'discard', 'error'] as const)
      assert.ok(html.includes(`<div><b>${s.counts[k].toLocaleString('en')}</b>${k}</div>`), k);
  });

  it('has the topic in the header, Chinese included', () => {
    assert.match(html, /<title>Crawl report: 电网<\/title>/);
    assert.match(html, /<h1>Crawl report: 电网<\/h1>/);
    assert.match(html, /<dt>Threshold<\/dt><dd>0\.1<\/dd>/);
    assert.match(
      html,
      /<li>电网 <span>1<\/span><\/li><li>power grid <span>0\.8<\/span><\/li><li>变电站 <span>0\.6<\/span>/,
    );
    assert.ok(html.includes(`<dt>Store</dt><dd>${dir}</dd>`));
    assert.match(html, /<dt>Generated<\/dt><dd>2030-01-01 00:00:00 UTC<\/dd>/);
  });

  it('draws the four charts, with the threshold marked', () => {
    assert.equal(charts(html), 4);
    for (const t of [
      'Harvest rate over the crawl',
      'Relevance of fetched pages',
      'URL states over time',
      'Fetches per host (busiest hosts)',
    ])
      assert.ok(html.includes(`<title>${t}</title>`), t);
    assert.match(html, /<text[^>]*>threshold 0\.1<\/text>/);
    const pageCount = crawl.complete + crawl.discard;
    assert.ok(
      html.includes(`last ${Math.ceil(pageCount / 10)} pages`),
      'window: a tenth of the pages',
    );
    assert.doesNotMatch(html, /NaN|Infinity|undefined/);
  });

  it('lists the top pages by relevance, best first, titles escaped', () => {
    const want = pages
      .map((p, i) => ({ ...p, i }))
      .sort((a, b) => b.relevance - a.relevance || a.i - b.i)
      .slice(0, 25);
    const top = html.slice(
      html.indexOf('<section id="top">'),
      html.indexOf('<section id="hosts">'),
    );
    const links = [...top.matchAll(/<a href="([^"]*)"[^>]*>/g)].map((m) => m[1]);
    assert.deepEqual(
      links,
      want.map((p) => p.url),
    );
    assert.equal(want[0]?.title, EVIL_TITLE);
    assert.ok(
      top.includes(
        '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;',
      ),
    );
    assert.ok(top.includes('电网新闻'));
  });

  it('is self-contained and inert', () => assertSelfContained(html));

  it('lists the top pages by P with relevance and PageRank once ranked, and the duplicates', async () => {
    assert.match(
      html,
      /<section id="ranked"><h2>Top pages by final score P<\/h2><p class="note">Not ranked yet/,
    );
    assert.equal(cell('Duplicates', html), '0');
    const rankedDir = join(root, 'ranked');
    const w = await openStore(rankedDir, { create: true });
    await writeSyntheticCrawl(w, { outcomes: 400 });
    await rankStore(w);
    await w.close();
    const r = await openStore(rankedDir, { readonly: true });
    try {
      const out = await buildReport(r, { now, storePath: rankedDir });
      const want = await topPagesByScore(r, 25);
      assert.ok(want.length > 5);
      const section = out.slice(
        out.indexOf('<section id="ranked">'),
        out.indexOf('<section id="top">'),
      );
      assert.deepEqual(
        [...section.matchAll(/<a href="([^"]*)"[^>]*>/g)].map((m) => m[1]),
        want.map((p) => p.url),
      );
      const first = want[0];
      assert.ok(first && first.pageRank !== null);
      assert.ok(
        section.includes(
          `<td class="n"><b>${first.score.toFixed(3)}</b></td><td class="n">${first.relevance.toFixed(3)}</td><td class="n">${first.pageRank.toFixed(3)}</td>`,
        ),
      );
      assert.match(section, /P = 0\.6·relevance \+ 0\.4·PR/);
      assertSelfContained(out);
    } finally {
      await r.close();
    }
  });

  it('keeps the line charts to at most ~500 points', async () => {
    const d = await gatherReport(store, { topPages: 3, topHosts: 5, now, storePath: null });
    assert.equal(d.harvest.points.at(-1)?.pages, crawl.complete + crawl.discard);
    assert.equal(d.timeline.points.at(-1)?.fetches, 400);
    assert.equal(d.topPages.length, 3);
    assert.equal(d.hosts.length, 5);
    const binned = d.histogram.complete.reduce((a, b) => a + b, 0);
    assert.equal(binned, crawl.complete);
    // Everything below the threshold is a discard, everything at or above it kept.
    assert.deepEqual(d.histogram.complete.slice(0, 2), [0, 0]);
    assert.equal(
      d.histogram.discard.slice(2).reduce((a, b) => a + b, 0),
      0,
    );
  });

  it('writeReport writes the file through a temporary name', async () => {
    const out = join(root, 'report.html');
    const r = await writeReport(store, out, { now, title: 'Grid <b>crawl</b>' });
    const text = readFileSync(out, 'utf8');
    assert.equal(r.bytes, Buffer.byteLength(text));
    assert.ok(!existsSync(`${out}.tmp`));
    assert.match(text, /<h1>Grid &lt;b&gt;crawl&lt;\/b&gt;<\/h1>/);
  });

  it('refuses invalid options, naming the field', async () => {
    await assert.rejects(
      buildReport(store, { topPages: -1 }),
      (e) => e instanceof InvalidOptionError && /topPages/.test(e.message),
    );
    await assert.rejects(
      buildReport(store, { colour: 'red' } as never),
      (e) => e instanceof InvalidOptionError && /colour/.test(e.message),
    );
  });
});

describe('small and empty stores', () => {
  it('an empty store says that no pages were fetched', async () => {
    const s = await openStore(join(root, 'empty'), { create: true });
    const html = await buildReport(s);
    await s.close();
    assert.equal(charts(html), 0);
    assert.equal(html.match(/No pages fetched yet\./g)?.length, 5);
    assert.match(html, /<title>Crawl report<\/title>/);
    assert.match(html, /<dt>Topic<\/dt><dd><i>not recorded<\/i><\/dd>/);
    assert.equal(cell('Docs fetched', html), '0');
    assert.equal(cell('Harvest rate', html), '–');
    assertSelfContained(html);
  });

  it('a crawl of one page still draws every chart', async () => {
    const s = createMemoryStore();
    await s.addSeeds(['http://one.test/']);
    await s.claim(1);
    await s.complete('http://one.test/', {
      fetchedAt: 5000,
      status: 200,
      bytes: 10,
      title: 'Only',
      relevance: 0.4,
    });
    const html = await buildReport(s, { now: 6000 });
    assert.equal(charts(html), 4);
    assert.match(html, /<circle /, 'a single point is drawn as a dot');
    assert.equal(cell('Harvest rate', html), '100.0%');
    assert.match(html, /<title>URL states over the fetches<\/title>/, 'no time span: by fetch');
    assert.doesNotMatch(html, /NaN|Infinity/);
  });

  it('a crawl whose fetches all failed says so', async () => {
    const s = createMemoryStore();
    await s.addSeeds(['http://down.test/']);
    await s.claim(1);
    await s.fail('http://down.test/', { fetchedAt: 1, error: 'FC_ERR_DNS: no such host' });
    const html = await buildReport(s);
    assert.equal(html.match(/all 1 fetches failed/g)?.length, 2);
    assert.equal(charts(html), 2, 'states and hosts');
  });
});

describe('URL states over time: the waiting approximation', () => {
  it('counts URLs discovered by each fetch time minus the fetches so far', async () => {
    const s = createMemoryStore();
    const add = (url: string, discoveredAt: number) =>
      s.addUrls([{ url, depth: 0, priority: 1, discoveredAt }]);
    await add('http://a.test/1', 0);
    await add('http://a.test/2', 0);
    await add('http://a.test/3', 1500);
    await add('http://a.test/4', 2500);
    await add('http://a.test/5', 9000); // after the last fetch: counted at the end
    const claimed = await s.claim(3);
    const [u1, u2, u3] = claimed.map((c) => c.url) as [string, string, string];
    const page = { status: 200, bytes: 1, relevance: 0.5 };
    await s.complete(u1, { ...page, fetchedAt: 1000 });
    await s.discard(u2, { ...page, relevance: 0.01, fetchedAt: 2000 });
    await s.fail(u3, { fetchedAt: 3000, error: 'x' });
    const d = await gatherReport(s, { topPages: 5, topHosts: 5, now: 0, storePath: null });
    assert.equal(d.timeline.axis, 'time');
    assert.deepEqual(
      d.timeline.points.map((p) => [p.at, p.complete, p.discard, p.error, p.waiting]),
      [
        [1000, 0, 0, 0, 2], // before the first fetch: the two URLs known then
        [1000, 1, 0, 0, 1], // known by 1000: 2, fetched 1
        [2000, 1, 1, 0, 1], // known: 3, fetched 2
        [3000, 1, 1, 1, 2], // known: all 5, fetched 3
      ],
    );
    assert.deepEqual(
      d.harvest.points.map((p) => [p.pages, p.cumulative]),
      [
        [1, 1],
        [2, 0.5],
      ],
    );
  });

  it('switches to fetch order when an idle gap would dominate the time axis', async () => {
    const s = createMemoryStore();
    const urls = Array.from({ length: 12 }, (_, i) => `http://g.test/${i}`);
    await s.addUrls(urls.map((url) => ({ url, depth: 0, priority: 1, discoveredAt: 0 })));
    await s.claim(12);
    for (const [i, url] of urls.entries()) {
      // Two runs a day apart.
      const fetchedAt = (i < 6 ? 0 : 86_400_000) + i * 1000;
      await s.complete(url, { fetchedAt, status: 200, bytes: 1, relevance: 0.5 });
    }
    const d = await gatherReport(s, { topPages: 1, topHosts: 1, now: 0, storePath: null });
    assert.equal(d.timeline.axis, 'fetches');
  });
});
