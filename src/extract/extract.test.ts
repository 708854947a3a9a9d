import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractPage, type FieldResult, NO_RULE_SET, parseRules, renderText } from './index.js';

const URL_ = 'http://jobs.test/job/12';

/** Rules with one rule set "t" of the given fields, matching every URL. */
function rulesOf(fields: Record<string, unknown>, urls: unknown = '.') {
  return parseRules(
    JSON.stringify({ version: 1, ruleSets: [{ name: 't', urls, fields }] }),
    't.json',
  );
}

/** The result of field "f" with rule `rule` over `html`. */
function one(rule: Record<string, unknown>, html: string, url = URL_): FieldResult {
  const r = extractPage(rulesOf({ f: rule }), { url, html });
  return r.matched[0]!.fields[0]!;
}

const values = (f: FieldResult) => f.values.map((v) => v.value);

interface Case {
  name: string;
  rule: Record<string, unknown>;
  html: string;
  url?: string;
  /** Expected values, or the expected reason. */
  want: string[] | { reason: string };
}

function run(cases: Case[]): void {
  for (const c of cases) {
    test(c.name, () => {
      const f = one(c.rule, c.html, c.url);
      if (Array.isArray(c.want)) {
        assert.deepEqual(values(f), c.want);
        assert.equal(f.reason, undefined);
        assert.deepEqual(
          f.values.map((v) => v.position),
          c.want.map((_, i) => i),
        );
      } else {
        assert.deepEqual(f.values, []);
        assert.equal(f.reason, c.want.reason);
      }
    });
  }
}

const MARK = { start: '职位描述', end: '申请这个职位' };

describe('between', () => {
  run([
    {
      name: 'the text between the markers, trimmed',
      rule: { between: MARK },
      html: '<p>职位描述： 写代码 </p><p>申请这个职位</p>',
      want: ['： 写代码'],
    },
    {
      name: 'markers across tags: <dt>start</dt><dd>…</dd>',
      rule: { between: MARK },
      html: '<dl><dt>职位描述</dt><dd><p>负责开发</p><p>编写  测试</p></dd></dl><a>申请这个职位</a>',
      want: ['负责开发\n编写 测试'],
    },
    {
      name: 'a marker split by inline tags is still found',
      rule: { between: MARK },
      html: '<p><b>职位</b>描述</p><p>x</p><p><span>申请</span>这个职位</p>',
      want: ['x'],
    },
    {
      name: 'start marker absent',
      rule: { between: MARK },
      html: '<p>nothing here 申请这个职位</p>',
      want: { reason: 'start marker "职位描述" not found' },
    },
    {
      name: 'start without end',
      rule: { between: MARK },
      html: '<p>职位描述</p><p>x</p>',
      want: { reason: 'end marker "申请这个职位" not found after the start' },
    },
    {
      name: 'an end before the start does not count',
      rule: { between: MARK },
      html: '<p>申请这个职位</p><p>职位描述</p><p>x</p>',
      want: { reason: 'end marker "申请这个职位" not found after the start' },
    },
    {
      name: 'repeated markers: first',
      rule: { between: { start: '[', end: ']' } },
      html: '<p>[a] [b] [c]</p>',
      want: ['a'],
    },
    {
      name: 'repeated markers: all (multiple implied)',
      rule: { between: { start: '[', end: ']', occurrence: 'all' } },
      html: '<p>[a] [b]</p><p>[c</p><p>]</p>',
      want: ['a', 'b', 'c'],
    },
    {
      name: 'includeMarkers',
      rule: { between: { ...MARK, includeMarkers: true } },
      html: '<h2>职位描述</h2><p>x</p><a>申请这个职位</a>',
      want: ['职位描述\nx\n申请这个职位'],
    },
    {
      name: 'whitespace in a marker matches any whitespace',
      rule: { between: { start: 'Job  description', end: 'Apply' } },
      html: '<p>Job\n  description</p><p>Build things.</p><p>Apply</p>',
      want: ['Build things.'],
    },
    {
      name: 'over html: the source between the markers',
      rule: { between: { start: '<!-- begin -->', end: '<!-- end -->' }, over: 'html' },
      html: '<div><!-- begin --><p>a &amp; b</p><!-- end --></div>',
      want: ['<p>a &amp; b</p>'],
    },
    {
      name: 'script, style, template, noscript and the title are not text',
      rule: { between: MARK },
      html:
        '<title>职位描述</title><script>var a="职位描述"</script><style>p{}</style>' +
        '<template>职位描述</template><noscript>职位描述</noscript><p>职位描述</p>x<p>申请这个职位</p>',
      want: ['x'],
    },
  ]);
});

