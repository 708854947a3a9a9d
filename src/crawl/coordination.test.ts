// The pure parts of the coordination (coordination.ts): batches of the feed, term
// statistics merged as if collected in one place, and the shared threshold, which
// moves in the coordinator alone, on the pages of every process.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTermCollector, META_THRESHOLD } from '../relevance/index.js';
import { createThreshold } from '../relevance/threshold.js';
import type { ThresholdSpec } from '../relevance/threshold-spec.js';
import { createMemoryStore } from '../store/index.js';
import { type Coordination, localCoordination, type SharedJob } from './coordination.js';
import { decodeBatch, type FeedBatch, isEmptyBatch } from './feed.js';
import { SharedThreshold } from './shared-threshold.js';

/** A process's role, set by the test. */
function role(self: string, coordinator: boolean): Coordination & { coordinator: boolean } {
  return {
    shared: true,
    self,
    coordinator,
    isCoordinator() {
      return this.coordinator;
    },
    join: (_job: SharedJob) => {},
    published: async () => {},
    exchange: async () => {},
    attach: () => {},
    async claim() {
      return this.coordinator;
    },
    close: async () => {},
  };
}

const ITERATIVE: ThresholdSpec = { kind: 'iterative', t0: 0.05, epsilon: 0.0001, batchPages: 4 };

describe('feed batches', () => {
  test('a batch goes through JSON whole', () => {
    const b: FeedBatch = {
      relevance: [0.1, 0.9],
      terms: {
        relevant: { documents: 1, terms: { sun: [1, 2] } },
        background: { documents: 0, terms: {} },
        kept: 1,
      },
      examples: [
        ['http://a.test/x', 'solar panels', true],
        ['http://a.test/y', null, false],
      ],
      links: [['http://a.test/x', ['http://a.test/y']]],
    };
    assert.deepEqual(decodeBatch(JSON.stringify(b)), b);
    assert.equal(isEmptyBatch(b), false);
  });

  test('what is not a batch is dropped, part by part', () => {
    assert.equal(decodeBatch('not json'), null);
    assert.equal(decodeBatch('[1, 2]'), null);
    const b = decodeBatch(
      JSON.stringify({
        relevance: [0.5, 'x'],
        terms: { relevant: 3 },
        examples: [
          ['u', 'c', true],
          ['u', 5, true],
        ],
        links: [['u', ['v', 7]]],
      }),
    );
    assert.deepEqual(b, { relevance: [0.5], examples: [['u', 'c', true]], links: [] });
  });

  test('a batch of nothing is empty', () => {
    assert.equal(isEmptyBatch({}), true);
    const none = { documents: 0, terms: {} };
    assert.equal(
      isEmptyBatch({ relevance: [], terms: { relevant: none, background: none, kept: 0 } }),
      true,
    );
  });
});

test('term statistics merged from two processes equal those collected in one', () => {
  const texts = ['solar panels on roofs', 'wind and solar power', 'panels of glass', 'the sun'];
  const one = createTermCollector({ keywords: ['solar'] });
  for (const t of texts) one.add(t);
  const a = createTermCollector({ keywords: ['solar'] });
  const b = createTermCollector({ keywords: ['solar'] });
  for (const [i, t] of texts.entries()) (i % 2 === 0 ? a : b).add(t);
  a.merge(b.snapshot());
  assert.deepEqual(a.snapshot(), one.snapshot());
});

describe('the shared threshold', () => {
  test('alone on its store, it is the policy itself', () => {
    const store = createMemoryStore();
    const shared = new SharedThreshold(ITERATIVE, undefined, localCoordination, store);
    const plain = createThreshold(ITERATIVE);
    for (const r of [0.1, 0.2, 0.8, 0.9]) {
      shared.observe(r);
      plain.observe(r);
    }
    assert.deepEqual(shared.step(1, 4), plain.step(1, 4));
    assert.deepEqual(shared.history(), plain.history());
    assert.equal(shared.history().changes[0]?.by, undefined);
  });

  test("the others' pages move the coordinator's threshold; the others take it from the store", async () => {
    const store = createMemoryStore();
    const coordinator = new SharedThreshold(ITERATIVE, undefined, role('a:1', true), store);
    const other = new SharedThreshold(ITERATIVE, undefined, role('b:2', false), store);
    for (const r of [0.1, 0.2, 0.8, 0.9]) other.observe(r);
    assert.equal(other.step(1, 4), null, 'only the coordinator moves the threshold');
    assert.equal(coordinator.step(1, 0), null, 'nothing observed yet');

    const batch: FeedBatch = {};
    other.take(batch);
    assert.deepEqual(batch.relevance, [0.1, 0.2, 0.8, 0.9]);
    const again: FeedBatch = {};
    other.take(again);
    assert.deepEqual(again, {}, 'each page is sent once');

    coordinator.absorb(batch);
    const change = coordinator.step(2, 4);
    assert.ok(change !== null);
    assert.equal(change.by, 'a:1');
    assert.equal(change.to, 0.5);

    await store.setMeta(META_THRESHOLD, coordinator.history());
    await other.adopt();
    assert.equal(other.value, 0.5);
    assert.deepEqual(other.history(), coordinator.history(), 'its state too');
  });

  test('a fixed threshold sends nothing', () => {
    const t = new SharedThreshold(
      { kind: 'fixed', value: 0.3 },
      undefined,
      role('b:2', false),
      createMemoryStore(),
    );
    t.observe(0.5);
    const batch: FeedBatch = {};
    t.take(batch);
    assert.deepEqual(batch, {});
  });
});
