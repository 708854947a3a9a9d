// Hostile servers (hostile.test and the hostile robots.txt hosts of the test web): each
// fetch ends, under 512 MiB, with a typed error (or a body cut at the byte cap), and no
// page of a host whose robots.txt cannot be had is requested. Table-driven, through the
// fetcher in this process and through `focuscrawl inspect` in a child process whose
// peak RSS is measured. No timings are asserted: "ends" is the test finishing.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FocusCrawlError } from '../../src/errors/index.js';
import type { FetcherOptionsInput, FetchResult } from '../../src/fetch/index.js';
import { HOSTILE_HOST, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { logOf, testFetcher, using } from './helpers.js';

const MAX_RSS_MIB = 512;
let web: TestWeb;
/** A port nothing listens on: robots-refused.test is mapped to it. */
let closedPort = 0;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

before(async () => {
  web = await startTestWeb({ port: 0 });
  closedPort = await freePort();
});
after(() => web.close());

/** Small timeouts: the cases about time end in about a second. */
const QUICK: FetcherOptionsInput = { totalTimeoutMs: 500, urlTimeoutMs: 1000 };

interface Case {
  name: string;
  host?: string;
  path: string;
  options?: FetcherOptionsInput;
  /** The error code expected; undefined: a result cut at the byte cap. */
  code?: string;
  /** Most requests of the URL's host (robots.txt aside) the server may see. */
  maxRequests?: number;
}

const CASES: Case[] = [
  { name: '200 MB body', path: '/huge', maxRequests: 1 },
  { name: 'chunked body that never ends, fast', path: '/endless?fast=1', maxRequests: 1 },
  {
    name: 'chunked body that never ends, slow',
    path: '/endless',
    options: QUICK,
    code: 'FC_ERR_TOTAL_TIMEOUT',
    maxRequests: 2,
  },
  {
    name: 'a body dripping one byte a second',
    path: '/drip',
    options: QUICK,
    code: 'FC_ERR_TOTAL_TIMEOUT',
    maxRequests: 2,
  },
  { name: 'gzip bomb', path: '/gzip-bomb', maxRequests: 1 },
  { name: 'deflate bomb', path: '/deflate-bomb', maxRequests: 1 },
  { name: 'brotli bomb', path: '/br-bomb', maxRequests: 1 },
  { name: 'redirect loop', path: '/loop/a', code: 'FC_ERR_REDIRECT_LOOP', maxRequests: 2 },
  {
    name: '50-hop redirect chain',
    path: '/chain/50',
    code: 'FC_ERR_TOO_MANY_REDIRECTS',
    maxRequests: 6,
  },
  { name: 'reset mid-body', path: '/reset', code: 'FC_ERR_NETWORK', maxRequests: 3 },
  { name: 'clean close mid-body', path: '/short', code: 'FC_ERR_NETWORK', maxRequests: 3 },
  {
    name: 'bad chunk framing (was FC_ERR_NETWORK, tried three times)',
    path: '/bad-chunk',
    code: 'FC_ERR_PROTOCOL',
    maxRequests: 1,
  },
  {
    name: 'Content-Length with Transfer-Encoding',
    path: '/cl-te',
    code: 'FC_ERR_PROTOCOL',
    maxRequests: 1,
  },
  {
    name: 'two Content-Length values',
    path: '/two-lengths',
    code: 'FC_ERR_PROTOCOL',
    maxRequests: 1,
  },
  {
    name: '5,000 headers (was FC_ERR_NETWORK, tried three times)',
    path: '/header-flood',
    code: 'FC_ERR_PROTOCOL',
    maxRequests: 1,
  },
  { name: 'a 1 MiB header', path: '/header-huge', code: 'FC_ERR_PROTOCOL', maxRequests: 1 },
  // robots.txt that cannot be had: the page is refused, never requested.
  ...['robots-503.test', 'robots-429.test', 'robots-reset.test', 'robots-slow.test'].map(
    (host): Case => ({
      name: `robots.txt of ${host}`,
      host,
      path: '/page',
      options: QUICK,
      code: 'FC_ERR_ROBOTS_DISALLOWED',
      maxRequests: 0,
    }),
  ),
  {
    name: 'robots.txt refused (connection refused)',
    host: 'robots-refused.test',
    path: '/page',
    code: 'FC_ERR_NETWORK',
    maxRequests: 0,
  },
  {
    name: '10 MB robots.txt: a rule in its first KiB holds',
    host: 'robots-10mb.test',
    path: '/blocked-early/page',
    code: 'FC_ERR_ROBOTS_DISALLOWED',
    maxRequests: 0,
  },
];

function outcome(r: FetchResult | FocusCrawlError): string {
  return 'code' in r ? `${r.code}: ${r.message}` : `${r.status}, ${r.bytes} bytes`;
}

describe('hostile servers, through the fetcher', () => {
  for (const c of CASES) {
    test(c.name, () => {
      const host = c.host ?? HOSTILE_HOST;
      const resolve = [`robots-refused.test=127.0.0.1:${closedPort}`, web.resolve];
      return using(testFetcher(web, { ...c.options, resolve }), async (f) => {
        web.clearLog();
        const r = await f.fetch(web.url(host, c.path)).catch((e: FocusCrawlError) => e);
        if (c.code === undefined) {
          assert.ok(!('code' in r), outcome(r));
          assert.equal(r.status, 200);
          assert.equal(r.truncated, true, 'cut at the byte cap');
          assert.equal(r.bytes, 2 * 1024 * 1024);
          // Little more than the cap came over the wire (a bomb: far less).
          assert.ok(r.bytesOnWire < 4 * 1024 * 1024, `${r.bytesOnWire} bytes on the wire`);
        } else {
          assert.ok('code' in r, `expected ${c.code}, got ${outcome(r)}`);
          assert.equal(r.code, c.code, r.message);
        }
        const pages = logOf(web, host);
        assert.ok(
          pages.length <= (c.maxRequests ?? 1),
          `${pages.length} requests: ${pages.map((p) => p.path).join(' ')}`,
        );
        assert.ok(process.memoryUsage().rss < MAX_RSS_MIB * 2 ** 20);
      });
    });
  }

  test('a 10 MB robots.txt is read to the cap: a rule after 5 MB does not count', () =>
    using(testFetcher(web), async (f) => {
      web.clearLog();
      const r = await f.fetch(web.url('robots-10mb.test', '/blocked-late/page'));
      assert.equal(r.status, 200);
      assert.equal(r.robots.source, 'parsed');
      assert.deepEqual(
        logOf(web, 'robots-10mb.test').map((e) => e.path),
        ['/blocked-late/page'],
      );
    }));

  test('100,000-deep markup and 100,000 links: fetched whole, under the cap', () =>
    using(testFetcher(web), async (f) => {
      const deep = await f.fetch(web.url(HOSTILE_HOST, '/deep'));
      assert.equal(deep.truncated, false);
      const links = await f.fetch(web.url(HOSTILE_HOST, '/links'));
      assert.equal(links.truncated, false);
      assert.ok(links.bytes > 1_900_000, `${links.bytes} bytes`);
    }));
});

/** `focuscrawl inspect` in a child process on `paths` of hostile.test; its lines. */
function inspectInChild(urls: string[]): Promise<Record<string, unknown>[]> {
  const child = fileURLToPath(new URL('./hostile-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', child, web.resolve, ...urls],
      { maxBuffer: 16 * 2 ** 20, timeout: 50_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else
          resolve(
            stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l)),
          );
      },
    );
  });
}

