import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { InvalidOptionError, InvalidUrlError } from '../errors/index.js';
import { createHtmlParser, type ParsedPage, parseHtml } from './index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}.html`, import.meta.url), 'utf8');
const link = (p: ParsedPage, url: string) => p.links.find((l) => l.url === url);
const urls = (p: ParsedPage) => p.links.map((l) => l.url);

describe('parseHtml: basic.html', () => {
  const p = parseHtml(fixture('basic'), 'https://example.test/guide/fish.html');

  it('title: entities decoded, whitespace collapsed', () => {
    assert.equal(p.title, 'Fish & Chips — a history');
  });

  it('lang, first <base href>, canonical resolved against the base and canonicalised', () => {
    assert.equal(p.lang, 'en-GB');
    assert.equal(p.baseUrl, 'https://example.test/guide/');
    assert.equal(p.canonical, 'https://example.test/fish-and-chips/?utm=1');
  });

  it('meta robots, refresh (resolved) and charset (WHATWG name)', () => {
    assert.deepEqual(p.robots, { noindex: false, nofollow: false, noarchive: true });
    assert.equal(p.metaRefresh, 'https://example.test/refreshed.html');
    assert.equal(p.metaCharset, 'windows-1252');
  });

  it('visible text: blocks on lines, entities decoded, nothing from head/script/style/template/hidden', () => {
    assert.equal(
      p.text,
      [
        'Home | About us',
        'Fish & chips',
        'Fish and chips is a hot dish of battered fish served with chips. It became popular in England in the 1860s – some say earlier.',
        'Relative links: vinegar, salt, picture, page two, recipe below, self, script, mail, data, no href.',
        'Cod is the usual fish.',
        'Price £8.50 each all prices',
        '© 2024 Example <fish>',
      ].join('\n'),
    );
    for (const hidden of [
      'not text',
      'font-family',
      'text in script',
      'template text',
      'Enable JavaScript',
      'Hidden text',
      'Styled-away',
      'textarea text',
      'Option text',
      'svg',
      'iframe fallback',
    ]) {
      assert.ok(!p.text.includes(hidden), `text must not include ${JSON.stringify(hidden)}`);
    }
  });

  it('relative, dot-segment, protocol-relative and query-only links resolve against the base', () => {
    assert.ok(link(p, 'https://example.test/guide/vinegar.html'));
    assert.ok(link(p, 'https://example.test/salt/'));
    assert.ok(link(p, 'https://cdn.example.test/img/fish.png'));
    assert.ok(link(p, 'https://example.test/guide/?page=2'));
    assert.ok(link(p, 'https://example.test/about/'));
  });

  it('drops fragment-only, empty, javascript:, mailto:, data: and href-less anchors', () => {
    for (const u of urls(p)) assert.match(u, /^https:\/\//);
    assert.ok(!urls(p).some((u) => u.includes('#')));
    assert.ok(
      !urls(p).includes('https://example.test/guide/fish.html'),
      'no self link from "" or "#recipe"',
    );
    assert.equal(p.links.filter((l) => l.tag === 'a').length, 14);
  });

  it('links inside script, style and template are not links', () => {
    for (const u of ['/in-script', '/in-style', '/in-template']) {
      assert.ok(!urls(p).includes(`https://example.test${u}`), u);
    }
  });

  it('links in hidden regions and noscript are kept, with their own anchor text', () => {
    assert.equal(link(p, 'https://example.test/hidden-link')?.anchor, 'hidden link');
    assert.equal(link(p, 'https://example.test/noscript-link')?.anchor, 'Plain version');
  });

  it('rel=nofollow among other rel tokens flags the link', () => {
    assert.equal(link(p, 'https://history.test/uk')?.nofollow, true);
    assert.equal(link(p, 'https://example.test/guide/batter.html')?.nofollow, false);
  });

  it('a link without text takes its aria-label, else an image alt, else its title', () => {
    assert.equal(link(p, 'https://example.test/guide/haddock.html')?.anchor, 'Haddock');
    assert.equal(link(p, 'https://example.test/guide/plaice.html')?.anchor, 'Plaice page');
    const q = parseHtml(
      '<a href="/1" title="T1"><img alt="A1"></a><a href="/2" title="T2"></a><a href="/3" title="T3">text</a>',
      'http://t.test/',
    );
    assert.deepEqual(
      q.links.map((l) => l.anchor),
      ['A1', 'T2', 'text'],
    );
  });

  it('area, iframe and <link rel=alternate|next> are links; stylesheet, icon, canonical are not', () => {
    assert.deepEqual(
      p.links.filter((l) => l.tag !== 'a').map((l) => [l.tag, l.url, l.anchor]),
      [
        ['link', 'https://example.test/zh/fish.html', 'Chinese version'],
        ['link', 'https://example.test/guide/page2.html', ''],
        ['iframe', 'https://example.test/frame.html', 'Embedded map'],
        ['area', 'https://example.test/area.html', 'Area alt'],
      ],
    );
  });

  it('link context: the anchor with up to 80 characters each side, whole words, within its block', () => {
    assert.equal(
      link(p, 'https://example.test/guide/batter.html')?.context,
      'Fish and chips is a hot dish of battered fish served with chips. It became popular in England in the 1860s – some say',
    );
    assert.equal(
      link(p, 'https://history.test/uk')?.context,
      'chips is a hot dish of battered fish served with chips. It became popular in England in the 1860s – some say earlier.',
    );
    assert.equal(link(p, 'https://example.test/guide/cod.html')?.context, 'Cod is the usual fish.');
    // a table cell bounds the context
    assert.equal(link(p, 'https://example.test/guide/prices.html')?.context, 'all prices');
    assert.equal(link(p, 'https://example.test/')?.context, 'Home | About us');
  });
});

describe('parseHtml: chinese.html', () => {
  const p = parseHtml(fixture('chinese'), 'http://dianwang.test/article/5.html');

  it('keeps Chinese text whole: no spaces from line breaks or inline tags inside Chinese runs', () => {
    assert.ok(
      p.text.includes(
        '记者从国家电网获悉，今年新建的特高压输电线路已经正式投入运行，把西部的清洁电力送到东部。详见《特高压建设进展》。',
      ),
    );
    assert.ok(p.text.includes('English words on two lines, and 中文 mixed with English.'));
    assert.equal(p.title, '新型电力系统 - 电网资讯');
  });

  it('meta name=focuscrawl nofollow marks every link nofollow; http-equiv charset label normalised', () => {
    assert.deepEqual(p.robots, { noindex: false, nofollow: true, noarchive: false });
    assert.ok(p.links.length === 6 && p.links.every((l) => l.nofollow));
    assert.equal(p.metaCharset, 'gbk');
  });

  it('Chinese link context is cut by characters, within the paragraph', () => {
    const l = link(p, 'http://dianwang.test/article/19.html');
    assert.equal(l?.anchor, '特高压建设进展');
    assert.equal(
      l?.context,
      '记者从国家电网获悉，今年新建的特高压输电线路已经正式投入运行，把西部的清洁电力送到东部。详见《特高压建设进展》。调度中心根据负荷变化调整发电计划，迎峰度夏期间用电负荷多次创下新高。',
    );
    assert.equal(link(p, 'http://dianwang.test/article/20.html')?.context, '储能电站参与调峰');
  });
});

// Kept here rather than in __fixtures__: the formatter's HTML parser rejects it.
const MALFORMED = `<html><head><title>Broken <page></title>
<body>
<p>First paragraph with <b>bold <i>and italic
<p>Second paragraph, 1 < 2 and 3 > 2, a stray < here
<div>Unclosed div with <a href="/one">link one
<a href="/two">link two</a> after an unclosed anchor
<ul><li>item one<li>item two <a href=/three>three</a></ul>
<table><tr><td>cell a<td>cell b</table>
<!-- a comment with <a href="/commented">x</a> -->
<p>After the comment &amp;amp &notanentity; &#x4e2d;&#25991;
<a href="/four"
`;

describe('parseHtml: malformed HTML', () => {
  const p = parseHtml(MALFORMED, 'http://bad.test/x/');

  it('survives unclosed tags, stray "<", an unfinished last tag', () => {
    assert.equal(p.title, 'Broken <page>');
    assert.equal(
      p.text,
      [
        'First paragraph with bold and italic',
        'Second paragraph, 1 < 2 and 3 > 2, a stray < here',
        'Unclosed div with link one link two after an unclosed anchor',
        'item one',
        'item two three',
        'cell a cell b',
        'After the comment &amp ¬anentity; 中文',
      ].join('\n'),
    );
  });

  it('an unclosed anchor ends where the next one starts; comments hold no links', () => {
    assert.deepEqual(
      p.links.map((l) => [l.url, l.anchor]),
      [
        ['http://bad.test/one', 'link one'],
        ['http://bad.test/two', 'link two'],
        ['http://bad.test/three', 'three'],
      ],
    );
  });
});

describe('parseHtml: hidden content', () => {
  it('a hidden link keeps its own anchor; hidden inline content joins its neighbours', () => {
    const p = parseHtml(
      '<p>a<a hidden href="/h">hid anchor</a>b <span style="display: none"><a href="/x">in span</a></span></p>',
      'http://t.test/',
    );
    assert.equal(p.text, 'ab');
    assert.deepEqual(
      p.links.map((l) => [l.url, l.anchor, l.context]),
      [
        ['http://t.test/h', 'hid anchor', 'hid anchor'],
        ['http://t.test/x', 'in span', 'in span'],
      ],
    );
  });
});

describe('parseHtml: robots directives', () => {
  const robots = (meta: string, xRobotsTag?: string | string[]) =>
    parseHtml(
      `<head>${meta}</head><p><a href="/a">a</a></p>`,
      'http://r.test/',
      xRobotsTag === undefined ? {} : { xRobotsTag },
    );
  const cases: Array<[string, string, string | string[] | undefined, [boolean, boolean, boolean]]> =
    [
      ['none', '', undefined, [false, false, false]],
      ['noindex', '<meta name="robots" content="noindex">', undefined, [true, false, false]],
      ['nofollow', '<meta name="ROBOTS" content="NoFollow">', undefined, [false, true, false]],
      ['"none" = both', '<meta name="robots" content="none">', undefined, [true, true, false]],
      ['"all" = nothing', '<meta name="robots" content="all">', undefined, [false, false, false]],
      ['list', '<meta name="robots" content="noindex, noarchive">', undefined, [true, false, true]],
      ['our token', '<meta name="focuscrawl" content="noindex">', undefined, [true, false, false]],
      [
        'another crawler',
        '<meta name="googlebot" content="noindex,nofollow">',
        undefined,
        [false, false, false],
      ],
      [
        'several metas add up',
        '<meta name="robots" content="noindex"><meta name="focuscrawl" content="nofollow">',
        undefined,
        [true, true, false],
      ],
      ['X-Robots-Tag', '', 'noindex', [true, false, false]],
      [
        'X-Robots-Tag for us',
        '',
        ['otherbot: nofollow', 'focuscrawl: noarchive'],
        [false, false, true],
      ],
    ];
  for (const [name, meta, header, [noindex, nofollow, noarchive]] of cases) {
    it(name, () => {
      const p = robots(meta, header);
      assert.deepEqual(p.robots, { noindex, nofollow, noarchive });
      assert.equal(p.links[0]?.nofollow, nofollow);
    });
  }
});

describe('parseHtml: caps and options', () => {
  const big = (n: number) => {
    const parts = ['<html><body>'];
    for (let i = 0; i < n; i++)
      parts.push(
        `<p>Paragraph ${i} has some words and <a href="/p/${i}">link ${i}</a> in it.</p>\n`,
      );
    parts.push('</body></html>');
    return parts.join('');
  };

  it('maxLinks and maxTextChars cap a huge page', () => {
    const html = big(20_000); // ~1.1 MB
    const p = parseHtml(html, 'http://big.test/', { maxLinks: 100, maxTextChars: 5000 });
    assert.equal(p.links.length, 100);
    assert.equal(p.links[99]?.url, 'http://big.test/p/99');
    assert.equal(p.text.length, 5000);
    assert.ok(p.text.startsWith('Paragraph 0 has some words and link 0 in it.\nParagraph 1'));
  });

  it('links past the text cap keep their anchors and contexts', () => {
    const p = parseHtml(big(5000), 'http://big.test/', { maxTextChars: 1000, maxLinks: 5000 });
    assert.equal(p.links.length, 5000);
    assert.equal(p.text.length, 1000);
    const last = p.links[4999]!;
    assert.equal(last.anchor, 'link 4999');
    assert.equal(last.context, 'Paragraph 4999 has some words and link 4999 in it.');
  });

  it('contextChars bounds the context; 0 gives the anchor alone', () => {
    const html = '<p>one two three four five <a href="/x">six</a> seven eight nine ten</p>';
    assert.equal(
      parseHtml(html, 'http://c.test/', { contextChars: 10 }).links[0]?.context,
      'four five six seven',
    );
    assert.equal(parseHtml(html, 'http://c.test/', { contextChars: 0 }).links[0]?.context, 'six');
  });

  // A manual's list of pages as a definition list (git's git.html): the name is the
  // link, the subject is in the description; the context used to stop at </dt>.
  it('a link in a <dt> has its <dd> description in its context, not the next term’s', () => {
    const html =
      '<dl><dt><a href="gitformat-bundle.html">gitformat-bundle(5)</a></dt>' +
      '<dd><p>The bundle file format.</p></dd>' +
      '<dt><a href="gitk.html">gitk(1)</a></dt><dt><a href="gitweb.html">gitweb(1)</a></dt>' +
      '<dd>Git web interface.</dd>' +
      '<dt><a href="git-gui.html">git-gui(1)</a></dt></dl><p>After the list.</p>' +
      '<dl><dt>Term <a href="t.html">t</a><dd>words <a href="d.html">d</a> more</dl>';
    for (const engine of ['fast', 'htmlparser2'] as const) {
      const p = parseHtml(html, 'http://git.test/', { engine });
      const ctx = (u: string) => link(p, `http://git.test/${u}`)?.context;
      assert.equal(ctx('gitformat-bundle.html'), 'gitformat-bundle(5) The bundle file format.');
      assert.equal(ctx('gitk.html'), 'gitk(1)', engine); // the next term took the description
      assert.equal(ctx('gitweb.html'), 'gitweb(1) Git web interface.', engine);
      assert.equal(ctx('git-gui.html'), 'git-gui(1)', engine); // no description: the term
      assert.equal(ctx('t.html'), 'Term t words d more', engine); // implied closes
      assert.equal(ctx('d.html'), 'words d more', engine);
    }
  });

  it('maxAnchorChars cuts long anchors', () => {
    const html = `<a href="/x">${'word '.repeat(100)}</a>`;
    assert.equal(
      parseHtml(html, 'http://c.test/', { maxAnchorChars: 9 }).links[0]?.anchor,
      'word word',
    );
  });

  it('rejects bad options and a relative page URL', () => {
    assert.throws(() => parseHtml('', 'http://c.test/', { maxLinks: -1 }), InvalidOptionError);
    assert.throws(() => parseHtml('', 'http://c.test/', { bogus: 1 } as never), InvalidOptionError);
    assert.throws(() => parseHtml('', '/relative'), InvalidUrlError);
  });
});

describe('createHtmlParser (streaming)', () => {
  it('gives the same page whatever the chunking', () => {
    const html = fixture('basic') + fixture('chinese');
    const whole = parseHtml(html, 'https://example.test/guide/fish.html');
    for (const size of [1, 7, 64, 1000]) {
      const s = createHtmlParser('https://example.test/guide/fish.html');
      for (let i = 0; i < html.length; i += size) s.write(html.slice(i, i + size));
      assert.deepEqual(s.end(), whole, `chunks of ${size}`);
    }
  });

  it('end() may be called again and returns the same result', () => {
    const s = createHtmlParser('http://s.test/');
    s.write('<title>T</title>');
    const a = s.end();
    assert.equal(s.end(), a);
    assert.equal(a.title, 'T');
  });
});

it('an href with a space at one end keeps a no-break space at the other (trimmed as URLs are)', () => {
  const html = '<a href=" /x&nbsp;">x</a><a href="&nbsp;/y ">y</a><a href="\t/z\n">z</a>';
  const links = parseHtml(html, 'http://a.test/').links.map((l) => l.url);
  assert.deepEqual(links, ['http://a.test/x%C2%A0', 'http://a.test/%C2%A0/y', 'http://a.test/z']);
});
