import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SitemapError, SitemapTooLargeError } from '../errors/index.js';
import {
  type ParsedSitemap,
  type ParseSitemapOptions,
  parseSitemap,
  parseW3cDatetime,
} from './sitemap-parse.js';

const URL_ = 'http://a.test/sitemap.xml';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const parse = (doc: string | Buffer, o: Partial<ParseSitemapOptions> = {}) =>
  parseSitemap(typeof doc === 'string' ? Buffer.from(doc) : doc, { url: URL_, ...o });
const urlset = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${body}</urlset>`;

describe('parseSitemap: table', () => {
  const cases: [name: string, doc: string, expected: Partial<ParsedSitemap>][] = [
    [
      'urlset with every field',
      urlset(
        '<url><loc>http://a.test/1</loc><lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq><priority>0.8</priority></url>',
      ),
      {
        kind: 'urlset',
        format: 'xml',
        urls: [
          { loc: 'http://a.test/1', lastmod: '2024-05-01', changefreq: 'weekly', priority: 0.8 },
        ],
        skipped: 0,
      },
    ],
    [
      'whitespace around values, CRLF, upper-case changefreq',
      urlset(
        '\r\n <url>\r\n  <loc>\n   http://a.test/2 \n</loc>\r\n <changefreq> Daily </changefreq></url>',
      ),
      { urls: [{ loc: 'http://a.test/2', changefreq: 'daily' }] },
    ],
    [
      'sitemap index',
      `<sitemapindex ${NS}><sitemap><loc>http://a.test/s1.xml</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod></sitemap><sitemap><loc>http://a.test/s2.xml.gz</loc></sitemap></sitemapindex>`,
      {
        kind: 'index',
        urls: [],
        sitemaps: [
          { loc: 'http://a.test/s1.xml', lastmod: '2024-01-02T03:04:05+00:00' },
          { loc: 'http://a.test/s2.xml.gz' },
        ],
      },
    ],
    [
      'namespace prefixes',
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://a.test/p</sm:loc><sm:priority>1.0</sm:priority></sm:url></sm:urlset>',
      { urls: [{ loc: 'http://a.test/p', priority: 1 }] },
    ],
    [
      'CDATA and entities',
      urlset(
        '<url><loc><![CDATA[http://a.test/q?a=1&b=2]]></loc></url><url><loc>http://a.test/q?a=1&amp;b=&#x32;&#51;</loc></url>',
      ),
      { urls: [{ loc: 'http://a.test/q?a=1&b=2' }, { loc: 'http://a.test/q?a=1&b=23' }] },
    ],
    [
      'extension elements: image:loc and xhtml:link are not pages',
      urlset(
        '<url><loc>http://a.test/i</loc><image:image><image:loc>http://a.test/i.jpg</image:loc></image:image><xhtml:link rel="alternate" href="http://a.test/fr/i"/></url>',
      ),
      { urls: [{ loc: 'http://a.test/i' }] },
    ],
    [
      'comments, DOCTYPE, BOM-less prolog, upper-case tags',
      `<!-- generated --><!DOCTYPE urlset><URLSET ${NS}><!-- x --><URL><LOC>http://a.test/u</LOC></URL></URLSET>`,
      { urls: [{ loc: 'http://a.test/u' }] },
    ],
    [
      'malformed fields are dropped, the entry kept',
      urlset(
        '<url><loc>http://a.test/m</loc><lastmod>yesterday</lastmod><changefreq>often</changefreq><priority>1.5</priority></url><url><loc>http://a.test/n</loc><priority>-0.1</priority><priority>0.3</priority></url>',
      ),
      { urls: [{ loc: 'http://a.test/m' }, { loc: 'http://a.test/n' }], skipped: 0 },
    ],
    [
      'entries without a usable loc are skipped',
      urlset(
        `<url><lastmod>2024</lastmod></url><url><loc></loc></url><url><loc>/relative</loc></url><url><loc>ftp://a.test/f</loc></url><url/><url><loc>http://a.test/${'x'.repeat(2100)}</loc></url><url><loc>HTTPS://a.test/ok</loc></url>`,
      ),
      { urls: [{ loc: 'HTTPS://a.test/ok' }], skipped: 6 },
    ],
    [
      'a missing </loc> is closed by </url>',
      urlset('<url><loc>http://a.test/l</url><url><loc>http://a.test/m</loc></url>'),
      { urls: [{ loc: 'http://a.test/l' }, { loc: 'http://a.test/m' }] },
    ],
    [
      'a document cut inside an entry: the last entry is skipped',
      urlset('<url><loc>http://a.test/1</loc></url><url><loc>http://a.test/2</loc>').replace(
        '</urlset>',
        '',
      ),
      { urls: [{ loc: 'http://a.test/1' }], skipped: 1 },
    ],
    [
      'text sitemap',
      '\uFEFFhttp://a.test/t1\r\nhttp://a.test/t2\n\n  not a url\nhttp://a.test/t3\n',
      {
        kind: 'urlset',
        format: 'text',
        urls: [
          { loc: 'http://a.test/t1' },
          { loc: 'http://a.test/t2' },
          { loc: 'http://a.test/t3' },
        ],
        skipped: 1,
      },
    ],
    ['empty urlset', urlset(''), { kind: 'urlset', urls: [], sitemaps: [], skipped: 0 }],
  ];
  for (const [name, doc, expected] of cases) {
    test(name, () => {
      const r = parse(doc);
      for (const [k, v] of Object.entries(expected)) {
        assert.deepEqual(r[k as keyof ParsedSitemap], v, `${name}: ${k}`);
      }
    });
  }
});

