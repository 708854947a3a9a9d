// What the kit reads from HTML (htmlparser2): the title, the visible text, <base href>
// and every <a href> with its anchor text, the elements around it (`div.toc`,
// `dl#x`) and the last h2/h3 ids before it (for tables of contents).
import { Parser } from 'htmlparser2';

export interface Anchor {
  href: string;
  text: string;
  /** Enclosing elements, outermost first, as `tag`, `tag.class` (each class) and `tag#id`. */
  within: string[];
  /** id (else text) of the last <h2> / <h3> opened before the anchor. */
  h2: string;
  h3: string;
}

export interface ParsedHtml {
  title: string;
  text: string;
  base: string | undefined;
  anchors: Anchor[];
}

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'title']);
// Elements that separate words: text pieces are joined as they are, with a space
// at the edges of these (so that `<b>演示</b>文稿` reads 演示文稿).
const BREAKS = new Set(
  (
    'address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 ' +
    'h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul img'
  ).split(' '),
);

export function parseHtml(html: string): ParsedHtml {
  const stack: Array<{ name: string; marks: string[] }> = [];
  const anchors: Anchor[] = [];
  const text: string[] = [];
  let title = '';
  let base: string | undefined;
  let hidden = 0;
  let open: Anchor | undefined;
  let heading: { level: 'h2' | 'h3'; id: string; text: string } | undefined;
  let h2 = '';
  let h3 = '';
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const marks = [name];
        if (attribs['id']) marks.push(`${name}#${attribs['id']}`);
        for (const c of (attribs['class'] ?? '').split(/\s+/)) if (c) marks.push(`${name}.${c}`);
        if (HIDDEN.has(name)) hidden++;
        if (BREAKS.has(name)) text.push(' ');
        if (name === 'base' && base === undefined && attribs['href'] !== undefined) {
          base = attribs['href'];
        }
        if (name === 'h2' || name === 'h3') {
          heading = { level: name, id: attribs['id'] ?? '', text: '' };
          if (name === 'h2') h3 = '';
        }
        if (name === 'a' && attribs['href'] !== undefined && !open) {
          open = {
            href: attribs['href'],
            text: '',
            within: stack.flatMap((e) => e.marks),
            h2,
            h3,
          };
        }
        stack.push({ name, marks });
      },
      ontext(data) {
        if (stack.at(-1)?.name === 'title') title += data;
        if (hidden > 0) return;
        text.push(data);
        if (open) open.text += data;
        if (heading) heading.text += data;
      },
      onclosetag(name) {
        const i = stack.findLastIndex((e) => e.name === name);
        if (i < 0) return;
        if (BREAKS.has(name)) text.push(' ');
        for (const e of stack.splice(i)) if (HIDDEN.has(e.name)) hidden--;
        if (name === 'a' && open) {
          open.text = open.text.replace(/\s+/g, ' ').trim();
          anchors.push(open);
          open = undefined;
        }
        if (heading && name === heading.level) {
          const id = heading.id || heading.text.replace(/\s+/g, ' ').trim();
          if (heading.level === 'h2') h2 = id;
          else h3 = id;
          heading = undefined;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (open) anchors.push(open);
  return {
    title: title.replace(/\s+/g, ' ').trim(),
    text: text.join('').replace(/\s+/g, ' '),
    base,
    anchors,
  };
}

/** The absolute URL of a link, without its #fragment; undefined when not http(s). */
export function resolveLink(href: string, base: string): string | undefined {
  let u: URL;
  try {
    u = new URL(href.trim(), base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  return u.href;
}

/** The URL links of a page resolve against: its <base href> when valid, else its own URL. */
export function baseOf(page: ParsedHtml, url: string): string {
  if (page.base === undefined) return url;
  return resolveLink(page.base, url) ?? url;
}
