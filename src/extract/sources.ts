/**
 * Each source kind reads texts out of a page: `between` cuts between markers, `css`
 * selects elements, `regex` takes a named group, `meta` reads `<meta content>`, `jsonld`
 * follows a path through JSON-LD. A source that finds nothing says why.
 */
import { innerHtml, type PageDocument, renderText } from './document.js';
import type {
  BetweenSource,
  CssSource,
  FieldSource,
  JsonLdSource,
  MetaSource,
  RegexSource,
} from './types.js';

/** The texts found (in page order), or why there are none. */
export type SourceResult = { texts: string[] } | { reason: string };

const q = (s: string) => JSON.stringify(s);

/** A marker as a regex: literal, except that a run of whitespace matches any run. */
function markerRe(marker: string): RegExp {
  const parts = marker
    .trim()
    .split(/\s+/)
    .map((p) => p.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
  return new RegExp(parts.join('\\s+'), 'g');
}

function between(s: BetweenSource, doc: PageDocument): SourceResult {
  const text = s.over === 'html' ? doc.html : doc.text;
  const start = markerRe(s.start);
  const end = markerRe(s.end);
  const texts: string[] = [];
  let from = 0;
  for (;;) {
    start.lastIndex = from;
    const a = start.exec(text);
    if (a === null) break;
    end.lastIndex = a.index + a[0].length;
    const b = end.exec(text);
    if (b === null) {
      if (texts.length === 0) return { reason: `end marker ${q(s.end)} not found after the start` };
      break;
    }
    texts.push(
      s.includeMarkers
        ? text.slice(a.index, b.index + b[0].length)
        : text.slice(a.index + a[0].length, b.index),
    );
    if (s.occurrence === 'first') break;
    from = b.index + b[0].length;
  }
  if (texts.length === 0) return { reason: `start marker ${q(s.start)} not found` };
  return { texts };
}

function css(s: CssSource, doc: PageDocument, multiple: boolean): SourceResult {
  const found = doc.select(s.query);
  if (found.length === 0) return { reason: `selector ${q(s.selector)} matched nothing` };
  if (s.attr !== undefined) {
    const attr = s.attr.toLowerCase();
    const texts: string[] = [];
    for (const el of found) {
      const v = el.attribs[attr];
      if (v === undefined) continue;
      texts.push(v);
      if (!multiple) break;
    }
    if (texts.length > 0) return { texts };
    const n = found.length === 1 ? 'an element' : `${found.length} elements`;
    return {
      reason: `selector ${q(s.selector)} matched ${n} without attribute ${q(s.attr)}`,
    };
  }
  const els = multiple ? found : found.slice(0, 1);
  return { texts: els.map((el) => (s.html ? innerHtml(el) : renderText([el]))) };
}

function regex(s: RegexSource, doc: PageDocument, multiple: boolean): SourceResult {
  const text = s.over === 'url' ? doc.url : s.over === 'html' ? doc.html : doc.text;
  const texts: string[] = [];
  let matched = false;
  s.re.lastIndex = 0;
  for (const m of text.matchAll(s.re)) {
    matched = true;
    const v = m.groups?.[s.group];
    if (v === undefined) continue;
    texts.push(v);
    if (!multiple) break;
  }
  if (texts.length > 0) return { texts };
  if (matched) return { reason: `regex matched, but its group "${s.group}" captured nothing` };
  return {
    reason: s.over === 'text' ? 'regex matched nothing' : `regex matched nothing in the ${s.over}`,
  };
}

function meta(s: MetaSource, doc: PageDocument): SourceResult {
  const contents = doc.meta(s.name);
  if (contents === undefined) return { reason: `no <meta name=${q(s.name)}>` };
  return { texts: contents };
}

function typeMatches(o: object, type: string): boolean {
  const t = (o as Record<string, unknown>)['@type'];
  const types = Array.isArray(t) ? t : [t];
  return types.some(
    (x) =>
      typeof x === 'string' &&
      (x === type || x.endsWith(`/${type}`) || x.endsWith(`#${type}`) || x.endsWith(`:${type}`)),
  );
}

/** The objects of `@type` `type` in `roots`, at any depth, each once, in document order. */
function objectsOfType(roots: readonly unknown[], type: string): object[] {
  const out: object[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [...roots].reverse();
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (!Array.isArray(v) && typeMatches(v, type)) out.push(v);
    const children = Array.isArray(v) ? v : Object.values(v);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return out;
}

function leaf(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (typeof v === 'number' || typeof v === 'boolean') return [String(v)];
  if (Array.isArray(v)) return v.flatMap(leaf);
  if (v !== null && typeof v === 'object' && '@value' in v) return leaf(v['@value']);
  return [];
}

/** The values at `path` under `v`; arrays on the way are spread (or indexed by a number step). */
function follow(v: unknown, path: readonly string[], i: number): string[] {
  if (i === path.length) return leaf(v);
  const step = path[i] as string;
  if (Array.isArray(v)) {
    if (/^\d+$/.test(step)) return follow(v[Number(step)], path, i + 1);
    return v.flatMap((x) => follow(x, path, i));
  }
  if (v === null || typeof v !== 'object') return [];
  return follow((v as Record<string, unknown>)[step], path, i + 1);
}

function jsonld(s: JsonLdSource, doc: PageDocument, multiple: boolean): SourceResult {
  const ld = doc.jsonld;
  if (ld.scripts === 0) return { reason: 'no JSON-LD on the page' };
  if (ld.objects.length === 0 && ld.broken > 0) {
    return { reason: "the page's JSON-LD is not valid JSON" };
  }
  const objects = s.type === undefined ? ld.objects : objectsOfType(ld.objects, s.type);
  if (objects.length === 0) return { reason: `no JSON-LD object of @type ${s.type}` };
  const texts: string[] = [];
  for (const o of objects) {
    texts.push(...follow(o, s.path, 0));
    if (texts.length > 0 && !multiple) break;
  }
  if (texts.length > 0) return { texts };
  const what = s.type === undefined ? 'JSON-LD' : `JSON-LD object of @type ${s.type}`;
  return { reason: `${what} has no value at ${q(s.path.join('.'))}` };
}

/** The texts `source` finds in the page (the first only unless `multiple`). */
export function readSource(
  source: FieldSource,
  doc: PageDocument,
  multiple: boolean,
): SourceResult {
  switch (source.kind) {
    case 'between':
      return between(source, doc);
    case 'css':
      return css(source, doc, multiple);
    case 'regex':
      return regex(source, doc, multiple);
    case 'meta':
      return meta(source, doc);
    case 'jsonld':
      return jsonld(source, doc, multiple);
  }
}
