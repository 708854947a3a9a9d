// The fast engine against htmlparser2: the same element events from the scanner, and
// the same ParsedPage from parseHtml, on hand-written malformed HTML, random tag soup,
// the fixtures and thousands of test-web pages.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { decodeBody } from '../fetch/charset/index.js';
import {
  CHARSETS,
  FORUM_HOSTS,
  JOBS_HOST,
  listPageUrls,
  pageHtml,
  startTestWeb,
  type TestWeb,
} from '../testweb/index.js';
import { rawGet } from '../testweb/testing.js';
import { type ParsedPage, type ParseOptions, parseHtml } from './index.js';
import { scanHtml } from './scanner.js';
import { TreeBuilder } from './tree.js';
import type { Attribs } from './types.js';

// ---------- event level ----------

/** The attributes the scanner keeps (see wantedAttr in names.ts). */
const READ = new Set(
  'href src rel alt title name lang hidden style charset content http-equiv aria-label'.split(' '),
);
type Ev = ['open', string, Record<string, string>] | ['text', string] | ['close', string];

/** Text events merge: the engines cut text at different places. */
function record(ev: Ev[], e: Ev): void {
  const last = ev[ev.length - 1];
  if (e[0] === 'text' && last?.[0] === 'text') last[1] += e[1];
  else ev.push(e);
}

function htmlparser2Events(html: string): Ev[] {
  const ev: Ev[] = [];
  const p = new Parser(
    {
      onopentag(name, attribs) {
        const a: Record<string, string> = {};
        for (const [k, v] of Object.entries(attribs)) if (READ.has(k)) a[k] = v;
        ev.push(['open', name, a]);
      },
      ontext: (t) => record(ev, ['text', t]),
      onclosetag: (name) => ev.push(['close', name]),
    },
    { decodeEntities: true },
  );
  p.end(html);
  return ev;
}

function scannerEvents(html: string): Ev[] {
  const ev: Ev[] = [];
  const h = {
    done: false,
    acceptsText: () => true,
    readsAttributes: () => true,
    onopentag: (name: string, a: Attribs) =>
      ev.push(['open', name, { ...a } as Record<string, string>]),
    ontext: (t: string) => record(ev, ['text', t]),
    onclosetag: (name: string) => ev.push(['close', name]),
  };
  scanHtml(html, new TreeBuilder(h), h);
  return ev;
}

function sameEvents(html: string): void {
  assert.deepEqual(scannerEvents(html), htmlparser2Events(html), JSON.stringify(html));
}

