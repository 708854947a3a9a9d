// Conditional requests (If-None-Match / If-Modified-Since) through the real fetcher,
// against a node:http server on 127.0.0.1 that honours them.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { InvalidOptionError } from '../errors/index.js';
import { createFetcher, type Fetcher, type FetcherOptionsInput } from './index.js';
import { parseHttpDate, validatorsOf } from './validators.js';

const ETAG = '"v1"';
const LAST_MODIFIED = 'Sat, 01 Jun 2024 10:00:00 GMT';
const BODY = 'the current copy';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

/** Whether If-None-Match lists the current tag (weak comparison, RFC 9110 §13.1.2). */
function etagMatches(header: string): boolean {
  const strip = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || strip(t) === strip(ETAG));
}

/** The answer of a resource with ETAG and LAST_MODIFIED to a (maybe conditional) GET. */
function answer(headers: IncomingHttpHeaders): { status: number; body: string } {
  const inm = headers['if-none-match'];
  const ims = headers['if-modified-since'];
  // If-Modified-Since is ignored when If-None-Match is present (RFC 9110 §13.1.3).
  if (inm !== undefined)
    return etagMatches(inm) ? { status: 304, body: '' } : { status: 200, body: BODY };
  if (ims !== undefined) {
    const since = Date.parse(ims);
    if (!Number.isNaN(since) && Date.parse(LAST_MODIFIED) <= since)
      return { status: 304, body: '' };
  }
  return { status: 200, body: BODY };
}

