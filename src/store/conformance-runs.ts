/**
 * The store conformance suites of the two smallest contracts: `RunRecords` (the
 * topic's keywords, named JSON values) and `LinkGraph` (the links as recorded).
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

export function runRecordsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('keywords are replaced whole and listed heaviest first; metadata round-trips as JSON', async ({
    store,
  }) => {
    await store.setKeywords({ 电网: 1, grid: 0.5 });
    await store.setKeywords(
      new Map([
        ['power', 0.8],
        ['电力', 1],
      ]),
    );
    assert.deepEqual(
      await store.getKeywords(),
      new Map([
        ['电力', 1],
        ['power', 0.8],
      ]),
    );
    await store.setMeta('options', { maxPages: 10, scope: ['a', 'b'] });
    await store.setMeta('startedAt', 123);
    assert.deepEqual(await store.getMeta('options'), { maxPages: 10, scope: ['a', 'b'] });
    assert.equal(await store.getMeta('startedAt'), 123);
    await store.setMeta('startedAt', undefined);
    assert.equal(await store.getMeta('startedAt'), undefined);
    assert.equal(await store.getMeta('nothing'), undefined);
  });

  test('metadata refuses what JSON cannot hold, and a bad key, naming them', async ({ store }) => {
    await assert.rejects(store.setMeta('', 1), isInvalid(/setMeta/));
    await assert.rejects(store.setMeta('loop', { n: 1n }), isInvalid(/setMeta loop/));
    await assert.rejects(store.setKeywords({ grid: Number.NaN }), isInvalid(/setKeywords/));
  });
}

export function linkGraphConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('links lists every link of every fetched page, pages in discovery order, anchors kept', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    await store.complete(
      url(2),
      page({ links: [{ url: url(1), anchor: 'one' }, { url: url('elsewhere') }] }),
    );
    await store.discard(url(1), page({ links: [{ url: url(2), anchor: null }] }));
    await store.fail(url(3), { fetchedAt: 1, error: 'FC_ERR_NETWORK: reset' });
    assert.deepEqual(await collect(store.links()), [
      { from: url(1), to: url(2), anchor: null },
      { from: url(2), to: url(1), anchor: 'one' },
      { from: url(2), to: url('elsewhere'), anchor: null },
    ]);
  });
}
