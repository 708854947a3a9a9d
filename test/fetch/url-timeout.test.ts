// One URL's time across its tries (urlTimeoutMs), and a timed-out body retried once:
// a body that drips or never ends used to cost totalTimeoutMs × (retries + 1).
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  type FocusCrawlError,
  HeadersTimeoutError,
  TotalTimeoutError,
} from '../../src/errors/index.js';
import type { FetcherOptionsInput } from '../../src/fetch/index.js';
import { testFetcher, using } from './helpers.js';

/** Slack for a loaded machine: the checks are "ended before the limit and this". */
const MARGIN_MS = 1500;
const HOST = 'hostile.test';

/** Requests seen, by path without the query. */
const seen = new Map<string, number>();
const open = new Set<ServerResponse>();
let port = 0;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const path = url.pathname;
  const n = (seen.get(path) ?? 0) + 1;
  seen.set(path, n);
  open.add(res);
  res.on('close', () => open.delete(res));
  const html = { 'content-type': 'text/html; charset=utf-8' };
  switch (path) {
    case '/drip': {
      // One byte a second, of a body said to be 1000 bytes long.
      res.writeHead(200, { ...html, 'content-length': '1000' });
      const t = setInterval(() => res.write('a'), 1000);
      res.write('a');
      res.on('close', () => clearInterval(t));
      return;
    }
    case '/endless': {
      // A chunked body that keeps coming and never ends.
      res.writeHead(200, html);
      const t = setInterval(() => res.write(`<p>${'more '.repeat(40)}</p>\n`), 20);
      res.on('close', () => clearInterval(t));
      return;
    }
    case '/hang':
      return; // no headers, ever
    case '/to-drip':
      res.writeHead(301, { location: '/drip' }).end();
      return;
    case '/flaky':
      // 503 the first time, then the page.
      if (n === 1) res.writeHead(503, html).end('<p>busy</p>');
      else res.writeHead(200, html).end('<p>the page</p>');
      return;
    case '/busy':
      res.writeHead(503, { ...html, 'retry-after': '2' }).end('<p>come back later</p>');
      return;
    default:
      res.writeHead(404, html).end('<p>no</p>');
  }
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  for (const res of open) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const fetcher = (o: FetcherOptionsInput) =>
  testFetcher({ resolve: `${HOST}=127.0.0.1:${port}` }, o);
const url = (path: string) => `http://${HOST}:${port}${path}`;
const hits = (path: string) => seen.get(path) ?? 0;

/**
 * Runs `p`, which must reject with a timeout (FC_ERR_TOTAL_TIMEOUT, or also
 * FC_ERR_HEADERS_TIMEOUT when `headers`); returns the error's message and the ms it took.
 */
async function timedOut(
  p: () => Promise<unknown>,
  headers = false,
): Promise<{ message: string; ms: number }> {
  const t0 = Date.now();
  let message = '';
  await assert.rejects(p(), (e: Error) => {
    const codes = headers
      ? ['FC_ERR_TOTAL_TIMEOUT', 'FC_ERR_HEADERS_TIMEOUT']
      : ['FC_ERR_TOTAL_TIMEOUT'];
    assert.ok(
      e instanceof TotalTimeoutError || (headers && e instanceof HeadersTimeoutError),
      String(e),
    );
    assert.ok(codes.includes((e as FocusCrawlError).code), String(e));
    message = e.message;
    return true;
  });
  return { message, ms: Date.now() - t0 };
}

