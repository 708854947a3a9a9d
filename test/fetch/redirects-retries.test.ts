// Redirects, retries and timeouts through the real fetcher and the test web.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AbortedError,
  ConnectTimeoutError,
  HeadersTimeoutError,
  NetworkError,
  OutOfScopeError,
  RedirectLoopError,
  RobotsDisallowedError,
  TooManyRedirectsError,
  TotalTimeoutError,
} from '../../src/errors/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import { gaps, logOf, testFetcher, using, withWeb } from './helpers.js';

describe('redirects', () => {
  test('a chain is followed and recorded hop by hop', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const u = (p: string) => web.url('redirect.test', p);
        const r = await f.fetch(u('/chain/3'));
        assert.equal(r.status, 200);
        assert.equal(r.url, u('/chain/3'));
        assert.equal(r.finalUrl, u('/chain/0'));
        assert.deepEqual(r.redirects, [
          { url: u('/chain/3'), status: 301, location: u('/chain/2') },
          { url: u('/chain/2'), status: 301, location: u('/chain/1') },
          { url: u('/chain/1'), status: 301, location: u('/chain/0') },
        ]);
        assert.equal(r.attempts, 4);
        const r302 = await f.fetch(u('/chain302/2'));
        assert.deepEqual(
          r302.redirects.map((h) => h.status),
          [302, 302],
        );
      }),
    ));

  test('exactly maxRedirects hops are allowed, one more is an error', () =>
    withWeb((web) =>
      using(testFetcher(web, { maxRedirects: 5 }), async (f) => {
        const r = await f.fetch(web.url('redirect.test', '/chain/5'));
        assert.equal(r.redirects.length, 5);
        await assert.rejects(f.fetch(web.url('redirect.test', '/chain/6')), TooManyRedirectsError);
        // The sixth hop was never requested.
        assert.equal(logOf(web, 'redirect.test', '/chain/0').length, 1);
      }),
    ));

  test('a loop is detected', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        await assert.rejects(f.fetch(web.url('redirect.test', '/loop/a')), (e: Error) => {
          assert.ok(e instanceof RedirectLoopError);
          assert.match(e.message, /loop\/a -> .*loop\/b -> .*loop\/a/);
          return true;
        });
        assert.equal(logOf(web, 'redirect.test', '/loop/').length, 2);
      }),
    ));

  test('a relative Location is resolved against the hop', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const r = await f.fetch(web.url('redirect.test', '/relative'));
        assert.equal(r.finalUrl, web.url('redirect.test', '/chain/0'));
        assert.equal(r.redirects[0]!.status, 301);
      }),
    ));

  test('a redirect out of scope throws OutOfScopeError before any request to the target', () =>
    withWeb((web) =>
      using(
        testFetcher(web, { scope: (url) => new URL(url).hostname === 'redirect.test' }),
        async (f) => {
          const target = web.url('robots-404.test', '/elsewhere');
          const from = web.url('redirect.test', `/to?url=${encodeURIComponent(target)}`);
          await assert.rejects(f.fetch(from), (e: Error) => {
            assert.ok(e instanceof OutOfScopeError);
            assert.ok(e.message.includes(target));
            return true;
          });
          assert.equal(web.requests.filter((r) => r.host === 'robots-404.test').length, 0);
        },
      ),
    ));

  test("each hop is checked against its own host's robots.txt", () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const target = web.url('robots-rules.test', '/private/secret');
        const from = web.url('redirect.test', `/to?url=${encodeURIComponent(target)}`);
        await assert.rejects(f.fetch(from), RobotsDisallowedError);
        assert.equal(logOf(web, 'robots-rules.test').length, 0);
      }),
    ));
});

