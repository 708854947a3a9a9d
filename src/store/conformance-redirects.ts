/**
 * The store conformance suite, redirects: the target of an HTTP redirect is the
 * page. The hops of a chain become state `redirect` with a history row each, the
 * page (or failure) is recorded under the final URL F, and a `redirect` outcome
 * queues an unknown F. Failures, batches, figures and input checks are in conformance-redirect-stats.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { md5Hex } from '../url/index.js';
import { collect, page, type StoreFactory, storeTest, url } from './conformance-kit.js';
import type { NewUrl, RedirectStep, Store, UrlRecord } from './types.js';

export const S = url('seed');
export const A = url('a');
export const B = 'http://b.test/hop';
export const F = 'http://f.test/final';

export const hop = (from: string, to: string, status = 301): RedirectStep => ({
  url: from,
  status,
  location: to,
});

/**
 * A seed S, completed at 1000 with A (depth 1, priority 0.7, value 2, anchor and
 * context) and `extra` as new URLs; A is claimed.
 */
export async function claimA(store: Store, extra: NewUrl[] = []): Promise<void> {
  await store.addSeeds([S]);
  await store.claim(1);
  const a = { url: A, depth: 1, priority: 0.7, value: 2, anchor: 'A', context: 'around A' };
  await store.complete(S, page({ fetchedAt: 1_000, newUrls: [a, ...extra] }));
  assert.deepEqual(
    (await store.claim(1)).map((c) => c.url),
    [A],
  );
}

export async function urlMap(store: Store): Promise<Map<string, UrlRecord>> {
  return new Map((await collect(store.urls())).map((r) => [r.url, r]));
}

/** What a URL record says, id and discovery time apart. */
export const pick = (r: UrlRecord | undefined) =>
  r && [r.state, r.depth, r.priority, r.value, r.parent, r.anchor, r.context, r.redirectTo];

