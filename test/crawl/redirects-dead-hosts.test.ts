// Through the CLI on the test web: a page reached through redirects is fetched once and
// kept under its final URL; unreachable hosts' URLs wait with their host and fail
// together, unsent, without using up the page budget. Request counts from the test
// web's own log (and, for the host that never answers, from its own connection count).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  DEAD_HOSTS,
  DEAD_LINKS,
  DEAD_LIVE_PAGES,
  DEADLINKS_HOST,
  MOVED_HOST,
  MOVED_PAGES,
  startTestWeb,
  type TestWeb,
} from '../../src/testweb/index.js';
import { crawlTestWeb, runCli } from '../run-cli.js';
import { all, inStore } from '../store-read.js';

let web: TestWeb;
/** A server whose robots.txt is missing and whose pages never answer (counted). */
let blackhole: Server;
let blackholePages = 0;
const sockets = new Set<Socket>();
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-redirects-'));
const topic = join(root, 'topic.json');
let n = 0;

before(async () => {
  web = await startTestWeb({ port: 0 });
  blackhole = createServer((req, res) => {
    if (req.url === '/robots.txt') {
      res.writeHead(404).end();
      return;
    }
    blackholePages++;
  });
  blackhole.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
  // A keyword no link mentions: links are claimed in discovery order.
  writeFileSync(topic, JSON.stringify({ name: 'any', keywords: { zzz: 1 }, threshold: 0 }));
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => blackhole.close(() => r()));
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

function crawl(seed: string, ...extra: string[]) {
  const store = join(root, `s${++n}`);
  const run = crawlTestWeb(web, store, topic, seed, '--concurrency', '8', ...extra);
  return { store, run };
}

/** Requests the test web saw for `host`, robots.txt aside, as paths. */
function requested(host: string): string[] {
  return web.requests.filter((r) => r.host === host && r.path !== '/robots.txt').map((r) => r.path);
}

test('a page behind 301s (or a meta refresh) is fetched once and kept under its final URL', async () => {
  web.clearLog();
  const { store, run } = crawl(web.url(MOVED_HOST, '/'));
  const r = await run;
  assert.equal(r.code, 0, r.err);
  const paths = requested(MOVED_HOST);
  const count = new Map<string, number>();
  for (const p of paths) count.set(p, (count.get(p) ?? 0) + 1);
  for (const [p, k] of count) assert.equal(k, 1, `${p} was requested ${k} times`);
  for (let k = 0; k < MOVED_PAGES; k++) assert.equal(count.get(`/page-${k}`), 1, `/page-${k}`);
  await inStore(store, async (s) => {
    const urls = await all(s.urls());
    const byPath = new Map(urls.map((u) => [new URL(u.url).pathname + new URL(u.url).search, u]));
    for (let k = 0; k < MOVED_PAGES; k++) {
      assert.equal(byPath.get(`/page-${k}`)?.state, 'complete', `/page-${k}`);
    }
    const redirects = urls.filter((u) => u.state === 'redirect');
    assert.ok(redirects.length >= MOVED_PAGES, `${redirects.length} redirect URLs`);
    for (const u of redirects) {
      assert.match(u.redirectTo ?? '', /^http:\/\/moved\.test(:\d+)?\/(page-\d+|old\/page-\d+)$/);
    }
    const c = await s.counts();
    assert.equal(c.discard, 0, 'no page was taken for a duplicate of itself');
    assert.equal(c.error, 0);
    // The home page, the pages, and /refresh with /hidden, which only its meta refresh names.
    assert.equal(c.complete, MOVED_PAGES + 3);
    assert.equal(byPath.get('/hidden')?.state, 'complete');
    // Every hop is in the history, and no page twice.
    const history = await all(s.history());
    const pages = history.filter((h) => h.state === 'complete').map((h) => h.url);
    assert.equal(new Set(pages).size, pages.length);
    assert.ok(history.some((h) => h.state === 'redirect' && h.status === 301 && h.location));
  });
  // The URL export says where each redirecting URL leads.
  const csv = await runCli(
    'export',
    '--store',
    store,
    '--what',
    'urls',
    '--state',
    'redirect',
    '--format',
    'csv',
  );
  assert.equal(csv.code, 0, csv.err);
  const [header, ...rows] = csv.out.trim().split('\r\n');
  assert.ok(header?.split(',').at(-1) === 'redirectTo', header);
  assert.ok(rows.length >= MOVED_PAGES);
  for (const row of rows) assert.match(row, /,http:\/\/moved\.test(:\d+)?\/(old\/)?page-\d+$/, row);
});

function deadCrawl(...extra: string[]) {
  const port = (blackhole.address() as { port: number }).port;
  return crawl(
    web.url(DEADLINKS_HOST, '/'),
    '--resolve',
    'refused.test=127.0.0.1:1',
    '--resolve',
    `blackhole.test=127.0.0.1:${port}`,
    '--no-dns',
    '--first-byte-timeout-ms',
    '300',
    '--retries',
    '0',
    '--host-retry-ms',
    '200',
    '--host-dead-after-ms',
    '600',
    '--host-timeouts',
    '2',
    ...extra,
  );
}

test('unreachable hosts use none of the page budget', async () => {
  web.clearLog();
  const budget = DEAD_LIVE_PAGES + 1;
  const { run } = deadCrawl('--max-pages', String(budget));
  const r = await run;
  assert.equal(r.code, 0, r.err);
  // The 90 dead URLs come first on the page; every live page was fetched all the same.
  assert.equal(requested(DEADLINKS_HOST).length, budget);
});

test('unreachable hosts: URLs wait with their host and fail together, unsent', async () => {
  web.clearLog();
  blackholePages = 0;
  // One attempt each: their failures end them now (with more, a later run tries them again).
  const { store, run } = deadCrawl('--max-attempts', '1');
  const r = await run;
  assert.equal(r.code, 0, r.err);
  assert.equal(requested(DEADLINKS_HOST).length, DEAD_LIVE_PAGES + 1);
  // blackhole.test saw the 2 timeouts that parked it and 2 probes, not one request per URL.
  assert.ok(blackholePages <= 5, `${blackholePages} page requests to blackhole.test`);
  await inStore(store, async (s) => {
    assert.equal((await all(s.urls('error'))).length, DEAD_HOSTS.length * DEAD_LINKS);
    const stats = await s.stats();
    assert.equal(stats.responses, DEAD_LIVE_PAGES + 1);
    const unsent = stats.errors.find((e) => e.code === 'FC_ERR_HOST_UNREACHABLE');
    // All but the first failures of each host (1 DNS, 1 refused, 2 timeouts) and the probes.
    assert.ok(
      unsent !== undefined && unsent.count >= DEAD_HOSTS.length * (DEAD_LINKS - 4),
      JSON.stringify(stats.errors),
    );
  });
  assert.match(r.out, /requests/);
  assert.match(r.out, /FC_ERR_HOST_UNREACHABLE/);
  const status = await runCli('status', '--store', store);
  assert.equal(status.code, 0, status.err);
  assert.match(status.out, /Requests sent\s+\d+/);
  assert.match(status.out, /refused before sending[^\n]*FC_ERR_HOST_UNREACHABLE/);
});