describe('parseSitemap: limits, gzip, errors', () => {
  test('gzip is recognised by its magic bytes and inflated', () => {
    const doc = urlset('<url><loc>http://a.test/g</loc></url>');
    const r = parse(gzipSync(doc));
    assert.deepEqual(r.urls, [{ loc: 'http://a.test/g' }]);
  });

  test('a cut gzip body gives its complete entries when marked truncated', () => {
    const entries = Array.from(
      { length: 2000 },
      (_, i) => `<url><loc>http://a.test/${i}</loc></url>`,
    );
    const gz = gzipSync(urlset(entries.join('\n')));
    const cut = gz.subarray(0, Math.floor(gz.length / 2));
    const r = parse(cut, { truncated: true });
    assert.ok(r.urls.length > 100 && r.urls.length < 2000, String(r.urls.length));
    assert.deepEqual(r.urls[5], { loc: 'http://a.test/5' });
    assert.throws(
      () => parse(cut),
      (e: unknown) => e instanceof SitemapError,
    );
  });

  test('maxUrls caps the entries; the rest are counted as skipped', () => {
    const body = Array.from({ length: 10 }, (_, i) => `<url><loc>http://a.test/${i}</loc></url>`);
    const r = parse(urlset(body.join('')), { maxUrls: 4 });
    assert.equal(r.urls.length, 4);
    assert.equal(r.skipped, 6);
  });

  test('too large, plain or compressed: SitemapTooLargeError naming the URL', () => {
    const doc = urlset('<url><loc>http://a.test/big</loc></url>'.repeat(100));
    for (const bytes of [Buffer.from(doc), gzipSync(doc)]) {
      assert.throws(
        () => parse(bytes, { maxBytes: 1000 }),
        (e: unknown) =>
          e instanceof SitemapTooLargeError &&
          e.code === 'FC_ERR_SITEMAP_TOO_LARGE' &&
          e.url === URL_ &&
          e.message.includes(URL_) &&
          e.message.includes('1000'),
      );
    }
    assert.equal(parse(doc, { maxBytes: doc.length }).urls.length, 100);
  });

  const notSitemaps: [string, string | Buffer, RegExp][] = [
    [
      'an HTML page',
      '<!DOCTYPE html><html><head><title>404</title></head></html>',
      /root element <html>/,
    ],
    ['a feed', '<?xml version="1.0"?><rss version="2.0"><channel/></rss>', /root element <rss>/],
    ['JSON', '{"error": "not found"}', /neither XML nor a list of URLs/],
    ['an empty body', '  \n', /is empty/],
    ['only a comment', '<!-- nothing -->', /no XML element/],
    ['broken gzip', Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]), /invalid gzip data/],
  ];
  for (const [name, doc, why] of notSitemaps) {
    test(`not a sitemap: ${name} → SitemapError naming the URL`, () => {
      assert.throws(
        () => parse(doc),
        (e: unknown) =>
          e instanceof SitemapError &&
          e.code === 'FC_ERR_SITEMAP' &&
          e.url === URL_ &&
          e.message.includes(URL_) &&
          why.test(e.message),
      );
    });
  }

  test('never throws anything but the sitemap errors, whatever the bytes', () => {
    let x = 12345;
    for (let n = 0; n < 300; n++) {
      const len = n % 50;
      const bytes = Buffer.alloc(len);
      for (let i = 0; i < len; i++) {
        x = (x * 1103515245 + 12345) >>> 0;
        bytes[i] = '<>/!?[]-:"\' urlsetloc\nhttp&;#x'.charCodeAt(x % 33) || 60;
      }
      try {
        parse(bytes);
      } catch (e) {
        assert.ok(e instanceof SitemapError, `${bytes.toString()}: ${e}`);
      }
    }
  });
});

test('parseW3cDatetime: the W3C datetime forms, nothing else', () => {
  const cases: [string, number | undefined][] = [
    ['2024', Date.UTC(2024, 0, 1)],
    ['2024-05', Date.UTC(2024, 4, 1)],
    ['2024-05-06', Date.UTC(2024, 4, 6)],
    ['2024-05-06T07:08Z', Date.UTC(2024, 4, 6, 7, 8)],
    ['2024-05-06T07:08:09+02:00', Date.UTC(2024, 4, 6, 5, 8, 9)],
    ['2024-05-06T07:08:09.5-01:00', Date.UTC(2024, 4, 6, 8, 8, 9, 500)],
    ['2024-05-06T07:08:09', undefined],
    ['06/05/2024', undefined],
    ['2024-13-01', undefined],
    ['', undefined],
  ];
  for (const [s, ms] of cases) assert.equal(parseW3cDatetime(s), ms, s);
});