let server: Server;
let port = 0;
const seen: Seen[] = [];
let flakyFailures = 0;

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ path, headers: req.headers });
    if (path === '/moved') {
      res.writeHead(301, { location: 'http://other.test/page' });
      res.end();
      return;
    }
    if (path === '/always-304') {
      res.writeHead(304, { etag: ETAG });
      res.end();
      return;
    }
    if (path === '/flaky' && flakyFailures-- > 0) {
      res.writeHead(503, { 'retry-after': '0' });
      res.end('busy');
      return;
    }
    const { status, body } = answer(req.headers);
    res.writeHead(status, {
      'content-type': 'text/plain',
      etag: ETAG,
      'last-modified': LAST_MODIFIED,
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

after(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

beforeEach(() => {
  seen.length = 0;
  flakyFailures = 0;
});

function fetcher(options: FetcherOptionsInput = {}): Fetcher {
  return createFetcher({
    resolve: [`cond.test=127.0.0.1:${port}`, `other.test=127.0.0.1:${port}`],
    obeyRobots: false,
    delayMs: 0,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 50,
    ...options,
  });
}

async function using<T>(f: Fetcher, fn: (f: Fetcher) => Promise<T>): Promise<T> {
  try {
    return await fn(f);
  } finally {
    await f.close();
  }
}

describe('conditional fetches', () => {
  test('a matching ETag: 304, notModified, empty body, one request carrying If-None-Match', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/page', { conditional: { etag: ETAG } });
      assert.equal(r.status, 304);
      assert.equal(r.notModified, true);
      assert.equal(r.body.length, 0);
      assert.equal(r.bytes, 0);
      assert.equal(r.truncated, false);
      assert.deepEqual(r.redirects, []);
      assert.equal(r.attempts, 1);
      assert.equal(r.headers['etag'], ETAG, "the 304's own headers");
      assert.deepEqual(validatorsOf(r.headers), {
        etag: ETAG,
        lastModified: LAST_MODIFIED,
        lastModifiedMs: Date.UTC(2024, 5, 1, 10),
      });
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.headers['if-none-match'], ETAG);
      assert.equal(seen[0]!.headers['if-modified-since'], undefined);
    }));

  test('a weak ETag is sent verbatim and matches', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/page', { conditional: { etag: 'W/"v1"' } });
      assert.equal(r.notModified, true);
      assert.equal(seen[0]!.headers['if-none-match'], 'W/"v1"');
    }));

  test('a non-matching ETag: 200 with the body, notModified absent', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/page', { conditional: { etag: '"v0"' } });
      assert.equal(r.status, 200);
      assert.equal(r.body.toString(), BODY);
      assert.equal(r.notModified, undefined);
      assert.equal(validatorsOf(r.headers).etag, ETAG);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.headers['if-none-match'], '"v0"');
    }));

  test('If-Modified-Since is sent verbatim and honoured', () =>
    using(fetcher(), async (f) => {
      const same = await f.fetch('http://cond.test/page', {
        conditional: { lastModified: LAST_MODIFIED },
      });
      assert.equal(same.status, 304);
      assert.equal(same.notModified, true);
      assert.equal(same.body.length, 0);
      const older = 'Fri, 31 May 2024 10:00:00 GMT';
      const changed = await f.fetch('http://cond.test/page', {
        conditional: { lastModified: older },
      });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.toString(), BODY);
      assert.equal(changed.notModified, undefined);
      assert.deepEqual(
        seen.map((s) => [s.headers['if-modified-since'], s.headers['if-none-match']]),
        [
          [LAST_MODIFIED, undefined],
          [older, undefined],
        ],
      );
    }));

  test('both validators are sent together', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/page', {
        conditional: { etag: '"v0"', lastModified: LAST_MODIFIED },
      });
      // If-None-Match decides when both are present: "v0" does not match.
      assert.equal(r.status, 200);
      assert.equal(seen[0]!.headers['if-none-match'], '"v0"');
      assert.equal(seen[0]!.headers['if-modified-since'], LAST_MODIFIED);
    }));

  test('without conditional, or with empty validators, nothing conditional is sent', () =>
    using(fetcher(), async (f) => {
      const plain = await f.fetch('http://cond.test/page');
      const empty = await f.fetch('http://cond.test/page', {
        conditional: { etag: '', lastModified: '' },
      });
      for (const r of [plain, empty]) {
        assert.equal(r.status, 200);
        assert.equal(r.notModified, undefined);
      }
      for (const s of seen) {
        assert.equal(s.headers['if-none-match'], undefined);
        assert.equal(s.headers['if-modified-since'], undefined);
      }
    }));

  test('the validators go with the first URL only, not with a redirect hop', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/moved', {
        conditional: { etag: ETAG, lastModified: LAST_MODIFIED },
      });
      // The target matches ETAG, but was asked unconditionally: a full answer.
      assert.equal(r.status, 200);
      assert.equal(r.finalUrl, 'http://other.test/page');
      assert.equal(r.body.toString(), BODY);
      assert.equal(r.notModified, undefined);
      assert.deepEqual(
        seen.map((s) => [s.path, s.headers['if-none-match'], s.headers['if-modified-since']]),
        [
          ['/moved', ETAG, LAST_MODIFIED],
          ['/page', undefined, undefined],
        ],
      );
    }));

  test('a 304 is not retried, costs no retry and does not hold the host back', () =>
    using(fetcher({ retries: 3, delayMs: 0 }), async (f) => {
      const r = await f.fetch('http://cond.test/page', { conditional: { etag: ETAG } });
      assert.equal(r.status, 304);
      assert.equal(r.attempts, 1);
      assert.equal(seen.length, 1);
      assert.equal(f.stats().retries, 0);
      assert.ok(f.readyAt('cond.test') <= Date.now(), 'no back-off for the host');
    }));

  test('a retry of the first request carries the validators again', () =>
    using(fetcher({ retries: 2 }), async (f) => {
      flakyFailures = 1;
      const r = await f.fetch('http://cond.test/flaky', { conditional: { etag: ETAG } });
      assert.equal(r.status, 304);
      assert.equal(r.notModified, true);
      assert.equal(r.attempts, 2);
      assert.deepEqual(
        seen.map((s) => s.headers['if-none-match']),
        [ETAG, ETAG],
      );
    }));

  test('an unconditional 304 is returned as before, without notModified', () =>
    using(fetcher(), async (f) => {
      const r = await f.fetch('http://cond.test/always-304');
      assert.equal(r.status, 304);
      assert.equal(r.notModified, undefined);
      assert.equal(r.body.length, 0);
      assert.equal(seen.length, 1);
    }));

  test('the default route (no resolve mapping) sends the validators too', () =>
    using(
      createFetcher({ allowPrivateAddresses: true, obeyRobots: false, delayMs: 0 }),
      async (f) => {
        const r = await f.fetch(`http://127.0.0.1:${port}/page`, {
          conditional: { etag: ETAG },
        });
        assert.equal(r.notModified, true);
        assert.equal(seen[0]!.headers['if-none-match'], ETAG);
        assert.match(String(seen[0]!.headers['user-agent']), /focuscrawl/);
      },
    ));

  test('a validator that cannot be a header value is refused before anything is sent', () =>
    using(fetcher(), async (f) => {
      await assert.rejects(
        f.fetch('http://cond.test/page', { conditional: { etag: '"v1"\r\nx-evil: 1' } }),
        InvalidOptionError,
      );
      assert.equal(seen.length, 0);
    }));
});

