import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addAndClaim, page } from '../store/conformance-kit.js';
import { createMemoryStore } from '../store/index.js';
import { backfillMessages, indexKeptPages } from './text-backfill.js';

const html = (title: string, text: string) =>
  Buffer.from(`<html><head><title>${title}</title></head><body><p>${text}</p></body></html>`);

describe('indexKeptPages', () => {
  it('indexes the kept pages the index lacks from their bodies, and counts those without', async () => {
    const store = createMemoryStore();
    const u = (n: string) => `http://a.test/${n}`;
    await addAndClaim(store, [u('indexed'), u('body'), u('nobody'), u('dropped'), u('plain')]);
    const ct = { contentType: 'text/html' };
    await store.commit([
      { url: u('indexed'), state: 'complete', result: page({ ...ct, text: 'comets' }) },
      {
        url: u('body'),
        state: 'complete',
        result: page({ ...ct, body: html('Nebulae', 'a dark nebula in Orion') }),
      },
      { url: u('nobody'), state: 'complete', result: page(ct) },
      { url: u('dropped'), state: 'discard', result: page({ ...ct, body: html('x', 'nebula') }) },
      {
        url: u('plain'),
        state: 'complete',
        result: page({ contentType: 'text/plain', body: Buffer.from('a plain nebula') }),
      },
    ]);
    assert.deepEqual(await indexKeptPages(store, {}), { indexed: 2, noBody: 1 });
    const hits = await store.search({ query: 'nebula' });
    assert.deepEqual(hits.map((h) => h.url).sort(), [u('body'), u('plain')]);
    // The title as the crawl reads it, highlighted text from the body.
    assert.match(
      hits.find((h) => h.url === u('body'))?.snippet ?? '',
      /\uE000nebula\uE001 in Orion/,
    );
    assert.deepEqual(await store.textCoverage(), { kept: 4, indexed: 3 });
    // A second run finds only the page without a body.
    assert.deepEqual(await indexKeptPages(store, {}), { indexed: 0, noBody: 1 });
  });
});

describe('backfillMessages', () => {
  const cases: [indexed: number, noBody: number, lines: RegExp[]][] = [
    [0, 0, []],
    [12, 0, [/^full text: indexed 12 kept pages crawled without --full-text kept/]],
    [
      0,
      3,
      [
        /^full text: 3 kept pages .* no stored body \(--store-bodies none\): they are not searchable$/,
      ],
    ],
    [5, 2, [/indexed 5 kept pages/, /2 kept pages .*not searchable/]],
  ];
  for (const [indexed, noBody, lines] of cases) {
    it(`${indexed} indexed, ${noBody} without a body`, () => {
      const m = backfillMessages({ indexed, noBody });
      assert.equal(m.length, lines.length);
      for (const [i, re] of lines.entries()) assert.match(m[i] ?? '', re);
    });
  }
});