/** Malformed HTML, one construct at a time. */
const NASTY = [
  '<div><p>unclosed <b>bold <i>italic',
  '<p>1 < 2 and 3 > 2, a stray < here, <3, << and <<a href=/x>x</a>',
  '<a href="/x?a=<b>&amp;c" title=\'<i>\'>in</a>',
  '<a href=/unquoted?x=1&y=2 title=plain>u</a><a href=a/>slash in value</a>',
  '<input disabled><a hidden href="/h">h</a><p title>no value</p><a href=>empty</a>',
  '<DIV><P CLASS=x>Upper</P><A HREF="/U" TITLE="T">case</A></DIV><ScRiPt>x</sCrIpT>',
  '<script>if (a</div>) { document.write("<a href=\'/s\'>s</a>") }</script>after',
  '<script>x</scriptx></script ><style>a{} </style/><xmp><b>xmp</b></xmp>',
  '<!-- <a href="/c">c</a> --><!---->x<!-->y<!--->z<!-- a --!>w<!- bogus>v<!>u',
  '<!DOCTYPE html><!doctype html PUBLIC "x"><!DOCTYPEX><?xml version="1.0"?>t',
  '<![CDATA[<a href="/cdata">c</a>]]>x<svg><![CDATA[in svg]]]></svg>',
  'a<br/>b<br />c</br>d<hr/>e<img src=x.png/>f<image src=i>g</image>',
  '<a/>self-closing a<div/>div<span/>span',
  '<a href="/1">one <a href="/2">two</a> three</a><p><a href="/3"><div><a href="/4">4',
  '<table><tr><td>a<td>b<tr><th>c<td>d</table><table><thead><tr><td>e<tbody><tr><td>f',
  '<ul><li>one<li>two<ol><li>inner</ol><li>three</ul><dl><dt>t<dd>d<dt>t2</dl>',
  'amp &amp; nbsp&nbsp;x &#x4E2D;&#25991; &copy 2024 &copy2 &notit; &notin; &#0; &#x110000; & ; &',
  '<a href="/x?a=1&copy=2&amp;b=3&lt&gt;">entities in attributes</a>',
  '</p>stray end<p>x</p></p></div></span></br></img></li>',
  '<title>T <b>bold</b> &amp; <a href="/t">x</a></title><title>second</title>',
  '<title>a<&amp;</ti&amp;</title ><textarea>&lt;<b></textarea>',
  '<form><form action=/b><input></form>after</form>',
  '<svg><path d="M0"/><title>svg title</title><foreignObject><p>html</foreignObject></svg>x',
  '<svg><clipPath><circle/></clippath><desc><b>d</b></desc></svg><math><mi>x<mo/></math>',
  '<svg><style><a href="/svg-style">not raw here</a></style></svg><style><a href="/x"></style>',
  '<select><option>a<option>b<optgroup><option>c</select><button><button>b</button>',
  '<h1>h<h2>h2<p>p<h3>h3</h3>',
  '<body><head><link rel=next href=/n></head><body><script>x</script>',
  '<noscript><p>fallback <a href="/ns">ns</a></p></noscript><iframe src=/f><a href=/in>x</a></iframe>',
  '<plaintext><a href="/p">all text</a></plaintext>',
  '<p>cut off <a href="/cut',
  '<p>cut off <a href="/cut" ',
  '<p>cut off <a href="/cut" /',
  '<p>cut off <scri',
  '<p>cut off </di',
  '<p>cut off </div ',
  '<p>cut off </div x',
  '<p>cut off <!-- comment',
  '<p>cut off <![CDATA[x',
  '<p>cut off <!doctype',
  '<p>cut off <',
  '<p>cut off </',
  '<p>cut off <script>never closed <a href="/x">',
  '<p>cut off <title>never closed &amp;',
  '<a b=1 b=2 HREF=/first href=/second =x "q=1 \'s>dups</a>',
  '<a\nhref\n=\n"/nl"\ttitle\t=\tt>whitespace</a><a/href=/slash>s</a><a / >x</a>',
  '<p>中文\n段落<b>粗</b>\n文字 English\nwords &#x4E2D;</p>',
  '<h\x11>control</h\x11><LI>x</li>',
];

describe('scanner: the same element events as htmlparser2', () => {
  it('malformed HTML, one construct at a time', () => {
    for (const html of NASTY) sameEvents(html);
  });

  it('random tag soup (fixed seeds)', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = mulberry32(seed);
      for (let t = 0; t < 3000; t++) sameEvents(soup(rnd, seed === 3));
    }
  });
});

// ---------- ParsedPage level ----------

function samePage(html: string, url: string, opts: ParseOptions = {}): ParsedPage {
  const fast = parseHtml(html, url, opts);
  assert.deepEqual(fast, parseHtml(html, url, { ...opts, engine: 'htmlparser2' }), `${url}`);
  return fast;
}

