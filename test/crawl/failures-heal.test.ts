// Failures that heal, through the library on small servers of our own on 127.0.0.1:
// transient failures (5xx, refused connections, unresolvable names) are attempts,
// tried again after a back-off, in the same run or a later one, counted across runs;
// permanent ones (404) end the URL at once; a crawl whose every fetch fails stops and
// says why; URLs in error come back with `retryErrors`.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type CrawlOptionsInput, crawl } from '../../src/crawl/index.js';
import { InvalidOptionError } from '../../src/errors/index.js';
import type { HistoryRecord, UrlRecord } from '../../src/store/index.js';
import { all, inStore } from '../store-read.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-heal-'));
const servers: Server[] = [];
let n = 0;

after(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(root, { recursive: true, force: true });
});

/** What a path answers on its `hit`-th request (1-based): a status, and headers. */
type Answer = (
  path: string,
  hit: number,
) => number | { status: number; headers: Record<string, string> };

/** A site on 127.0.0.1: robots.txt missing, every path answering as `answer` says. */
class Site {
  readonly hits = new Map<string, number>();
  answer: Answer;
  port = 0;

  constructor(answer: Answer) {
    this.answer = answer;
  }

  async start(): Promise<this> {
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = req.url ?? '/';
      if (path === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      const hit = (this.hits.get(path) ?? 0) + 1;
      this.hits.set(path, hit);
      const a = this.answer(path, hit);
      const { status, headers } = typeof a === 'number' ? { status: a, headers: {} } : a;
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(`<html><head><title>${path}</title></head><body><p>zzz ${path}</p></body></html>`);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    this.port = (server.address() as { port: number }).port;
    return this;
  }

  /** `heal.test` (or `host`) mapped to this site. */
  resolve(host = 'heal.test'): string {
    return `${host}=127.0.0.1:${this.port}`;
  }
}

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

const U = (path: string, host = 'heal.test') => `http://${host}${path}`;

function options(
  store: string,
  seeds: string[],
  resolve: string[],
  extra: Partial<CrawlOptionsInput> = {},
): CrawlOptionsInput {
  return {
    store,
    topic: { keywords: { zzz: 1 }, threshold: 0 },
    seeds,
    sitemaps: 'none',
    rankOnFinish: false,
    thread: false,
    progressIntervalMs: 50,
    commitIntervalMs: 20,
    retryBackoffMs: 1,
    ...extra,
    fetcher: {
      resolve,
      dns: false,
      allowPrivateAddresses: true,
      retries: 0,
      delayMs: 0,
      ...extra.fetcher,
    },
  };
}

const newStore = () => join(root, `s${++n}`);

/** The history rows of `url`: [state, status, attempt, whether a retry time is set]. */
async function rowsOf(
  store: string,
  url: string,
): Promise<[string, number | null, number, boolean][]> {
  return inStore(store, async (s) =>
    (await all(s.history()))
      .filter((h: HistoryRecord) => h.url === url)
      .map((h) => [h.state, h.status, h.attempt, h.retryAt !== null]),
  );
}

async function urlOf(store: string, url: string): Promise<UrlRecord | undefined> {
  return inStore(store, async (s) => (await all(s.urls())).find((u) => u.url === url));
}

describe('transient and permanent failures', () => {
  test('a URL that answers 503 twice, then 200, is kept in one run: two failed attempts, then the page', async () => {
    const site = await new Site((_p, hit) => (hit <= 2 ? 503 : 200)).start();
    const store = newStore();
    const s = await crawl(options(store, [U('/flaky')], [site.resolve()]));
    assert.equal(s.stopReason, 'exhausted', s.message);
    assert.deepEqual([s.counts.complete, s.counts.error, s.counts.waiting], [1, 0, 0]);
    assert.deepEqual([s.retries, s.run.error, s.run.complete], [2, 0, 1]);
    assert.equal(site.hits.get('/flaky'), 3);
    assert.deepEqual(await rowsOf(store, U('/flaky')), [
      ['error', 503, 1, true],
      ['error', 503, 2, true],
      ['complete', 200, 3, false],
    ]);
    // The page budget counts the page, not the 503s before it.
    assert.equal(s.fetchedTotal, 1);
    const stats = await inStore(store, (x) => x.stats());
    assert.deepEqual([stats.responses, stats.fetched, stats.retries], [1, 3, 2]);
  });

  test('the page budget counts pages fetched: failed attempts tried again do not spend it', async () => {
    const site = await new Site((p, hit) => (p === '/flaky' && hit <= 2 ? 503 : 200)).start();
    const store = newStore();
    const s = await crawl(options(store, [U('/flaky')], [site.resolve()], { maxPages: 1 }));
    assert.equal(s.stopReason, 'max-pages', s.message);
    assert.deepEqual([s.fetchedTotal, s.counts.complete, s.retries], [1, 1, 2]);
  });

  test('a 404 is permanent: error at once, one history row, never tried again, also not by the next run', async () => {
    const site = await new Site(() => 404).start();
    const store = newStore();
    const first = await crawl(options(store, [U('/gone')], [site.resolve()]));
    assert.deepEqual([first.counts.error, first.retries], [1, 0]);
    const second = await crawl(options(store, [U('/gone')], [site.resolve()]));
    assert.equal(second.stopReason, 'exhausted', second.message);
    assert.equal(site.hits.get('/gone'), 1);
    assert.deepEqual(await rowsOf(store, U('/gone')), [['error', 404, 1, false]]);
    assert.equal((await urlOf(store, U('/gone')))?.attempts, 1);
  });

  test('maxAttempts 1: a 503 is final at once', async () => {
    const site = await new Site(() => 503).start();
    const store = newStore();
    const s = await crawl(options(store, [U('/down')], [site.resolve()], { maxAttempts: 1 }));
    assert.deepEqual([s.counts.error, s.counts.waiting, s.retries], [1, 0, 0]);
    assert.equal(site.hits.get('/down'), 1);
    assert.deepEqual(await rowsOf(store, U('/down')), [['error', 503, 1, false]]);
  });

  test("a 429's Retry-After is honoured when longer than the back-off", async () => {
    const site = await new Site((_p, hit) =>
      hit === 1 ? { status: 429, headers: { 'retry-after': '1' } } : 200,
    ).start();
    const store = newStore();
    const s = await crawl(options(store, [U('/busy')], [site.resolve()]));
    assert.deepEqual([s.counts.complete, s.retries], [1, 1]);
    const rows = await inStore(store, async (x) => all(x.history()));
    const [failed, page] = rows;
    assert.ok(failed?.retryAt != null && failed.retryAt - failed.fetchedAt >= 1000, 'waited 1 s');
    assert.ok(page !== undefined && page.fetchedAt >= (failed?.retryAt ?? 0));
  });
});

describe('every fetch failing', () => {
  const cases: [name: string, setup: () => Promise<{ host: string; resolve: string[] }>, RegExp][] =
    [
      [
        'connections refused',
        async () => ({ host: 'down.test', resolve: [`down.test=127.0.0.1:${await closedPort()}`] }),
        /^every fetch of this run failed: connection refused by 127\.0\.0\.1:\d+ — is the server running\?/,
      ],
      [
        'a host name without its --resolve',
        async () => ({ host: 'portal.test', resolve: [] }),
        /^every fetch of this run failed: cannot resolve portal\.test — is a --resolve missing\?/,
      ],
    ];
  for (const [name, setup, message] of cases) {
    test(`${name}: the run stops, says why, and a second run that can reach the server fetches every URL`, async () => {
      const { host, resolve } = await setup();
      const seeds = ['/a', '/b', '/c'].map((p) => U(p, host));
      const store = newStore();
      const first = await crawl(options(store, seeds, resolve));
      assert.equal(first.stopReason, 'failing', first.message);
      assert.match(first.message, message);
      assert.match(first.message, /3 URLs wait to be tried again/);
      assert.deepEqual([first.counts.waiting, first.counts.error, first.fetchedTotal], [3, 0, 0]);
      // The host was given up as a whole: one failed attempt per URL, none sent one by one.
      for (const url of seeds) {
        const rows = await inStore(store, async (s) =>
          (await all(s.history())).filter((h) => h.url === url),
        );
        assert.deepEqual(
          rows.map((h) => [h.state, h.attempt, h.error?.split(':')[0]]),
          [['error', 1, 'FC_ERR_HOST_UNREACHABLE']],
        );
      }
      const site = await new Site(() => 200).start();
      const second = await crawl(options(store, [], [site.resolve(host)]));
      assert.equal(second.stopReason, 'exhausted', second.message);
      assert.deepEqual(
        [second.counts.complete, second.counts.error, second.counts.waiting],
        [3, 0, 0],
      );
      for (const url of seeds) {
        assert.deepEqual((await rowsOf(store, url)).at(-1), ['complete', 200, 2, false]);
      }
    });
  }

  test('the circuit breaker: every fetch failing for failingStopMs stops the run, naming the cause; the URLs stay to be tried again', async () => {
    const site = await new Site(() => 503).start();
    const store = newStore();
    const seeds = Array.from({ length: 8 }, (_, i) => U(`/p${i}`));
    const s = await crawl(
      options(store, seeds, [site.resolve()], { failingStopMs: 1, retryBackoffMs: 60_000 }),
    );
    assert.equal(s.stopReason, 'failing', s.message);
    assert.match(
      s.message,
      /^every fetch in the last 1 ms failed: heal\.test answered HTTP 503\. \d+ URLs wait to be tried again/,
    );
    assert.equal(s.counts.error, 0, 'no URL ended in error');
    assert.equal(s.counts.waiting + s.counts.processing, seeds.length);
    assert.ok(s.retries >= 3 && s.retries < seeds.length, `${s.retries} failed attempts`);
  });

  test('0 turns the circuit breaker off', async () => {
    const site = await new Site(() => 503).start();
    const store = newStore();
    const seeds = Array.from({ length: 4 }, (_, i) => U(`/p${i}`));
    const s = await crawl(
      options(store, seeds, [site.resolve()], { failingStopMs: 0, maxAttempts: 2 }),
    );
    assert.equal(s.stopReason, 'exhausted', s.message);
    assert.deepEqual([s.counts.error, s.retries], [4, 4]);
  });
});

describe('attempts across runs', () => {
  /** A crawl of `url` stopped as soon as its first attempt failed and was put back. */
  async function stoppedAfterFailure(store: string, url: string, resolve: string[]) {
    const controller = new AbortController();
    const run = crawl(
      options(store, [url], resolve, { retryBackoffMs: 300, signal: controller.signal }),
    );
    run.on('page', (e) => {
      if (e.retryAt !== undefined) controller.abort();
    });
    return run.done;
  }

  test('a run stopped while a URL waits for its retry: the next run tries it, counting on', async () => {
    let up = false;
    const site = await new Site(() => (up ? 200 : 503)).start();
    const store = newStore();
    const first = await stoppedAfterFailure(store, U('/later'), [site.resolve()]);
    assert.equal(first.stopReason, 'stopped', first.message);
    const waiting = await urlOf(store, U('/later'));
    assert.deepEqual([waiting?.state, waiting?.attempts], ['waiting', 1]);
    assert.ok(waiting?.retryAt != null, 'its retry time is kept');
    up = true;
    const second = await crawl(options(store, [], [site.resolve()]));
    assert.deepEqual([second.counts.complete, second.counts.error], [1, 0]);
    assert.deepEqual(await rowsOf(store, U('/later')), [
      ['error', 503, 1, true],
      ['complete', 200, 2, false],
    ]);
    // Not before its retry time, which the first run set.
    const rows = await inStore(store, async (s) => all(s.history()));
    assert.ok((rows[1]?.fetchedAt ?? 0) >= (rows[0]?.retryAt ?? Number.POSITIVE_INFINITY));
  });

  test('a URL whose attempts an earlier run used up ends in error at its next failure', async () => {
    const site = await new Site(() => 503).start();
    const store = newStore();
    await stoppedAfterFailure(store, U('/x'), [site.resolve()]);
    const second = await crawl(options(store, [], [site.resolve()], { maxAttempts: 2 }));
    assert.deepEqual([second.counts.error, second.retries], [1, 0]);
    assert.equal(site.hits.get('/x'), 2);
    assert.deepEqual(await rowsOf(store, U('/x')), [
      ['error', 503, 1, true],
      ['error', 503, 2, false],
    ]);
  });
});

describe('retryErrors', () => {
  test('URLs in error come back in a later run: by status, by code, then all', async () => {
    const fixed = new Set<string>();
    const site = await new Site((p) =>
      fixed.has(p) ? 200 : p === '/missing' ? 404 : p === '/gone' ? 410 : 500,
    ).start();
    const store = newStore();
    const seeds = ['/missing', '/gone', '/broken'].map((p) => U(p));
    const first = await crawl(options(store, seeds, [site.resolve()], { maxAttempts: 1 }));
    assert.equal(first.counts.error, 3);
    for (const p of ['/missing', '/gone', '/broken']) fixed.add(p);

    const warnings: string[] = [];
    const byStatus = crawl(options(store, [], [site.resolve()], { retryErrors: '404' }));
    byStatus.on('warning', (w) => warnings.push(w));
    const s404 = await byStatus;
    assert.deepEqual([s404.requeued, s404.counts.complete, s404.counts.error], [1, 1, 2]);
    assert.ok(
      warnings.some((w) => /^1 URL in error put back to waiting \(--retry-errors 404\)/.test(w)),
      warnings.join('\n'),
    );
    const byClass = await crawl(
      options(store, [], [site.resolve()], { retryErrors: 'FC_ERR_DNS,5xx' }),
    );
    assert.deepEqual([byClass.requeued, byClass.counts.complete, byClass.counts.error], [1, 2, 1]);
    const rest = await crawl(options(store, [], [site.resolve()], { retryErrors: 'all' }));
    assert.deepEqual([rest.requeued, rest.counts.complete, rest.counts.error], [1, 3, 0]);
    // Their attempts start again from 1.
    assert.deepEqual(await rowsOf(store, U('/gone')), [
      ['error', 410, 1, false],
      ['complete', 200, 1, false],
    ]);
  });

  test('a retryErrors that names no known code is refused by name, before the store is touched', async () => {
    const store = newStore();
    await assert.rejects(
      crawl(options(store, [U('/')], [], { retryErrors: '404,FC_ERR_NOPE' })).done,
      (e: unknown) =>
        e instanceof InvalidOptionError &&
        /retryErrors: .*--retry-errors.*"FC_ERR_NOPE" is not an error code/.test(e.message),
    );
    assert.equal(existsSync(store), false);
  });
});
