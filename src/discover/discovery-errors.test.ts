// Sitemap discovery when things go wrong: every failure recorded with the sitemap URL,
// limits reported, the caller's errors and aborts honoured. One real server on port 0
// plays several hosts (told apart by the Host header).
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { InvalidOptionError } from '../errors/index.js';
import { createFetcher, type Fetcher, type FetcherOptionsInput } from '../fetch/index.js';
import { discoverSitemaps } from './index.js';

const urlset = (urls: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}</urlset>`;
const index = (urls: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;
const pages = (host: string, n: number) =>
  Array.from({ length: n }, (_, i) => `http://${host}/p/${i}`);

/** host → path → [status, body, headers?] */
const SITES: Record<string, Record<string, [number, string | Buffer, Record<string, string>?]>> = {
  'bad.test': {
    '/robots.txt': [
      200,
      [
        'User-agent: *',
        'Disallow: /private/',
        'Sitemap: /relative.xml',
        'Sitemap: http://bad.test/missing.xml',
        'Sitemap: http://bad.test/html.xml',
        'Sitemap: http://bad.test/big.xml',
        'Sitemap: http://other.test/s.xml',
        'Sitemap: http://bad.test/deep0.xml',
        'Sitemap: http://bad.test/private/s.xml',
        'Sitemap: http://bad.test/gz.xml.gz',
      ].join('\n'),
    ],
    '/html.xml': [200, '<!DOCTYPE html><html><body>Not found</body></html>'],
    '/big.xml': [200, urlset(pages('bad.test', 500))],
    '/deep0.xml': [200, index(['http://bad.test/deep1.xml'])],
    '/deep1.xml': [200, index(['http://bad.test/deep2.xml', 'http://other.test/x.xml'])],
    '/deep2.xml': [200, index(['http://bad.test/deep3.xml', 'http://bad.test/deep0.xml'])],
    '/deep3.xml': [200, urlset(['http://bad.test/deep'])],
    '/gz.xml.gz': [
      200,
      gzipSync(urlset(['http://bad.test/a', 'http://bad.test/a', 'http://other.test/b', 'x'])),
      { 'content-type': 'application/x-gzip' },
    ],
  },
  'many.test': {
    '/sitemap.xml': [
      200,
      index(Array.from({ length: 10 }, (_, i) => `http://many.test/s${i}.xml`)),
    ],
    ...Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [
        `/s${i}.xml`,
        [200, urlset(pages('many.test', 5).map((u) => `${u}-${i}`))],
      ]),
    ),
  },
  'lots.test': { '/sitemap.xml': [200, urlset(pages('lots.test', 30))] },
  'soft.test': { '/sitemap.xml': [200, '<html><body>Welcome!</body></html>'] },
  'deny.test': {
    '/robots.txt': [200, 'User-agent: *\nDisallow: /\nSitemap: http://deny.test/s.xml\n'],
  },
  'cut.test': { '/sitemap.xml': [200, urlset(pages('cut.test', 200))] },
};

