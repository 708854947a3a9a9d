// False-positive check on the small test web: its topical pages are generated from a
// shared vocabulary and shared stock sentences, so many are alike without being copies.
// A near duplicate reported among them would make a crawl drop a real page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeBody } from '../parse/index.js';
import { listPageUrls, pageHtml } from '../testweb/index.js';
import { DuplicateDetector } from './detector.js';
import { hammingDistance, type SimHash } from './fingerprint.js';

test('no two content pages of the small test web are duplicates at the default k', (t) => {
  const web = { seed: 1, size: 'small' } as const;
  const detector = new DuplicateDetector();
  const urls = listPageUrls(web);
  const fps: SimHash[] = [];
  for (const [id, url] of urls.entries()) {
    const html = pageHtml(web, url);
    assert.ok(html !== undefined, url);
    const text = analyzeBody(Buffer.from(html), 'text/html; charset=utf-8', url).page?.text ?? '';
    const r = detector.check({ text });
    assert.ok(r.simhash !== null, `${url} is long enough to fingerprint`);
    assert.equal(
      r.duplicate,
      null,
      `${url} reported as a duplicate of ${urls[r.duplicate?.of ?? 0]}`,
    );
    detector.add(id, r.simhash, r.contentHash);
    fps.push(r.simhash);
  }
  assert.equal(detector.size, urls.length);

  // Distance from each page to its nearest other page (brute force), for the record.
  const histogram = new Map<number, number>();
  for (const [i, a] of fps.entries()) {
    let nearest = 64;
    for (const [j, b] of fps.entries())
      if (i !== j) nearest = Math.min(nearest, hammingDistance(a, b));
    histogram.set(nearest, (histogram.get(nearest) ?? 0) + 1);
  }
  const seen = [...histogram].sort((a, b) => a[0] - b[0]);
  t.diagnostic(
    `pages: ${urls.length}; nearest-other distance: ${seen.map(([d, n]) => `${d}:${n}`).join(' ')}`,
  );
  assert.ok((seen[0]?.[0] ?? 0) > detector.options.maxDistance + 3, 'a margin above k');
});
