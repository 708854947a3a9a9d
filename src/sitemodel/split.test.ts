import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveLearnOptions } from './options.js';
import { prepareSample } from './sample.js';
import { ContentMemo, splitSample } from './split.js';
import { syntheticSite } from './testing.js';

const LAYOUT = { pathDepth: 4, maxClassTokens: 3, minRepeat: 2 };
const o = resolveLearnOptions({});

describe('splitSample', () => {
  const { pages } = prepareSample(syntheticSite(), LAYOUT);

  it('judges the print views and the one-text forms repeats, the items content', () => {
    const { split } = splitSample(pages, o);
    const roles = Object.fromEntries([...split.patterns].map(([p, r]) => [p, r.role]));
    assert.equal(roles['/t/{n}'], 'content');
    assert.equal(roles['/print/{n}'], 'duplicate');
    const forms = split.patterns.get('/form?item={n}')!;
    // five pages, one text: all but the first repeat it
    assert.equal(forms.pages.filter((i) => split.duplicate[i]).length, forms.pages.length - 1);
  });

  it('gives the same split with a memo kept while the sample grows as without one', () => {
    const memo = new ContentMemo();
    for (const n of [10, 20, 30, pages.length]) {
      const grown = splitSample(pages.slice(0, n), o, memo);
      const fresh = splitSample(pages.slice(0, n), o);
      assert.deepEqual(grown.split, fresh.split, `at ${n} pages`);
      assert.deepEqual(grown.contents, fresh.contents, `at ${n} pages`);
    }
  });
});
