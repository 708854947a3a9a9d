// Thresholds and the topic vector adapting during a real crawl of the test web:
// the iterative threshold converges and freezes (and stays frozen on resume), the
// adaptive one moves by DESIGN 1.5's rules within its bounds, the topic vector
// drifts no further than allowed; every change is stored for status and the report.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import {
  META_THRESHOLD,
  META_TOPIC_HISTORY,
  type ThresholdChange,
  type ThresholdHistory,
  type TopicChange,
  type TopicHistory,
} from '../../src/relevance/index.js';
import { openStore } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { webFetcher } from '../web-fetcher.js';

let web: TestWeb;
const root = tempDir('adapt');
const L = labels({ seed: 1, size: 'small' });
const grid = L.topics.find((t) => t.id === 'grid');
assert.ok(grid);

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

function options(dir: string, o: Partial<CrawlOptionsInput>): CrawlOptionsInput {
  assert.ok(grid);
  return {
    store: dir,
    topic: grid.topic,
    seeds: grid.seeds,
    fetcher: webFetcher(web),
    ...o,
  };
}

async function meta<T>(dir: string, key: string): Promise<T | undefined> {
  const store = await openStore(dir, { readonly: true });
  try {
    return await store.getMeta<T>(key);
  } finally {
    await store.close();
  }
}

test('iterative threshold: converges, freezes, and stays frozen when the crawl resumes', async () => {
  const dir = join(root, 'iterative');
  const events: ThresholdChange[] = [];
  // Steps every 100 pages, ε = 0.01: the steps measured on this topic move the
  // threshold by 0.38, 0.024, then 0.008 (converged) — by about 400 pages.
  const threshold = { kind: 'iterative', batchPages: 100, epsilon: 0.01 };
  const run = crawl(options(dir, { threshold, maxPages: 600 }));
  run.on('threshold', (c) => events.push(c));
  await run;
  const h = await meta<ThresholdHistory>(dir, META_THRESHOLD);
  assert.ok(h);
  assert.equal(h.kind, 'iterative');
  assert.equal(h.initial, 0.05);
  assert.equal(h.frozen, true, JSON.stringify(h.changes));
  assert.equal(h.changes.at(-1)?.rule, 'converged');
  assert.deepEqual(events, h.changes, 'every change was an event');
  // Between the relevance modes of irrelevant (≈0) and relevant (≈0.3–0.9) pages.
  assert.ok(h.value > 0.1 && h.value < 0.7, `converged at ${h.value}`);
  // Each step went to the mean of the two class means of the pages so far.
  for (const [i, c] of h.changes.entries()) {
    assert.equal(c.from, i === 0 ? 0.05 : h.changes[i - 1]?.to);
  }

  await crawl(options(dir, { threshold, maxPages: 900 }));
  const again = await meta<ThresholdHistory>(dir, META_THRESHOLD);
  assert.ok(again);
  assert.equal(again.value, h.value, 'a frozen threshold does not move on resume');
  assert.equal(again.changes.length, h.changes.length);
});

test('adaptive threshold: rules fire at interval ends and keep the threshold in bounds', async () => {
  const dir = join(root, 'adaptive');
  // Tiny intervals and a low expected count: the crawl outpaces S, so rules 1/2 raise it.
  const threshold = {
    kind: 'adaptive',
    intervalMs: 150,
    expectedPerInterval: 5,
    initial: 0.1,
    max: 0.3,
  };
  await crawl(options(dir, { threshold, maxPages: 800 }));
  const h = await meta<ThresholdHistory>(dir, META_THRESHOLD);
  assert.ok(h);
  assert.equal(h.kind, 'adaptive');
  assert.ok(h.changes.length > 0, 'some interval changed the threshold');
  for (const c of h.changes) {
    assert.ok(['alpha', 'beta', 'gamma'].includes(c.rule), c.rule);
    const factor = c.to / c.from;
    if (c.to < 0.3 && c.to > 0.01) {
      const expected = { alpha: 1.05, beta: 1.2, gamma: 0.95 }[c.rule as 'alpha'];
      assert.ok(Math.abs(factor - expected) < 1e-9, `${c.rule}: ×${factor}`);
    }
    assert.ok(c.to <= 0.3 + 1e-12 && c.to >= 0.01 - 1e-12, `${c.to} within bounds`);
  }
  assert.ok(h.value > 0.1, 'a crawl faster than expected raised the threshold');
});

test('adapting topic vector: changes recorded, drift held to the limit', async () => {
  const dir = join(root, 'topic');
  const events: TopicChange[] = [];
  const run = crawl(
    options(dir, { adaptTopic: { intervalPages: 40, maxDrift: 0.1 }, maxPages: 700 }),
  );
  run.on('topic', (c) => events.push(c));
  await run;
  const h = await meta<TopicHistory>(dir, META_TOPIC_HISTORY);
  assert.ok(h);
  assert.ok(h.changes.length >= 2, `${h.changes.length} changes`);
  assert.deepEqual(events, h.changes);
  for (const c of h.changes) assert.ok(c.drift <= 0.1 + 1e-9, `drift ${c.drift}`);
  // The topic's own heaviest keyword stays in the vector.
  assert.ok('电网' in h.keywords, Object.keys(h.keywords).join(' '));
});
