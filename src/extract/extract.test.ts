import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractPage, NO_RULE_SET, parseRules, renderText } from './index.js';
import { one, rulesOf, run, URL_, values } from './testing.js';

describe('meta', () => {
  const head =
    '<meta name="Description" content="  A job "><meta property="article:tag" content="java">' +
    '<meta property="article:tag" content="go"><meta itemprop="datePublished" content="2024-01-05">';
  run([
    { name: 'name, case ignored', rule: { meta: 'description' }, html: head, want: ['A job'] },
    {
      name: 'property, multiple',
      rule: { meta: 'article:tag', multiple: true },
      html: head,
      want: ['java', 'go'],
    },
    {
      name: 'itemprop, as a date',
      rule: { meta: 'datePublished', type: 'date' },
      html: head,
      want: ['2024-01-05'],
    },
    {
      name: 'missing',
      rule: { meta: 'keywords' },
      html: head,
      want: { reason: 'no <meta name="keywords">' },
    },
  ]);
});

describe('jsonld', () => {
  const ld = (v: unknown) => `<script type="application/ld+json">${JSON.stringify(v)}</script>`;
  const job = {
    '@type': 'JobPosting',
    title: 'Go developer',
    hiringOrganization: { '@type': 'Organization', name: 'Acme' },
    skills: ['go', 'sql'],
    baseSalary: { value: { '@value': 12000 } },
  };
  run([
    {
      name: 'a top-level object',
      rule: { jsonld: 'hiringOrganization.name' },
      html: ld(job),
      want: ['Acme'],
    },
    {
      name: '@graph, picked by @type',
      rule: { jsonld: 'title', jsonldType: 'JobPosting' },
      html: ld({
        '@context': 'https://schema.org',
        '@graph': [{ '@type': 'WebPage', title: 'Page' }, job],
      }),
      want: ['Go developer'],
    },
    {
      name: 'a top-level array; @type written as a URL or in an array',
      rule: { jsonld: 'title', jsonldType: 'JobPosting' },
      html: ld([
        { '@type': 'WebPage', title: 'Page' },
        { ...job, '@type': ['Thing', 'http://schema.org/JobPosting'] },
      ]),
      want: ['Go developer'],
    },
    {
      name: 'an object nested in another',
      rule: { jsonld: 'name', jsonldType: 'Organization' },
      html: ld({ '@type': 'WebPage', mainEntity: job }),
      want: ['Acme'],
    },
    {
      name: 'arrays on the path are spread; multiple',
      rule: { jsonld: 'skills', multiple: true },
      html: ld(job),
      want: ['go', 'sql'],
    },
    {
      name: 'a number step indexes an array; @value',
      rule: { jsonld: 'skills.1' },
      html: ld(job),
      want: ['sql'],
    },
    {
      name: '@value',
      rule: { jsonld: 'baseSalary.value', type: 'number' },
      html: ld(job),
      want: ['12000'],
    },
    {
      name: 'several scripts, one broken',
      rule: { jsonld: 'title', jsonldType: 'JobPosting' },
      html: `<script type="application/ld+json">{oops</script>${ld(job)}`,
      want: ['Go developer'],
    },
    {
      name: 'no JSON-LD',
      rule: { jsonld: 'title' },
      html: '<p>x</p>',
      want: { reason: 'no JSON-LD on the page' },
    },
    {
      name: 'not JSON',
      rule: { jsonld: 'title' },
      html: '<script type="application/ld+json">{oops</script>',
      want: { reason: "the page's JSON-LD is not valid JSON" },
    },
    {
      name: 'no object of the type',
      rule: { jsonld: 'title', jsonldType: 'JobPosting' },
      html: ld({ '@type': 'WebPage', title: 'x' }),
      want: { reason: 'no JSON-LD object of @type JobPosting' },
    },
    {
      name: 'no value at the path',
      rule: { jsonld: 'salary.max', jsonldType: 'JobPosting' },
      html: ld(job),
      want: { reason: 'JSON-LD object of @type JobPosting has no value at "salary.max"' },
    },
  ]);
});