describe('validatorsOf', () => {
  const LM_MS = Date.UTC(2024, 5, 1, 10);
  const cases: Array<[string, Record<string, string>, ReturnType<typeof validatorsOf>]> = [
    ['no validators', { 'content-type': 'text/html' }, {}],
    ['no headers at all', {}, {}],
    ['strong etag', { etag: '"abc"' }, { etag: '"abc"' }],
    ['weak etag kept verbatim', { etag: 'W/"abc"' }, { etag: 'W/"abc"' }],
    ['blank etag ignored', { etag: '  ' }, {}],
    [
      'IMF-fixdate',
      { 'last-modified': LAST_MODIFIED },
      { lastModified: LAST_MODIFIED, lastModifiedMs: LM_MS },
    ],
    [
      'RFC 850 date',
      { 'last-modified': 'Saturday, 01-Jun-24 10:00:00 GMT' },
      { lastModified: 'Saturday, 01-Jun-24 10:00:00 GMT', lastModifiedMs: LM_MS },
    ],
    [
      'asctime date',
      { 'last-modified': 'Sat Jun  1 10:00:00 2024' },
      { lastModified: 'Sat Jun  1 10:00:00 2024', lastModifiedMs: LM_MS },
    ],
    ['bad date: raw kept, no ms', { 'last-modified': 'yesterday' }, { lastModified: 'yesterday' }],
    ['a bare year is no HTTP date', { 'last-modified': '2024' }, { lastModified: '2024' }],
    [
      'no such day',
      { 'last-modified': 'Sat, 31 Feb 2024 10:00:00 GMT' },
      { lastModified: 'Sat, 31 Feb 2024 10:00:00 GMT' },
    ],
    [
      'not GMT',
      { 'last-modified': 'Sat, 01 Jun 2024 10:00:00 +0200' },
      { lastModified: 'Sat, 01 Jun 2024 10:00:00 +0200' },
    ],
    [
      'both, names in any case',
      { ETag: '"x"', 'Last-Modified': LAST_MODIFIED },
      { etag: '"x"', lastModified: LAST_MODIFIED, lastModifiedMs: LM_MS },
    ],
  ];
  for (const [name, headers, expected] of cases) {
    test(name, () => assert.deepEqual(validatorsOf(headers), expected));
  }

  test('a server whose clock is wrong: the Date header moves Last-Modified onto ours', () => {
    const received = Date.UTC(2026, 10, 26, 12);
    // The server's clock reads two years early; its page changed 3 hours before its now.
    const headers = {
      date: 'Sat, 01 Jun 2024 13:00:00 GMT',
      'last-modified': LAST_MODIFIED,
    };
    assert.equal(validatorsOf(headers, received).lastModifiedMs, received - 3 * 3_600_000);
    // A date in the second of the server's now, or after it, is a stamp, not a change.
    for (const date of ['Sat, 01 Jun 2024 09:00:00 GMT', LAST_MODIFIED]) {
      const stamped = validatorsOf({ date, 'last-modified': LAST_MODIFIED }, received);
      assert.deepEqual(stamped, { lastModified: LAST_MODIFIED });
    }
    // No Date: taken as it is.
    assert.equal(validatorsOf({ 'last-modified': LAST_MODIFIED }, received).lastModifiedMs, LM_MS);
    // A clock within a minute of ours is right: the date stays as sent.
    const close = { date: 'Sat, 01 Jun 2024 13:00:30 GMT', 'last-modified': LAST_MODIFIED };
    assert.equal(validatorsOf(close, Date.UTC(2024, 5, 1, 13)).lastModifiedMs, LM_MS);
    assert.equal(
      validatorsOf({ date: 'garbage', 'last-modified': LAST_MODIFIED }, received).lastModifiedMs,
      LM_MS,
    );
  });

  test('parseHttpDate: RFC 850 two-digit years, leap days, ranges', () => {
    const now = Date.UTC(2024, 0, 1);
    assert.equal(
      parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now),
      Date.UTC(1994, 10, 6, 8, 49, 37),
    );
    assert.equal(parseHttpDate('Friday, 01-Mar-30 00:00:00 GMT', now), Date.UTC(2030, 2, 1));
    assert.equal(parseHttpDate('Thu, 29 Feb 2024 00:00:00 GMT'), Date.UTC(2024, 1, 29));
    assert.equal(parseHttpDate('Thu, 29 Feb 2023 00:00:00 GMT'), undefined);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 24:00:00 GMT'), undefined);
    assert.equal(parseHttpDate('sun, 06 nov 1994 08:49:37 gmt'), Date.UTC(1994, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate(''), undefined);
  });
});
