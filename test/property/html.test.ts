// The HTML scanner (src/parse/scanner.ts, parseHtml's default engine) against
// htmlparser2's own events, on generated HTML: random tags, attributes, entities,
// comments, raw-text elements and malformed bits.
//
// "Agree" means, for a page parsed from URL PAGE:
//
// - links: the URLs of parseHtml's `a` links are, in order, those of the `<a>` tags
//   htmlparser2 opens that have an `href` (the first, when repeated) and are not inside
//   an element whose content the page ignores (script, style, template, svg, math,
//   iframe, noembed, noframes, textarea, select, audio, video, canvas, title), each
//   resolved against PAGE and canonicalised (canonicalizeUrl), an href that is empty
//   or starts with `#` once trimmed of C0 controls and spaces (trimmedHref), as a
//   browser trims it, or that does not resolve to an http(s) URL, giving no link;
// - text: take the text htmlparser2 reports outside those elements, outside
//   noscript, outside elements with a `hidden` attribute or a style with
//   `display:none`/`visibility:hidden`, joined as it comes (R). Whitespace is ASCII
//   whitespace and U+00A0. The visible text of parseHtml, with whitespace removed,
//   equals R with whitespace removed, and every place where R has whitespace between
//   two characters, the page text has some too, except between two CJK characters:
//   there the page drops a whitespace run that holds a line break (CSS segment-break
//   rules, src/parse/text-buffer.ts), and, where htmlparser2 cuts the run at a
//   character reference (`文&#10; 字`), the scanner's single text piece loses it
//   where htmlparser2's pieces keep a space (the scanner's one known difference,
//   src/parse/scanner.ts). The page text may have whitespace where R has none (a
//   block boundary: `a<p>b` gives "a\nb"), by design.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { parseHtml } from '../../src/parse/index.js';
import { isCjk as isCjkCode } from '../../src/parse/text-buffer.js';
import { canonicalizeUrl } from '../../src/url/index.js';

const PAGE = 'http://site.test/dir/page.html';
const RUNS = 300;

const SKIP = new Set(
  'script style template svg math iframe noembed noframes textarea select audio video canvas title'.split(
    ' ',
  ),
);
const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;
const WS = /[ \t\n\r\f\u00a0]+/;

/**
 * An href trimmed as the URL parser (and a browser) trims it: C0 controls and spaces
 * at its ends only, so `href=" /x&nbsp;"` is /x%C2%A0 (the page builder once trimmed
 * with String.prototype.trim, which removed the U+00A0 too).
 */
function trimmedHref(href: string): string {
  return href.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '');
}

interface Reference {
  links: string[];
  text: string;
}

function reference(html: string): Reference {
  const links: string[] = [];
  let text = '';
  // One entry per open element: whether its content is ignored, and whether hidden.
  const stack: Array<{ skip: boolean; hidden: boolean }> = [];
  const skipped = () => stack.some((e) => e.skip);
  const hidden = () => stack.some((e) => e.hidden);
  const p = new Parser(
    {
      onopentag(name, attribs) {
        const ignoredHere = skipped();
        if (name === 'a' && attribs['href'] !== undefined && !ignoredHere) {
          const href = trimmedHref(attribs['href']);
          if (href !== '' && !href.startsWith('#')) {
            const url = canonicalizeUrl(href, PAGE);
            if (url !== null) links.push(url);
          }
        }
        const style = attribs['style'];
        stack.push({
          skip: SKIP.has(name),
          hidden:
            name === 'noscript' ||
            attribs['hidden'] !== undefined ||
            (style !== undefined && HIDDEN_STYLE.test(style)),
        });
      },
      onclosetag() {
        stack.pop();
      },
      ontext(t) {
        if (!skipped() && !hidden()) text += t;
      },
    },
    { decodeEntities: true },
  );
  p.end(html);
  return { links, text };
}

/** Whether the string starts with a CJK character (see isCjk in text-buffer.ts). */
const isCjk = (s: string) => s !== '' && isCjkCode(s.charCodeAt(0));

