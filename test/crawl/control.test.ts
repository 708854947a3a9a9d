// The control channel (src/crawl/control.ts) on real crawls of the test web: a second
// handle on the store writes the control value, as `focuscrawl serve` does, and the
// crawl (on its own thread, on a SQLite store) pauses, resumes, stops, takes a new
// threshold or new keyword weights.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Control,
  type ControlHandlers,
  ControlWatch,
  emptyControl,
  META_CONTROL,
  manualTopicChange,
  readControl,
  updateControl,
} from '../../src/crawl/control.js';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import type { PageEvent } from '../../src/crawl/types.js';
import { InvalidOptionError } from '../../src/errors/index.js';
import {
  createThreshold,
  META_THRESHOLD,
  META_TOPIC_HISTORY,
  parseThresholdSpec,
  type ThresholdHistory,
  type TopicHistory,
} from '../../src/relevance/index.js';
import { createMemoryStore, openStore } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { all, inStore } from '../store-read.js';

let web: TestWeb;
const root = tempDir('control');
let n = 0;
const L = labels({ seed: 1, size: 'small' });
const zh = L.topics.find((t) => t.language === 'zh' && t.id === 'monitor');
assert.ok(zh);
const monitor = zh;

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

const newDir = () => join(root, `c${++n}`);

function fetcher(extra: Record<string, unknown> = {}) {
  return {
    resolve: [web.resolve],
    allowPrivateAddresses: true,
    delayMs: 20,
    concurrency: 4,
    perHostConcurrency: 1,
    ...extra,
  };
}

/** A crawl of the monitor topic into `dir`, steered through its store (options as given win). */
function steered(dir: string, o: Partial<CrawlOptionsInput> = {}) {
  return crawl({
    store: dir,
    topic: monitor.topic,
    seeds: monitor.seeds,
    maxPages: 1500,
    sitemaps: 'none',
    rankOnFinish: false,
    fetcher: fetcher(),
    ...o,
  });
}

/** Page requests of the test web's log (robots.txt and sitemaps aside). */
const pageRequests = () =>
  web.requests.filter((r) => r.path !== '/robots.txt' && !r.path.startsWith('/sitemap')).length;

