import { describe } from 'node:test';
import { run } from './testing.js';

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
