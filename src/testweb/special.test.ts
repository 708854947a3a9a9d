import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, createGunzip, gunzipSync, inflateSync } from 'node:zlib';
import { startTestWeb, type TestWeb } from './index.js';
import { rawGet } from './testing.js';

let web: TestWeb;
const get = (host: string, path: string, opts?: Parameters<typeof rawGet>[3]) =>
  rawGet(web.port, host, path, opts);

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

describe('test web basics', () => {
  test('origin, resolve and hosts', () => {
    assert.equal(web.origin('gbk-header.test'), `http://gbk-header.test:${web.port}`);
    assert.equal(web.resolve, `*.test=127.0.0.1:${web.port}`);
    for (const h of ['robots-rules.test', 'status.test', 'shift_jis-none.test', 'utf-8-bom.test']) {
      assert.ok(web.hosts.includes(h), h);
    }
  });

  test('unknown host answers 404; the Host port is ignored', async () => {
    assert.equal((await get('nowhere.test', '/')).status, 404);
    assert.equal((await get(`status.test:${web.port}`, '/404')).status, 404);
    assert.equal((await get(`STATUS.test:${web.port}`, '/')).status, 200);
  });

  test('requests are logged with host, path, status and user-agent', async () => {
    web.clearLog();
    const t0 = Date.now();
    await get('status.test', '/410?x=1', { headers: { 'user-agent': 'focuscrawl-test' } });
    const e = web.requests.find((r) => r.path === '/410?x=1');
    assert.ok(e);
    assert.equal(e.host, 'status.test');
    assert.equal(e.status, 410);
    assert.equal(e.method, 'GET');
    assert.equal(e.userAgent, 'focuscrawl-test');
    assert.ok(e.bytes > 0);
    assert.ok(e.ts >= t0 - 5 && e.ts <= Date.now());
    web.clearLog();
    assert.equal(web.requests.length, 0);
  });

  test('invalid options are refused', async () => {
    await assert.rejects(startTestWeb({ size: 'huge' as 'small' }), {
      code: 'FC_ERR_INVALID_OPTION',
    });
    await assert.rejects(startTestWeb({ bogus: 1 } as object), { code: 'FC_ERR_INVALID_OPTION' });
  });
});

