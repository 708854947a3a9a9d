/**
 * The store conformance suite, full-text search and duplicates: the texts of kept
 * pages are searchable in Chinese and English, hits come best first with a
 * highlighted snippet, P moves them; a page recorded as a duplicate keeps what it
 * duplicates, and the counts add up.
 */
import assert from 'node:assert/strict';
import {
  addAndClaim,
  collect,
  isInvalid,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';
import type { Store } from './types.js';

const TEXTS: Record<string, { title: string; text: string; keep: boolean }> = {
  grid: {
    title: '国家电网调度中心',
    text: '国家电网调度中心负责全国电力系统的实时调度。电网负荷在夏季达到高峰，调度员需要平衡发电与用电。',
    keep: true,
  },
  price: {
    title: '电价调整',
    text: '居民电价今年没有变化，工业电价略有下降。',
    keep: true,
  },
  telescope: {
    title: 'The James Webb Space Telescope',
    text: 'The telescope observes distant galaxies in infrared light. Astronomers study galaxy formation with it.',
    keep: true,
  },
  cooking: {
    title: 'Slow cooking',
    text: 'Slow cooking keeps the meat tender; the telescope of patience is long.',
    keep: true,
  },
  dropped: {
    title: 'Galaxies again',
    text: 'A discarded page about galaxies and telescopes is not searchable.',
    keep: false,
  },
};

async function fill(store: Store): Promise<void> {
  const names = Object.keys(TEXTS);
  await addAndClaim(
    store,
    names.map((n) => url(n)),
  );
  await store.commit(
    names.map((n) => {
      const t = TEXTS[n] as (typeof TEXTS)[string];
      return {
        url: url(n),
        state: t.keep ? 'complete' : 'discard',
        result: page({ title: t.title, text: t.text, relevance: 0.5 }),
      };
    }),
  );
}

export function searchConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('search finds kept pages by Chinese and English words, never discarded ones', async ({
    store,
  }) => {
    await fill(store);
    assert.deepEqual(
      (await store.search({ query: '电网调度' })).map((h) => h.url),
      [url('grid')],
    );
    assert.deepEqual(
      (await store.search({ query: '电价' })).map((h) => h.url),
      [url('price')],
    );
    const tele = await store.search({ query: 'Telescope' });
    // Title words count more: the telescope page before the cooking page.
    assert.deepEqual(
      tele.map((h) => h.url),
      [url('telescope'), url('cooking')],
    );
    assert.ok((tele[0]?.bm25 ?? 0) > (tele[1]?.bm25 ?? 0));
    assert.deepEqual(await store.search({ query: 'galaxies discarded' }), []);
    // Every word must occur.
    assert.deepEqual(
      (await store.search({ query: 'telescope infrared' })).map((h) => h.url),
      [url('telescope')],
    );
  });

  test('hits carry the page figures and a snippet with the matches marked', async ({ store }) => {
    await fill(store);
    const [hit] = await store.search({ query: '调度' });
    assert.ok(hit);
    assert.equal(hit.title, '国家电网调度中心');
    assert.equal(hit.relevance, 0.5);
    assert.equal(hit.pageRank, null);
    assert.equal(hit.score, null);
    assert.match(hit.snippet, /\uE000调度\uE001/);
    // Segmentation spaces are gone from the snippet.
    assert.match(hit.snippet, /国家电网\uE000调度\uE001中心/);
    const [en] = await store.search({ query: 'infrared' });
    assert.match(en?.snippet ?? '', /in \uE000infrared\uE001 light/);
  });

  test('the page score P moves hits up, by scoreWeight', async ({ store }) => {
    await fill(store);
    await store.setPageScores([
      { url: url('cooking'), pageRank: 1, score: 1 },
      { url: url('telescope'), pageRank: 0, score: 0 },
    ]);
    const plain = await store.search({ query: 'telescope', scoreWeight: 0 });
    assert.equal(plain[0]?.url, url('telescope'));
    const blended = await store.search({ query: 'telescope', scoreWeight: 0.9 });
    assert.deepEqual(
      blended.map((h) => h.url),
      [url('cooking'), url('telescope')],
    );
    assert.equal(blended[0]?.score, 1);
    assert.ok((blended[0]?.rank ?? 0) > (blended[1]?.rank ?? 0));
    assert.equal((await store.search({ query: 'telescope', limit: 1 })).length, 1);
  });

  test('search refuses a query without words and bad options, naming them', async ({ store }) => {
    await fill(store);
    await assert.rejects(store.search({ query: ' ,.!' }), isInvalid(/query.*no word/));
    await assert.rejects(store.search({ query: 'x', limit: 0 }), isInvalid(/limit/));
    await assert.rejects(store.search({ query: 'x', scoreWeight: 2 }), isInvalid(/scoreWeight/));
  });

  test('kept pages without text are counted, listed, and indexed later', async ({ store }) => {
    const names = ['indexed', 'body', 'nobody', 'dropped'];
    await addAndClaim(
      store,
      names.map((n) => url(n)),
    );
    const html = { contentType: 'text/html' };
    await store.commit([
      {
        url: url('indexed'),
        state: 'complete',
        result: page({ ...html, title: 'Comets', text: 'comets and their tails' }),
      },
      {
        url: url('body'),
        state: 'complete',
        result: page({ ...html, body: Buffer.from('<title>Nebula</title>a nebula') }),
      },
      { url: url('nobody'), state: 'complete', result: page(html) },
      {
        url: url('dropped'),
        state: 'discard',
        result: page({ ...html, body: Buffer.from('nebula') }),
      },
    ]);
    assert.deepEqual(await store.textCoverage(), { kept: 3, indexed: 1 });
    const both = [
      { url: url('body'), contentType: 'text/html', hasBody: true },
      { url: url('nobody'), contentType: 'text/html', hasBody: false },
    ];
    assert.deepEqual(await store.unindexedPages({ limit: 10 }), both);
    assert.deepEqual(await store.unindexedPages({ limit: 1 }), both.slice(0, 1));
    assert.deepEqual(await store.unindexedPages({ limit: 5, after: url('body') }), both.slice(1));
    assert.deepEqual(await store.search({ query: 'nebula' }), []);
    const added = await store.indexTexts([
      { url: url('body'), title: 'Nebula', text: 'a nebula' },
      { url: url('dropped'), title: null, text: 'nebula' },
      { url: url('indexed'), title: 'Nebula', text: 'nebula' },
      { url: url('unknown'), title: null, text: 'nebula' },
    ]);
    assert.equal(added, 1);
    assert.deepEqual(
      (await store.search({ query: 'nebula' })).map((h) => [h.url, h.title]),
      [[url('body'), null]],
    );
    assert.deepEqual(
      (await store.search({ query: 'comets' })).map((h) => h.url),
      [url('indexed')],
    );
    assert.deepEqual(await store.textCoverage(), { kept: 3, indexed: 2 });
    assert.deepEqual(await store.unindexedPages({ limit: 10 }), both.slice(1));
    await assert.rejects(store.unindexedPages({ limit: 0 }), isInvalid(/limit/));
    await assert.rejects(
      store.unindexedPages({ limit: 1, after: url('never') }),
      isInvalid(/after/),
    );
    await assert.rejects(
      store.indexTexts([{ url: 'nope', title: null, text: '' }]),
      isInvalid(/indexTexts\[0\]\.url/),
    );
  });

  test('duplicates and fingerprints are recorded, counted, and need a known original', async ({
    store,
  }) => {
    await addAndClaim(store, [url('o'), url('e'), url('n'), url('x')]);
    await store.commit([
      {
        url: url('o'),
        state: 'complete',
        result: page({ simhash: '00ff00ff00ff00ff', textHash: '0123456789abcdef' }),
      },
      {
        url: url('e'),
        state: 'discard',
        result: page({ duplicate: { of: url('o'), kind: 'exact', distance: 0 } }),
      },
      {
        url: url('n'),
        state: 'discard',
        result: page({
          simhash: '00ff00ff00ff00fe',
          duplicate: { of: url('o'), kind: 'near', distance: 1 },
        }),
      },
    ]);
    const pages = new Map((await collect(store.pages())).map((p) => [p.url, p]));
    assert.equal(pages.get(url('o'))?.simhash, '00ff00ff00ff00ff');
    assert.equal(pages.get(url('o'))?.textHash, '0123456789abcdef');
    assert.equal(pages.get(url('e'))?.textHash, null);
    assert.equal(pages.get(url('o'))?.duplicate, null);
    assert.deepEqual(pages.get(url('e'))?.duplicate, { of: url('o'), kind: 'exact', distance: 0 });
    assert.deepEqual(pages.get(url('n'))?.duplicate, { of: url('o'), kind: 'near', distance: 1 });
    assert.deepEqual((await store.stats()).duplicates, { exact: 1, near: 1 });
    await assert.rejects(
      store.commit([
        {
          url: url('x'),
          state: 'discard',
          result: page({ duplicate: { of: url('unknown'), kind: 'near', distance: 2 } }),
        },
      ]),
      isInvalid(/duplicate\.of.*not a known URL/),
    );
    await assert.rejects(
      store.commit([{ url: url('x'), state: 'discard', result: page({ simhash: 'xyz' }) }]),
      isInvalid(/simhash/),
    );
    assert.equal((await store.counts()).processing, 1);
  });
}
