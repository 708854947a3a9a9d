// The crawl's link filter from a site model: valid patterns followed, invalid ones and
// unknown URLs skipped and counted, other hosts left to the scope, the structure-change
// warning once past its limit.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handModel } from '../sitemodel/testing.js';
import { SiteFilter } from './site-filter.js';

const H = 'https://bbs.example.test';

describe('SiteFilter', () => {
  it('follows valid patterns, skips invalid ones by pattern and unknown URLs, leaves other hosts alone', () => {
    const warnings: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 3);
    const table: [string, boolean][] = [
      [`${H}/t/12`, true],
      [`${H}/list/2`, true],
      [`${H}/print/12`, false],
      [`${H}/print/13`, false],
      [`${H}/print/13`, false], // counted once
      [`${H}/form?item=4`, false],
      [`${H}/t/12?sort=new`, false],
      [`${H}/new/scheme/1`, false],
      [`https://elsewhere.test/print/12`, true],
      ['not a url', false],
    ];
    for (const [url, follows] of table) assert.equal(f.allows(url), follows, url);
    assert.deepEqual(f.stats.refused, {
      '/print/{n}': 2,
      '/form?item={n}': 1,
      '/t/{n}?sort={w}': 1,
    });
    assert.equal(f.stats.unknown, 1);
    assert.equal(f.stats.valid, 2);
    assert.deepEqual(warnings, []);
  });

  it('warns once that the structure changed when unknown URLs pass the limit', () => {
    const warnings: string[] = [];
    const f = new SiteFilter(handModel(), (m) => warnings.push(m), 3);
    for (let i = 0; i < 10; i++) f.allows(`${H}/v2/item-${i}.html`);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0]!,
      /site model: 3 links match none of its patterns .*structure may have changed/,
    );
    assert.equal(f.stats.unknown, 10);
    assert.equal(f.stats.unknownExamples.length, 5);
  });
});
