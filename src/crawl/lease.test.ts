// The crawl's lease on its store: a lost lease is replaced, not a crash; a commit
// for a claim another run took back is refused and counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryStore } from '../store/index.js';
import { CrawlLease } from './lease.js';

const u = (i: number) => `http://a.test/${i}`;
const page = { fetchedAt: 1, status: 200, bytes: 1, relevance: 1 };

test('a lost lease is replaced at the next claim, and a commit of a claim taken back is refused and counted', async () => {
  const store = createMemoryStore();
  await store.addUrls([1, 2, 3].map((i) => ({ url: u(i), depth: 0, priority: 3 - i })));
  const lease = await CrawlLease.open(store);
  const [first] = await lease.claim(1);
  assert.equal(first?.url, u(1));
  // Another run found this lease lost (it stalled past its expiry) and took its claims.
  const [held] = await store.leases();
  assert.ok(held);
  assert.equal(await store.renewLease(held.id, 0), true);
  assert.equal(await store.recover(), 1);
  const other = await store.openLease(
    { host: 'other.example', pid: 1, startedAt: 0 },
    Date.now() + 60_000,
  );
  assert.deepEqual(
    (await store.claim(1, { lease: other.id })).map((c) => c.url),
    [u(1)],
  );
  // The late commit is refused, counted, and leaves the other run's claim alone.
  const refused = await lease.commit([{ url: u(1), state: 'complete', result: page }]);
  assert.deepEqual([...refused], [u(1)]);
  assert.equal(lease.lostClaims, 1);
  assert.equal((await store.counts()).processing, 1);
  // The next claim opens a new lease and goes on.
  assert.deepEqual(
    (await lease.claim(1)).map((c) => c.url),
    [u(2)],
  );
  assert.equal(lease.lostLeases, 1);
  assert.deepEqual([...(await lease.commit([{ url: u(2), state: 'complete', result: page }]))], []);
  await lease.close();
  assert.deepEqual(
    (await store.leases()).map((l) => l.host),
    ['other.example'],
  );
  await store.close();
});

test('closeStale closes only this process’s leases and puts their claims back', async () => {
  const store = createMemoryStore();
  await store.addUrls([1, 2].map((i) => ({ url: u(i), depth: 0, priority: 1 })));
  const mine = await CrawlLease.open(store);
  await mine.claim(1);
  const other = await store.openLease(
    { host: 'other.example', pid: 1, startedAt: 0 },
    Date.now() + 60_000,
  );
  await store.claim(1, { lease: other.id });
  assert.equal(await CrawlLease.closeStale(store), 1);
  assert.deepEqual(
    (await store.leases()).map((l) => l.id),
    [other.id],
  );
  assert.deepEqual(await store.counts().then((c) => [c.waiting, c.processing]), [1, 1]);
  await mine.close();
  await store.close();
});
