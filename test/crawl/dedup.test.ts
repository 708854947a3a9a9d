// Duplicates in a crawl: print views and session-id variants of the test web's
// pages are recorded as duplicates of the page kept first, without body or links
// followed; no distinct page is taken for a duplicate; a resumed crawl still knows
// the pages kept before. Session-id copies stop costing requests once two have taught
// the crawl the key (docs/dedup.md, "URL copies"), and a focused crawl leaves the links
// that are a known page plus a session id for later. Regression: a focused crawl of the
// medium web fetched session-id copies of pages it had kept
// (`/articles/10687.html?s=49cf4720`), raised by neighbours' loans, each a request for a
// duplicate.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import { openStore, type PageRecord } from '../../src/store/index.js';
import {
  duplicateOf,
  labels,
  startTestWeb,
  type TestWeb,
  variantHosts,
} from '../../src/testweb/index.js';

const WEB = { seed: 1, size: 'small' as const };
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-dedup-'));
let web: TestWeb;
const host = variantHosts(WEB)[0];
assert.ok(host, 'the test web has hosts with print views and session ids');
/** The page a URL shows: itself, or the page it is a variant of. */
const canon = (url: string) => duplicateOf(WEB, url) ?? url;

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

function options(name: string, o: Partial<CrawlOptionsInput>): CrawlOptionsInput {
  const topic = labels(WEB).topics[0]?.topic;
  assert.ok(topic);
  return {
    store: join(root, name),
    topic,
    seeds: [`http://${host}/`],
    scope: 'same-host',
    threshold: 0,
    strategy: 'bfs',
    maxPages: 300,
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 8,
      perHostConcurrency: 8,
    },
    ...o,
  };
}

async function pagesOf(name: string) {
  const s = await openStore(join(root, name), { readonly: true });
  const pages: PageRecord[] = [];
  for await (const p of s.pages()) pages.push(p);
  const linked = new Set<string>();
  for await (const l of s.links()) linked.add(l.from);
  const stats = await s.stats();
  const bodies = new Map<string, boolean>();
  for (const p of pages) bodies.set(p.url, (await s.readBody(p.url)) !== null);
  await s.close();
  return { pages, linked, stats, bodies };
}

describe('duplicates in a crawl', () => {
  it('catches print views and session variants, stores them once, follows none of their links', async () => {
    await crawl(options('one', {}));
    const { pages, linked, stats, bodies } = await pagesOf('one');
    const dups = pages.filter((p) => p.duplicate !== null);
    const variants = pages.filter((p) => canon(p.url) !== p.url);
    assert.ok(variants.length >= 30, `${variants.length} variants fetched`);
    assert.ok(dups.length >= 30, `${dups.length} duplicates`);
    const kinds = new Set(dups.map((p) => p.duplicate?.kind));
    assert.ok(kinds.has('near'), 'print views are near duplicates');
    for (const p of dups) {
      const d = p.duplicate;
      assert.ok(d);
      // The same article as the page it duplicates, which was kept.
      assert.equal(canon(p.url), canon(d.of), `${p.url} is not a copy of ${d.of}`);
      assert.equal(p.state, 'discard');
      assert.equal(pages.find((q) => q.url === d.of)?.state, 'complete');
      assert.equal(bodies.get(p.url), false, `${p.url}: body stored`);
      assert.ok(!linked.has(p.url), `${p.url}: its links were recorded`);
    }
    // Every variant whose article was kept before it is caught; no two kept pages show one article.
    const kept = pages.filter((p) => p.state === 'complete');
    const articles = kept.map((p) => canon(p.url));
    assert.equal(new Set(articles).size, articles.length, 'an article kept twice');
    assert.deepEqual(stats.duplicates, {
      exact: dups.filter((p) => p.duplicate?.kind === 'exact').length,
      near: dups.filter((p) => p.duplicate?.kind === 'near').length,
    });
    // Kept pages carry their fingerprints (all but those with too little text: home, about).
    const printed = kept.filter((p) => p.simhash !== null && p.textHash !== null);
    assert.ok(printed.length >= kept.length * 0.9, `${printed.length} of ${kept.length}`);
  });

  it('a resumed crawl knows the pages kept before', async () => {
    await crawl(options('resume', { maxPages: 120 }));
    const first = await pagesOf('resume');
    const before = new Set(first.pages.map((p) => p.url));
    await crawl(options('resume', { maxPages: 300 }));
    const { pages } = await pagesOf('resume');
    const late = pages.filter((p) => !before.has(p.url) && p.duplicate !== null);
    assert.ok(
      late.some((p) => before.has(p.duplicate?.of ?? '')),
      'a page of the second run caught as a copy of one kept in the first',
    );
    const kept = pages.filter((p) => p.state === 'complete').map((p) => canon(p.url));
    assert.equal(new Set(kept).size, kept.length);
  });

  it('dedup off keeps every copy', async () => {
    await crawl(options('off', { dedup: false }));
    const { pages, stats } = await pagesOf('off');
    assert.deepEqual(stats.duplicates, { exact: 0, near: 0 });
    const kept = pages.filter((p) => p.state === 'complete').map((p) => canon(p.url));
    assert.ok(new Set(kept).size < kept.length, 'copies kept as pages of their own');
  });
});

