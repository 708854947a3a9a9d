import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryStore } from '../store/index.js';
import {
  finishRankOptions,
  keepRankSettings,
  META_RANK_SETTINGS,
  storedRankSettings,
} from './rank-settings.js';

describe('rank settings kept in the store', () => {
  it('given settings are kept over the stored ones; others stay', async () => {
    const store = createMemoryStore();
    assert.deepEqual(await storedRankSettings(store), {});
    assert.deepEqual(await keepRankSettings(store, { w1: 0.8, w2: 0.2, tolerance: 1e-9 }), {
      w1: 0.8,
      w2: 0.2,
    });
    assert.deepEqual(await keepRankSettings(store, { damping: 0.5, w2: 0.1 }), {
      w1: 0.8,
      w2: 0.1,
      damping: 0.5,
    });
    assert.deepEqual(await keepRankSettings(store, {}), { w1: 0.8, w2: 0.1, damping: 0.5 });
    assert.deepEqual(await store.getMeta(META_RANK_SETTINGS), { w1: 0.8, w2: 0.1, damping: 0.5 });
  });

  it('a stored value this version refuses is left out', async () => {
    const cases: [stored: unknown, read: object][] = [
      [null, {}],
      [[1, 2], {}],
      ['w1', {}],
      [{ w1: -1, w2: 0.3 }, { w2: 0.3 }],
      [{ algorithm: 'salsa', damping: 1.5 }, {}],
      [{ algorithm: 'hits', other: 1 }, { algorithm: 'hits' }],
    ];
    for (const [stored, read] of cases) {
      const store = createMemoryStore();
      await store.setMeta(META_RANK_SETTINGS, stored);
      assert.deepEqual(await storedRankSettings(store), read, JSON.stringify(stored));
    }
  });

  it("the crawl's ranking: the kept settings, the damping falling back to the crawl's", async () => {
    const store = createMemoryStore();
    assert.deepEqual(await finishRankOptions(store, undefined), {});
    assert.deepEqual(await finishRankOptions(store, 0.9), { damping: 0.9 });
    await keepRankSettings(store, { w1: 0.7 });
    assert.deepEqual(await finishRankOptions(store, 0.9), { w1: 0.7, damping: 0.9 });
    await keepRankSettings(store, { damping: 0.6 });
    assert.deepEqual(await finishRankOptions(store, 0.9), { w1: 0.7, damping: 0.6 });
  });
});
