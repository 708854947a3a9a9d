// Where the fetcher connects: the address guard, resolve mappings, proxies, and what it sends.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo, type LookupFunction, connect as netConnect } from 'node:net';
import { describe, test } from 'node:test';
import { BlockedAddressError, NetworkError, ResolveSpecError } from '../../src/errors/index.js';
import { createFetcher, defaultUserAgent } from '../../src/fetch/index.js';
import { countingServer, logOf, recordingServer, testFetcher, using, withWeb } from './helpers.js';

/** A DNS lookup that answers `address` for every name, without asking any resolver. */
function fixedLookup(address: string): LookupFunction {
  return (_hostname, options, callback) => {
    const family = address.includes(':') ? 6 : 4;
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

describe('address guard', () => {
  test('loopback URLs are refused by default before any connection', async () => {
    const server = await countingServer();
    const f = createFetcher({ retries: 0 });
    try {
      for (const host of ['127.0.0.1', 'localhost', '[::1]', '[::ffff:127.0.0.1]', '2130706433']) {
        await assert.rejects(f.fetch(`http://${host}:${server.port}/`), (e: Error) => {
          assert.ok(e instanceof BlockedAddressError, `${host}: ${e}`);
          assert.match(e.message, /loopback/);
          return true;
        });
      }
      await assert.rejects(f.robotsFor(`http://127.0.0.1:${server.port}/`), BlockedAddressError);
      assert.equal(server.hits(), 0);
    } finally {
      await f.close();
      await server.close();
    }
  });

  test('a name resolving to a private or metadata address is refused after DNS', async () => {
    const server = await countingServer();
    try {
      for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '100.64.0.1', 'fd00::1']) {
        const f = createFetcher({ retries: 0, lookup: fixedLookup(address) });
        await using(f, async () => {
          await assert.rejects(f.fetch(`http://evil.test:${server.port}/`), (e: Error) => {
            assert.ok(e instanceof BlockedAddressError, `${address}: ${e}`);
            assert.ok(e.message.includes(address), e.message);
            return true;
          });
        });
      }
      assert.equal(server.hits(), 0);
    } finally {
      await server.close();
    }
  });

  test('a redirect from the web into 127.0.0.1 is refused', async () => {
    const server = await countingServer();
    try {
      await withWeb((web) =>
        using(testFetcher(web), async (f) => {
          const target = `http://127.0.0.1:${server.port}/admin`;
          const from = web.url('redirect.test', `/to?url=${encodeURIComponent(target)}`);
          await assert.rejects(f.fetch(from), BlockedAddressError);
          await assert.rejects(
            f.fetch(from, { skipRobots: true }),
            BlockedAddressError,
            'skipRobots does not lift the guard',
          );
        }),
      );
      assert.equal(server.hits(), 0);
    } finally {
      await server.close();
    }
  });

  test('allowPrivateAddresses lets loopback through', async () => {
    const server = await countingServer();
    const f = createFetcher({ allowPrivateAddresses: true, obeyRobots: false });
    try {
      const r = await f.fetch(`http://127.0.0.1:${server.port}/`);
      assert.equal(r.status, 200);
      assert.equal(r.body.toString(), 'hello');
      assert.equal(server.hits(), 1);
    } finally {
      await f.close();
      await server.close();
    }
  });
});

describe('resolve mappings', () => {
  test('a mapped host is allowed and connected to the mapped address, Host header kept', async () => {
    const server = await recordingServer();
    const f = createFetcher({
      resolve: [`plain.test=127.0.0.1:${server.port}`],
      obeyRobots: false,
      retries: 0,
    });
    try {
      const r = await f.fetch('http://plain.test/hello');
      assert.equal(r.status, 200);
      assert.equal(r.url, 'http://plain.test/hello');
      assert.equal(server.requests[0]!['host'], 'plain.test');
      const withPort = await f.fetch('http://plain.test:8080/x');
      assert.equal(withPort.status, 200);
      assert.equal(server.requests[1]!['host'], 'plain.test:8080');
      // Unmapped names still go through the guard (and DNS, which is never reached here).
      await assert.rejects(f.fetch(`http://localhost:${server.port}/`), BlockedAddressError);
    } finally {
      await f.close();
      await server.close();
    }
  });

  test('wildcards map every name under a domain; an exact mapping wins', () =>
    withWeb(async (web) => {
      const dead = await countingServer();
      await dead.close(); // a port with nobody listening
      const f = createFetcher({
        resolve: [web.resolve, `status.test=127.0.0.1:${dead.port}`],
        delayMs: 0,
        retries: 0,
      });
      await using(f, async () => {
        assert.equal((await f.fetch(web.url('robots-404.test', '/a'))).status, 200);
        assert.equal((await f.fetch(web.url('media.test', '/page.html'))).status, 200);
        await assert.rejects(
          f.fetch(web.url('status.test', '/404'), { skipRobots: true }),
          NetworkError,
        );
        assert.equal(logOf(web, 'status.test').length, 0);
      });
    }));

  test('a malformed spec throws ResolveSpecError naming it', () => {
    for (const spec of ['nonsense', 'a.test=not-an-ip', 'a.test=127.0.0.1:99999', '=1.2.3.4']) {
      assert.throws(
        () => createFetcher({ resolve: [spec] }),
        (e: Error) => e instanceof ResolveSpecError && e.message.includes(JSON.stringify(spec)),
        spec,
      );
    }
  });
});

