// The coordinator of a crawl shared on PostgreSQL (docs/scale-out.md, "The
// coordinator"): one process at a time runs the crawl's adaptation, under an advisory
// lock; the others send it what they judge and take its results. Killed with SIGKILL,
// the coordinator is replaced by another process, which goes on adapting from where
// the store says the threshold was.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type CoordinatorRecord,
  META_COORDINATOR,
  openCoordination,
  type SharedJob,
} from '../../src/crawl/coordination.js';
import type { FeedBatch } from '../../src/crawl/feed.js';
import {
  META_THRESHOLD,
  META_TOPIC_HISTORY,
  type ThresholdHistory,
  type TopicHistory,
} from '../../src/relevance/index.js';
import { connectStore, openPgStore } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from '../pg.js';
import { type CrawlChild, finished, spawnCli } from './resume-helpers.js';

const HOST = 'stargazer.test';
const SEED = `http://${HOST}/`;
const astronomy = labels({ seed: 1, size: 'small' }).topics.find((t) => t.id === 'astronomy');

const root = tempDir('coordinator');
const topicFile = join(root, 'astronomy.json');
const DB = 'crawls';
let pg: PgCluster | undefined;
let web: TestWeb;
let n = 0;

function storeUrl(): string {
  return `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=coord${++n}`;
}

/**
 * One host at a slow pace (the crawl outlasts a takeover), and an adaptive threshold
 * that moves at every interval: rule 3 (fewer pages than expected) lowers it by 0.1 %,
 * far from its floor, so every change is one more record of who made it. The topic
 * vector adapts every 5 kept pages, each change naming its maker too.
 */
function crawlArgs(store: string): string[] {
  return [
    '--store',
    store,
    '--topic',
    topicFile,
    '--seeds',
    SEED,
    '--scope',
    'same-host',
    '--threshold',
    'adaptive',
    '--initial',
    '0.001',
    '--min-threshold',
    '0.0001',
    '--gamma',
    '0.999',
    '--expected-per-interval',
    '1000000',
    '--interval-ms',
    '50',
    '--delay-ms',
    '150',
    '--concurrency',
    '2',
    '--per-host-concurrency',
    '2',
    '--resolve',
    web.resolve,
    '--allow-private',
    '--sitemaps',
    'none',
    '--adapt-topic',
    '--adapt-every',
    '5',
  ];
}

interface Shared {
  record: CoordinatorRecord | undefined;
  threshold: ThresholdHistory | undefined;
  topic: TopicHistory | undefined;
}

async function readShared(store: string): Promise<Shared> {
  const s = await connectStore(store, { readonly: true });
  try {
    return {
      record: await s.getMeta<CoordinatorRecord>(META_COORDINATOR),
      threshold: await s.getMeta<ThresholdHistory>(META_THRESHOLD),
      topic: await s.getMeta<TopicHistory>(META_TOPIC_HISTORY),
    };
  } finally {
    await s.close();
  }
}

/** Reads the store until `pred` holds (the processes change it as they go). */
async function until(
  store: string,
  pred: (s: Shared) => boolean,
  what: string,
  children: CrawlChild[],
): Promise<Shared> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const s = await readShared(store);
    if (pred(s)) return s;
    if (Date.now() > deadline) {
      const err = children.map((c) => c.stderr()).join('\n');
      assert.fail(`${what}: not seen; record ${JSON.stringify(s.record)}; stderr: ${err}`);
    }
    await sleep(100);
  }
}

/** Pages the adaptive threshold observed, as its stored state says. */
const observed = (s: Shared) => (s.threshold?.state as { total?: number } | undefined)?.total ?? 0;

const changesBy = (s: Shared, who: string) =>
  (s.threshold?.changes ?? []).filter((c) => c.by === who);

