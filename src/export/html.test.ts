import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { runInNewContext } from 'node:vm';
import type { Element } from 'domhandler';
import { DomUtils, Parser, parseDocument } from 'htmlparser2';
import { createMemoryStore, type Store } from '../store/index.js';
import { buildMemoryRecordStore, NASTY, NASTY_TITLE } from './__fixtures__/records.js';
import { type ExportOptionsInput, exportLines, LIST_SEPARATOR } from './index.js';
import { SAMPLE } from './testing.js';

async function html(store: Store, o: ExportOptionsInput): Promise<string> {
  let out = '';
  for await (const l of exportLines(store, { ...o, format: 'html' })) out += l;
  return out;
}

const VOID = new Set(['meta', 'br', 'img', 'link', 'input', 'hr']);

/** Elements htmlparser2 had to close itself (a sign of broken markup). */
function impliedCloses(doc: string): string[] {
  const implied: string[] = [];
  const p = new Parser({
    onclosetag(name, isImplied) {
      if (isImplied && !VOID.has(name)) implied.push(name);
    },
  });
  p.write(doc);
  p.end();
  return implied;
}

/** What HTML text can hold of `s` (the export drops what XML 1.0 does not allow). */
function htmlChars(s: string): string {
  return [...s]
    .filter((ch) => {
      const c = ch.codePointAt(0) as number;
      return (
        c === 9 ||
        c === 10 ||
        c === 13 ||
        (c >= 0x20 && c <= 0xd7ff) ||
        (c >= 0xe000 && c <= 0xfffd) ||
        c >= 0x10000
      );
    })
    .join('');
}

const byTag = (root: Parameters<typeof DomUtils.getElementsByTagName>[1], tag: string) =>
  DomUtils.getElementsByTagName(tag, root, true);

test('records as HTML: one row per record, hostile values escaped, well-formed', async () => {
  const store = await buildMemoryRecordStore();
  const doc = await html(store, { what: 'records', source: 'my <store> & "dir"' });
  assert.deepEqual(impliedCloses(doc), []);
  const dom = parseDocument(doc);
  const title = DomUtils.textContent(byTag(dom, 'title'));
  assert.equal(title, 'focuscrawl export: records of my <store> & "dir"');
  const heads = byTag(dom, 'th').map((th) => DomUtils.textContent(th));
  assert.deepEqual(heads.slice(0, 5), ['url', 'title', 'relevance', 'fetchedAt', 'ruleSet']);
  assert.ok(heads.includes('fields.body') && heads.includes('fields.__proto__'));
  const tbody = byTag(dom, 'tbody')[0] as Element;
  const rows = byTag(tbody, 'tr');
  assert.equal(rows.length, 3);
  for (const tr of rows) assert.equal(byTag(tr, 'td').length, heads.length);
  const cell = (row: number, name: string) =>
    byTag(rows[row] as Element, 'td')[heads.indexOf(name)] as Element;
  assert.equal(DomUtils.textContent(cell(0, 'title')), htmlChars(NASTY_TITLE));
  assert.equal(DomUtils.textContent(cell(0, 'fields.body')), htmlChars(NASTY));
  // a list field: a list, sorted on its values joined
  const tags = cell(0, 'fields.tags');
  assert.deepEqual(
    byTag(tags, 'li').map((li) => DomUtils.textContent(li)),
    ['a', '', 'c, d'],
  );
  assert.equal(tags.attribs['data-v'], ['a', '', 'c, d'].join(LIST_SEPARATOR));
  assert.equal(cell(0, 'fields.price').attribs['class'], 'null');
  assert.equal(DomUtils.textContent(cell(2, 'fields.title')), '显示器市场');
  // the URL is a link; nothing else refers outside
  const links = byTag(dom, 'a').map((a) => a.attribs['href']);
  assert.deepEqual(links, [SAMPLE.home, SAMPLE.home, SAMPLE.p1]);
  for (const el of DomUtils.findAll((e) => 'src' in e.attribs, dom.children)) {
    assert.fail(`an element with src: ${el.name}`);
  }
  // the only script is ours, allowed by its hash alone
  const scripts = byTag(dom, 'script');
  assert.equal(scripts.length, 1);
  const code = DomUtils.textContent(scripts[0] as Element);
  const csp = byTag(dom, 'meta').find((m) => m.attribs['http-equiv'] === 'Content-Security-Policy');
  const hash = createHash('sha256').update(code).digest('base64');
  assert.match(
    csp?.attribs['content'] ?? '',
    new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}'`),
  );
  assert.match(csp?.attribs['content'] ?? '', /default-src 'none'/);
  assert.ok(doc.includes('<p>3 rows.'));
});