/** A session-id variant of a page (not a print view). */
const isSessionCopy = (url: string) =>
  duplicateOf(WEB, url) !== undefined && /[?&;](s|jsessionid)=/.test(url);

/** Session copies requested (history rows with an answer), refusals, and the learnt keys. */
async function copiesOf(name: string) {
  const s = await openStore(join(root, name), { readonly: true });
  let fetched = 0;
  const refused: string[] = [];
  for await (const h of s.history()) {
    if (!isSessionCopy(h.url)) continue;
    if (h.status !== null) fetched++;
    else if (h.error?.includes('a copy of')) refused.push(h.error);
  }
  const keys = await s.getMeta<Record<string, string[]>>('copyKeys');
  await s.close();
  return { fetched, refused, keys };
}

describe('keys that change nothing', () => {
  it('a crawl stops fetching session-id copies once two have taught it the key', async () => {
    await crawl(options('keys-off', { learnCopyKeys: false }));
    await crawl(options('keys-on', {}));
    const off = await copiesOf('keys-off');
    const on = await copiesOf('keys-on');
    assert.ok(off.fetched >= 10, `without learning, ${off.fetched} session copies fetched`);
    assert.equal(off.keys, undefined);
    assert.deepEqual(on.keys?.[`http://${host}`], ['s']);
    // Two copies teach the key; copies queued meanwhile are refused, not fetched.
    assert.ok(on.fetched <= 4, `with learning, ${on.fetched} session copies fetched`);
    for (const e of on.refused)
      assert.match(e, /^FC_ERR_OUT_OF_SCOPE.*learnt to change nothing: s\)/);
  });

  it('a focused crawl leaves links that are a known page plus a session id for later', async () => {
    const astronomy = labels(WEB).topics.find((t) => t.id === 'astronomy');
    assert.ok(astronomy);
    const focused: Partial<CrawlOptionsInput> = {
      topic: astronomy.topic,
      seeds: astronomy.seeds,
      scope: 'any',
      strategy: 'best-first',
      threshold: 0.1,
      maxPages: 300,
    };
    await crawl(options('likely-off', { ...focused, learnCopyKeys: false }));
    await crawl(options('likely-on', focused));
    const off = await copiesOf('likely-off');
    const on = await copiesOf('likely-on');
    // Measured: 10 copies without the keys' learning (loans raise them), none with it.
    assert.ok(off.fetched >= 5, `without learning, ${off.fetched} session copies fetched`);
    assert.equal(on.fetched, 0, `with learning, ${on.fetched} session copies fetched`);
  });

  it('a resumed crawl drops the learnt keys from its first page on', async () => {
    await crawl(options('keys-resume', { maxPages: 80 }));
    const first = await copiesOf('keys-resume');
    assert.deepEqual(first.keys?.[`http://${host}`], ['s']);
    await crawl(options('keys-resume', { maxPages: 300 }));
    const second = await copiesOf('keys-resume');
    assert.equal(second.fetched, first.fetched, 'no session copy fetched after the resume');
  });
});