/** Whether the page text agrees with R as the header says. */
function textAgrees(page: string, r: string): string | undefined {
  // R as words, each with the whitespace before it.
  const words: string[] = [];
  const before: string[] = [];
  let gap = '';
  r.split(/([ \t\n\r\f\u00a0]+)/).forEach((part, j) => {
    if (j % 2 === 1) gap += part;
    else if (part !== '') {
      words.push(part);
      before.push(gap);
      gap = '';
    }
  });
  if (page.split(WS).join('') !== words.join('')) return 'different visible characters';
  // Walk both: before each word of R but the first, the page must have whitespace.
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const from = at;
    while (at < page.length && WS.test(page[at]!)) at++;
    const droppable =
      i > 0 && before[i]!.includes('\n') && isCjk(words[i - 1]!.slice(-1)) && isCjk(w);
    if (i > 0 && at === from && !droppable) return `no whitespace before ${JSON.stringify(w)}`;
    // The word may be cut by whitespace in the page (block boundaries): match its characters.
    for (let k = 0; k < w.length; k++) {
      while (k > 0 && at < page.length && WS.test(page[at]!)) at++;
      if (page[at] !== w[k]) return `word ${JSON.stringify(w)} differs`;
      at++;
    }
  }
  return undefined;
}

// ---- generated HTML ----

const TAGS = [
  'a',
  'a',
  'a',
  'p',
  'div',
  'span',
  'b',
  'i',
  'li',
  'ul',
  'td',
  'tr',
  'table',
  'br',
  'img',
  'h1',
  'section',
  'noscript',
  'option',
  'pre',
  'dt',
  'dd',
  'em',
  'button',
  'form',
  'head',
  'body',
];
/** Elements whose content is ignored (most of them raw text): opened with content and closed. */
const IGNORED = [
  'script',
  'style',
  'title',
  'textarea',
  'svg',
  'select',
  'iframe',
  'template',
  'math',
];
const ENTITIES = [
  '&#x4E2D;',
  '&#10;',
  '&amp;',
  '&lt;',
  '&gt;',
  '&nbsp;',
  '&copy',
  '&#65;',
  '&#x41;',
  '&quot;',
  '&notin;',
  '&bogus;',
  '&',
  '&#0;',
  '&eacute;',
];
const word = fc.constantFrom(
  'alpha',
  'beta',
  'x',
  'Ünï',
  'q=1',
  '/',
  '-',
  '42',
  "'",
  '"',
  '=',
  '文',
  '中文',
  '。',
);
const ws = fc.constantFrom(' ', '\n', '\t', '  ', '\r\n', '\u00a0', '\f');
const textPiece = fc.oneof(word, ws, fc.constantFrom(...ENTITIES));
const text = fc.array(textPiece, { maxLength: 6 }).map((a) => a.join(''));