describe('parseHtml: the fast engine gives the same pages as the htmlparser2 engine', () => {
  it('fixtures', () => {
    for (const name of ['basic', 'chinese']) {
      const html = readFileSync(new URL(`./__fixtures__/${name}.html`, import.meta.url), 'utf8');
      samePage(html, 'https://example.test/guide/fish.html');
      samePage(html, 'http://dianwang.test/article/5.html', { contextChars: 20, maxLinks: 3 });
    }
  });

  it('malformed HTML', () => {
    for (const html of NASTY) samePage(html, 'http://bad.test/x/');
  });

  it('what the malformed inputs give', () => {
    const p = samePage(NASTY.slice(0, 8).join('\n'), 'http://bad.test/x/');
    assert.deepEqual(
      p.links.map((l) => l.url),
      [
        'http://bad.test/x',
        'http://bad.test/x?a=%3Cb%3E&c',
        'http://bad.test/unquoted?x=1&y=2',
        'http://bad.test/x/a/',
        'http://bad.test/h', // (href= gives '': the page itself, not a link)
        'http://bad.test/U',
      ],
    );
    assert.ok(!p.text.includes('document.write'), 'no script text');
    const t = samePage(NASTY[19]!, 'http://t.test/');
    assert.equal(t.title, 'T <b>bold</b> & <a href="/t">x</a>');
    assert.deepEqual(t.links, []);
  });

  it('test-web content pages, large and small webs', () => {
    for (const [size, n] of [
      ['large', 2000],
      ['small', 1500],
    ] as const) {
      const web = { seed: 3, size };
      for (const url of listPageUrls(web, n)) {
        samePage(pageHtml(web, url)!, url);
      }
    }
  });

  it('caps: maxLinks, maxTextChars, contextChars, maxAnchorChars', () => {
    const web = { seed: 1, size: 'large' } as const;
    const urls = listPageUrls(web, 200);
    const all = urls.map((u) => pageHtml(web, u)!).join('\n');
    for (const opts of [
      { maxLinks: 50, maxTextChars: 3000 },
      { maxLinks: 5000, maxTextChars: 1000 },
      { contextChars: 0, maxAnchorChars: 5 },
      { contextChars: 500 },
    ]) {
      samePage(all, urls[0]!, opts);
    }
  });

  describe('forum, jobs, charset and special hosts over 127.0.0.1', () => {
    let web: TestWeb;
    before(async () => {
      web = await startTestWeb({ port: 0, maxLogEntries: 0 });
    });
    after(() => web.close());

    it('the first pages of each host, following its links', async () => {
      const charsetHosts = CHARSETS.flatMap((cs) =>
        ['header', 'meta', 'none'].map((d) => `${cs}-${d}.test`),
      );
      const hosts = [...FORUM_HOSTS, JOBS_HOST, ...charsetHosts, 'session.test', 'trap.test'];
      let pages = 0;
      for (const host of hosts) {
        const queue = ['/'];
        const seen = new Set(queue);
        for (let i = 0; i < queue.length && i < 40; i++) {
          const r = await rawGet(web.port, host, queue[i]!);
          if (r.status !== 200) continue;
          const type = r.headers['content-type'];
          const html = decodeBody(r.body, typeof type === 'string' ? type : undefined).text;
          const url = `http://${host}${queue[i]}`;
          const p = samePage(html, url);
          pages++;
          for (const l of p.links) {
            const u = new URL(l.url);
            const path = u.pathname + u.search;
            if (u.host === host && !seen.has(path)) {
              seen.add(path);
              queue.push(path);
            }
          }
        }
      }
      assert.ok(pages > 500, `${pages} pages`);
    });
  });

  it('known difference: whitespace made by an entity, between CJK characters', () => {
    // htmlparser2 hands over '文', '\n' (the entity), ' 字' as three texts, and the
    // text buffer keeps a space where two whitespace pieces meet; the fast engine hands
    // over '文\n 字' whole, and a whitespace run holding a line break between CJK
    // characters goes away, as text-buffer.ts's rules say.
    const html = '<p>文&#10; 字</p>';
    assert.equal(parseHtml(html, 'http://t.test/').text, '文字');
    assert.equal(parseHtml(html, 'http://t.test/', { engine: 'htmlparser2' }).text, '文 字');
    assert.equal(parseHtml('<p>文\n 字</p>', 'http://t.test/').text, '文字');
  });
});

// ---------- random tag soup ----------

