/**
 * The store conformance suite, redirects (second part): failures through
 * redirects, several pages for one target, loops, the figures (responses,
 * redirects, errors by code, hosts), the checks of redirect chains, and redirects
 * kept across a trim of their target and a reopen.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import {
  addAndClaim,
  collect,
  isInvalid,
  page,
  type StoreFactory,
  storeTest,
  url,
  withStore,
} from './conformance-kit.js';
import { A, B, claimA, F, hop, pick, S, urlMap } from './conformance-redirects.js';
import type { Outcome, Store } from './types.js';

async function snapshot(store: Store) {
  return {
    counts: await store.counts(),
    stats: await store.stats(),
    urls: await collect(store.urls()),
    history: await collect(store.history()),
    pages: await collect(store.pages()),
    links: await collect(store.links()),
  };
}

export function redirectStatsConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('a failure through redirects is recorded under the final URL', async ({ store }) => {
    await claimA(store);
    await store.fail(A, {
      fetchedAt: 2_000,
      error: 'HTTP 404',
      status: 404,
      redirects: [hop(A, F, 303)],
    });
    const u = await urlMap(store);
    assert.deepEqual(pick(u.get(A))?.[0], 'redirect');
    assert.deepEqual(pick(u.get(F)), ['error', 1, 0.7, 2, S, 'A', 'around A', null]);
    assert.deepEqual((await collect(store.history())).slice(1), [
      {
        url: A,
        fetchedAt: 2_000,
        status: 303,
        state: 'redirect',
        relevance: null,
        depth: 1,
        error: null,
        location: F,
        attempt: 1,
        retryAt: null,
        fetchMs: null,
      },
      {
        url: F,
        fetchedAt: 2_000,
        status: 404,
        state: 'error',
        relevance: null,
        depth: 1,
        error: 'HTTP 404',
        location: null,
        attempt: 1,
        retryAt: null,
        fetchMs: null,
      },
    ]);
    const s = await store.stats();
    assert.deepEqual(
      [s.counts.error, s.counts.redirect, s.fetched, s.responses, s.redirects, s.errors],
      [1, 1, 2, 2, 1, [{ code: 'HTTP 404', count: 1 }]],
    );
    assert.deepEqual(await collect(store.pages()).then((p) => p.length), 1);
  });

  test('in one batch, the first page for a new target keeps it, a second is dropped', async ({
    store,
  }) => {
    await claimA(store, [{ url: B, depth: 1, priority: 0.5 }]);
    await store.claim(1);
    await store.commit([
      {
        url: A,
        state: 'complete',
        result: {
          ...page({ fetchedAt: 2_000, body: Buffer.from('first') }),
          redirects: [hop(A, F)],
        },
      },
      {
        url: B,
        state: 'complete',
        result: {
          ...page({ fetchedAt: 2_001, body: Buffer.from('second') }),
          newUrls: [{ url: url('lost'), depth: 2, priority: 1 }],
          redirects: [hop(B, F)],
        },
      },
    ]);
    assert.deepEqual(await store.readBody(F), Buffer.from('first'));
    const u = await urlMap(store);
    assert.deepEqual(
      [A, B, F].map((x) => u.get(x)?.state),
      ['redirect', 'redirect', 'complete'],
    );
    assert.equal(u.has(url('lost')), false);
    // Concurrent commits of pages for one new target: its body is the recorded page's.
    await store.addUrls([
      { url: url('x'), depth: 1, priority: 1 },
      { url: url('y'), depth: 1, priority: 1 },
    ]);
    await store.claim(2);
    const G = 'http://f.test/shared';
    const X = Buffer.alloc(30_000, 'x');
    const Y = Buffer.alloc(30_000, 'y');
    await Promise.all([
      store.complete(url('x'), { ...page({ body: X }), redirects: [hop(url('x'), G)] }),
      store.complete(url('y'), { ...page({ body: Y }), redirects: [hop(url('y'), G)] }),
    ]);
    const [g] = (await collect(store.pages())).filter((p) => p.url === G);
    const stored = await store.readBody(G);
    assert.ok(stored !== null);
    assert.equal(g?.contentHash, createHash('md5').update(stored).digest('hex'));
  });

  test('a chain that comes back to a URL it passed drops the page', async ({ store }) => {
    await claimA(store);
    await store.complete(A, { ...page({ fetchedAt: 2_000 }), redirects: [hop(A, B), hop(B, A)] });
    const u = await urlMap(store);
    assert.deepEqual(
      [A, B].map((x) => [u.get(x)?.state, u.get(x)?.redirectTo]),
      [
        ['redirect', B],
        ['redirect', A],
      ],
    );
    assert.deepEqual(await store.counts().then((c) => [c.complete, c.redirect]), [1, 2]);
  });

  test('stats count responses, redirects and errors by code; hosts count redirects', async ({
    store,
  }) => {
    const u = (host: string, i: number) => `http://${host}.test/${i}`;
    const urls = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => u(i < 3 ? 'a' : 'e', i));
    urls.push(u('r', 1), u('r', 2));
    await addAndClaim(store, urls);
    const err = (i: number, error: string, status?: number): Outcome => ({
      url: u('e', i),
      state: 'error',
      result: status === undefined ? { fetchedAt: 10, error } : { fetchedAt: 10, error, status },
    });
    await store.commit([
      { url: u('a', 1), state: 'complete', result: page({ fetchedAt: 10 }) },
      { url: u('a', 2), state: 'discard', result: page({ fetchedAt: 10 }) },
      err(3, 'FC_ERR_CONNECT_TIMEOUT: no connection within 10000 ms'),
      err(4, 'FC_ERR_CONNECT_TIMEOUT: no connection within 5000 ms'),
      err(5, 'HTTP 404', 404),
      err(6, 'HTTP 404', 404),
      err(7, 'HTTP 500: Internal Server Error', 500),
      err(8, 'dns lookup failed for a host name that is very long indeed'),
      err(9, 'boom: something'),
      {
        url: u('r', 1),
        state: 'redirect',
        result: { fetchedAt: 20, redirects: [hop(u('r', 1), u('t', 1))] },
      },
      {
        url: u('r', 2),
        state: 'complete',
        result: {
          ...page({ fetchedAt: 30, bytes: 5 }),
          redirects: [hop(u('r', 2), u('r', 3), 302), hop(u('r', 3), u('t', 2))],
        },
      },
    ]);
    const s = await store.stats();
    assert.deepEqual(s.counts, {
      waiting: 1,
      processing: 0,
      complete: 2,
      discard: 1,
      error: 7,
      redirect: 3,
    });
    assert.deepEqual(
      [s.discovered, s.fetched, s.responses, s.redirects, s.failed, s.rejected, s.bytes],
      [14, 10, 6, 3, 7, 1, 205],
    );
    assert.deepEqual([s.firstFetchAt, s.lastFetchAt], [10, 30]);
    assert.deepEqual(s.errors, [
      { code: 'FC_ERR_CONNECT_TIMEOUT', count: 2 },
      { code: 'HTTP 404', count: 2 },
      { code: 'HTTP 500', count: 1 },
      { code: 'boom: something', count: 1 },
      { code: 'dns lookup failed for a host name that i', count: 1 },
    ]);
    const hosts = new Map(s.topHosts.map((h) => [h.host, h]));
    assert.deepEqual(hosts.get('r.test'), {
      host: 'r.test',
      discovered: 3,
      fetched: 0,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 3,
      bytes: 0,
    });
    assert.deepEqual(hosts.get('t.test'), {
      host: 't.test',
      discovered: 2,
      fetched: 1,
      complete: 1,
      discard: 0,
      error: 0,
      redirect: 0,
      bytes: 5,
    });
    assert.deepEqual(
      s.topHosts.map((h) => h.host),
      ['e.test', 'a.test', 't.test', 'r.test'],
    );
    // The counts agree with the URLs themselves.
    const tally: Record<string, number> = {};
    for await (const r of store.urls()) tally[r.state] = (tally[r.state] ?? 0) + 1;
    assert.deepEqual(tally, { complete: 2, discard: 1, error: 7, redirect: 3, waiting: 1 });
    assert.equal((await collect(store.history())).length, s.fetched + s.redirects);
  });

  test('invalid redirect chains are refused naming the field, and change nothing', async ({
    store,
  }) => {
    await claimA(store, [{ url: B, depth: 1, priority: 0.6 }]);
    await store.claim(1);
    const before = await snapshot(store);
    const ok: Outcome = { url: A, state: 'complete', result: page() };
    const bad: [unknown, RegExp][] = [
      [{ fetchedAt: 1, redirects: [] }, /commit\[1\]\.result\.redirects: expected at least one/],
      [{ fetchedAt: 1 }, /commit\[1\]\.result\.redirects: expected an array/],
      [{ redirects: [hop(B, F)] }, /commit\[1\]\.result\.fetchedAt/],
      [{ fetchedAt: 1, redirects: [hop(A, F)] }, /redirects\[0\]\.url: expected the outcome's URL/],
      [
        { fetchedAt: 1, redirects: [hop(B, F), hop(S, A)] },
        /commit\[1\]\.result\.redirects\[1\]\.url: expected the previous location/,
      ],
      [
        { fetchedAt: 1, redirects: [hop(B, F, 200)] },
        /redirects\[0\]\.status: expected a redirect status/,
      ],
      [{ fetchedAt: 1, redirects: [{ ...hop(B, F), status: '301' }] }, /redirects\[0\]\.status/],
      [
        { fetchedAt: 1, redirects: [hop(B, '/relative')] },
        /redirects\[0\]\.location: expected a canonical/,
      ],
      [{ fetchedAt: 1, redirects: [hop(B, `${F}#top`)] }, /redirects\[0\]\.location/],
      [{ fetchedAt: 1, redirects: [hop(B, 'http://f.test/a b')] }, /redirects\[0\]\.location/],
      [{ fetchedAt: 1, redirects: [hop(B, 'http:///nohost')] }, /redirects\[0\]\.location/],
      [{ fetchedAt: 1, redirects: [null] }, /redirects\[0\]: expected an object/],
    ];
    for (const [result, re] of bad) {
      const o = { url: B, state: 'redirect', result } as Outcome;
      await assert.rejects(store.commit([ok, o]), isInvalid(re));
    }
    const pages: [unknown, RegExp][] = [
      [{ ...page(), redirects: [hop(B, F, 404)] }, /commit\[1\]\.result\.redirects\[0\]\.status/],
      [{ ...page(), redirects: 'F' }, /commit\[1\]\.result\.redirects: expected an array/],
      [{ ...page(), redirects: [hop(A, F)] }, /commit\[1\]\.result\.redirects\[0\]\.url/],
    ];
    for (const [result, re] of pages) {
      const o = { url: B, state: 'complete', result } as Outcome;
      await assert.rejects(store.commit([ok, o]), isInvalid(re));
    }
    await assert.rejects(
      store.fail(B, { fetchedAt: 1, error: 'x', redirects: [hop(B, F, 1)] }),
      isInvalid(/commit\[0\]\.result\.redirects\[0\]\.status/),
    );
    await assert.rejects(
      store.redirect(B, { fetchedAt: 1, redirects: [] }),
      isInvalid(/commit\[0\]\.result\.redirects/),
    );
    assert.deepEqual(await snapshot(store), before);
    // Both are still processing and can be finished.
    await store.commit([
      ok,
      { url: B, state: 'redirect', result: { fetchedAt: 5, redirects: [hop(B, F)] } },
    ]);
    assert.deepEqual(
      await store.counts().then((c) => [c.complete, c.redirect, c.waiting]),
      [2, 1, 1],
    );
  });

  test('a redirect keeps naming its target after the target is trimmed', async ({ store }) => {
    await claimA(store);
    await store.redirect(A, { fetchedAt: 2_000, redirects: [hop(A, F)] });
    assert.equal(await store.trimWaiting(0), 1);
    let u = await urlMap(store);
    assert.equal(u.has(F), false);
    assert.equal(u.get(A)?.redirectTo, F);
    assert.equal(await store.addUrls([{ url: F, depth: 1, priority: 0 }]), 1);
    u = await urlMap(store);
    assert.deepEqual([u.get(A)?.redirectTo, u.get(F)?.state], [F, 'waiting']);
  });

  it('redirects survive closing and reopening', async (t) => {
    await withStore(factory, async (h) => {
      if (h.reopen === undefined) return t.skip('the store does not persist');
      await claimA(h.store, [{ url: B, depth: 1, priority: 0.6 }]);
      await h.store.claim(1);
      await h.store.commit([
        { url: A, state: 'redirect', result: { fetchedAt: 2, redirects: [hop(A, F)] } },
        {
          url: B,
          state: 'error',
          result: {
            fetchedAt: 3,
            error: 'HTTP 404',
            status: 404,
            redirects: [hop(B, 'http://g.test/')],
          },
        },
      ]);
      const before = await snapshot(h.store);
      await h.store.close();
      h.store = await h.reopen();
      assert.deepEqual(await snapshot(h.store), before);
      assert.deepEqual(
        (await h.store.claim(5)).map((c) => c.url),
        [F],
      );
    });
  });
}
