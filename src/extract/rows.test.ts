// Rows of the store's fields table from one page's extraction.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractPage, fieldRows, matchingRuleSets, parseRules } from './index.js';

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

describe('rule sets by URL pattern (the site model language)', () => {
  const byPattern = parseRules(
    JSON.stringify({
      version: 1,
      ruleSets: [
        {
          name: 'topics',
          patterns: ['/viewtopic.php?t={n}', '/viewtopic.php?t={n}&start={n}'],
          fields: { title: { css: 'h2' } },
        },
      ],
    }),
    'topics.json',
  );
  const cases: [string, boolean][] = [
    ['http://phpbb.test/viewtopic.php?t=17', true],
    ['http://luntan.test/viewtopic.php?t=17&start=15', true], // any host
    ['http://phpbb.test/viewtopic.php?t=17&view=print', false], // keys matter
    ['http://phpbb.test/viewtopic.php?f=2&t=17', false],
    ['http://phpbb.test/viewforum.php?f=2', false],
  ];
  for (const [url, matched] of cases) {
    it(`${url} → ${matched ? 'matched' : 'not matched'}`, () => {
      assert.equal(matchingRuleSets(byPattern, url).length === 1, matched);
    });
  }

  it('refuses a rule set with neither urls nor patterns, and a bad pattern, naming them', () => {
    const bad = (rs: object) => () =>
      parseRules(
        JSON.stringify({
          version: 1,
          ruleSets: [{ name: 'x', ...rs, fields: { t: { css: 'h1' } } }],
        }),
        'r.json',
      );
    assert.throws(bad({}), /r\.json.*rule set "x".*give urls \(regular expressions\) or patterns/);
    assert.throws(
      bad({ patterns: '/t/{nope}' }),
      /r\.json.*rule set "x".*bad URL pattern "\/t\/\{nope\}"/,
    );
  });
});
