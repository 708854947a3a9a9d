// Full-text search over what a crawl kept: a focused crawl of the test web on the
// SQLite store indexes its kept pages, and Chinese and English queries find the
// pages that contain them, best first, with the words highlighted.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crawl } from '../../src/crawl/index.js';
import { analyzeBody } from '../../src/parse/index.js';
import { openStore, type Store, type TextHit } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';

const WEB = { seed: 1, size: 'small' as const };
const L = labels(WEB);
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-search-'));
let web: TestWeb;

function topic(id: string) {
  const t = L.topics.find((x) => x.id === id);
  assert.ok(t);
  return t;
}

async function crawlTopic(id: string, fullText: 'kept' | 'none' = 'kept'): Promise<string> {
  const dir = join(root, `${id}-${fullText}`);
  await crawl({
    store: dir,
    topic: topic(id).topic,
    seeds: L.seeds,
    maxPages: 400,
    fullText,
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 16,
      perHostConcurrency: 4,
    },
  });
  return dir;
}

/** The page's title and text as the crawl saw them (from its stored body). */
async function textOf(store: Store, url: string): Promise<string> {
  const body = await store.readBody(url);
  assert.ok(body, `no body stored for ${url}`);
  const a = analyzeBody(body, 'text/html', url);
  return `${a.page?.title ?? ''}\n${a.page?.text ?? ''}`;
}

async function kept(store: Store): Promise<Set<string>> {
  const out = new Set<string>();
  for await (const p of store.pages()) if (p.state === 'complete') out.add(p.url);
  return out;
}

function plain(h: TextHit): string {
  return h.snippet.replace(/[\uE000\uE001]/g, '');
}

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

describe('search over a crawl', () => {
  it('a Chinese query finds kept pages that contain it, on topic, highlighted', async () => {
    const store = await openStore(await crawlTopic('grid'), { readonly: true });
    try {
      const keptPages = await kept(store);
      const relevant = new Set(topic('grid').relevant);
      for (const q of ['电网', '特高压', '变电站']) {
        const hits = await store.search({ query: q, limit: 50 });
        assert.ok(hits.length >= 5, `${q}: ${hits.length} hits`);
        // Every hit is a kept page whose text contains the query.
        for (const h of hits) {
          assert.ok(keptPages.has(h.url), `${q}: ${h.url} is not a kept page`);
          assert.ok((await textOf(store, h.url)).includes(q), `${q}: ${h.url} does not contain it`);
          // Highlighted in the snippet, unless only the title has it.
          if (!(h.title ?? '').includes(q) || h.snippet.includes(q)) {
            assert.ok(h.snippet.includes(`\uE000${q}\uE001`), `${q}: snippet ${h.snippet}`);
          }
          assert.ok(plain(h).length > 0);
        }
        // And the kept pages containing it are all found (up to the limit).
        const containing: string[] = [];
        for (const u of keptPages) if ((await textOf(store, u)).includes(q)) containing.push(u);
        assert.equal(hits.length, Math.min(50, containing.length), q);
        assert.ok(
          hits.some((h) => relevant.has(h.url)),
          q,
        );
        // Best first.
        for (let i = 1; i < hits.length; i++) {
          assert.ok((hits[i - 1]?.rank ?? 0) >= (hits[i]?.rank ?? 0));
        }
      }
      // Two words: pages with both.
      const both = await store.search({ query: '电网 调度', limit: 20 });
      assert.ok(both.length > 0);
      for (const h of both) {
        const t = await textOf(store, h.url);
        assert.ok(t.includes('电网') && t.includes('调度'), h.url);
      }
    } finally {
      await store.close();
    }
  });

  it('an English query finds kept pages by their words, stemmed, and a title finds its page', async () => {
    const store = await openStore(await crawlTopic('astronomy'), { readonly: true });
    try {
      const relevant = new Set(topic('astronomy').relevant);
      const hits = await store.search({ query: 'telescope', limit: 30 });
      assert.ok(hits.length >= 5);
      for (const h of hits) assert.match((await textOf(store, h.url)).toLowerCase(), /telescop/);
      assert.ok(hits.some((h) => relevant.has(h.url)));
      // Plural and capitals find the same pages.
      const plural = await store.search({ query: 'Telescopes', limit: 30 });
      assert.deepEqual(plural.map((h) => h.url).sort(), hits.map((h) => h.url).sort());
      // A kept article's title finds that page among the first three (its print view may
      // come first).
      let titled: { url: string; title: string } | undefined;
      for await (const p of store.pages()) {
        if (p.state === 'complete' && p.title && relevant.has(p.url) && /\d/.test(p.title)) {
          titled = { url: p.url, title: p.title };
          break;
        }
      }
      assert.ok(titled);
      const top = await store.search({ query: titled.title, limit: 3, scoreWeight: 0 });
      assert.ok(
        top.some((h) => h.url === titled.url),
        `${titled.title}: ${top.map((h) => h.url)}`,
      );
    } finally {
      await store.close();
    }
  });

  it('fullText none indexes nothing', async () => {
    const store = await openStore(await crawlTopic('astronomy', 'none'), { readonly: true });
    try {
      assert.ok((await kept(store)).size > 20);
      assert.deepEqual(await store.search({ query: 'telescope' }), []);
    } finally {
      await store.close();
    }
  });
});