describe('a body that times out is retried once, within urlTimeoutMs', () => {
  // 300 ms a try, 1 s for the URL, and retries enough for three more tries.
  const o = { totalTimeoutMs: 300, urlTimeoutMs: 1000, retries: 3 };

  test('a body dripping one byte a second: two requests, a typed error, within the deadline', () =>
    using(fetcher(o), async (f) => {
      const before = hits('/drip');
      const { message, ms } = await timedOut(() => f.fetch(url('/drip')));
      assert.ok(ms < 1000 + MARGIN_MS, `took ${ms} ms`);
      assert.ok(hits('/drip') - before <= 2, `the server saw ${hits('/drip') - before} requests`);
      assert.match(message, new RegExp(`${HOST}:\\d+/drip`));
      assert.match(message, /totalTimeoutMs=300/);
      assert.match(message, /after 2 attempts; a body that timed out is retried once/);
    }));

  test('a body that never ends: two requests, a typed error, within the deadline', () =>
    using(fetcher(o), async (f) => {
      const before = hits('/endless');
      const { ms } = await timedOut(() => f.fetch(url('/endless')));
      assert.ok(ms < 1000 + MARGIN_MS, `took ${ms} ms`);
      assert.ok(hits('/endless') - before <= 2, `the server saw ${hits('/endless') - before}`);
    }));

  test('with retries: 0 a timed-out body is tried once', () =>
    using(fetcher({ ...o, retries: 0 }), async (f) => {
      const before = hits('/drip');
      await timedOut(() => f.fetch(url('/drip')));
      assert.equal(hits('/drip') - before, 1);
    }));

  test('the once holds for the whole fetch, redirect hops included', () =>
    using(fetcher(o), async (f) => {
      const before = hits('/drip');
      const { ms } = await timedOut(() => f.fetch(url('/to-drip')));
      assert.ok(ms < 1000 + MARGIN_MS, `took ${ms} ms`);
      assert.ok(hits('/drip') - before <= 2, `the server saw ${hits('/drip') - before}`);
    }));
});

describe('urlTimeoutMs ends the fetch', () => {
  test('shorter than one try: the try is cut at urlTimeoutMs, and the error names it', () =>
    using(fetcher({ totalTimeoutMs: 5000, urlTimeoutMs: 600, retries: 2 }), async (f) => {
      const before = hits('/drip');
      const { message, ms } = await timedOut(() => f.fetch(url('/drip')));
      assert.ok(ms < 600 + MARGIN_MS, `took ${ms} ms`);
      assert.equal(hits('/drip') - before, 1);
      assert.match(message, new RegExp(`${HOST}:\\d+/drip`));
      assert.match(message, /urlTimeoutMs=600/);
    }));

  // Headers that never come time out after firstByteTimeoutMs, a timeout retried as
  // often as `retries` says: six tries of 150 ms here, but for urlTimeoutMs.
  const noHeaders = { firstByteTimeoutMs: 150, retries: 5 };

  test('it bounds timeouts that are retried in full (no headers, ever)', () =>
    using(fetcher({ ...noHeaders, totalTimeoutMs: 1000, urlTimeoutMs: 400 }), async (f) => {
      const before = hits('/hang');
      const { ms } = await timedOut(() => f.fetch(url('/hang')), true);
      assert.ok(ms < 400 + MARGIN_MS, `took ${ms} ms`);
      assert.ok(hits('/hang') - before <= 3, `the server saw ${hits('/hang') - before}`);
    }));

  test('by default it is twice totalTimeoutMs', () =>
    using(fetcher({ ...noHeaders, totalTimeoutMs: 300 }), async (f) => {
      const before = hits('/hang');
      const { ms } = await timedOut(() => f.fetch(url('/hang')), true);
      assert.ok(ms < 600 + MARGIN_MS, `took ${ms} ms`);
      assert.ok(hits('/hang') - before <= 4, `the server saw ${hits('/hang') - before}`);
    }));

  test('a Retry-After that would end past it is not waited for: the 503 is the answer', () =>
    using(fetcher({ urlTimeoutMs: 1000, retries: 2 }), async (f) => {
      const before = hits('/busy');
      const t0 = Date.now();
      const r = await f.fetch(url('/busy'));
      assert.equal(r.status, 503);
      assert.equal(r.attempts, 1);
      assert.equal(hits('/busy') - before, 1);
      assert.ok(Date.now() - t0 < 1000 + MARGIN_MS);
    }));
});

describe('other retries are as before', () => {
  test('503 then 200: retried, the page returned', () =>
    using(fetcher({ totalTimeoutMs: 300, urlTimeoutMs: 1000, retries: 2 }), async (f) => {
      const r = await f.fetch(url('/flaky'));
      assert.equal(r.status, 200);
      assert.equal(r.attempts, 2);
      assert.equal(hits('/flaky'), 2);
      assert.match(r.body.toString('utf8'), /the page/);
    }));

  test('with the default urlTimeoutMs, a 503 with Retry-After: 2 is still waited for', () =>
    using(fetcher({ retries: 1 }), async (f) => {
      const before = hits('/busy');
      const r = await f.fetch(url('/busy'));
      assert.equal(r.status, 503);
      assert.equal(r.attempts, 2);
      assert.equal(hits('/busy') - before, 2);
    }));
});
