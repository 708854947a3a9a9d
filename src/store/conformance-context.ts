/**
 * The store conformance suite, the link context kept with each URL: given with
 * the URL, handed back by `claim` and `urls()`, replaced only by a raise that
 * brings a context of its own.
 */
import assert from 'node:assert/strict';
import { collect, page, type StoreFactory, storeTest, url } from './conformance-kit.js';

export function contextConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('context round-trips through addUrls, newUrls of commit, claim and urls()', async ({
    store,
  }) => {
    await store.addSeeds([url('s')]);
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 3, anchor: 'A', context: '… power grid news, A …' },
      { url: url('b'), depth: 1, priority: 2 },
      { url: url('c'), depth: 1, priority: 1, context: '' },
    ]);
    assert.deepEqual(
      (await store.claim(2)).map((c) => [c.url, c.context]),
      [
        [url('s'), null],
        [url('a'), '… power grid news, A …'],
      ],
    );
    await store.commit([
      {
        url: url('s'),
        state: 'complete',
        result: page({
          newUrls: [
            { url: url('d'), depth: 1, priority: 5, context: '电网 新闻：国家电网' },
            { url: url('e'), depth: 1, priority: 4, anchor: 'E' },
          ],
        }),
      },
    ]);
    const want = [
      [url('s'), 'complete', null],
      [url('a'), 'processing', '… power grid news, A …'],
      [url('b'), 'waiting', null],
      [url('c'), 'waiting', ''],
      [url('d'), 'waiting', '电网 新闻：国家电网'],
      [url('e'), 'waiting', null],
    ];
    assert.deepEqual(
      (await collect(store.urls())).map((r) => [r.url, r.state, r.context]),
      want,
    );
    // reclaim and recover keep the context.
    await store.reclaim([url('a')], { priority: 9 });
    await store.claim(1);
    await store.recover();
    assert.deepEqual(
      (await store.claim(10)).map((c) => [c.url, c.parent, c.context]),
      [
        [url('a'), null, '… power grid news, A …'],
        [url('d'), url('s'), '电网 新闻：国家电网'],
        [url('e'), url('s'), null],
        [url('b'), null, null],
        [url('c'), null, ''],
      ],
    );
  });

  test('a higher-priority re-add with a context replaces it, otherwise the old one stays', async ({
    store,
  }) => {
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.5, context: 'a0' },
      { url: url('b'), depth: 1, priority: 0.5, context: 'b0' },
      { url: url('c'), depth: 1, priority: 0.5, context: 'c0' },
      { url: url('d'), depth: 1, priority: 0.5, context: 'd0' },
      { url: url('e'), depth: 1, priority: 0.5 },
    ]);
    await store.addUrls([
      { url: url('a'), depth: 1, priority: 0.4, context: 'a1' }, // lower: kept
      { url: url('b'), depth: 1, priority: 0.5, context: 'b1' }, // equal: kept
      { url: url('c'), depth: 1, priority: 0.6, context: 'c1' }, // higher: replaced
      { url: url('d'), depth: 1, priority: 0.6 }, // higher without a context: kept
      { url: url('e'), depth: 1, priority: 0.6, context: 'e1' }, // had none: set
    ]);
    const contexts = async () =>
      new Map((await collect(store.urls())).map((r) => [r.url, [r.priority, r.context]]));
    assert.deepEqual(
      await contexts(),
      new Map([
        [url('a'), [0.5, 'a0']],
        [url('b'), [0.5, 'b0']],
        [url('c'), [0.6, 'c1']],
        [url('d'), [0.6, 'd0']],
        [url('e'), [0.6, 'e1']],
      ]),
    );
    // The same through newUrls of a fetched page.
    await store.addUrls([{ url: url('p'), depth: 0, priority: 10 }]);
    await store.claim(1);
    await store.complete(
      url('p'),
      page({
        newUrls: [
          { url: url('a'), depth: 1, priority: 0.9, context: 'a2' },
          { url: url('b'), depth: 1, priority: 0.1, context: 'b2' },
          { url: url('a'), depth: 1, priority: 0.8, context: 'a3' },
        ],
      }),
    );
    const after = await contexts();
    assert.deepEqual(after.get(url('a')), [0.9, 'a2']);
    assert.deepEqual(after.get(url('b')), [0.5, 'b0']);
    // URLs no longer waiting keep their context whatever is added.
    assert.deepEqual(
      (await store.claim(1)).map((c) => [c.url, c.context]),
      [[url('a'), 'a2']],
    );
    await store.addUrls([
      { url: url('p'), depth: 0, priority: 99, context: 'p1' },
      { url: url('a'), depth: 0, priority: 99, context: 'a4' },
    ]);
    const last = await contexts();
    assert.deepEqual(
      [last.get(url('p')), last.get(url('a'))],
      [
        [10, null],
        [0.9, 'a2'],
      ],
    );
  });
}