describe('what is sent', () => {
  test('the default User-Agent names the project and a contact URL, robots.txt included', () =>
    withWeb((web) =>
      using(testFetcher(web), async (f) => {
        await f.fetch(web.url('robots-rules.test', '/public/page'));
        const uas = logOf(web, 'robots-rules.test', '/').map((r) => r.userAgent);
        assert.equal(uas.length, 2);
        for (const ua of uas) {
          assert.match(
            ua,
            /^focuscrawl\/\d+\.\d+\.\d+\S* \(\+https:\/\/github\.com\/focuscrawl\/focuscrawl\)$/,
          );
        }
      }),
    ));

  test('contactUrl and userAgent settings', () =>
    withWeb(async (web) => {
      await using(testFetcher(web, { contactUrl: 'https://example.org/bot' }), async (f) => {
        await f.fetch(web.url('robots-404.test', '/c'), { skipRobots: true });
      });
      await using(
        testFetcher(web, { userAgent: 'MyBot/2.0 (+mailto:me@example.org)' }),
        async (f) => {
          await f.fetch(web.url('robots-404.test', '/u'), { skipRobots: true });
        },
      );
      assert.equal(
        logOf(web, 'robots-404.test', '/c')[0]!.userAgent,
        defaultUserAgent('https://example.org/bot'),
      );
      assert.match(
        logOf(web, 'robots-404.test', '/c')[0]!.userAgent,
        /\(\+https:\/\/example\.org\/bot\)$/,
      );
      assert.equal(
        logOf(web, 'robots-404.test', '/u')[0]!.userAgent,
        'MyBot/2.0 (+mailto:me@example.org)',
      );
    }));

  test('Accept-Encoding, Accept and extra headers', async () => {
    const server = await recordingServer();
    const f = createFetcher({
      resolve: [`h.test=127.0.0.1:${server.port}`],
      obeyRobots: false,
      headers: { 'Accept-Language': 'zh-CN, en;q=0.5' },
    });
    try {
      await f.fetch('http://h.test/');
      const h = server.requests[0]!;
      assert.equal(h['accept-encoding'], 'gzip, deflate, br');
      assert.match(String(h['accept']), /text\/html/);
      assert.equal(h['accept-language'], 'zh-CN, en;q=0.5');
    } finally {
      await f.close();
      await server.close();
    }
  });
});

describe('proxy', () => {
  test('requests go through an HTTP proxy (CONNECT) while mapped hosts bypass it', () =>
    withWeb(async (web) => {
      const tunnels: string[] = [];
      const proxy = createServer();
      proxy.on('connect', (req, client, head) => {
        tunnels.push(String(req.url));
        // Every tunnel leads to the test web, whatever the target.
        const upstream = netConnect(web.port, '127.0.0.1', () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      const { port } = proxy.address() as AddressInfo;
      const f = createFetcher({
        proxy: `http://127.0.0.1:${port}`,
        resolve: [`robots-rules.test=127.0.0.1:${web.port}`],
        delayMs: 0,
        retries: 0,
      });
      try {
        const r = await f.fetch(`http://robots-404.test:${web.port}/via-proxy`);
        assert.equal(r.status, 200);
        assert.ok(tunnels.includes(`robots-404.test:${web.port}`), tunnels.join());
        assert.equal(logOf(web, 'robots-404.test', '/via-proxy').length, 1);
        const before = tunnels.length;
        await f.fetch(web.url('robots-rules.test', '/public/page'));
        assert.equal(tunnels.length, before, 'a mapped host went through the proxy');
      } finally {
        await f.close();
        proxy.closeAllConnections();
        await new Promise<void>((r) => proxy.close(() => r()));
      }
    }));
});
