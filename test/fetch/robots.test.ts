// robots.txt through the real fetcher and the test web: rules, statuses, size, Crawl-delay.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { RobotsDisallowedError } from '../../src/errors/index.js';
import { gaps, logOf, testFetcher, using, withWeb } from './helpers.js';

describe('robots.txt rules (robots-rules.test)', () => {
  test('the focuscrawl group is obeyed, not the * group', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const url = (p: string) => web.url('robots-rules.test', p);
        const ok = await f.fetch(url('/public/page'));
        assert.equal(ok.status, 200);
        assert.equal(ok.robots.group, 'focuscrawl');
        assert.equal(ok.robots.source, 'parsed');

        const open = await f.fetch(url('/private/open/more'));
        assert.equal(open.status, 200);
        assert.deepEqual(open.robots.rule, {
          directive: 'allow',
          pattern: '/private/open',
          line: 7,
        });

        for (const p of ['/private/secret', '/files/report.pdf', '/search?q=test']) {
          await assert.rejects(f.fetch(url(p)), (e: Error) => {
            assert.ok(e instanceof RobotsDisallowedError, String(e));
            assert.match(e.message, /robots\.txt disallows/);
            assert.ok(e.message.includes(url(p)), e.message);
            assert.match(e.message, /line \d+ "Disallow: /);
            return true;
          });
        }
        // `/*.pdf$` does not match with a query; `/search?` does not match without one.
        assert.equal((await f.fetch(url('/files/report.pdf?download=1'))).status, 200);
        assert.equal((await f.fetch(url('/search'))).status, 200);

        const disallowedPaths = ['/private/secret', '/files/report.pdf', '/search?q=test'];
        const served = logOf(web, 'robots-rules.test').map((r) => r.path);
        for (const p of disallowedPaths) assert.ok(!served.includes(p), `${p} was requested`);
        assert.equal(logOf(web, 'robots-rules.test', '/robots.txt').length, 1);
      }),
    ));

  test('robotsFor reports the verdict without fetching the page; skipRobots bypasses it', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const v = await f.robotsFor(web.url('robots-rules.test', '/private/secret'));
        assert.equal(v.allowed, false);
        assert.deepEqual(v.rule, { directive: 'disallow', pattern: '/private/', line: 6 });
        assert.equal(logOf(web, 'robots-rules.test').length, 0);
        const r = await f.fetch(web.url('robots-rules.test', '/private/secret'), {
          skipRobots: true,
        });
        assert.equal(r.status, 200);
        assert.equal(r.robots.source, 'skipped');
      }),
    ));

  test('concurrent fetches to one host share a single robots.txt request', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        await Promise.all(
          [1, 2, 3, 4, 5, 6].map((n) => f.fetch(web.url('robots-404.test', `/p/${n}`))),
        );
        assert.equal(logOf(web, 'robots-404.test', '/robots.txt').length, 1);
        const s = f.stats();
        assert.equal(s.robotsCacheMisses, 1);
        assert.equal(s.robotsCacheShared + s.robotsCacheHits, 5);
        assert.equal(s.robotsRequests, 1);
      }),
    ));
});

describe('robots.txt statuses and size', () => {
  test('404 allows everything', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const r = await f.fetch(web.url('robots-404.test', '/anything'));
        assert.equal(r.status, 200);
        assert.equal(r.robots.source, 'missing');
        assert.equal(r.robots.status, 404);
      }),
    ));

  test('500 disallows everything for robotsErrorTtlMs, then robots.txt is fetched again', () =>
    withWeb((web) =>
      using(testFetcher(web, { retries: 0, robotsErrorTtlMs: 300 }), async (f) => {
        const url = web.url('robots-500.test', '/page');
        await assert.rejects(f.fetch(url), (e: Error) => {
          assert.ok(e instanceof RobotsDisallowedError);
          assert.match(e.message, /unreachable \(HTTP 500\)/);
          return true;
        });
        await assert.rejects(f.fetch(url), RobotsDisallowedError);
        assert.equal(logOf(web, 'robots-500.test', '/robots.txt').length, 1);
        assert.equal(logOf(web, 'robots-500.test').length, 0);
        await new Promise((r) => setTimeout(r, 350));
        await assert.rejects(f.fetch(url), RobotsDisallowedError);
        assert.equal(logOf(web, 'robots-500.test', '/robots.txt').length, 2);
      }),
    ));

  test('a robots.txt over 500 KiB is read past 550 KiB', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const url = (p: string) => web.url('robots-huge.test', p);
        await assert.rejects(f.fetch(url('/blocked-early/page')), RobotsDisallowedError);
        await assert.rejects(f.fetch(url('/blocked-late/page')), RobotsDisallowedError);
        assert.equal((await f.fetch(url('/public/page'))).status, 200);
      }),
    ));
});