let server: Server;
let port = 0;
const hangs: ServerResponse[] = [];
before(async () => {
  server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = (req.url ?? '/').split('?')[0] as string;
    if (host === 'slow.test' && path === '/sitemap.xml') {
      hangs.push(res); // never answers
      return;
    }
    const hit = SITES[host]?.[path];
    if (hit === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const [status, body, headers] = hit;
    res.writeHead(status, headers ?? { 'content-type': 'application/xml' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function withFetcher<T>(
  fn: (f: Fetcher) => Promise<T>,
  o: FetcherOptionsInput = {},
): Promise<T> {
  const f = createFetcher({
    resolve: [`*.test=127.0.0.1:${port}`],
    delayMs: 0,
    retries: 0,
    ...o,
  });
  try {
    return await fn(f);
  } finally {
    await f.close();
  }
}

test('failures are recorded with the sitemap URL, never thrown', async () => {
  const got: string[] = [];
  const r = await withFetcher((fetcher) =>
    discoverSitemaps({
      fetcher,
      origins: ['http://bad.test'],
      maxSitemapBytes: 2000,
      onUrls: (urls) => {
        got.push(...urls.map((u) => u.url));
      },
    }),
  );
  const errorOf = (url: string) => r.errors.filter((e) => e.url === url);
  assert.match(
    errorOf('http://bad.test/robots.txt')[0]?.error ?? '',
    /"\/relative\.xml" is not an absolute/,
  );
  assert.deepEqual(errorOf('http://bad.test/missing.xml')[0], {
    url: 'http://bad.test/missing.xml',
    error: 'sitemap http://bad.test/missing.xml: HTTP 404',
    code: 'FC_ERR_SITEMAP',
  });
  assert.match(errorOf('http://bad.test/html.xml')[0]?.error ?? '', /root element <html>/);
  assert.equal(errorOf('http://bad.test/big.xml')[0]?.code, 'FC_ERR_SITEMAP_TOO_LARGE');
  assert.match(errorOf('http://other.test/s.xml')[0]?.error ?? '', /another host, out of scope/);
  assert.match(errorOf('http://bad.test/deep1.xml')[0]?.error ?? '', /1 sitemaps on other hosts/);
  assert.match(
    errorOf('http://bad.test/deep2.xml')[0]?.error ?? '',
    /1 sitemaps below maxDepth \(2\)/,
  );
  assert.equal(errorOf('http://bad.test/private/s.xml')[0]?.code, 'FC_ERR_ROBOTS_DISALLOWED');
  assert.equal(r.errors.length, 8, JSON.stringify(r.errors, null, 1));
  // deep0 → deep1 → deep2 read (depth 0, 1, 2); deep3 is one level too deep; deep0 not again.
  assert.equal(r.sitemaps, 4);
  assert.deepEqual(got, ['http://bad.test/a']);
  assert.equal(r.duplicates, 1);
  assert.equal(r.outOfScope, 1);
  assert.equal(r.skipped, 1, 'the entry "x"');
  assert.equal(r.withoutSitemap, 0);
});

test('limits: sitemaps and URLs per origin; hosts without sitemaps; robots denial', async () => {
  const got: string[] = [];
  const r = await withFetcher((fetcher) =>
    discoverSitemaps({
      fetcher,
      origins: [
        'http://many.test',
        'http://lots.test',
        'http://soft.test',
        'http://none.test',
        'http://deny.test',
      ],
      maxSitemapsPerOrigin: 4,
      maxUrlsPerOrigin: 12,
      batchSize: 5,
      onUrls: (urls) => {
        assert.ok(urls.length <= 5);
        got.push(...urls.map((u) => u.url));
      },
    }),
  );
  const many = got.filter((u) => u.startsWith('http://many.test/'));
  assert.equal(many.length, 12, 'index + 3 children = 15 URLs, cut at 12');
  assert.equal(got.filter((u) => u.startsWith('http://lots.test/')).length, 12);
  const messages = r.errors.map((e) => `${e.url} ${e.error}`);
  assert.ok(messages.includes('http://many.test maxUrlsPerOrigin (12) reached: reading stopped'));
  assert.ok(messages.includes('http://lots.test maxUrlsPerOrigin (12) reached: reading stopped'));
  assert.equal(r.withoutSitemap, 2, 'soft.test (HTML) and none.test (404)');
  assert.equal(
    r.errors.find((e) => e.url === 'http://deny.test/s.xml')?.code,
    'FC_ERR_ROBOTS_DISALLOWED',
  );
  assert.equal(r.errors.length, 3, JSON.stringify(r.errors, null, 1));

  const few = await withFetcher((fetcher) =>
    discoverSitemaps({
      fetcher,
      origins: ['http://many.test'],
      maxSitemapsPerOrigin: 4,
      onUrls: () => {},
    }),
  );
  assert.equal(few.sitemaps, 4);
  assert.equal(few.inScope, 15);
  assert.deepEqual(
    few.errors.map((e) => e.error),
    ['maxSitemapsPerOrigin (4) reached: 7 sitemaps not read'],
  );
});

test("a sitemap cut at the fetcher's maxBytes: its complete entries, and an error saying so", async () => {
  const got: string[] = [];
  const r = await withFetcher(
    (fetcher) =>
      discoverSitemaps({
        fetcher,
        origins: ['http://cut.test'],
        onUrls: (urls) => {
          got.push(...urls.map((u) => u.url));
        },
      }),
    { maxBytes: 2000 },
  );
  assert.ok(got.length > 10 && got.length < 200, String(got.length));
  assert.deepEqual(got.slice(0, 2), ['http://cut.test/p/0', 'http://cut.test/p/1']);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0]?.error ?? '', /was cut at 2000 bytes \(the fetcher's maxBytes\)/);
});

test("the caller's errors stop discovery and are thrown; an abort returns the counts so far", async () => {
  const boom = new Error('queue is full');
  await withFetcher(async (fetcher) => {
    await assert.rejects(
      discoverSitemaps({
        fetcher,
        origins: ['http://lots.test', 'http://many.test'],
        onUrls: () => {
          throw boom;
        },
      }),
      (e: unknown) => e === boom,
    );
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 200);
    const r = await discoverSitemaps({
      fetcher,
      origins: ['http://slow.test'],
      signal: ac.signal,
      onUrls: () => {},
    });
    assert.equal(r.aborted, true);
    assert.deepEqual(r.errors, []);
    assert.ok(Date.now() - started < 5000);
  });
  for (const res of hangs) res.destroy();
});

test('options are validated: unknown fields, bad origins, bad limits', async () => {
  const fetcher = createFetcher({ delayMs: 0 });
  try {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ origins: [], onUrls: () => {}, fetcher, extra: 1 }, /extra/],
      [
        { origins: ['ftp://a.test/'], onUrls: () => {}, fetcher },
        /origins\.0: expected an http\(s\) URL/,
      ],
      [{ origins: [], onUrls: () => {}, fetcher, maxDepth: -1 }, /maxDepth/],
      [{ origins: [], onUrls: () => {}, fetcher: {} }, /fetcher: expected a Fetcher/],
      [{ origins: [], fetcher }, /onUrls/],
    ];
    for (const [o, why] of bad) {
      await assert.rejects(
        discoverSitemaps(o as never),
        (e: unknown) => e instanceof InvalidOptionError && why.test(e.message),
        why.source,
      );
    }
    const empty = await discoverSitemaps({ origins: [], onUrls: () => {}, fetcher });
    assert.equal(empty.origins, 0);
  } finally {
    await fetcher.close();
  }
});
