/**
 * The store conformance suite, the part about claims with owners and leases:
 * what `recover` takes back and what it leaves, commits of lost claims refused
 * and listed, and (for stores that two handles share) two crawlers on one
 * database.
 */
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import {
  collect,
  isInvalid,
  isLeaseLost,
  isState,
  page,
  type StoreFactory,
  storeTest,
  url,
} from './conformance-kit.js';
import { thisProcess } from './lease.js';
import type { Store } from './types.js';

/** A pid no process has: above Linux's largest (2^22). */
const DEAD_PID = 2 ** 30;
const HOUR = 3_600_000;
const later = () => Date.now() + HOUR;

async function addWaiting(store: Store, n: number): Promise<string[]> {
  const urls = Array.from({ length: n }, (_, i) => url(`lease-${i}`));
  await store.addUrls(urls.map((u, i) => ({ url: u, depth: 1, priority: n - i })));
  return urls;
}

const states = async (store: Store) =>
  new Map((await collect(store.urls())).map((r) => [r.url, r.state]));

export function leaseConformance(factory: StoreFactory): void {
  const test = storeTest(factory);

  test('openLease records the owner; leases lists the open ones; closeLease puts its claims back', async ({
    store,
  }) => {
    const urls = await addWaiting(store, 4);
    const a = await store.openLease(thisProcess(5), later());
    const b = await store.openLease({ host: 'other.example', pid: 7, startedAt: 6 }, later());
    assert.ok(b.id > a.id);
    assert.deepEqual(
      (await store.leases()).map((l) => [l.id, l.host, l.pid, l.startedAt]),
      [
        [a.id, hostname(), process.pid, 5],
        [b.id, 'other.example', 7, 6],
      ],
    );
    assert.deepEqual(
      (await store.claim(2, { lease: a.id })).map((c) => c.url),
      urls.slice(0, 2),
    );
    await store.claim(1, { lease: b.id });
    assert.equal(await store.closeLease(a.id), 2);
    const s = await states(store);
    assert.deepEqual(
      urls.map((u) => s.get(u)),
      ['waiting', 'waiting', 'processing', 'waiting'],
    );
    assert.deepEqual(
      (await store.leases()).map((l) => l.id),
      [b.id],
    );
    assert.equal((await store.counts()).processing, 1);
    // A closed lease claims nothing and is not renewed; its id is not reused.
    await assert.rejects(store.claim(1, { lease: a.id }), isLeaseLost);
    assert.equal(await store.renewLease(a.id, later()), false);
    assert.ok((await store.openLease(thisProcess(), later())).id > b.id);
  });

  test('recover leaves the claims of live leases and takes back those of lost ones and unleased claims', async ({
    store,
  }) => {
    const urls = await addWaiting(store, 5);
    const live = await store.openLease(thisProcess(), later());
    const remote = await store.openLease({ host: 'other.example', pid: 1, startedAt: 1 }, later());
    const expired = await store.openLease(thisProcess(), Date.now() - 1);
    const gone = await store.openLease({ host: hostname(), pid: DEAD_PID, startedAt: 1 }, later());
    await store.claim(1, { lease: live.id });
    await store.claim(1, { lease: remote.id });
    await store.claim(1, { lease: expired.id });
    await store.claim(1, { lease: gone.id });
    await store.claim(1);
    assert.equal(await store.recover(), 3);
    const s = await states(store);
    assert.deepEqual(
      urls.map((u) => s.get(u)),
      ['processing', 'processing', 'waiting', 'waiting', 'waiting'],
    );
    assert.deepEqual(
      (await store.leases()).map((l) => l.id),
      [live.id, remote.id],
    );
    // Judged at a later time, the remote owner's lease has expired too (ours is renewed).
    assert.equal(await store.renewLease(live.id, later() + HOUR), true);
    assert.equal(await store.recover({ now: later() + 1 }), 1);
    assert.equal((await states(store)).get(urls[0] as string), 'processing');
    assert.deepEqual(
      (await store.leases()).map((l) => l.id),
      [live.id],
    );
  });

  test('renewLease keeps a lease; one expired but not yet recovered is renewed', async ({
    store,
  }) => {
    await addWaiting(store, 2);
    const l = await store.openLease(thisProcess(), Date.now() - 1);
    await store.claim(1, { lease: l.id });
    assert.equal(await store.renewLease(l.id, later()), true);
    assert.equal(await store.recover(), 0);
    assert.equal(await store.renewLease(l.id, Date.now() - 1), true);
    assert.equal(await store.recover(), 1);
    assert.equal(await store.renewLease(l.id, later()), false);
  });

  test('a commit for a claim that was lost is refused and listed, and the rest of the batch applies', async ({
    store,
  }) => {
    const urls = await addWaiting(store, 3);
    const [u0, u1, u2] = urls as [string, string, string];
    const a = await store.openLease(thisProcess(), later());
    await store.claim(2, { lease: a.id });
    await store.renewLease(a.id, 0);
    assert.equal(await store.recover(), 2);
    const b = await store.openLease(thisProcess(), later());
    assert.deepEqual(
      (await store.claim(1, { lease: b.id })).map((c) => c.url),
      [u0],
    );
    // u0 is b's now, u1 is waiting again, u2 was never claimed.
    const r = await store.commit(
      [
        { url: u0, state: 'complete', result: page() },
        { url: u1, state: 'complete', result: page() },
        { url: u2, state: 'error', result: { fetchedAt: 1, error: 'x' } },
      ],
      { lease: a.id },
    );
    assert.deepEqual(r.refused, [u0, u1, u2]);
    let s = await states(store);
    assert.deepEqual(
      urls.map((u) => s.get(u)),
      ['processing', 'waiting', 'waiting'],
    );
    assert.equal((await store.stats()).fetched, 0);
    const mine = await store.commit([{ url: u0, state: 'complete', result: page() }], {
      lease: b.id,
    });
    assert.deepEqual(mine.refused, []);
    s = await states(store);
    assert.equal(s.get(u0), 'complete');
    // Without a lease, a URL that is not processing is an error, as ever.
    await assert.rejects(
      store.commit([{ url: u1, state: 'complete', result: page() }]),
      isState(/expected processing/),
    );
    await assert.rejects(store.commit([], { lease: 0 }), isInvalid(/commit options\.lease/));
  });

  test('reclaim under a lease puts back only the URLs that lease holds', async ({ store }) => {
    const urls = await addWaiting(store, 3);
    const a = await store.openLease(thisProcess(), later());
    const b = await store.openLease(thisProcess(), later());
    await store.claim(2, { lease: a.id });
    await store.claim(1, { lease: b.id });
    assert.equal(await store.reclaim(urls, { lease: a.id }), 2);
    const s = await states(store);
    assert.deepEqual(
      urls.map((u) => s.get(u)),
      ['waiting', 'waiting', 'processing'],
    );
  });

  test('two handles on one database: claims never overlap, a lost claim is taken over and its late commit refused', async (h) => {
    if (h.another === undefined) return;
    const { store: a } = h;
    const urls = await addWaiting(a, 6);
    const b = await h.another();
    try {
      const la = await a.openLease(thisProcess(), later());
      const lb = await b.openLease(thisProcess(), later());
      const ca = await a.claim(3, { lease: la.id });
      const cb = await b.claim(3, { lease: lb.id });
      assert.deepEqual([...ca, ...cb].map((c) => c.url).sort(), [...urls].sort());
      // b starts over: its recovery leaves a's live claims alone.
      assert.equal(await b.recover(), 0);
      assert.equal((await b.counts()).processing, 6);
      // a stalls past its lease; b recovers a's claims and fetches them itself.
      await a.renewLease(la.id, Date.now() - 1);
      assert.equal(await b.recover(), 3);
      const again = await b.claim(3, { lease: lb.id });
      assert.deepEqual(again.map((c) => c.url).sort(), ca.map((c) => c.url).sort());
      const late = await a.commit(
        ca.map((c) => ({ url: c.url, state: 'complete' as const, result: page() })),
        { lease: la.id },
      );
      assert.deepEqual(late.refused.sort(), ca.map((c) => c.url).sort());
      assert.equal(await a.renewLease(la.id, later()), false);
      await assert.rejects(a.claim(1, { lease: la.id }), isLeaseLost);
      const done = await b.commit(
        [...cb, ...again].map((c) => ({ url: c.url, state: 'complete' as const, result: page() })),
        { lease: lb.id },
      );
      assert.deepEqual(done.refused, []);
      const s = await a.stats();
      assert.equal(s.counts.complete, 6);
      assert.equal(s.fetched, 6);
    } finally {
      await b.close();
    }
  });
}
