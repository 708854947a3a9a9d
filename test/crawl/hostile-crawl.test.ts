// A whole crawl of hostile.test (docs/testweb.md), whose home page links every hostile
// path and the pages of the hostile robots.txt hosts: the crawl finishes, the history
// holds each failure's typed error, and the test web's request log shows that no page
// of a host whose robots.txt could not be had (or disallows it) was requested.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HOSTILE_HOST, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { crawlTestWeb } from '../run-cli.js';
import { all, inStore } from '../store-read.js';

const root = tempDir('hostile-crawl');
const topic = join(root, 'topic.json');
let web: TestWeb;
let closedPort = 0;

before(async () => {
  web = await startTestWeb({ port: 0 });
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closedPort = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  // A keyword no page has, threshold 0: every link is followed, in discovery order.
  writeFileSync(topic, JSON.stringify({ name: 'any', keywords: { zzz: 1 }, threshold: 0 }));
});
after(() => web.close());

/** The history's last row per path of `host` (path with query). */
function byPath<T extends { url: string }>(rows: T[], host: string): Map<string, T> {
  const m = new Map<string, T>();
  for (const r of rows) {
    const u = new URL(r.url);
    if (u.hostname === host) m.set(u.pathname + u.search, r);
  }
  return m;
}

test('a crawl of the hostile host finishes with typed errors, and no refused page is requested', async () => {
  web.clearLog();
  const store = join(root, 'store');
  const r = await crawlTestWeb(
    web,
    store,
    topic,
    web.url(HOSTILE_HOST, '/'),
    '--resolve',
    `robots-refused.test=127.0.0.1:${closedPort}`,
    '--max-depth',
    '1',
    '--max-attempts',
    '1',
    '--host-dead-after-ms',
    '0',
    '--timeout-ms',
    '1500',
    '--url-timeout-ms',
    '3000',
    '--concurrency',
    '8',
  );
  assert.equal(r.code, 0, r.err);
  await inStore(store, async (s) => {
    const history = await all(s.history());
    const hostile = byPath(history, HOSTILE_HOST);
    const errorOf = (path: string) => {
      const row = hostile.get(path);
      assert.ok(row !== undefined, `${path} is in the history`);
      return row.error ?? `${row.state} ${row.status}`;
    };
    const expected: [string, RegExp][] = [
      ['/endless', /^FC_ERR_TOTAL_TIMEOUT: /],
      ['/drip', /^FC_ERR_TOTAL_TIMEOUT: /],
      ['/loop/a', /^FC_ERR_REDIRECT_LOOP: /],
      ['/chain/50', /^FC_ERR_TOO_MANY_REDIRECTS: /],
      ['/reset', /^FC_ERR_NETWORK: /],
      ['/short', /^FC_ERR_NETWORK: /],
      ['/bad-chunk', /^FC_ERR_PROTOCOL: /],
      ['/cl-te', /^FC_ERR_PROTOCOL: /],
      ['/two-lengths', /^FC_ERR_PROTOCOL: /],
      ['/header-flood', /^FC_ERR_PROTOCOL: /],
      ['/header-huge', /^FC_ERR_PROTOCOL: /],
    ];
    for (const [path, re] of expected) assert.match(errorOf(path), re, path);
    // Bodies cut at the byte cap (compression bombs among them) are errors, not cut pages.
    for (const path of ['/huge', '/endless?fast=1', '/gzip-bomb', '/deflate-bomb', '/br-bomb']) {
      assert.match(errorOf(path), /^FC_ERR_BODY_TOO_LARGE: .*byte cap/, path);
    }
    for (const path of ['/deep', '/links']) assert.equal(errorOf(path), 'complete 200', path);
    // Pages whose robots.txt could not be had: refused, typed.
    for (const k of ['503', '429', 'reset', 'slow']) {
      const row = byPath(history, `robots-${k}.test`).get('/page');
      assert.match(row?.error ?? '', /^FC_ERR_ROBOTS_DISALLOWED: .*unreachable/, k);
    }
    const refused = byPath(history, 'robots-refused.test').get('/page');
    // Parked as unreachable; or, on a loaded machine, its robots.txt counted as timed out.
    assert.match(
      refused?.error ?? '',
      /^FC_ERR_(HOST_UNREACHABLE|NETWORK|ROBOTS_DISALLOWED): .*robots-refused\.test/,
    );
    const big = byPath(history, 'robots-10mb.test');
    assert.match(
      big.get('/blocked-early/page')?.error ?? '',
      /^FC_ERR_ROBOTS_DISALLOWED: .*line 2/,
    );
    assert.equal(big.get('/page')?.state, 'complete');
  });
  // The request log: robots.txt only, on the hosts whose robots.txt could not be had.
  for (const k of ['503', '429', 'reset', 'slow']) {
    const seen = web.requests.filter((e) => e.host === `robots-${k}.test`).map((e) => e.path);
    assert.ok(seen.length > 0, `robots-${k}.test: robots.txt was asked for`);
    assert.deepEqual(
      seen.filter((p) => p !== '/robots.txt'),
      [],
      `robots-${k}.test pages requested`,
    );
  }
  assert.deepEqual(
    web.requests.filter((e) => e.host === 'robots-refused.test'),
    [],
    'robots-refused.test never reached the test web',
  );
  const big = web.requests.filter((e) => e.host === 'robots-10mb.test').map((e) => e.path);
  assert.deepEqual(big.sort(), ['/page', '/robots.txt']);
});