function mulberry32(seed: number): (n: number) => number {
  let s = seed | 0;
  return (n) => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const NAMES =
  'p div a li ul td tr table th tbody thead span b br img form input select option h1 h2 ' +
  'body head html link meta base area noscript svg math foreignObject desc mi image dd dt ' +
  'hr button rt optgroup x-y a1 P DIV A Li SPAN tBody H1 clipPath';
const RAW_NAMES = 'title script style textarea xmp iframe plaintext noembed noframes ScRiPt TITLE';
const ATTRS =
  'href HREF src rel alt title name lang hidden style charset content http-equiv aria-label class id =x "q Href'.split(
    ' ',
  );
const VALUES = [
  '"x"',
  "'y'",
  'z',
  '"a&amp;b"',
  'a&copy=',
  '"&copy"',
  '"&#x4E2D;"',
  '"/x?a=1&b=2"',
  '>',
  '"a>b"',
  "'<a>'",
  '""',
  '&lt;',
  '"&notin;"',
  '&notit;',
];
const BITS = [
  'text',
  ' ',
  '\n',
  '中文',
  ' \n ',
  '&amp;',
  '&nbsp;',
  '&copy',
  '&#10;',
  '&#x4E2D;',
  '&notit;',
  '&',
  '&lt',
  '<!-- c -->',
  '<!---->',
  '<!-->',
  '<!--->',
  '<!-- a --!>',
  '<!-- <a href=x> -->',
  '<!doctype html>',
  '<![CDATA[x<y]]>',
  '<![CDATA[z]]]>',
  '<?xml x?>',
  '<!x>',
  '<!->',
  '</>',
  '</ x>',
  '</1>',
  '<',
  ' < ',
  '<<',
  '< p>',
  '<3',
  '</',
  '<&amp;',
  '<a<b>',
  '</script>',
  '</title>',
  '</style',
  '</scriptx>',
  '</ti&amp;',
  '</TITLE >',
  '<h\x11>',
];
const CHARS = [
  '<',
  '>',
  '/',
  '!',
  '?',
  '-',
  '--',
  '=',
  '"',
  "'",
  ' ',
  '\n',
  '&',
  '&amp;',
  '&#',
  'x',
  '4E',
  ';',
  '[CDATA[',
  ']]',
  'a',
  'p',
  'script',
  'title',
  'svg',
  'math',
  'br',
  'desc',
  'foreignObject',
  'DIV',
  'li',
  'td',
  'form',
  'xmp',
  '中',
  '\u00a0',
  'href',
  'K',
  '\u212a',
  'lin',
];

/** Random HTML-like input; `chars`: glued from small pieces rather than whole tags. */
function soup(rnd: (n: number) => number, chars: boolean): string {
  const pick = <T>(a: readonly T[]): T => a[rnd(a.length)]!;
  const names = NAMES.split(' ');
  const raw = RAW_NAMES.split(' ');
  let s = '';
  for (let k = 1 + rnd(25); k > 0; k--) {
    if (chars) {
      if (rnd(3) === 0)
        s += pick(['<', '</', '<!', '<a ', '<p ', '<svg ', '<desc>', '<title>', '<br/']);
      s += pick(CHARS);
      continue;
    }
    const r = rnd(16);
    if (r < 3) {
      s += `<${rnd(6) === 0 ? pick(raw) : pick(names)}`;
      for (let a = rnd(3); a > 0; a--) {
        const sep = pick([' ', ' ', '\n', '/', ' / ']);
        const v = rnd(3);
        s +=
          v === 0
            ? `${sep}${pick(ATTRS)}`
            : `${sep}${pick(ATTRS)}${v === 1 ? '=' : ' = '}${pick(VALUES)}`;
      }
      s += pick(['>', '>', '/>', ' />', ' >']);
    } else if (r < 5) {
      s += `</${pick(rnd(6) === 0 ? raw : names)}${pick(['>', ' >', ' x>', '/>'])}`;
    } else if (r < 8) {
      s += pick(BITS);
    } else {
      s += pick(['word ', 'Hello, ', '中文 ', '\n', '  ', 'x&y ', 'Fish &amp; chips ']);
    }
  }
  return rnd(3) === 0 ? s.slice(0, rnd(s.length + 1)) : s;
}
