// A crawl whose pages are analysed on analysis threads (`parseThreads`) stores what a
// crawl analysing them on its own thread stores: the same pages, counts, relevances,
// titles, fingerprints and links, on English and Chinese hosts (to the end of their
// pages), with duplicates and pages asking not to be indexed among them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import { responseKind } from '../../src/crawl/settle.js';
import { createFetcher } from '../../src/fetch/index.js';
import { openStore } from '../../src/store/index.js';
import {
  labels,
  ROBOTS_TAG_HOST,
  startTestWeb,
  type TestWeb,
  variantHosts,
} from '../../src/testweb/index.js';

const WEB = { seed: 1, size: 'small' as const };
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-parse-threads-'));
let web: TestWeb;

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

function options(name: string, parseThreads: number): CrawlOptionsInput {
  const topic = labels(WEB).topics[0]?.topic;
  assert.ok(topic);
  return {
    store: join(root, name),
    topic,
    seeds: [
      `http://${variantHosts(WEB)[0]}/`,
      'http://meiri-zixun.test/',
      `http://${ROBOTS_TAG_HOST}/`,
    ],
    scope: 'same-host',
    threshold: 0,
    strategy: 'bfs',
    parseThreads,
    // One fetch at a time: both crawls judge the pages in the same order, so that the
    // same one of two duplicates is kept (and its links followed).
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 1,
      perHostConcurrency: 1,
    },
  };
}

/** Each fetched URL's record, and each kept page's links. */
async function contents(name: string) {
  const s = await openStore(join(root, name), { readonly: true });
  const pages = new Map<string, string>();
  const kept = new Set<string>();
  for await (const p of s.pages()) {
    const { state, relevance, title, duplicate, simhash, textHash, status } = p;
    pages.set(
      p.url,
      JSON.stringify({ state, relevance, title, duplicate, simhash, textHash, status }),
    );
    if (p.state === 'complete') kept.add(p.url);
  }
  const links = new Map<string, string[]>();
  for await (const l of s.links()) {
    const list = links.get(l.from) ?? [];
    list.push(JSON.stringify(l));
    links.set(l.from, list);
  }
  await s.close();
  return { pages, kept, links };
}

describe('analysis threads in a crawl', () => {
  it('analyse only the responses the crawl judges', async () => {
    const fetcher = createFetcher({ resolve: [web.resolve], allowPrivateAddresses: true });
    const page = await fetcher.fetch(`http://${ROBOTS_TAG_HOST}/plain`);
    await fetcher.close();
    assert.equal(responseKind(page), 'page');
    assert.equal(responseKind({ ...page, status: 404 }), 'status');
    const hop = { url: page.url, status: 301, location: `${page.url}?moved` };
    assert.equal(responseKind({ ...page, status: 301, unfollowed: hop }), 'unfollowed');
    assert.equal(responseKind({ ...page, truncated: true }), 'cut');
  });

  it('store what the crawl thread alone stores', async () => {
    const alone = await crawl(options('alone', 0));
    const threads = await crawl(options('threads', 2));
    assert.equal(alone.stopReason, 'exhausted');
    assert.deepEqual(threads.counts, alone.counts);
    const a = await contents('alone');
    const b = await contents('threads');
    assert.ok(a.pages.size >= 400, `${a.pages.size} pages`);
    const values = [...a.pages.values()];
    const chinese = values.filter((p) => /[\u4e00-\u9fff]/.test(p)).length;
    assert.ok(chinese >= 200, `${chinese} Chinese pages`);
    assert.ok(
      alone.counts.discard >= 30,
      `${alone.counts.discard} discarded (duplicates, noindex)`,
    );
    assert.deepEqual(new Map([...b.pages].sort()), new Map([...a.pages].sort()));
    assert.deepEqual(b.kept, a.kept);
    for (const url of a.kept) assert.deepEqual(b.links.get(url)?.sort(), a.links.get(url)?.sort());
    assert.ok(a.links.size >= 350, `${a.links.size} kept pages' links compared`);
  });
});