describe('retries', () => {
  test('a flaky 503 is retried until it answers 200', () =>
    withWeb((web) =>
      using(testFetcher(web, { retries: 2 }), async (f) => {
        const r = await f.fetch(web.url('status.test', '/flaky/x?fail=2'));
        assert.equal(r.status, 200);
        assert.equal(r.attempts, 3);
        assert.equal(logOf(web, 'status.test', '/flaky/x').length, 3);
        assert.equal(f.stats().retries, 2);
      }),
    ));

  test('when retries run out on a 5xx, the last response is returned', () =>
    withWeb((web) =>
      using(testFetcher(web, { retries: 1 }), async (f) => {
        const r = await f.fetch(web.url('status.test', '/flaky/y?fail=5&status=502'));
        assert.equal(r.status, 502);
        assert.equal(r.attempts, 2);
        assert.ok(r.body.length > 0, 'the last body is kept');
      }),
    ));

  test('a reset connection is retried; without retries it is a NetworkError', () =>
    withWeb((web) =>
      using(testFetcher(web, { retries: 1 }), async (f) => {
        const r = await f.fetch(web.url('status.test', '/reset/a?fail=1'));
        assert.equal(r.status, 200);
        assert.equal(r.attempts, 2);
        await assert.rejects(f.fetch(web.url('status.test', '/reset/b?fail=5')), (e: Error) => {
          assert.ok(e instanceof NetworkError, String(e));
          assert.ok(e.cause !== undefined);
          assert.match(e.message, /after 2 attempts/);
          return true;
        });
      }),
    ));

  test('429 with Retry-After: 1 waits at least a second before trying again', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const r = await f.fetch(web.url('status.test', '/429?retry-after=1'));
        assert.equal(r.status, 200);
        assert.equal(r.attempts, 2);
        const log = logOf(web, 'status.test', '/429');
        assert.deepEqual(
          log.map((e) => e.status),
          [429, 200],
        );
        assert.ok(gaps(log)[0]! >= 970, `gap ${gaps(log)[0]} ms`);
      }),
    ));

  // Regression: a 429's Retry-After held back only that URL's retry; the host's other
  // URLs went on being fetched at its plain delay.
  test('429 with Retry-After: 1 holds the whole host, not only the URL retried', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const first = f.fetch(web.url('status.test', '/429?retry-after=1&held=host'));
        while (logOf(web, 'status.test', '/429').length === 0) await sleep(5);
        // The server logs a request when it comes; give the 429 time to reach the
        // fetcher (a loaded machine was slower than the next request).
        await sleep(200);
        assert.equal((await f.fetch(web.url('status.test', '/200?other=1'))).status, 200);
        assert.equal((await first).status, 200);
        const log = logOf(web, 'status.test');
        assert.equal(log.length, 3, JSON.stringify(log.map((e) => e.path)));
        const other = log.find((e) => e.path.startsWith('/200'));
        const refused = log.find((e) => e.path.startsWith('/429'));
        assert.ok(other && refused);
        assert.ok(
          other.ts - refused.ts >= 970,
          `the other URL came ${other.ts - refused.ts} ms after the 429`,
        );
      }),
    ));

  test('a Retry-After beyond maxRetryAfterMs ends the retries with the 429', () =>
    withWeb((web) =>
      using(testFetcher(web, { maxRetryAfterMs: 500 }), async (f) => {
        const r = await f.fetch(web.url('status.test', '/429?retry-after=5'));
        assert.equal(r.status, 429);
        assert.equal(r.attempts, 1);
        assert.equal(r.headers['retry-after'], '5');
      }),
    ));
});

describe('timeouts and aborts', () => {
  test('first byte: HeadersTimeoutError, retried like other timeouts', () =>
    withWeb((web) =>
      using(testFetcher(web, { firstByteTimeoutMs: 150, retries: 1 }), async (f) => {
        await assert.rejects(f.fetch(web.url('slow.test', '/headers?ms=3000')), (e: Error) => {
          assert.ok(e instanceof HeadersTimeoutError, String(e));
          assert.match(e.message, /firstByteTimeoutMs=150/);
          return true;
        });
        assert.equal(logOf(web, 'slow.test', '/headers').length, 2);
        await assert.rejects(
          f.fetch(web.url('slow.test', '/hang'), { skipRobots: true }),
          HeadersTimeoutError,
        );
      }),
    ));

  test('total: a trickling body gives TotalTimeoutError', () =>
    withWeb((web) =>
      using(testFetcher(web, { totalTimeoutMs: 300, retries: 0 }), async (f) => {
        await assert.rejects(f.fetch(web.url('slow.test', '/body?ms=3000')), TotalTimeoutError);
      }),
    ));

  test('connect: a DNS lookup that never answers gives ConnectTimeoutError', async () => {
    // No packet leaves the machine: the lookup never returns an address.
    const f = createFetcher({
      connectTimeoutMs: 150,
      retries: 0,
      obeyRobots: false,
      lookup: () => {},
    });
    await using(f, async () => {
      await assert.rejects(f.fetch('http://never-answers.test/'), (e: Error) => {
        assert.ok(e instanceof ConnectTimeoutError, String(e));
        assert.match(e.message, /connectTimeoutMs=150/);
        return true;
      });
    });
  });

  test("the caller's signal aborts a request in flight", () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 100);
        await assert.rejects(
          f.fetch(web.url('slow.test', '/hang'), { signal: ac.signal, skipRobots: true }),
          AbortedError,
        );
        assert.equal(f.stats().inFlight, 0);
      }),
    ));

  test('close() aborts requests in flight; a closed fetcher refuses new ones', () =>
    withWeb(async (web) => {
      const f = testFetcher(web);
      const hanging = f.fetch(web.url('slow.test', '/hang'), { skipRobots: true });
      await new Promise((r) => setTimeout(r, 50));
      await f.close();
      await assert.rejects(hanging, AbortedError);
      await assert.rejects(f.fetch(web.url('robots-404.test', '/after')), AbortedError);
      assert.equal(logOf(web, 'robots-404.test', '/').length, 0);
    }));

  test("the caller's signal aborts a request waiting for its politeness slot", () =>
    withWeb((web) =>
      using(testFetcher(web, { delayMs: 60_000, perHostConcurrency: 1 }), async (f) => {
        await f.fetch(web.url('robots-404.test', '/first'), { skipRobots: true });
        const ac = new AbortController();
        const p = f.fetch(web.url('robots-404.test', '/second'), {
          signal: ac.signal,
          skipRobots: true,
        });
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(f.stats().hosts['robots-404.test']?.queued, 1);
        ac.abort();
        await assert.rejects(p, AbortedError);
        assert.equal(f.stats().queued, 0);
        assert.equal(logOf(web, 'robots-404.test', '/second').length, 0);
      }),
    ));
});