describe('hostile servers, through focuscrawl inspect', () => {
  test('each ends with its outcome, the process under 512 MiB peak RSS', async () => {
    const expect: [string, number, RegExp][] = [
      ['/huge', 1, /TRUNCATED at the byte cap[\s\S]*FC_ERR_BODY_TOO_LARGE/],
      ['/endless?fast=1', 1, /TRUNCATED at the byte cap[\s\S]*FC_ERR_BODY_TOO_LARGE/],
      ['/endless', 1, /FC_ERR_TOTAL_TIMEOUT/],
      ['/gzip-bomb', 1, /FC_ERR_BODY_TOO_LARGE: .*bytes of gzip on the wire/],
      ['/deflate-bomb', 1, /FC_ERR_BODY_TOO_LARGE: .*bytes of deflate on the wire/],
      ['/br-bomb', 1, /FC_ERR_BODY_TOO_LARGE: .*bytes of br on the wire/],
      ['/deep', 0, /Links {8}1\b/],
      ['/links', 0, /Links {8}2000\b/],
      ['/chain/50', 1, /FC_ERR_TOO_MANY_REDIRECTS/],
      ['/header-huge', 1, /FC_ERR_PROTOCOL/],
    ];
    const urls = expect.map(([p]) => web.url(HOSTILE_HOST, p));
    const refusedHosts = [
      'robots-10mb.test',
      'robots-slow.test',
      'robots-503.test',
      'robots-reset.test',
    ];
    for (const h of refusedHosts)
      urls.push(web.url(h, h === 'robots-10mb.test' ? '/blocked-early/page' : '/page'));
    web.clearLog();
    const lines = await inspectInChild(urls);
    const peak = lines.pop() as { maxRssMiB: number };
    for (const [i, [path, code, re]] of expect.entries()) {
      const l = lines[i] as { url: string; code: number; out: string; err: string };
      assert.equal(l.url, urls[i]);
      assert.equal(l.code, code, `${path}: ${l.out}${l.err}`);
      assert.match(l.out + l.err, re, path);
    }
    for (const l of lines.slice(expect.length) as { code: number; out: string }[]) {
      assert.equal(l.code, 1);
      assert.match(l.out, /FC_ERR_ROBOTS_DISALLOWED/);
    }
    for (const h of refusedHosts) assert.deepEqual(logOf(web, h), [], `${h}: pages requested`);
    assert.ok(peak.maxRssMiB < MAX_RSS_MIB, `peak RSS ${peak.maxRssMiB} MiB`);
  });
});
