// The revisit plan on a real (memory) store: the floors that keep every page measured,
// and the budget split from what the frontier could use.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MS_PER_DAY } from '../schedule/index.js';
import { createMemoryStore, type Store } from '../store/index.js';
import { FLOOR_SHARE, type PlanInput, planRevisits } from './planner.js';

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

/** Keeps `urls`, fetched at T0. */
async function keep(store: Store, urls: readonly string[]): Promise<void> {
  await store.addUrls(urls.map((url) => ({ url, depth: 1, priority: 0.5 })));
  await store.claim(urls.length);
  for (const url of urls)
    await store.complete(url, { fetchedAt: T0, status: 200, bytes: 10, relevance: 1 });
}

/** Revisits `url` every hour after T0, finding it changed or not by `changed`. */
async function revisit(store: Store, url: string, changed: readonly boolean[]): Promise<void> {
  for (const [i, c] of changed.entries()) {
    const at = T0 + (i + 1) * HOUR;
    await store.scheduleRevisits([{ url, dueAt: at }]);
    const [due] = await store.claimDue(1, { now: at });
    assert.equal(due?.url, url);
    await store.recordVisits([
      { url, at, status: 200, change: c ? 'changed' : 'unchanged', dueAt: null },
    ]);
  }
}

const input = (o: Partial<PlanInput> = {}): PlanInput => ({
  policy: 'freshness',
  totalPerDay: 220,
  discoveryShare: 0.5,
  firstFetch: new Map(),
  yields: new Map(),
  planIntervalMs: HOUR,
  now: T0 + 10 * HOUR,
  ...o,
});

const articles = Array.from({ length: 20 }, (_, i) => `http://news.test/article/${i}`);
const list = 'http://news.test/';
const still = 'http://news.test/about';

describe('planRevisits', () => {
  it('revisits a page not revisited yet at least as often as uniform revisits (regression: a low prior kept articles from ever being measured)', async () => {
    const store = createMemoryStore();
    await keep(store, [...articles, list, still]);
    await revisit(store, list, Array(8).fill(true)); // changes every time: fast
    await revisit(store, still, Array(8).fill(false)); // never changed
    const { summary, frequencies } = await planRevisits(store, input());
    const uniform = summary.refreshPerDay / 22;
    assert.equal(summary.refreshPerDay, 220); // nothing waits: all of it refreshes
    for (const a of articles)
      assert.ok(frequencies.get(a)! >= uniform * (1 - 1e-9), `${a}: ${frequencies.get(a)}`);
    // A page seen eight times unchanged keeps its floor, a tenth of the uniform rate.
    const f = frequencies.get(still)!;
    assert.ok(f >= FLOOR_SHARE * uniform * (1 - 1e-9) && f < uniform, `still: ${f}`);
    const total = [...frequencies.values()].reduce((s, x) => s + x, 0);
    assert.ok(Math.abs(total - 220) < 1e-6, `Σf = ${total}`);
  });

  it('revisits a list (that brought new URLs, or a site model says so) at least as often as uniform revisits, however fast it changes', async () => {
    const store = createMemoryStore();
    await keep(store, [...articles, list]);
    for (const a of articles) await revisit(store, a, [false, false, true, false]);
    await revisit(store, list, Array(8).fill(true));
    const plain = await planRevisits(store, input({ totalPerDay: 10 }));
    const found = await planRevisits(
      store,
      input({ totalPerDay: 10, yields: new Map([[list, { visits: 8, linked: 16 }]]) }),
    );
    const byModel = await planRevisits(
      store,
      input({ totalPerDay: 10, isList: (u) => u === list }),
    );
    const uniform = 10 / 21;
    assert.ok(plain.frequencies.get(list)! < uniform, 'fast, and no new URLs: below uniform');
    assert.ok(found.frequencies.get(list)! >= uniform * (1 - 1e-9));
    // A site model's list page is a detector before it brought anything.
    assert.ok(byModel.frequencies.get(list)! >= uniform * (1 - 1e-9));
  });

  it('weighs a page by its relevance when asked', async () => {
    const store = createMemoryStore();
    const [a, b] = ['http://w.test/p/1', 'http://w.test/p/2'];
    await store.addUrls([a, b].map((url) => ({ url, depth: 1, priority: 0.5 })));
    await store.claim(2);
    await store.complete(a, { fetchedAt: T0, status: 200, bytes: 10, relevance: 0.9 });
    await store.complete(b, { fetchedAt: T0, status: 200, bytes: 10, relevance: 0.1 });
    for (const u of [a, b]) await revisit(store, u, [true, false, true, false, true, false]);
    const alike = await planRevisits(store, input({ totalPerDay: 4 }));
    const byRelevance = await planRevisits(store, input({ totalPerDay: 4, weightBy: 'relevance' }));
    assert.equal(alike.frequencies.get(a), alike.frequencies.get(b));
    assert.ok(byRelevance.frequencies.get(a)! > byRelevance.frequencies.get(b)!);
  });

  it('gives discovery what the waiting URLs and its recent fetches ask for, not its whole share', async () => {
    const store = createMemoryStore();
    await keep(store, articles);
    await store.addUrls([
      { url: 'http://news.test/new/1', depth: 2, priority: 0.5 },
      { url: 'http://news.test/new/2', depth: 2, priority: 0.5 },
    ]);
    const at = (o: Partial<PlanInput>) => planRevisits(store, input(o)).then((r) => r.summary);
    // Not known yet: discovery is sure of its share.
    assert.equal((await at({})).discoveryPerDay, 110);
    // Two URLs wait, a plan an hour: 48 a day would fetch them; it made 20 a day lately.
    const s = await at({ recentDiscoveryPerDay: 20 });
    assert.equal(s.discoveryPerDay, (2 * MS_PER_DAY) / HOUR);
    assert.equal(s.refreshPerDay, 220 - 48);
    // It made 60 a day: half again that.
    assert.equal((await at({ recentDiscoveryPerDay: 60 })).discoveryPerDay, 90);
    // It used its whole share: the share again.
    assert.equal((await at({ recentDiscoveryPerDay: 105 })).discoveryPerDay, 110);
  });
});