describe('fields and rule sets', () => {
  test('required, optional and multiple fields; missing required ones are listed', () => {
    const rules = rulesOf({
      title: { css: 'h1', required: true },
      salary: { css: '.salary', required: true },
      tags: { css: '.tag', multiple: true },
      note: { css: '.note' },
    });
    const r = extractPage(rules, {
      url: URL_,
      html: '<h1>T</h1><i class="tag">a</i><i class="tag">b</i>',
    }).matched[0]!;
    assert.equal(r.ruleSet, 't');
    assert.deepEqual(
      r.fields.map((f) => [f.name, f.required, values(f), f.reason]),
      [
        ['title', true, ['T'], undefined],
        ['salary', true, [], 'selector ".salary" matched nothing'],
        ['tags', false, ['a', 'b'], undefined],
        ['note', false, [], 'selector ".note" matched nothing'],
      ],
    );
    assert.deepEqual(r.missingRequired, ['salary']);
    assert.equal(r.complete, false);
  });

  test('a value that does not fit the type: the reason, or skipped among several', () => {
    assert.equal(
      one({ css: 'p', type: 'number' }, '<p>abc</p>').reason,
      'value "abc" is not a number',
    );
    const f = one({ css: 'p', type: 'number', multiple: true }, '<p>1</p><p>abc</p><p>2,000</p>');
    assert.deepEqual(values(f), ['1', '2000']);
    assert.deepEqual(f.skipped, ['value "abc" is not a number']);
    assert.deepEqual(
      f.values.map((v) => [v.raw, v.position]),
      [
        ['1', 0],
        ['2,000', 1],
      ],
    );
  });

  test('trim: false keeps the text as found', () => {
    assert.deepEqual(
      values(one({ css: { selector: 'a', attr: 'title' }, trim: false }, '<a title=" a  b ">')),
      [' a  b '],
    );
    assert.deepEqual(values(one({ css: { selector: 'a', attr: 'title' } }, '<a title=" a  b ">')), [
      'a b',
    ]);
  });

  test('no rule set matched the URL: nothing is parsed', () => {
    const rules = rulesOf({ t: { css: 'h1' } }, [
      '^https?://jobs\\.test/job/\\d+$',
      '^http://other\\.test/',
    ]);
    const r = extractPage(rules, { url: 'http://jobs.test/list/1', html: '<h1>x</h1>' });
    assert.deepEqual(r, { url: 'http://jobs.test/list/1', matched: [], reason: NO_RULE_SET });
    assert.equal(NO_RULE_SET, 'no rule set matched the URL');
    const untouched = {
      url: 'http://jobs.test/list/1',
      get html(): string {
        throw new Error('the HTML was read');
      },
    };
    assert.equal(extractPage(rules, untouched).reason, NO_RULE_SET);
    assert.equal(
      extractPage(rules, { url: 'http://other.test/a', html: '<h1>x</h1>' }).matched.length,
      1,
    );
  });

  test('every matching rule set gives a result, in the file order', () => {
    const rules = parseRules(
      JSON.stringify({
        version: 1,
        ruleSets: [
          { name: 'any', urls: '.', fields: { h: { css: 'h1' } } },
          { name: 'none', urls: '^ftp:', fields: { h: { css: 'h1' } } },
          { name: 'jobs', urls: '/job/', fields: { id: { regex: '(?<id>\\d+)$', over: 'url' } } },
        ],
      }),
      'two.json',
    );
    const r = extractPage(rules, { url: URL_, html: '<h1>x</h1>' });
    assert.deepEqual(
      r.matched.map((m) => [m.ruleSet, values(m.fields[0]!)]),
      [
        ['any', ['x']],
        ['jobs', ['12']],
      ],
    );
  });

  test('renderText: lines for blocks, no empty lines, whitespace collapsed', () => {
    const r = extractPage(rulesOf({ b: { css: 'body' } }), {
      url: URL_,
      html: '<body>\n  <div>\n <p>a\n b</p>\n\n<p>\u3000c&nbsp;d</p></div>e</body>',
    });
    assert.deepEqual(values(r.matched[0]!.fields[0]!), ['a b\nc d\ne']);
    assert.equal(renderText([]), '');
  });
});