describe('the coordinator of a crawl on PostgreSQL', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
    web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
    writeFileSync(topicFile, JSON.stringify(astronomy?.topic));
  });
  after(async () => {
    await web?.close();
    await pg?.stop();
  });

  test('one process coordinates at a time; killed, it is replaced and the crawl goes on adapting', async () => {
    const store = storeUrl();
    const first = spawnCli('crawl', crawlArgs(store));
    await first.waitFor((e) => e.event === 'page', 60_000);
    const worker = spawnCli('worker', ['--store', store]);
    const a = `${hostname()}:${first.child.pid}`;
    const b = `${hostname()}:${worker.child.pid}`;
    await worker.waitFor((e) => e.event === 'page', 60_000);

    // The crawl that started the store coordinates: the threshold moves in it alone.
    const before = await until(
      store,
      (s) => s.record?.by === a && changesBy(s, a).length >= 3,
      'the first process adapting as the coordinator',
      [first, worker],
    );
    assert.deepEqual(
      changesBy(before, b),
      [],
      'the worker moved the threshold while not coordinating',
    );
    assert.ok(
      (before.threshold?.changes ?? []).every((c) => c.by === a),
      'every change names the process that made it',
    );
    // The worker's pages reach the coordinator: the pages its threshold observed
    // outnumber the pages the coordinator judged itself (each fetch's page event comes
    // after the fetch is judged, give or take the fetches not yet committed).
    const own = () => first.events.filter((e) => e.event === 'page').length;
    const fed = await until(
      store,
      (s) => observed(s) > own() + 8,
      "the worker's pages counted by the coordinator",
      [first, worker],
    );
    const total = observed(fed);

    first.child.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');
    // Its session ended with it: the worker takes the lock and the jobs over.
    await worker.waitFor(
      (e) => e.event === 'warning' && /coordinator now \(in place of /.test(String(e['message'])),
      60_000,
    );
    const taken = await until(
      store,
      (s) => s.record?.by === b && changesBy(s, b).length >= 2,
      'the worker adapting as the coordinator',
      [worker],
    );
    // It went on from the stored threshold (its state included), not from scratch.
    const firstOfB = changesBy(taken, b)[0];
    const lastOfA = changesBy(taken, a).at(-1);
    assert.ok(firstOfB !== undefined && lastOfA !== undefined);
    assert.ok(firstOfB.at >= lastOfA.at, 'the worker moved the threshold before the kill');
    assert.equal(firstOfB.from, lastOfA.to, 'went on from the stored threshold');
    assert.ok(observed(taken) >= total, 'the pages observed before the takeover count');

    const r = await finished(worker);
    assert.equal(r.code, 0, r.stderr);
    const end = await readShared(store);
    assert.equal(end.record?.by, b);
    const order = (end.threshold?.changes ?? []).map((c) => c.by);
    assert.ok(
      order.every((by) => by === a || by === b),
      `changes by other writers: ${order.join(', ')}`,
    );
    assert.equal(order.lastIndexOf(a) < order.indexOf(b), true, 'A and B coordinated at once');
    // The topic vector adapts in the coordinator alone too: the first's changes, then
    // the worker's.
    const topics = (end.topic?.changes ?? []).map((c) => c.by);
    assert.ok(
      topics.every((by) => by === a || by === b),
      `topic changes by: ${topics.join(', ')}`,
    );
    assert.ok(topics.includes(a) && topics.includes(b), `topic changes by: ${topics.join(', ')}`);
    assert.ok(topics.lastIndexOf(a) < topics.indexOf(b), 'the topic moved in both at once');
    const rows = await pg?.queryJson<{ n: number }>(
      DB,
      `SELECT count(*)::int AS n FROM coord${n}.coordination_feed`,
    );
    assert.equal(rows?.[0]?.n, 0, 'batches left in the feed');
  });

  test('the lock admits one coordinator; the feed reaches it once; the results reach the others', async () => {
    const store = storeUrl();
    const s1 = await openPgStore(store, { create: true });
    const s2 = await openPgStore(store);
    const absorbed: FeedBatch[] = [];
    const adopted: string[] = [];
    const took: string[] = [];
    const job = (name: string, send: number[]): SharedJob => ({
      name: 'test',
      take(batch) {
        if (send.length > 0) batch.relevance = send.splice(0);
      },
      absorb(batch) {
        absorbed.push(batch);
      },
      async adopt() {
        adopted.push(name);
      },
      async takeOver() {
        took.push(name);
      },
    });
    const c1 = await openCoordination(s1);
    const c2 = await openCoordination(s2);
    try {
      c1.join(job('one', []));
      c2.join(job('two', [0.25, 0.5]));
      assert.equal(c1.isCoordinator(), true, 'the first to open coordinates');
      assert.equal(c2.isCoordinator(), false);
      assert.equal(await c2.claim(), false, 'a second holder while the first lives');

      await c2.exchange(true); // sends its batch, adopts nothing yet
      await c1.exchange(true); // takes it
      await c1.exchange(true); // nothing more: each batch is taken once
      assert.deepEqual(absorbed, [{ relevance: [0.25, 0.5] }]);

      await c1.published('test');
      await c2.exchange(true);
      await c2.exchange(true); // the same version: adopted once
      assert.deepEqual(adopted, ['two']);

      await c1.close(); // the lock's session ends
      assert.equal(await c2.claim(), true, 'the lock is free once its holder is gone');
      await c2.exchange();
      assert.equal(c2.isCoordinator(), true);
      assert.deepEqual(took, ['two']);
      const record = await s2.getMeta<CoordinatorRecord>(META_COORDINATOR);
      assert.equal(record?.versions['test'], 1, 'versions go on across coordinators');
    } finally {
      await c1.close();
      await c2.close();
      await s1.close();
      await s2.close();
    }
  });
});