/** Writes the control value through a handle of its own, as `focuscrawl serve` does. */
async function setControl(dir: string, change: (c: Control) => void): Promise<Control> {
  const s = await openStore(dir);
  try {
    return await updateControl(s, change);
  } finally {
    await s.close();
  }
}

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('the control value', () => {
  test('reads as empty when missing or malformed; each update raises seq', async () => {
    const s = createMemoryStore();
    assert.deepEqual(await readControl(s), emptyControl());
    await s.setMeta(META_CONTROL, { paused: 'yes', seq: -3, threshold: { value: 7, seq: 1 } });
    const c = await readControl(s);
    assert.equal(c.paused, false);
    assert.equal(c.seq, 0);
    assert.equal(c.threshold, undefined, 'a threshold outside [0, 1] is not read');
    const [a, b] = await Promise.all([
      updateControl(s, (x) => {
        x.paused = true;
      }),
      updateControl(s, (x) => {
        x.threshold = { value: 0.4, seq: x.seq + 1 };
      }),
    ]);
    assert.equal(a?.seq, 1);
    assert.equal(b?.seq, 2, 'writes of one process are one at a time');
    const now = await readControl(s);
    assert.equal(now.paused, true, 'the second write kept the first');
    assert.deepEqual(now.threshold, { value: 0.4, seq: 2 });
  });

  test('a run clears a stale stop, and a pause unless the store is shared; changes apply once', async () => {
    const s = createMemoryStore();
    await updateControl(s, (c) => {
      c.stop = true;
      c.paused = true;
      c.threshold = { value: 0.2, seq: 1 };
    });
    const seen: string[] = [];
    const h: ControlHandlers = {
      wake: () => seen.push('wake'),
      stop: () => seen.push('stop'),
      threshold: async (v) => {
        seen.push(`threshold ${v}`);
      },
      weights: async (k) => {
        seen.push(`weights ${k.map((x) => `${x.word}=${x.weight}`).join(',')}`);
      },
      warn: (m) => seen.push(`warn ${m}`),
    };
    const shared = await ControlWatch.start(s, h, { shared: true, pollMs: 60_000 });
    assert.equal(shared.paused, true, 'a process joining a paused shared crawl waits');
    assert.equal((await readControl(s)).stop, false, 'the stale stop is cleared');
    await shared.poll();
    assert.ok(!seen.includes('stop'));
    assert.ok(
      !seen.some((x) => x.startsWith('threshold')),
      'a change older than the run is not applied',
    );
    await shared.close();

    seen.length = 0;
    const w = await ControlWatch.start(s, h, { shared: false, pollMs: 60_000 });
    assert.equal(w.paused, false, 'a store only this run crawls starts unpaused');
    assert.equal((await readControl(s)).paused, false);
    await updateControl(s, (c) => {
      c.paused = true;
      c.threshold = { value: 0.3, seq: c.seq + 1 };
      c.weights = { terms: { a: 1, b: 0.5 }, seq: c.seq + 1 };
    });
    await w.poll();
    await w.poll();
    assert.equal(w.paused, true);
    assert.deepEqual(
      seen.filter((x) => !x.startsWith('warn')),
      ['wake', 'threshold 0.3', 'weights a=1,b=0.5'],
      'each change applied once',
    );
    await updateControl(s, (c) => {
      c.stop = true;
      c.paused = false;
    });
    await w.poll();
    assert.equal(w.paused, false);
    assert.ok(seen.includes('stop'));
    await w.close();
  });

  test('each threshold kind takes a value set by hand, recorded as rule manual', () => {
    for (const spec of [
      parseThresholdSpec('0.1'),
      parseThresholdSpec('iterative'),
      parseThresholdSpec('adaptive'),
    ]) {
      const t = createThreshold(spec);
      const change = t.set(0.45, 'manual', 1000, 7);
      assert.deepEqual(change, {
        at: 1000,
        fetched: 7,
        from: t.history().initial,
        to: 0.45,
        rule: 'manual',
      });
      assert.equal(t.value, 0.45, spec.kind);
      assert.equal(t.set(0.45, 'manual', 2000, 8), null, 'the value in force: no change');
      assert.equal(t.history().changes.at(-1)?.rule, 'manual');
      assert.throws(() => t.set(1.5, 'manual', 3000, 9), InvalidOptionError);
      assert.throws(() => t.set(Number.NaN, 'manual', 3000, 9), InvalidOptionError);
    }
    // An iterative threshold goes on from the value set.
    const it = createThreshold({ kind: 'iterative', t0: 0.05, epsilon: 0.001, batchPages: 4 });
    it.set(0.5, 'manual', 0, 0);
    for (const r of [0.1, 0.2, 0.8, 0.9]) it.observe(r);
    const step = it.step(10, 4);
    assert.equal(step?.from, 0.5);
    assert.ok(
      step !== null && Math.abs(step.to - 0.5) < 1e-9,
      'isodata from 0.5: (0.15 + 0.85) / 2',
    );
  });

  test('a manual topic change says its drift, what was added and removed', () => {
    const original = [
      { word: 'a', weight: 1 },
      { word: 'b', weight: 1 },
    ];
    const c = manualTopicChange(
      original,
      original,
      [
        { word: 'a', weight: 1 },
        { word: 'c', weight: 2 },
      ],
      10,
      5,
    );
    assert.equal(c.rule, 'manual');
    assert.deepEqual(c.added, ['c']);
    assert.deepEqual(c.removed, ['b']);
    assert.deepEqual(c.top, [
      ['c', 2],
      ['a', 1],
    ]);
    assert.ok(Math.abs(c.drift - (1 - 1 / Math.sqrt(2) / Math.sqrt(5))) < 1e-9);
    assert.equal(c.at, 5);
    assert.equal(c.fetched, 10);
  });
});