test('a header or value cannot close the table, the script or the page', async () => {
  const store = await buildMemoryRecordStore();
  const doc = await html(store, { what: 'records' });
  // the hostile values hold `<&>"'`: none of them comes out raw
  const body = doc.slice(doc.indexOf('<tbody>'), doc.indexOf('</tbody>'));
  assert.ok(!body.includes('<&>'));
  assert.ok(body.includes('&lt;&amp;&gt;&quot;&#39;'));
  assert.ok(!/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(doc));
});

/** A minimal DOM for the sort script: a table whose cells hold text (and `data-v`). */
function fakeTable(header: string[], rows: string[][]) {
  const node = (text: string) => ({ textContent: text });
  const heads = header.map((h) => {
    const attrs = new Map<string, string>();
    return {
      childNodes: [node(h)],
      button: undefined as undefined | { click: () => void },
      append(b: { click: () => void }) {
        this.button = b;
      },
      getAttribute: (k: string) => attrs.get(k) ?? null,
      setAttribute: (k: string, v: string) => attrs.set(k, v),
      removeAttribute: (k: string) => attrs.delete(k),
    };
  });
  const trs = rows.map((cells) => ({ cells: cells.map((c) => ({ dataset: {}, textContent: c })) }));
  const body = {
    rows: trs,
    append(f: { items: typeof trs }) {
      body.rows = f.items;
    },
  };
  const document = {
    getElementById: () => ({ tBodies: [body], tHead: { rows: [{ cells: heads }] } }),
    createElement: () => {
      const listeners: (() => void)[] = [];
      return {
        append() {},
        addEventListener: (_: string, fn: () => void) => listeners.push(fn),
        click: () => {
          for (const l of listeners) l();
        },
      };
    },
    createDocumentFragment: () => {
      const items: typeof trs = [];
      return { items, append: (tr: (typeof trs)[number]) => items.push(tr) };
    },
  };
  return {
    document,
    click: (i: number) => heads[i]?.button?.click(),
    column: (i: number) => body.rows.map((r) => r.cells[i]?.textContent),
    sortOf: (i: number) => heads[i]?.getAttribute('aria-sort'),
  };
}

test('the script sorts a column on a click: numbers as numbers, text as text, empty last', async () => {
  const store = createMemoryStore();
  const urls = ['http://s.test/b', 'http://s.test/a', 'http://s.test/c', 'http://s.test/d'];
  await store.addSeeds(urls);
  await store.claim(4);
  const bytes = [9, 100, 10, 1000];
  for (const [i, url] of urls.entries()) {
    await store.complete(url, {
      fetchedAt: 1000,
      status: 200,
      bytes: bytes[i] as number,
      relevance: 0.5,
      title: i === 3 ? null : `t${i}`,
    });
  }
  const doc = await html(store, { what: 'pages', text: false });
  const dom = parseDocument(doc);
  const header = byTag(dom, 'th').map((th) => DomUtils.textContent(th));
  const rows = byTag(byTag(dom, 'tbody')[0] as Element, 'tr').map((tr) =>
    byTag(tr, 'td').map((td) => DomUtils.textContent(td)),
  );
  const t = fakeTable(header, rows);
  const script = DomUtils.textContent(byTag(dom, 'script')[0] as Element);
  runInNewContext(script, { document: t.document, Intl, Number, Array });
  const b = header.indexOf('bytes');
  t.click(b);
  assert.deepEqual(t.column(b), ['9', '10', '100', '1000']);
  assert.equal(t.sortOf(b), 'ascending');
  t.click(b);
  assert.deepEqual(t.column(b), ['1000', '100', '10', '9']);
  assert.equal(t.sortOf(b), 'descending');
  const u = header.indexOf('url');
  t.click(u);
  assert.deepEqual(t.column(u), [...urls].sort());
  assert.equal(t.sortOf(b), null);
  const ti = header.indexOf('title');
  t.click(ti);
  t.click(ti);
  assert.deepEqual(t.column(ti), ['t2', 't1', 't0', '']); // empty last, either way
});
