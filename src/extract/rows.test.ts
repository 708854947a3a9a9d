// Rows of the store's fields table from one page's extraction.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPage, fieldRows, parseRules } from './index.js';

const rules = parseRules(
  JSON.stringify({
    version: 1,
    ruleSets: [
      {
        name: 'posts',
        urls: '^https://x\\.test/p/',
        fields: {
          title: { css: 'h1', required: true },
          tags: { css: '.tag', multiple: true },
          price: { css: '.price', type: 'number' },
        },
      },
      { name: 'all', urls: '^https://x\\.test/', fields: { heading: { css: 'h1' } } },
    ],
  }),
  'rules.json',
);

describe('fieldRows', () => {
  it('gives one row per value, a null row per empty field, every matching rule set', () => {
    const e = extractPage(rules, {
      url: 'https://x.test/p/1',
      html: '<h1>Hello</h1><span class="tag">a</span><span class="tag">b</span>',
    });
    assert.deepEqual(fieldRows(e), [
      { ruleSet: 'posts', field: 'title', position: 0, value: 'Hello' },
      { ruleSet: 'posts', field: 'tags', position: 0, value: 'a' },
      { ruleSet: 'posts', field: 'tags', position: 1, value: 'b' },
      { ruleSet: 'posts', field: 'price', position: 0, value: null },
      { ruleSet: 'all', field: 'heading', position: 0, value: 'Hello' },
    ]);
  });

  it('gives no row for a page no rule set matches', () => {
    assert.deepEqual(
      fieldRows(extractPage(rules, { url: 'https://y.test/', html: '<h1>x</h1>' })),
      [],
    );
  });
});
