// `status` shows each run at work with its pace: the pages it has fetched and its
// pages per second over its last lease renewal, as the run recorded them at its
// renewals (crawl/run-pace.ts). On PostgreSQL, per worker (columns of its lease,
// on the database's clock), gone with the lease; on a store directory, its one run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CrawlLease } from '../../src/crawl/lease.js';
import { META_PACE } from '../../src/crawl/run-pace.js';
import { connectStore, type Store } from '../../src/store/index.js';
import { type PgCluster, pgSkipReason, startPg } from '../pg.js';
import { runCli } from '../run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-pace-'));
const url = (host: string, i: number) => `http://${host}.test/${i}`;
const page = { fetchedAt: 1, status: 200, bytes: 1, relevance: 1 };

/** Claims and completes `n` pages of `host` under `lease`. */
async function fetchPages(store: Store, lease: CrawlLease, host: string, n: number) {
  const urls = Array.from({ length: n }, (_, i) => url(host, i));
  await store.addUrls(urls.map((u) => ({ url: u, depth: 0, priority: 1 })));
  const claimed = await lease.claim(n);
  await lease.commit(claimed.map((c) => ({ url: c.url, state: 'complete', result: page })));
}

interface StatusRun {
  pid: number;
  pages?: number;
  pagesPerSecond?: number;
}

async function statusRuns(store: string): Promise<StatusRun[]> {
  const r = await runCli('status', '--store', store, '--json');
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { workers: StatusRun[] }).workers;
}

after(() => rmSync(root, { recursive: true, force: true }));

describe('run pace on PostgreSQL', { skip: pgSkipReason() }, () => {
  let pg: PgCluster | undefined;
  before(async () => {
    pg = await startPg();
    await pg.createDatabase('pace');
  });
  after(async () => {
    await pg?.stop();
  });

  test('each worker’s pages and pages per second over its last renewal; gone with its lease', async () => {
    const at = `postgres://postgres@127.0.0.1:${pg?.port}/pace?schema=pace1`;
    // Two workers, as two machines: two handles, two leases.
    const a = await connectStore(at, { create: true });
    const b = await connectStore(at);
    const la = await CrawlLease.open(a);
    const lb = await CrawlLease.open(b);
    try {
      // Before any renewal, no pace is known.
      assert.deepEqual(
        (await statusRuns(at)).map((r) => r.pagesPerSecond),
        [undefined, undefined],
      );
      await fetchPages(a, la, 'a', 3);
      await la.renew();
      await fetchPages(a, la, 'c', 4);
      await fetchPages(b, lb, 'b', 2);
      await la.renew();
      await lb.renew();
      // The figures as recorded, on the database's clock.
      const rows = await (pg as PgCluster).queryJson<{
        pages: number;
        prev_pages: number;
        pages_at: number;
        prev_at: number;
      }>('pace', 'SELECT pages, prev_pages, pages_at, prev_at FROM pace1.leases ORDER BY id');
      assert.deepEqual(
        rows.map((r) => [r.pages, r.prev_pages]),
        [
          [7, 3],
          [2, 0],
        ],
      );
      const perSecond = rows.map((r) =>
        r.pages_at > r.prev_at
          ? ((r.pages - r.prev_pages) * 1000) / (r.pages_at - r.prev_at)
          : undefined,
      );
      const runs = await statusRuns(at);
      assert.deepEqual(
        runs.map((r) => r.pages),
        [perSecond[0] === undefined ? undefined : 7, perSecond[1] === undefined ? undefined : 2],
      );
      // The database divides in numeric and rounds to a double once: the last bit may
      // differ from JavaScript's division of the same figures.
      runs.forEach((r, i) => {
        const want = perSecond[i];
        if (want === undefined) assert.equal(r.pagesPerSecond, undefined);
        else
          assert.ok(
            Math.abs((r.pagesPerSecond ?? Number.NaN) - want) <= 1e-9 * want,
            `${r.pagesPerSecond} against ${want}`,
          );
      });
      const text = (await runCli('status', '--store', at)).out;
      assert.match(text, /Runs at work {4}2\n/);
      if (perSecond[0] !== undefined) assert.match(text, /, 7 pages, [\d,.]+ pages\/s/);
      assert.match(text, /bodies in the database/);
      // A worker that stops takes its figures with its lease.
      await lb.close();
      assert.equal((await statusRuns(at)).length, 1);
    } finally {
      await la.close();
      await lb.close().catch(() => {});
      await a.close();
      await b.close();
    }
  });
});

test('a store directory’s run shows its pace; a run that ended shows none', async () => {
  const dir = join(root, 'dir1');
  const store = await connectStore(dir, { create: true });
  const lease = await CrawlLease.open(store);
  try {
    await fetchPages(store, lease, 'a', 5);
    await lease.renew();
    const p = (await store.getMeta<{ pages: number; at: number; prevAt: number }>(META_PACE)) as {
      pages: number;
      at: number;
      prevAt: number;
    };
    assert.equal(p.pages, 5);
    const [run] = await statusRuns(dir);
    if (p.at > p.prevAt) {
      assert.equal(run?.pages, 5);
      // The same rate, computed in another order: equal to the last bits.
      const want = (5 * 1000) / (p.at - p.prevAt);
      assert.ok(
        Math.abs((run?.pagesPerSecond ?? Number.NaN) - want) <= 1e-9 * want,
        `${run?.pagesPerSecond} pages/s, not ${want}`,
      );
    } else assert.equal(run?.pagesPerSecond, undefined);
  } finally {
    await lease.close();
  }
  // The store's figures stay, but name a lease no longer open: nothing shown.
  assert.deepEqual(await statusRuns(dir), []);
  await store.close();
});