describe('robots.txt redirects', () => {
  /** `/robots.txt` on `hopN.test` redirects to `hopN-1.test`; `hop0.test` serves the rules. */
  async function hopServer() {
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const host = String(req.headers.host).split(':')[0]!;
      seen.push(`${host}${req.url}`);
      const n = Number(/^hop(\d+)\.test$/.exec(host)?.[1] ?? -1);
      if (req.url === '/robots.txt' && n > 0) {
        res.writeHead(301, { location: `http://hop${n - 1}.test/robots.txt` }).end();
      } else if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n');
      } else {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return {
      seen,
      fetcher: () => testFetcher({ resolve: `*.test=127.0.0.1:${port}` }),
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  }

  test('up to 5 hops are followed, across hosts', async () => {
    const s = await hopServer();
    try {
      await using(s.fetcher(), async (f) => {
        await assert.rejects(f.fetch('http://hop5.test/x'), RobotsDisallowedError);
        assert.equal(s.seen.filter((x) => x.endsWith('/robots.txt')).length, 6);
        assert.equal((await f.fetch('http://hop5.test/y')).robots.source, 'parsed');
      });
    } finally {
      await s.close();
    }
  });

  test('more than 5 hops: robots.txt is taken as missing (everything allowed)', async () => {
    const s = await hopServer();
    try {
      await using(s.fetcher(), async (f) => {
        const r = await f.fetch('http://hop6.test/x');
        assert.equal(r.status, 200);
        assert.equal(r.robots.source, 'missing');
        assert.ok(!s.seen.includes('hop0.test/robots.txt'));
      });
    } finally {
      await s.close();
    }
  });
});

describe('politeness timing, from the server log', () => {
  test('Crawl-delay: 0.5 spaces request starts to the host by at least 500 ms', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        const pages = [1, 2, 3, 4].map((n) => web.url('robots-delay.test', `/p/${n}`));
        const results = await Promise.all(pages.map((u) => f.fetch(u)));
        assert.equal(results[0]!.robots.crawlDelayMs, 500);
        const g = gaps(logOf(web, 'robots-delay.test'));
        assert.equal(g.length, 3);
        // Arrival times differ from start times by a little scheduling noise (30 ms allowed).
        for (const gap of g) assert.ok(gap >= 470, `gap ${gap} ms < 500 ms`);
      }),
    ));

  test('delayMs spaces starts to one host; another host is not held back', () =>
    withWeb((web) =>
      using(testFetcher(web, { delayMs: 300, perHostConcurrency: 1 }), async (f) => {
        const a = [1, 2, 3].map((n) => f.fetch(web.url('robots-404.test', `/a/${n}`)));
        const b = f.fetch(web.url('status.test', '/flaky/b?fail=0'));
        await Promise.all([...a, b]);
        const log = logOf(web, 'robots-404.test', '/a/');
        for (const gap of gaps(log)) assert.ok(gap >= 270, `gap ${gap} ms < 300 ms`);
        // The robots.txt request counts as a start too.
        const robots = logOf(web, 'robots-404.test', '/robots.txt')[0]!;
        assert.ok(log[0]!.ts - robots.ts >= 270);
        const other = logOf(web, 'status.test', '/flaky/')[0]!;
        assert.ok(other.ts < log[2]!.ts, 'status.test waited for robots-404.test');
      }),
    ));
});