describe('a crawl steered through the store', () => {
  test('pause holds new requests back, resume goes on, stop ends the run (stopped), a later run clears the stop', async () => {
    const dir = newDir();
    web.clearLog();
    const run = steered(dir, { threshold: 0 });
    let pages = 0;
    const warnings: string[] = [];
    run.on('page', () => pages++);
    run.on('warning', (w) => warnings.push(w));
    await until('15 pages', () => pages >= 15);
    await setControl(dir, (c) => {
      c.paused = true;
    });
    // Applied within a poll (500 ms); the fetches under way (at most 4) then finish.
    await sleep(1200);
    const held = pageRequests();
    await sleep(1500);
    assert.equal(pageRequests(), held, 'no request started while paused');
    assert.ok(
      warnings.some((w) => /paused through the control channel/.test(w)),
      warnings.join('\n'),
    );
    await setControl(dir, (c) => {
      c.paused = false;
    });
    await until('requests again', () => pageRequests() >= held + 10);
    await setControl(dir, (c) => {
      c.stop = true;
    });
    const s = await run;
    assert.equal(s.stopReason, 'stopped');
    assert.ok(s.run.fetched < 1500, 'stopped before its budget');
    await inStore(dir, async (st) => assert.equal((await readControl(st)).stop, true));

    // The stop was for that run: the next one clears it and crawls.
    const fetchedBefore = s.fetchedTotal;
    const next = await steered(dir, { seeds: [], threshold: 0, maxPages: fetchedBefore + 5 });
    assert.equal(next.stopReason, 'max-pages');
    await inStore(dir, async (st) => assert.equal((await readControl(st)).stop, false));
  });

  test('a threshold set through the store decides what is kept afterwards, and is in the history', async () => {
    const dir = newDir();
    const run = steered(dir, { threshold: 0 });
    const events: (PageEvent & { at: number })[] = [];
    const changes: { at: number; to: number; rule: string }[] = [];
    run.on('page', (p) => events.push({ ...p, at: Date.now() }));
    run.on('threshold', (c) => changes.push(c));
    await until('20 pages', () => events.length >= 20);
    await setControl(dir, (c) => {
      c.threshold = { value: 1, seq: c.seq + 1 };
    });
    await until('the change', () => changes.length > 0);
    const change = changes[0];
    assert.ok(change);
    assert.equal(change.rule, 'manual');
    assert.equal(change.to, 1);
    // Pages judged after the change reached the page rules (a few ms after `at`).
    await until(
      'pages after the change',
      () => events.filter((e) => e.at > change.at + 800).length >= 10,
    );
    await setControl(dir, (c) => {
      c.stop = true;
    });
    await run;
    // Judged before the change: all kept (threshold 0).
    const early = events.slice(0, 20).filter((e) => e.relevance !== null);
    assert.ok(early.length > 0 && early.every((e) => e.state === 'complete'));
    await inStore(dir, async (st) => {
      // Fetched well after the change: kept only at relevance ≥ 1.
      const later = (await all(st.history())).filter(
        (h) => h.fetchedAt > change.at + 300 && h.relevance !== null,
      );
      assert.ok(later.length >= 5, `${later.length} pages after the change`);
      assert.ok(
        later.some((h) => h.state === 'discard'),
        'some page discarded',
      );
      for (const h of later) {
        assert.equal(h.state, (h.relevance as number) >= 1 ? 'complete' : 'discard', h.url);
      }
      const t = await st.getMeta<ThresholdHistory>(META_THRESHOLD);
      assert.equal(t?.value, 1);
      assert.ok(t?.changes.some((c) => c.rule === 'manual' && c.to === 1 && c.from === 0));
    });
  });

  test('keyword weights set through the store replace the topic and are in the topic history', async () => {
    const dir = newDir();
    const run = steered(dir);
    let pages = 0;
    const topics: { rule?: string; added: string[] }[] = [];
    run.on('page', () => pages++);
    run.on('topic', (c) => topics.push(c));
    await until('10 pages', () => pages >= 10);
    await setControl(dir, (c) => {
      c.weights = { terms: { 监控: 1, zzzunseen: 0.5 }, seq: c.seq + 1 };
    });
    await until('the change', () => topics.length > 0);
    await setControl(dir, (c) => {
      c.stop = true;
    });
    await run;
    assert.equal(topics[0]?.rule, 'manual');
    assert.ok(topics[0]?.added.includes('zzzunseen'));
    await inStore(dir, async (st) => {
      const h = await st.getMeta<TopicHistory>(META_TOPIC_HISTORY);
      assert.deepEqual(h?.keywords, { 监控: 1, zzzunseen: 0.5 });
      assert.equal(h?.changes.at(-1)?.rule, 'manual');
      assert.deepEqual(Object.fromEntries(await st.getKeywords()), { 监控: 1, zzzunseen: 0.5 });
    });
  });
});
