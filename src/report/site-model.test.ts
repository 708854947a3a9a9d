// The report's site model section: requests per URL pattern and the share on valid
// patterns, from a store whose crawl kept its model (meta `sitemodel.model`, or the
// learnt `site-model.json` in the store's folder); none for a store without a model.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { META_SITE_MODEL } from '../crawl/index.js';
import { writeSiteModel } from '../sitemodel/index.js';
import { handModel } from '../sitemodel/testing.js';
import { createMemoryStore, type Outcome, openStore, type Store } from '../store/index.js';
import { buildReport, gatherReport } from './index.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-report-sitemodel-'));
after(() => rmSync(root, { recursive: true, force: true }));

const U = 'https://bbs.example.test';
const now = Date.UTC(2030, 0, 1);

/**
 * A crawl of the hand model's site: 8 requests on its host (5 on valid patterns, 2 on
 * invalid ones, 1 on none), one on another host, and one URL refused by robots.txt
 * (no request).
 */
async function writeCrawl(store: Store): Promise<void> {
  const urls = [
    `${U}/t/1`,
    `${U}/t/2`,
    `${U}/list/1`,
    `${U}/print/3`,
    `${U}/form?item=1`,
    `${U}/t/9`,
    `${U}/t/10`,
    `${U}/about`,
    'https://other.test/t/1',
  ];
  await store.addSeeds(urls);
  const claimed = await store.claim(urls.length);
  assert.equal(claimed.length, urls.length);
  let t = now - 60_000;
  const page = (status = 200) => ({ fetchedAt: ++t, status, bytes: 100, relevance: 0.5 });
  const outcome = (url: string): Outcome => {
    if (url.endsWith('/t/2')) return { url, state: 'discard', result: page() };
    if (url.endsWith('/print/3'))
      return {
        url,
        state: 'complete',
        result: { ...page(), redirects: [{ url, status: 301, location: `${U}/t/3` }] },
      };
    if (url.includes('/form'))
      return { url, state: 'error', result: { fetchedAt: ++t, error: 'HTTP 404', status: 404 } };
    if (url.endsWith('/t/9'))
      return {
        url,
        state: 'error',
        result: { fetchedAt: ++t, error: 'FC_ERR_ROBOTS_DISALLOWED: robots.txt disallows it' },
      };
    if (url.endsWith('/t/10'))
      return { url, state: 'error', result: { fetchedAt: ++t, error: 'FC_ERR_NETWORK: reset' } };
    return { url, state: 'complete', result: page() };
  };
  await store.commit(claimed.map((c) => outcome(c.url)));
}

const rowsOf = (html: string) =>
  [
    ...html.matchAll(
      /<tr><td class="n">\d+<\/td><td><code>([^<]*)<\/code><\/td><td>(\w+)<\/td><td>([^<]*)<\/td><td class="n">(\d+)<\/td>/g,
    ),
  ].map((m) => `${m[1]} ${m[2]} ${m[3]} ${m[4]}`);

describe('the report of a store with a site model', () => {
  it('shows the requests per pattern and the share on valid patterns', async () => {
    const store = createMemoryStore();
    await writeCrawl(store);
    await store.setMeta(META_SITE_MODEL, handModel());
    const d = await gatherReport(store, { topPages: 5, topHosts: 5, now, storePath: null });
    const r = d.siteModel?.requests;
    assert.ok(r);
    assert.deepEqual(
      { total: r.total, valid: r.valid, unknown: r.unknown, offSite: r.offSite },
      { total: 8, valid: 5, unknown: 1, offSite: 1 },
    );
    assert.equal(r.validShare, 5 / 8);
    assert.deepEqual(
      r.rows.map((x) => `${x.pattern} ${x.requests}`),
      ['/{w}/{n} 4', '/form?item={n} 1', '/list/{n} 1', '/print/{n} 1'],
    );

    const html = await buildReport(store, { now });
    const section = /<section id="sitemodel">[\s\S]*?<\/section>/.exec(html)?.[0];
    assert.ok(section, 'a site model section');
    assert.match(section, /<h2>Site model<\/h2>/);
    assert.match(
      section,
      /<b>62\.5%<\/b> of the 8 requests on the model’s hosts \(bbs\.example\.test\) were on valid patterns \(5\), 2 on invalid ones, 1 on URLs matching no pattern\. 1 more request was on other hosts\./,
    );
    assert.deepEqual(rowsOf(section), [
      '/{w}/{n} valid content 4',
      '/form?item={n} invalid no-content 1',
      '/list/{n} valid list 1',
      '/print/{n} invalid duplicate; a duplicate pattern 1',
    ]);
    assert.match(
      section,
      /<td>unknown<\/td><td>–<\/td><td class="n">1<\/td><td class="n">12\.5%<\/td>/,
    );
    // The chart: one bar per pattern, and one for the URLs matching no pattern.
    assert.match(section, /<svg class="chart"[^>]*>[\s\S]*Requests per URL pattern/);
    assert.match(section, /<title>\/\{w\}\/\{n\} valid pattern: 4<\/title>/);
    assert.match(section, /<title>\/print\/\{n\} invalid pattern: 1<\/title>/);
    assert.match(section, /<title>\(matching no pattern\) no pattern: 1<\/title>/);
    await store.close();
  });

  it('finds a learnt model in the store folder (site-model.json) when the meta has none', async () => {
    const dir = join(root, 'learnt');
    const w = await openStore(dir, { create: true });
    await writeCrawl(w);
    await w.close();
    await writeSiteModel(join(dir, 'site-model.json'), handModel());
    const store = await openStore(dir, { readonly: true });
    try {
      const html = await buildReport(store, { now, storePath: dir });
      assert.match(html, /<section id="sitemodel">[\s\S]*<b>62\.5%<\/b> of the 8 requests/);
      // Without the folder there is no model to find.
      assert.doesNotMatch(await buildReport(store, { now }), /id="sitemodel"/);
    } finally {
      await store.close();
    }
  });
});

describe('the report of a store without a site model', () => {
  it('has no site model section', async () => {
    const store = createMemoryStore();
    await writeCrawl(store);
    const d = await gatherReport(store, { topPages: 5, topHosts: 5, now, storePath: null });
    assert.equal(d.siteModel, null);
    const html = await buildReport(store, { now });
    assert.doesNotMatch(html, /id="sitemodel"|<h2>Site model<\/h2>/);
    await store.close();
  });
});