const hrefValue = fc.oneof(
  fc.constantFrom(
    '/x',
    'y/z',
    '../up',
    '#frag',
    '',
    ' /trim ',
    '?q=1&amp;r=2',
    'mailto:a@b',
    'javascript:x',
  ),
  fc.constantFrom('http://Other.test/A', 'https://site.test:443/s', '//proto.test/r', 'index.html'),
  fc
    .array(
      fc.oneof(
        word,
        fc.constantFrom(...ENTITIES),
        fc.constantFrom('%', '%41', ' ', '\\', '.', '..'),
      ),
      { maxLength: 5 },
    )
    .map((a) => a.join('')),
);
const attrName = fc.constantFrom(
  'href',
  'HREF',
  'title',
  'class',
  'hidden',
  'style',
  'rel',
  'alt',
  'data-x',
);
const attrValue = fc.oneof(
  hrefValue,
  fc.constantFrom('display:none', 'visibility: hidden', 'color:red', 'nofollow'),
);
const quote = fc.constantFrom('"', "'", '');
const attribute = fc
  .tuple(attrName, fc.option(fc.tuple(quote, attrValue), { nil: undefined }))
  .map(([n, v]) => {
    if (v === undefined) return ` ${n}`;
    const [q, val] = v;
    const value = q === '' ? val.replace(/[\s>'"]/g, '') || 'v' : val.replaceAll(q, '');
    return ` ${n}=${q}${value}${q}`;
  });
const openTag = fc
  .tuple(
    fc.constantFrom(...TAGS),
    fc.array(attribute, { maxLength: 3 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(
    ([t, attrs, upper, selfClose]) =>
      `<${upper ? t.toUpperCase() : t}${attrs.join('')}${selfClose ? '/' : ''}>`,
  );
const closeTag = fc.constantFrom(...TAGS).map((t) => `</${t}>`);
const oddity = fc.constantFrom(
  '<!-- c -->',
  '<!---->',
  '<!-- <a href="/in-comment">x</a> -->',
  '<!doctype html>',
  '<?pi?>',
  '<![CDATA[cd]]>',
  '< stray',
  '<3',
  'a < b',
  '</ >',
  '</p x>',
  '<a href=/unq>',
  '<!>',
  '<a/b>',
);
const anchor = fc.tuple(quote, hrefValue, text, fc.boolean()).map(([q, href, t, closed]) => {
  const value = q === '' ? href.replace(/[\s>'"]/g, '') : href.replaceAll(q, '');
  return `<a href=${q}${value}${q}>${t}${closed ? '</a>' : ''}`;
});
const ignored = fc
  .tuple(
    fc.constantFrom(...IGNORED),
    fc.array(fc.oneof(text, anchor, openTag), { maxLength: 3 }),
    fc.boolean(),
  )
  .map(([t, inner, closed]) => `<${t}>${inner.join('')}${closed ? `</${t}>` : ''}`);
const node = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 3, arbitrary: openTag },
  { weight: 3, arbitrary: anchor },
  { weight: 2, arbitrary: closeTag },
  { weight: 1, arbitrary: oddity },
  { weight: 1, arbitrary: ignored },
);
/** A document; sometimes cut off anywhere (inside a tag, a comment, an entity). */
const documentHtml = fc
  .tuple(fc.array(node, { maxLength: 25 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([parts, cut]) => {
    const html = parts.join('');
    return cut === undefined || html.length === 0 ? html : html.slice(0, cut % (html.length + 1));
  });

describe('HTML scanner against htmlparser2: the agreement itself', () => {
  test('textAgrees accepts added block breaks and rejects lost whitespace or characters', () => {
    assert.equal(textAgrees('a\nb', 'ab'), undefined);
    assert.equal(textAgrees('a b\nc', 'a  b\u00a0c'), undefined);
    assert.match(textAgrees('ab', 'a b') ?? '', /no whitespace/);
    assert.match(textAgrees('a c', 'a b') ?? '', /different/);
    // Between two CJK characters a run with a line break may go, a plain space may not.
    assert.equal(textAgrees('文字', '文\n 字'), undefined);
    assert.match(textAgrees('文字', '文 字') ?? '', /no whitespace/);
  });
});

describe('HTML scanner against htmlparser2: properties', () => {
  test('links (href of <a>, resolved) agree', () => {
    fc.assert(
      fc.property(documentHtml, (html) => {
        const page = parseHtml(html, PAGE);
        const got = page.links.filter((l) => l.tag === 'a').map((l) => l.url);
        assert.deepEqual(got, reference(html).links, JSON.stringify(html));
      }),
      { numRuns: RUNS },
    );
  });

  test('visible text tokens agree', () => {
    fc.assert(
      fc.property(documentHtml, (html) => {
        const page = parseHtml(html, PAGE);
        const problem = textAgrees(page.text, reference(html).text);
        assert.equal(
          problem,
          undefined,
          `${JSON.stringify(html)}\npage: ${JSON.stringify(page.text)}`,
        );
      }),
      { numRuns: RUNS },
    );
  });

  test('never throws on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (html) => {
        const page = parseHtml(html, PAGE);
        assert.equal(typeof page.text, 'string');
      }),
      { numRuns: RUNS },
    );
  });
});
