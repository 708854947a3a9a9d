// Sitemaps feed the frontier: a crawl of sitemap hosts of the test web (robots.txt
// `Sitemap:` lines with an index and a gzipped child, and a plain /sitemap.xml)
// finds the pages that only their sitemaps list, stays in scope, and without
// sitemaps does not find them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import { openStore } from '../../src/store/index.js';
import {
  labels,
  sitemapHosts,
  sitemapOnlyUrls,
  startTestWeb,
  type TestWeb,
} from '../../src/testweb/index.js';

const WEB = { seed: 1, size: 'small' as const };
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-sitemaps-'));
let web: TestWeb;

const hosts = sitemapHosts(WEB);
const robotsHost = hosts.find((h) => h.style === 'robots');
const plainHost = hosts.find((h) => h.style === 'plain');
assert.ok(robotsHost && plainHost, 'the test web has both kinds of sitemap hosts');
const picked = [robotsHost.host, plainHost.host];
const sitemapOnly = sitemapOnlyUrls(WEB).filter((u) => picked.includes(new URL(u).hostname));

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

async function run(name: string, o: Partial<CrawlOptionsInput>): Promise<Map<string, string>> {
  const store = join(root, name);
  const topic = labels(WEB).topics[0]?.topic;
  assert.ok(topic);
  await crawl({
    store,
    topic,
    seeds: picked.map((h) => `http://${h}/`),
    scope: 'same-host',
    threshold: 0,
    strategy: 'bfs',
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 16,
      perHostConcurrency: 8,
    },
    ...o,
  });
  const s = await openStore(store, { readonly: true });
  const states = new Map<string, string>();
  for await (const u of s.urls()) states.set(u.url, u.state);
  await s.close();
  return states;
}

describe('sitemaps feed the frontier', () => {
  it('finds the sitemap-only pages of the seeds hosts, gzipped children and indexes included', async () => {
    assert.ok(sitemapOnly.length >= 2, `${sitemapOnly.length} sitemap-only pages`);
    const states = await run('on', {});
    for (const u of sitemapOnly) {
      assert.ok(['complete', 'discard'].includes(states.get(u) ?? ''), `${u}: ${states.get(u)}`);
    }
    // Scope holds: nothing of other hosts was queued.
    for (const u of states.keys()) assert.ok(picked.includes(new URL(u).hostname), u);
    const s = await openStore(join(root, 'on'), { readonly: true });
    const figures = await s.getMeta<{ sitemaps: number; inScope: number }>('sitemaps');
    await s.close();
    assert.ok(figures && figures.sitemaps >= 5, JSON.stringify(figures));
  });

  it('without sitemaps, pages no link leads to stay unknown', async () => {
    const states = await run('off', { sitemaps: 'none' });
    assert.ok(states.size > 50);
    for (const u of sitemapOnly) assert.equal(states.get(u), undefined, u);
  });
});
