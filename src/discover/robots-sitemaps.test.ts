import assert from 'node:assert/strict';
import { test } from 'node:test';
import { robotsSitemaps, robotsSitemapValues, usableSitemapUrls } from './robots-sitemaps.js';

test('Sitemap lines: any case, anywhere, comments dropped', () => {
  const txt = [
    'Sitemap: http://a.test/one.xml',
    'User-agent: *',
    'Disallow: /private',
    'SITEMAP:http://a.test/two.xml.gz # gzip',
    'sitemap : https://cdn.test/three.xml',
    'Site-map: http://a.test/four.xml',
    'Sitemap:',
    '',
    'User-agent: other',
    'sitemap: http://a.test/five.xml',
  ].join('\r\n');
  assert.deepEqual(robotsSitemapValues(txt), [
    'http://a.test/one.xml',
    'http://a.test/two.xml.gz',
    'https://cdn.test/three.xml',
    'http://a.test/four.xml',
    'http://a.test/five.xml',
  ]);
});

test('only absolute http(s) URLs are used; relative ones are rejected, not resolved', () => {
  const r = usableSitemapUrls([
    'http://A.test:80/s.xml',
    '/sitemap.xml',
    'sitemap.xml',
    'ftp://a.test/s.xml',
    'http://a.test/s.xml',
    'HTTPS://b.test/%7Es.xml',
  ]);
  assert.deepEqual(r.urls, ['http://a.test/s.xml', 'https://b.test/~s.xml']);
  assert.deepEqual(r.rejected, ['/sitemap.xml', 'sitemap.xml', 'ftp://a.test/s.xml']);
  assert.deepEqual(robotsSitemaps('Sitemap: /x.xml\nSitemap: http://a.test/y.xml\n'), {
    urls: ['http://a.test/y.xml'],
    rejected: ['/x.xml'],
  });
  assert.deepEqual(robotsSitemaps(''), { urls: [], rejected: [] });
});