describe('css', () => {
  const page =
    '<h1> Java <b>开发</b> </h1><div class="salary">15k</div>' +
    '<ul><li><a href="/a">A</a></li><li><a href="b">B</a></li><li><a>C</a></li></ul>';
  run([
    { name: 'text', rule: { css: 'h1' }, html: page, want: ['Java 开发'] },
    { name: 'first only by default', rule: { css: 'li' }, html: page, want: ['A'] },
    {
      name: 'multiple',
      rule: { css: 'ul > li', multiple: true },
      html: page,
      want: ['A', 'B', 'C'],
    },
    {
      name: 'attribute',
      rule: { css: { selector: 'a', attr: 'href' }, multiple: true },
      html: page,
      want: ['/a', 'b'],
    },
    {
      name: 'attribute as url, resolved against the page URL',
      rule: { css: { selector: 'a', attr: 'href' }, multiple: true, type: 'url' },
      html: page,
      want: ['http://jobs.test/a', 'http://jobs.test/job/b'],
    },
    {
      name: 'url resolved against <base href>',
      rule: { css: { selector: 'a', attr: 'href' }, type: 'url' },
      html: `<base href="https://cdn.test/x/">${page}`,
      want: ['https://cdn.test/a'],
    },
    {
      name: 'inner html',
      rule: { css: { selector: 'h1', html: true } },
      html: page,
      want: ['Java <b>开发</b>'],
    },
    {
      name: 'no match',
      rule: { css: '.salary2' },
      html: page,
      want: { reason: 'selector ".salary2" matched nothing' },
    },
    {
      name: 'no element with the attribute',
      rule: { css: { selector: 'h1', attr: 'title' } },
      html: page,
      want: { reason: 'selector "h1" matched an element without attribute "title"' },
    },
    {
      name: 'empty text',
      rule: { css: 'p' },
      html: '<p> </p>',
      want: { reason: 'value is empty' },
    },
    {
      name: 'block children on lines of their own',
      rule: { css: 'div' },
      html: '<div><p>a</p>b<br>c<table><tr><td>d</td><td>e</td></tr></table></div>',
      want: ['a\nb\nc\nd e'],
    },
  ]);
});

describe('regex', () => {
  const page = '<p>公司：华信科技 薪资：15k</p><p>编号 <b>A-17</b></p><a href="/job/99">x</a>';
  run([
    {
      name: 'named group over the text',
      rule: { regex: '公司：(?<company>\\S+)' },
      html: page,
      want: ['华信科技'],
    },
    {
      name: 'over the text, across inline tags',
      rule: { regex: '编号 (?<id>[A-Z]-\\d+)' },
      html: page,
      want: ['A-17'],
    },
    {
      name: 'over the html',
      rule: { regex: 'href="(?<href>[^"]+)"', over: 'html' },
      html: page,
      want: ['/job/99'],
    },
    {
      name: 'over the url',
      rule: { regex: '/job/(?<id>\\d+)$', over: 'url', type: 'number' },
      html: page,
      want: ['12'],
    },
    {
      name: 'flags and multiple',
      rule: { regex: '(?<w>[a-z])-\\d', flags: 'i', multiple: true },
      html: '<p>a-1 B-2</p>',
      want: ['a', 'B'],
    },
    {
      name: 'matched nothing',
      rule: { regex: '邮箱：(?<mail>\\S+)' },
      html: page,
      want: { reason: 'regex matched nothing' },
    },
    {
      name: 'matched nothing in the url',
      rule: { regex: '/list/(?<n>\\d+)', over: 'url' },
      html: page,
      want: { reason: 'regex matched nothing in the url' },
    },
    {
      name: 'the group took no part',
      rule: { regex: '公司：|(?<x>邮箱)' },
      html: page,
      want: { reason: 'regex matched, but its group "x" captured nothing' },
    },
  ]);
});

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