describe('robots hosts', () => {
  test('robots-rules.test has a * group and a focuscrawl group', async () => {
    const r = await get('robots-rules.test', '/robots.txt');
    assert.equal(r.status, 200);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
    const text = r.body.toString();
    assert.match(text, /User-agent: \*\nDisallow: \/\n/);
    assert.match(text, /User-agent: focuscrawl\nDisallow: \/private\/\nAllow: \/private\/open\n/);
    assert.match(text, /Disallow: \/\*\.pdf\$\n/);
    assert.match(text, /Disallow: \/search\?\n/);
    const page = await get('robots-rules.test', '/private/open');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
  });

  test('robots-delay, robots-404, robots-500', async () => {
    const d = (await get('robots-delay.test', '/robots.txt')).body.toString();
    assert.match(d, /User-agent: \*\nCrawl-delay: 0\.5\n/);
    assert.doesNotMatch(d, /Disallow: \//);
    assert.equal((await get('robots-404.test', '/robots.txt')).status, 404);
    assert.equal((await get('robots-500.test', '/robots.txt')).status, 500);
    assert.equal((await get('robots-500.test', '/page')).status, 200);
  });

  test('robots-huge.test: ~600 KiB, early rule first, late rule after 550 KiB', async () => {
    const r = await get('robots-huge.test', '/robots.txt');
    const text = r.body.toString();
    assert.ok(r.body.length > 590 * 1024 && r.body.length < 620 * 1024, String(r.body.length));
    assert.ok(text.indexOf('Disallow: /blocked-early/') < 100);
    assert.ok(text.indexOf('Disallow: /blocked-late/') > 550 * 1024);
  });
});

describe('status.test', () => {
  test('fixed statuses', async () => {
    for (const s of [404, 500, 503, 410]) {
      const r = await get('status.test', `/${s}`);
      assert.equal(r.status, s);
      assert.match(r.body.toString(), /<html/);
    }
  });

  test('429 with Retry-After once per (path, query), then 200', async () => {
    const a = await get('status.test', '/429?retry-after=2');
    assert.equal(a.status, 429);
    assert.equal(a.headers['retry-after'], '2');
    assert.equal((await get('status.test', '/429?retry-after=2')).status, 200);
    assert.equal((await get('status.test', '/429?retry-after=3')).status, 429);
  });

  test('flaky fails N times with the given status, then 200', async () => {
    const seen: number[] = [];
    for (let i = 0; i < 4; i++)
      seen.push((await get('status.test', '/flaky/a1?fail=2&status=500')).status);
    assert.deepEqual(seen, [500, 500, 200, 200]);
    assert.equal((await get('status.test', '/flaky/b1?fail=1')).status, 503);
    assert.equal((await get('status.test', '/flaky/b1?fail=1')).status, 200);
  });

  test('reset destroys the socket N times, then 200', async () => {
    await assert.rejects(get('status.test', '/reset/r1?fail=2'));
    await assert.rejects(get('status.test', '/reset/r1?fail=2'));
    assert.equal((await get('status.test', '/reset/r1?fail=2')).status, 200);
  });
});

describe('redirect.test', () => {
  test('chains, loop, absolute and relative targets', async () => {
    const c = await get('redirect.test', '/chain/3');
    assert.equal(c.status, 301);
    assert.equal(c.headers.location, '/chain/2');
    assert.equal((await get('redirect.test', '/chain/0')).status, 200);
    const c2 = await get('redirect.test', '/chain302/1');
    assert.equal(c2.status, 302);
    assert.equal(c2.headers.location, '/chain302/0');
    assert.equal((await get('redirect.test', '/loop/a')).headers.location, '/loop/b');
    assert.equal((await get('redirect.test', '/loop/b')).headers.location, '/loop/a');
    const to = await get('redirect.test', `/to?url=${encodeURIComponent('http://10.0.0.1/x')}`);
    assert.equal(to.status, 302);
    assert.equal(to.headers.location, 'http://10.0.0.1/x');
    const rel = await get('redirect.test', '/relative');
    assert.equal(rel.status, 301);
    assert.equal(rel.headers.location, '../chain/0');
  });
});

describe('media.test', () => {
  test('types and magic bytes', async () => {
    const pdf = await get('media.test', '/doc.pdf');
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.body.subarray(0, 5).toString(), '%PDF-');
    const png = await get('media.test', '/image.png');
    assert.equal(png.headers['content-type'], 'image/png');
    assert.deepEqual([...png.body.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const jpg = await get('media.test', '/image.jpg');
    assert.equal(jpg.headers['content-type'], 'image/jpeg');
    assert.deepEqual([...jpg.body.subarray(0, 3)], [0xff, 0xd8, 0xff]);
    const json = await get('media.test', '/data.json');
    assert.equal(json.headers['content-type'], 'application/json');
    assert.equal(JSON.parse(json.body.toString()).name, 'focuscrawl');
    const page = await get('media.test', '/page.html');
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const none = await get('media.test', '/no-type');
    assert.equal(none.headers['content-type'], undefined);
    assert.match(none.body.toString(), /<html/);
  });
});

describe('gzip.test', () => {
  test('gzip, brotli and deflate pages', async () => {
    const g = await get('gzip.test', '/page/1');
    assert.equal(g.headers['content-encoding'], 'gzip');
    assert.match(gunzipSync(g.body).toString(), /gzip page 1/);
    const b = await get('gzip.test', '/br/1');
    assert.equal(b.headers['content-encoding'], 'br');
    assert.match(brotliDecompressSync(b.body).toString(), /br page 1/);
    const d = await get('gzip.test', '/deflate/1');
    assert.equal(d.headers['content-encoding'], 'deflate');
    assert.match(inflateSync(d.body).toString(), /deflate page 1/);
  });

  test('bomb: about 1 MB on the wire that starts inflating into zeros', async () => {
    const r = await get('gzip.test', '/bomb');
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.ok(r.body.length > 900_000 && r.body.length < 1_200_000, String(r.body.length));
    // Inflate only the first few MiB: they must be zeros.
    const got = await new Promise<number>((resolve, reject) => {
      const z = createGunzip();
      let n = 0;
      z.on('data', (c: Buffer) => {
        if (c.some((x) => x !== 0)) reject(new Error('non-zero byte'));
        n += c.length;
        if (n >= 4 * 1024 * 1024) {
          z.destroy();
          resolve(n);
        }
      });
      z.on('error', reject);
      z.end(r.body);
    });
    assert.ok(got >= 4 * 1024 * 1024);
    // The gzip trailer announces 1 GiB (mod 2^32).
    assert.equal(r.body.readUInt32LE(r.body.length - 4), 2 ** 30);
  });
});

describe('slow.test', () => {
  test('headers?ms delays the headers', async () => {
    const t0 = Date.now();
    const r = await get('slow.test', '/headers?ms=150');
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t0 >= 140);
  });

  test('body?ms trickles the body', async () => {
    const t0 = Date.now();
    const r = await get('slow.test', '/body?ms=200');
    assert.equal(r.status, 200);
    assert.ok(Date.now() - t0 >= 180);
    assert.equal(r.body.length, Number(r.headers['content-length']));
  });

  test('page/N takes 200 ms; hang never answers', async () => {
    const t0 = Date.now();
    assert.equal((await get('slow.test', '/page/3')).status, 200);
    assert.ok(Date.now() - t0 >= 190);
    await assert.rejects(get('slow.test', '/hang', { timeoutMs: 150 }), /timeout/);
  });
});

describe('trap.test, session.test, big.test', () => {
  test('calendar links to the previous and next month forever', async () => {
    const r = (await get('trap.test', '/calendar/2024/12')).body.toString();
    assert.match(r, /href="\/calendar\/2024\/11"/);
    assert.match(r, /href="\/calendar\/2025\/01"/);
    const far = await get('trap.test', '/calendar/9999/12');
    assert.equal(far.status, 200);
    assert.match(far.body.toString(), /href="\/calendar\/10000\/01"/);
  });

  test('session ids do not change the article; links carry fresh ids', async () => {
    const a = (await get('session.test', '/article/3?sid=aaa')).body.toString();
    const b = (await get('session.test', '/article/3;jsessionid=BBB')).body.toString();
    const text = (s: string) => s.replace(/<a [^>]*>/g, '');
    assert.equal(text(a), text(b));
    const sids = [...a.matchAll(/(?:sid|jsessionid)=([0-9A-Za-z]+)/g)].map((m) => m[1]);
    assert.ok(sids.length >= 3);
    assert.ok(!sids.includes('aaa'));
  });

  test('large?kb=K is exactly K KiB', async () => {
    const r = await get('big.test', '/large?kb=300');
    assert.equal(r.body.length, 300 * 1024);
    assert.match(r.body.toString(), /late-link/);
    const d = await get('big.test', '/large');
    assert.equal(d.body.length, 5000 * 1024);
  });
});