export function redirectConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('redirect: the URL becomes a redirect and an unknown target is queued like it', async ({
    store,
  }) => {
    await claimA(store);
    await store.redirect(A, { fetchedAt: 2_000, redirects: [hop(A, F)] });
    assert.deepEqual(await store.counts(), {
      waiting: 1,
      processing: 0,
      complete: 1,
      discard: 0,
      error: 0,
      redirect: 1,
    });
    const u = await urlMap(store);
    assert.deepEqual(pick(u.get(A)), ['redirect', 1, 0.7, 2, S, 'A', 'around A', F]);
    assert.deepEqual(pick(u.get(F)), ['waiting', 1, 0.7, 2, S, 'A', 'around A', null]);
    assert.equal(u.get(F)?.discoveredAt, 2_000);
    assert.ok((u.get(F)?.id ?? 0) > (u.get(A)?.id ?? 0));
    assert.deepEqual((await collect(store.history())).at(-1), {
      url: A,
      fetchedAt: 2_000,
      status: 301,
      state: 'redirect',
      relevance: null,
      depth: 1,
      error: null,
      location: F,
      attempt: 1,
      retryAt: null,
      fetchMs: null,
    });
    assert.deepEqual(await collect(store.pages()).then((p) => p.map((x) => x.url)), [S]);
    // Never claimed again, and adding it again is ignored.
    assert.equal(await store.addUrls([{ url: A, depth: 0, priority: 99 }]), 0);
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.depth, c.priority, c.value, c.parent, c.context]),
      [[F, 1, 0.7, 2, S, 'around A']],
    );
    assert.deepEqual(await store.claim(5), []);
    assert.deepEqual(
      (await collect(store.urls('redirect'))).map((r) => [r.url, r.redirectTo]),
      [[A, F]],
    );
  });

  test('redirect: a known target is left as it is', async ({ store }) => {
    const waiting = { url: F, depth: 4, priority: 0.1 };
    await claimA(store, [waiting, { url: B, depth: 1, priority: 0.6 }]);
    await store.redirect(A, { fetchedAt: 2_000, redirects: [hop(A, F, 308)] });
    let u = await urlMap(store);
    assert.deepEqual(pick(u.get(F)), ['waiting', 4, 0.1, 0, S, null, null, null]);
    assert.deepEqual(pick(u.get(A))?.[0], 'redirect');
    // A target already fetched (B, redirecting to the kept seed S).
    assert.deepEqual(
      (await store.claim(1)).map((c) => c.url),
      [B],
    );
    await store.redirect(B, { fetchedAt: 3_000, redirects: [hop(B, S, 302)] });
    u = await urlMap(store);
    assert.deepEqual(
      [u.get(B)?.state, u.get(B)?.redirectTo, u.get(S)?.state],
      ['redirect', S, 'complete'],
    );
    assert.deepEqual(await store.counts(), {
      waiting: 1,
      processing: 0,
      complete: 1,
      discard: 0,
      error: 0,
      redirect: 2,
    });
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.state, h.status, h.location]),
      [
        [S, 'complete', 200, null],
        [A, 'redirect', 308, F],
        [B, 'redirect', 302, S],
      ],
    );
  });

  test('a page through one hop is stored under an unknown final URL', async ({ store, dir }) => {
    await claimA(store);
    const body = Buffer.from('<title>电网</title> final page');
    await store.complete(A, {
      fetchedAt: 2_000,
      status: 200,
      bytes: body.length,
      relevance: 0.8,
      title: '电网',
      text: 'final page about the grid',
      body,
      links: [{ url: url('n'), anchor: 'n' }],
      newUrls: [{ url: url('n'), depth: 2, priority: 0.5 }],
      redirects: [hop(A, F)],
    });
    const u = await urlMap(store);
    assert.deepEqual(pick(u.get(A)), ['redirect', 1, 0.7, 2, S, 'A', 'around A', F]);
    assert.deepEqual(pick(u.get(F)), ['complete', 1, 0.7, 2, S, 'A', 'around A', null]);
    assert.equal(u.get(F)?.discoveredAt, 2_000);
    const pages = await collect(store.pages());
    assert.deepEqual(
      pages.map((p) => [p.url, p.state, p.depth, p.bodyFile, p.contentHash]),
      [
        [S, 'complete', 0, null, null],
        [F, 'complete', 1, `pages/${md5Hex(F)}.gz`, createHash('md5').update(body).digest('hex')],
      ],
    );
    assert.deepEqual(await store.readBody(F), body);
    assert.equal(await store.readBody(A), null);
    if (dir !== undefined) {
      assert.deepEqual(gunzipSync(readFileSync(join(dir, `pages/${md5Hex(F)}.gz`))), body);
      assert.equal(existsSync(join(dir, `pages/${md5Hex(A)}.gz`)), false);
    }
    assert.deepEqual(await collect(store.links()), [{ from: F, to: url('n'), anchor: 'n' }]);
    assert.deepEqual(
      (await store.claim(5)).map((c) => [c.url, c.parent, c.depth]),
      [[url('n'), F, 2]],
    );
    assert.deepEqual(
      (await store.search({ query: 'grid' })).map((h) => h.url),
      [F],
    );
    assert.deepEqual(
      (await collect(store.history())).map((h) => [
        h.url,
        h.state,
        h.status,
        h.relevance,
        h.depth,
        h.location,
      ]),
      [
        [S, 'complete', 200, 0.5, 0, null],
        [A, 'redirect', 301, null, 1, F],
        [F, 'complete', 200, 0.8, 1, null],
      ],
    );
    assert.deepEqual(await store.counts(), {
      waiting: 0,
      processing: 1,
      complete: 2,
      discard: 0,
      error: 0,
      redirect: 1,
    });
    const s = await store.stats();
    assert.deepEqual(
      [s.discovered, s.fetched, s.responses, s.redirects, s.bytes, s.firstFetchAt, s.lastFetchAt],
      [4, 2, 2, 1, 100 + body.length, 1_000, 2_000],
    );
  });

  test('a page through two hops: an unknown hop is inserted, a waiting target taken', async ({
    store,
  }) => {
    await claimA(store, [{ url: F, depth: 3, priority: 0.1, anchor: 'F' }]);
    await store.discard(A, {
      ...page({ fetchedAt: 2_000, relevance: 0.1, bytes: 7 }),
      redirects: [hop(A, B, 302), hop(B, F, 307)],
    });
    const u = await urlMap(store);
    assert.deepEqual(pick(u.get(A)), ['redirect', 1, 0.7, 2, S, 'A', 'around A', B]);
    assert.deepEqual(pick(u.get(B)), ['redirect', 1, 0.7, 2, S, 'A', 'around A', F]);
    assert.equal(u.get(B)?.discoveredAt, 2_000);
    // The waiting target keeps what it had, its depth above all.
    assert.deepEqual(pick(u.get(F)), ['discard', 3, 0.1, 0, S, 'F', null, null]);
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.state, h.status, h.depth, h.location]),
      [
        [S, 'complete', 200, 0, null],
        [A, 'redirect', 302, 1, B],
        [B, 'redirect', 307, 1, F],
        [F, 'discard', 200, 3, null],
      ],
    );
    assert.deepEqual(
      (await collect(store.pages())).map((p) => [p.url, p.state, p.depth]),
      [
        [S, 'complete', 0],
        [F, 'discard', 3],
      ],
    );
    assert.deepEqual(await store.counts(), {
      waiting: 0,
      processing: 0,
      complete: 1,
      discard: 1,
      error: 0,
      redirect: 2,
    });
    assert.deepEqual(await store.claim(5), []);
    const s = await store.stats();
    assert.deepEqual([s.discovered, s.fetched, s.responses, s.redirects], [4, 2, 2, 2]);
  });

  test('a target being fetched or already fetched takes nothing: the page is dropped', async ({
    store,
    dir,
  }) => {
    await claimA(store, [
      { url: F, depth: 1, priority: 0.5 },
      { url: B, depth: 1, priority: 0.1 },
    ]);
    assert.deepEqual(
      (await store.claim(5)).map((c) => c.url),
      [F, B],
    );
    // F is processing.
    await store.complete(A, {
      ...page({ fetchedAt: 2_000, body: Buffer.from('by A') }),
      redirects: [hop(A, F)],
    });
    let u = await urlMap(store);
    assert.deepEqual(
      [u.get(A)?.state, u.get(A)?.redirectTo, u.get(F)?.state],
      ['redirect', F, 'processing'],
    );
    assert.equal(await store.readBody(F), null);
    // F finishes on its own; then B's page, redirected to the complete F, is dropped.
    await store.complete(F, page({ fetchedAt: 3_000, relevance: 0.9, body: Buffer.from('F') }));
    await store.fail(B, {
      fetchedAt: 4_000,
      error: 'HTTP 410',
      status: 410,
      redirects: [hop(B, F)],
    });
    u = await urlMap(store);
    assert.deepEqual([u.get(B)?.state, u.get(F)?.state], ['redirect', 'complete']);
    assert.deepEqual(await store.readBody(F), Buffer.from('F'));
    if (dir !== undefined) {
      assert.deepEqual(
        gunzipSync(readFileSync(join(dir, `pages/${md5Hex(F)}.gz`))),
        Buffer.from('F'),
      );
    }
    assert.deepEqual(
      (await collect(store.pages())).map((p) => [p.url, p.relevance]),
      [
        [S, 0.5],
        [F, 0.9],
      ],
    );
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.state]),
      [
        [S, 'complete'],
        [A, 'redirect'],
        [F, 'complete'],
        [B, 'redirect'],
      ],
    );
    const s = await store.stats();
    assert.deepEqual([s.fetched, s.responses, s.redirects, s.errors], [2, 2, 2, []]);
    assert.deepEqual(s.counts, {
      waiting: 0,
      processing: 0,
      complete: 2,
      discard: 0,
      error: 0,
      redirect: 2,
    });
  });

  test('a later hop being fetched or fetched is left as it is, without a history row', async ({
    store,
  }) => {
    await claimA(store, [{ url: B, depth: 1, priority: 0.6 }]);
    assert.deepEqual(
      (await store.claim(1)).map((c) => c.url),
      [B],
    );
    await store.complete(A, { ...page({ fetchedAt: 2_000 }), redirects: [hop(A, B), hop(B, F)] });
    let u = await urlMap(store);
    assert.deepEqual(
      [A, B, F].map((x) => [u.get(x)?.state, u.get(x)?.redirectTo]),
      [
        ['redirect', B],
        ['processing', null],
        ['complete', null],
      ],
    );
    // B final (complete) is left alone too.
    await store.complete(B, page({ fetchedAt: 3_000 }));
    await store.addUrls([{ url: url('c'), depth: 1, priority: 1 }]);
    await store.claim(1);
    const G = 'http://f.test/other';
    await store.complete(url('c'), {
      ...page({ fetchedAt: 4_000 }),
      redirects: [hop(url('c'), B), hop(B, G)],
    });
    u = await urlMap(store);
    assert.deepEqual(
      [url('c'), B, G].map((x) => [u.get(x)?.state, u.get(x)?.redirectTo]),
      [
        ['redirect', B],
        ['complete', null],
        ['complete', null],
      ],
    );
    assert.deepEqual(
      (await collect(store.history())).map((h) => [h.url, h.state]),
      [
        [S, 'complete'],
        [A, 'redirect'],
        [F, 'complete'],
        [B, 'complete'],
        [url('c'), 'redirect'],
        [G, 'complete'],
      ],
    );
  });
}
