/**
 * The store conformance suite, second part: the rules of the lifecycle (refused
 * transitions, batch atomicity, reclaim, recover, trimming, input checks, closing).
 */
import assert from 'node:assert/strict';
import { StoreError } from '../errors/index.js';
import {
  addAndClaim,
  collect,
  isInvalid,
  isState,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';

export function rulesConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('lifecycle calls refuse a URL that is not processing and change nothing', async ({
    store,
  }) => {
    await store.addUrls([{ url: url(1), depth: 1, priority: 1 }]);
    await assert.rejects(store.complete(url(1), page()), isState(/complete .*p\/1: it is waiting/));
    await assert.rejects(store.discard(url(9), page()), isState(/p\/9: it is not a known URL/));
    await assert.rejects(store.fail(url(1), { fetchedAt: 1, error: 'x' }), isState(/waiting/));
    await assert.rejects(store.reclaim([url(1)]), isState(/reclaim .*waiting/));
    await store.claim(1);
    await store.complete(url(1), page());
    await assert.rejects(store.complete(url(1), page()), isState(/it is complete/));
    await assert.rejects(store.fail(url(1), { fetchedAt: 1, error: 'x' }), isState(/complete/));
    await assert.rejects(store.reclaim([url(1)]), isState(/complete/));
    assert.equal((await collect(store.history())).length, 1);
    assert.equal((await store.counts()).complete, 1);
  });

  test('commit applies a batch of outcomes', async ({ store }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    await store.commit([
      {
        url: url(1),
        state: 'complete',
        result: page({ fetchedAt: 1, newUrls: [{ url: url(9), depth: 2, priority: 1 }] }),
      },
      { url: url(2), state: 'discard', result: page({ fetchedAt: 2 }) },
      { url: url(3), state: 'error', result: { fetchedAt: 3, error: 'timeout' } },
    ]);
    assert.deepEqual(await store.counts(), {
      waiting: 1,
      processing: 0,
      complete: 1,
      discard: 1,
      error: 1,
      redirect: 0,
    });
    await store.commit([]);
    assert.equal((await collect(store.history())).length, 3);
    // Links come in the discovery order of their pages, then in page order.
    await store.claim(1);
    await store.addUrls([{ url: url(8), depth: 1, priority: 1 }]);
    await store.claim(1);
    await store.complete(url(8), page({ links: [{ url: url('x') }] }));
    await store.complete(url(9), page({ links: [{ url: url('y') }, { url: url('z') }] }));
    assert.deepEqual(
      (await collect(store.links())).map((l) => [l.from, l.to]),
      [
        [url(9), url('y')],
        [url(9), url('z')],
        [url(8), url('x')],
      ],
    );
  });

  test('a batch with one bad item changes nothing at all', async ({ store }) => {
    await store.addUrls([{ url: url('w'), depth: 1, priority: 0 }]);
    await store.claim(1);
    await store.addUrls([{ url: url('still-waiting'), depth: 1, priority: 0 }]);
    const before = await store.counts();
    const good = {
      url: url('w'),
      state: 'complete' as const,
      result: page({
        body: Buffer.from('<p>x</p>'),
        links: [{ url: url('n') }],
        newUrls: [{ url: url('n'), depth: 2, priority: 1 }],
      }),
    };
    await assert.rejects(
      store.commit([good, { url: url('still-waiting'), state: 'discard', result: page() }]),
      isState(/discard .*still-waiting: it is waiting/),
    );
    await assert.rejects(store.commit([good, good]), isState(/p\/w: it is complete/));
    assert.deepEqual(await store.counts(), before);
    assert.deepEqual(await collect(store.history()), []);
    assert.deepEqual(await collect(store.pages()), []);
    assert.deepEqual(await collect(store.links()), []);
    assert.equal((await store.stats()).discovered, 2);
    // The URL is still processing and can be finished.
    await store.commit([good]);
    assert.equal((await store.counts()).complete, 1);
  });

  test('reclaim puts processing URLs back in their place, optionally at a new priority', async ({
    store,
  }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    assert.equal(await store.reclaim([url(3), url(1)]), 2);
    assert.deepEqual(await store.counts(), {
      waiting: 2,
      processing: 1,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    assert.deepEqual(
      (await store.claim(5)).map((c) => c.url),
      [url(1), url(3)],
    );
    await store.addUrls([{ url: url(4), depth: 1, priority: 0.2 }]);
    await store.reclaim([url(1)], { priority: 0.1 });
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.priority]),
      [
        [url(4), 0.2],
        [url(1), 0.1],
      ],
    );
    await assert.rejects(store.reclaim([url(2), url(2)]), isState(/reclaim .*p\/2/));
    assert.equal((await store.counts()).processing, 4);
    assert.deepEqual(await collect(store.history()), []);
  });

  test('recover moves every processing URL back to waiting', async ({ store }) => {
    await addAndClaim(store, [url(1), url(2), url(3)]);
    await store.complete(url(2), page());
    assert.equal(await store.recover(), 2);
    assert.equal(await store.recover(), 0);
    const c = await store.counts();
    assert.deepEqual([c.waiting, c.processing, c.complete], [2, 0, 1]);
    assert.deepEqual(
      (await store.claim(5)).map((x) => x.url),
      [url(1), url(3)],
    );
  });

  test('trimWaiting keeps the best max waiting URLs and forgets the rest', async ({ store }) => {
    const prio = [0.3, 0.9, 0.1, 0.9, 0.5, 0.3, 0.0, 0.7, 0.3, 0.2];
    await store.addUrls(prio.map((p, i) => ({ url: url(i), depth: 1, priority: p })));
    await store.claim(1); // url(1), 0.9: processing is not trimmed
    assert.equal(await store.trimWaiting(4), 5);
    assert.deepEqual(
      (await collect(store.urls('waiting'))).map((r) => r.url),
      [url(0), url(3), url(4), url(7)],
    );
    const s = await store.stats();
    assert.deepEqual(
      [s.counts.waiting, s.counts.processing, s.dropped, s.discovered],
      [4, 1, 5, 10],
    );
    assert.equal(await store.trimWaiting(4), 0);
    // A forgotten URL is new again when rediscovered, with a later id.
    const maxId = Math.max(...(await collect(store.urls())).map((r) => r.id));
    assert.equal(await store.addUrls([{ url: url(9), depth: 1, priority: 0.8 }]), 1);
    const again = (await collect(store.urls())).find((r) => r.url === url(9));
    assert.ok((again?.id ?? 0) > maxId);
    assert.equal(await store.trimWaiting(0), 5);
    assert.equal((await store.counts()).waiting, 0);
  });

  test('invalid input is refused with InvalidOptionError naming the field', async ({ store }) => {
    const bad = [
      [{ url: 'relative/x', depth: 1, priority: 0 }, /addUrls\[0\]\.url/],
      [{ url: url(1), depth: -1, priority: 0 }, /addUrls\[0\]\.depth/],
      [{ url: url(1), depth: 1.5, priority: 0 }, /depth/],
      [{ url: url(1), depth: 1, priority: Number.NaN }, /addUrls\[0\]\.priority/],
      [
        { url: url(1), depth: 1, priority: 0, parent: url('nobody') },
        /parent: .*nobody is not a known URL/,
      ],
    ] as const;
    for (const [item, re] of bad) {
      await assert.rejects(store.addUrls([item as never]), isInvalid(re));
    }
    await assert.rejects(store.claim(0), isInvalid(/claim/));
    await assert.rejects(store.trimWaiting(-1), isInvalid(/trimWaiting/));
    await store.addUrls([{ url: url(1), depth: 1, priority: 0 }]);
    await store.claim(1);
    await assert.rejects(store.complete(url(1), page({ bytes: -1 })), isInvalid(/bytes/));
    await assert.rejects(
      store.commit([{ url: url(1), state: 'waiting' as never, result: page() }]),
      isInvalid(/state/),
    );
    await assert.rejects(
      store.complete(
        url(1),
        page({ newUrls: [{ url: url(2), depth: 1, priority: 0, parent: url(3) }] }),
      ),
      isInvalid(/parent/),
    );
    assert.deepEqual((await store.counts()).processing, 1);
    assert.equal((await store.stats()).discovered, 1);
  });

  test('a closed store refuses calls with StoreError', async ({ store }) => {
    await store.addUrls([{ url: url(1), depth: 1, priority: 0 }]);
    await store.close();
    await store.close();
    await assert.rejects(store.claim(1), StoreError);
    await assert.rejects(store.counts(), StoreError);
    await assert.rejects(collect(store.urls()), StoreError);
  });

  test('close waits for a commit in progress', async ({ store }) => {
    await addAndClaim(store, [url(1)]);
    const pending = store.complete(url(1), page({ body: Buffer.alloc(200_000, 7) }));
    await store.close();
    await pending;
  });
}
