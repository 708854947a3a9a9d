// The address guard at connect time: a name checked on the very address its socket
// would connect to (DNS rebinding: public first, 127.0.0.1 at connect time), IPv6 forms
// carrying a loopback or private IPv4 address, and IPv4 hosts spelled in decimal, octal
// or hex. The addresses refused are those of a live server on 127.0.0.1 counting its
// connections: a guard that let one through would be seen. Nothing is sent elsewhere.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { BlockedAddressError } from '../../src/errors/index.js';
import { guardLookup } from '../../src/fetch/connect.js';
import { createFetcher } from '../../src/fetch/index.js';
import { using } from './helpers.js';

let server: Server;
let port: number;
let connections = 0;

before(async () => {
  server = createServer((_req, res) => res.end('private'));
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

interface Answer {
  address: string;
  family: 4 | 6;
}

/**
 * A DNS lookup (dns.lookup's signature) giving `answers` in turn, one per call (the last
 * one again once they run out), as a rebinding name server would; counts its calls.
 */
function rebinding(...answers: Answer[][]): LookupFunction & { calls: number } {
  const f = ((
    _hostname: string,
    options: { all?: boolean },
    callback: (err: Error | null, address: string | Answer[], family?: number) => void,
  ) => {
    const answer = answers[Math.min(f.calls, answers.length - 1)] ?? [];
    f.calls++;
    process.nextTick(() => {
      if (options.all === true) callback(null, answer);
      else callback(null, answer[0]?.address ?? '', answer[0]?.family ?? 4);
    });
  }) as unknown as LookupFunction & { calls: number };
  f.calls = 0;
  return f;
}

const PUBLIC: Answer[] = [{ address: '93.184.216.34', family: 4 }];
const LOOPBACK: Answer[] = [{ address: '127.0.0.1', family: 4 }];

/** Calls `lookup` as a socket would, resolving to what it gave (or its error). */
function look(
  lookup: LookupFunction,
  all: boolean,
): Promise<{ err: Error | null; address: unknown }> {
  return new Promise((resolve) => {
    lookup('rebind.example', { all }, (err, address) => resolve({ err, address }));
  });
}

const fetcherWith = (lookup: LookupFunction) =>
  createFetcher({ lookup, delayMs: 0, retries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });

describe('DNS rebinding: every connection checks the address it connects to', () => {
  test('guardLookup passes a public answer, then refuses the loopback one given next', async () => {
    const lookup = guardLookup(rebinding(PUBLIC, LOOPBACK, [...PUBLIC, ...LOOPBACK], LOOPBACK));
    const first = await look(lookup, false);
    assert.equal(first.err, null);
    assert.equal(first.address, '93.184.216.34');
    const second = await look(lookup, false);
    assert.ok(second.err instanceof BlockedAddressError, String(second.err));
    assert.match(second.err.message, /rebind\.example \(127\.0\.0\.1\): loopback address/);
    // A mixed answer: the refused address is dropped, the public one kept.
    const mixed = await look(lookup, true);
    assert.equal(mixed.err, null);
    assert.deepEqual(mixed.address, PUBLIC);
    const all = await look(lookup, true);
    assert.ok(all.err instanceof BlockedAddressError);
  });

  test('a name that resolved to a public address, then to 127.0.0.1, is refused at connect time', async () => {
    const lookup = rebinding(PUBLIC, LOOPBACK);
    // The name is checked once (as a check at URL time would), and it is public then.
    const checked = await look(lookup, false);
    assert.equal(checked.address, '93.184.216.34');
    const before = connections;
    await using(fetcherWith(lookup), async (f) => {
      for (const path of ['/', '/again']) {
        await assert.rejects(f.fetch(`http://rebind.example:${port}${path}`), (e: Error) => {
          assert.ok(e instanceof BlockedAddressError, `${e.name}: ${e.message}`);
          assert.equal(e.code, 'FC_ERR_BLOCKED_ADDRESS');
          assert.match(e.message, /127\.0\.0\.1/);
          return true;
        });
      }
      assert.equal(f.stats().retries, 0);
    });
    assert.ok(lookup.calls >= 3, `lookups: ${lookup.calls}`);
    assert.equal(connections, before, 'no connection reached 127.0.0.1');
  });

  const forms: Array<[string, Answer[], RegExp]> = [
    ['IPv4-mapped', [{ address: '::ffff:127.0.0.1', family: 6 }], /loopback/],
    ['IPv4-mapped, hex', [{ address: '::ffff:7f00:1', family: 6 }], /loopback/],
    ['IPv4-mapped private', [{ address: '::ffff:10.0.0.1', family: 6 }], /private/],
    ['IPv4-compatible', [{ address: '::127.0.0.1', family: 6 }], /loopback \(IPv4-compatible/],
    ['NAT64', [{ address: '64:ff9b::7f00:1', family: 6 }], /loopback \(NAT64 127\.0\.0\.1\)/],
    ['NAT64 local-use', [{ address: '64:ff9b:1::a00:1', family: 6 }], /NAT64 local-use/],
    ['6to4', [{ address: '2002:a00:1::1', family: 6 }], /private \(6to4 10\.0\.0\.1\)/],
    ['unspecified', [{ address: '0.0.0.0', family: 4 }], /unspecified/],
    ['metadata', [{ address: '169.254.169.254', family: 4 }], /cloud metadata/],
  ];
  for (const [name, answer, kind] of forms) {
    test(`a name resolving to a ${name} address is refused`, async () => {
      const before = connections;
      await using(fetcherWith(rebinding(answer)), async (f) => {
        await assert.rejects(
          f.fetch(`http://rebind.example:${port}/`),
          (e: Error) => e instanceof BlockedAddressError && kind.test(e.message),
        );
      });
      assert.equal(connections, before);
    });
  }
});

describe('URL hosts that spell a refused address', () => {
  const hosts = [
    '2130706433',
    '0x7f.1',
    '0177.0.0.1',
    '0x7f000001',
    '127.1',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::127.0.0.1]',
    '[64:ff9b::127.0.0.1]',
    'localhost',
    'a.localhost',
  ];
  for (const host of hosts) {
    test(`http://${host}:PORT/ is refused before any connection`, async () => {
      const lookup = rebinding(LOOPBACK);
      const before = connections;
      await using(fetcherWith(lookup), async (f) => {
        await assert.rejects(
          f.fetch(`http://${host}:${port}/`),
          (e: Error) => e instanceof BlockedAddressError,
        );
      });
      assert.equal(connections, before);
      assert.equal(lookup.calls, 0, 'no lookup either');
    });
  }

  test('the same URL is fetched once private addresses are allowed (the server is live)', async () => {
    const before = connections;
    await using(
      createFetcher({ allowPrivateAddresses: true, delayMs: 0, obeyRobots: false }),
      async (f) => {
        const r = await f.fetch(`http://2130706433:${port}/`);
        assert.equal(r.status, 200);
        assert.equal(r.body.toString(), 'private');
      },
    );
    assert.ok(connections > before);
  });
});
