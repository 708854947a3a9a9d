import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { SaxesParser } from 'saxes';
import { openStore, type Store } from '../store/index.js';
import {
  buildMemoryRecordStore,
  buildRecordStore,
  NASTY,
  NASTY_TITLE,
} from './__fixtures__/records.js';
import { buildRevisitStore } from './__fixtures__/revisits.js';
import { exportLines, type TextExportOptionsInput, xmlAttr, xmlText } from './index.js';
import { SAMPLE } from './testing.js';

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** Parses with saxes, a strict XML 1.0 parser (any well-formedness error throws). */
function parseXml(xml: string): Node {
  const parser = new SaxesParser();
  const stack: Node[] = [{ name: '#document', attrs: {}, children: [], text: '' }];
  let failure: Error | undefined;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (t) => {
    const node: Node = {
      name: t.name,
      attrs: { ...(t.attributes as Record<string, string>) },
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t) => {
    const top = stack.at(-1) as Node;
    top.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (failure) throw failure;
  const [root] = (stack[0] as Node).children;
  return root as Node;
}

/** What XML 1.0 can hold of `s`: its characters but those the Char production excludes. */
function xmlChars(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    const ok =
      c === 0x9 ||
      c === 0xa ||
      c === 0xd ||
      (c >= 0x20 && c <= 0xd7ff) ||
      (c >= 0xe000 && c <= 0xfffd) ||
      c >= 0x10000;
    if (ok) out += ch;
  }
  return out;
}

async function text(store: Store, o: TextExportOptionsInput) {
  let out = '';
  for await (const l of exportLines(store, o)) out += l;
  return out;
}

/** A row's column elements as JSON Lines gives them: text, or null for `null="true"`. */
function rowValues(row: Node): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const c of row.children) {
    if (c.name === 'fields') continue;
    out[c.name] = c.attrs['null'] === 'true' ? null : c.text;
  }
  return out;
}

let sample: string;
let revisits: string;
before(async () => {
  sample = await buildRecordStore();
  revisits = await buildRevisitStore();
});

test('every table as XML parses strictly and holds what JSON Lines holds', async () => {
  const cases: [string, TextExportOptionsInput][] = [
    [sample, { what: 'history' }],
    [sample, { what: 'pages' }],
    [sample, { what: 'urls' }],
    [sample, { what: 'links' }],
    [revisits, { what: 'changes' }],
    [sample, { what: 'records' }],
  ];
  for (const [dir, o] of cases) {
    const store = await openStore(dir, { readonly: true });
    try {
      const xml = await text(store, { ...o, format: 'xml' });
      assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'));
      assert.ok(!xml.includes('<![CDATA['));
      const root = parseXml(xml);
      assert.equal(root.name, 'focuscrawl-export');
      assert.deepEqual(root.attrs, { what: o.what, version: '1' });
      const json = (await text(store, o))
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(root.children.length, json.length, o.what);
      assert.ok(json.length > 0, o.what);
      root.children.forEach((row, i) => {
        assert.equal(row.name, 'row');
        const want = Object.fromEntries(
          Object.entries(json[i] ?? {})
            .filter(([k]) => k !== 'fields')
            .map(([k, v]) => [k, v === null ? null : xmlChars(String(v))]),
        );
        assert.deepEqual(rowValues(row), want, `${o.what} row ${i}`);
      });
    } finally {
      await store.close();
    }
  }
});

test('hostile text comes back as it was, less the characters XML cannot hold', async () => {
  const store = await buildMemoryRecordStore();
  const xml = await text(store, { what: 'records', format: 'xml' });
  assert.ok(!xml.includes(']]>'), 'a literal ]]> is escaped');
  assert.ok(!xml.includes('\r'), 'CR is written as a reference');
  assert.ok(Buffer.from(xml, 'utf8').toString('utf8') === xml, 'no lone surrogate is written');
  const root = parseXml(xml);
  assert.equal(root.children.length, 3);
  const [article, meta, p1] = root.children as [Node, Node, Node];
  assert.equal(rowValues(article)['title'], xmlChars(NASTY_TITLE));
  assert.equal(rowValues(article)['url'], SAMPLE.home);
  const fields = article.children.find((c) => c.name === 'fields') as Node;
  const byName: Record<string, Node> = Object.fromEntries(
    fields.children.map((f) => [f.attrs['name'] ?? '', f]),
  );
  assert.equal(byName['body']?.text, xmlChars(NASTY));
  assert.ok(xmlChars(NASTY).includes('😀') && xmlChars(NASTY).includes('中文'));
  assert.ok(xmlChars(NASTY).includes(']]>') && xmlChars(NASTY).includes('\r\n\t'));
  assert.deepEqual(byName['price']?.attrs, { name: 'price', null: 'true' });
  assert.deepEqual(byName['tags']?.attrs, { name: 'tags', list: 'true' });
  assert.deepEqual(
    byName['tags']?.children.map((v) => (v.attrs['null'] === 'true' ? null : v.text)),
    ['a', null, 'c, d'],
  );
  assert.equal(byName['author']?.text, 'Zoë "Z" O\'Neil');
  const metaFields = meta.children.find((c) => c.name === 'fields') as Node;
  assert.deepEqual(
    metaFields.children.map((f) => [f.attrs['name'], f.text]),
    [
      ['__proto__', 'proto'],
      ['description', '电网 news'],
    ],
  );
  assert.equal(rowValues(p1)['ruleSet'], 'article');
});

test('xmlText and xmlAttr survive a strict parser with every hostile character', () => {
  const doc = `<a x="${xmlAttr(NASTY)}" y="${xmlAttr('tab\there\nline "q" \'s\' &amp;')}">${xmlText(NASTY)}</a>`;
  const root = parseXml(doc);
  assert.equal(root.attrs['x'], xmlChars(NASTY));
  assert.equal(root.attrs['y'], 'tab\there\nline "q" \'s\' &amp;');
  assert.equal(root.text, xmlChars(NASTY));
  assert.equal(xmlText('plain 中文 😀'), 'plain 中文 😀');
  assert.equal(xmlText('a]]>b'), 'a]]&gt;b');
  assert.equal(xmlText('\uD83D'), '');
  assert.equal(xmlText('\uDE00x\uD83D'), 'x');
  for (let c = 0; c < 0x20; c++) {
    const ch = String.fromCharCode(c);
    const kept = c === 9 || c === 10 || c === 13;
    assert.equal(parseXml(`<a>${xmlText(ch)}</a>`).text, kept ? ch : '', `U+${c.toString(16)}`);
  }
});
