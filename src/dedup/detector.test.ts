import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOptionError, StoreError } from '../errors/index.js';
import { type DedupRow, type Duplicate, DuplicateDetector } from './detector.js';
import { simhashHex } from './fingerprint.js';
import {
  article,
  fullPageText,
  type Lang,
  linkTitles,
  type PageParts,
  printPageText,
} from './testing.js';

function page(seed: number, lang: Lang, paragraphs = 20): PageParts {
  return {
    site: lang === 'en' ? 'Grid Daily' : '电力天地网',
    title: lang === 'en' ? `Grid report no. ${seed}` : `电网观察 第${seed}期`,
    paragraphs: article(seed, lang, paragraphs),
    related: linkTitles(seed, lang, 30),
    lang,
  };
}

/** The article with one word (a Chinese character) replaced in its middle paragraph. */
function oneWordChanged(p: PageParts): PageParts {
  const paragraphs = [...p.paragraphs];
  const mid = Math.floor(paragraphs.length / 2);
  const text = paragraphs[mid] as string;
  paragraphs[mid] =
    p.lang === 'en'
      ? text.replace(/\b(grid|the)\b/, 'zebra')
      : `${text.slice(0, 10)}猫${text.slice(11)}`;
  return { ...p, paragraphs };
}

/** The article with a link carrying session id `sid` after three of its paragraphs. */
function withSessionLinks(p: PageParts, sid: string): PageParts {
  const paragraphs = p.paragraphs.map((t, i) =>
    i % 5 === 1 && i < 15
      ? `${t} https://grid.test/report/${i}?sessionid=${sid}&lang=${p.lang}`
      : t,
  );
  return { ...p, paragraphs };
}

interface Case {
  name: string;
  stored: string;
  text: string;
  expect: Duplicate['kind'] | null;
}

function cases(lang: Lang): Case[] {
  const a = page(1, lang);
  const b = page(2, lang); // another article on the same topic, same vocabulary
  const full = fullPageText(a);
  return [
    { name: 'identical text', stored: full, text: full, expect: 'exact' },
    {
      name: 'the same text in other case, width and spacing',
      stored: full,
      text: full.toUpperCase().replace(/ /g, '  '),
      expect: 'exact',
    },
    {
      name: 'one word changed in a long article',
      stored: full,
      text: fullPageText(oneWordChanged(a)),
      expect: 'near',
    },
    {
      name: 'print view: no menu, links or footer; a "printed from" line',
      stored: full,
      text: printPageText(a, 'https://grid.test/report/1?print=1'),
      expect: 'near',
    },
    {
      name: 'other related links beside the same article',
      stored: full,
      text: fullPageText({ ...a, related: linkTitles(99, lang, 30) }),
      expect: 'near',
    },
    {
      name: 'a different session id in a few URLs in the text',
      stored: fullPageText(withSessionLinks(a, '5f2a91c0e8d4b7a3')),
      text: fullPageText(withSessionLinks(a, '09be44d17c3a2f6e')),
      expect: 'near',
    },
    {
      name: 'another article on the same topic, from the same vocabulary',
      stored: full,
      text: fullPageText(b),
      expect: null,
    },
    {
      name: 'another article on the same site: same menu, footer and links',
      stored: full,
      text: fullPageText({ ...b, related: a.related }),
      expect: null,
    },
    {
      name: 'a short article sharing a long one’s first paragraphs',
      stored: full,
      text: fullPageText({ ...a, paragraphs: a.paragraphs.slice(0, 4) }),
      expect: null,
    },
  ];
}

for (const lang of ['en', 'zh'] as const) {
  test(`detector (${lang}): exact and near duplicates a crawl relies on`, () => {
    for (const c of cases(lang)) {
      const d = new DuplicateDetector();
      // Unrelated pages first: ids 1…3; the original is id 10.
      for (const [i, seed] of [30, 31, 32].entries()) {
        const r = d.check({ text: fullPageText(page(seed, lang)) });
        d.add(i + 1, r.simhash, r.contentHash);
      }
      const original = d.check({ text: c.stored });
      assert.equal(original.duplicate, null, `${c.name}: the original is new`);
      d.add(10, original.simhash, original.contentHash);
      const r = d.check({ text: c.text });
      if (c.expect === null) {
        assert.equal(r.duplicate, null, c.name);
      } else {
        assert.equal(r.duplicate?.kind, c.expect, `${c.name}: ${JSON.stringify(r.duplicate)}`);
        assert.equal(r.duplicate?.of, 10, c.name);
        assert.ok((r.duplicate?.distance ?? 99) <= 3, c.name);
        if (c.expect === 'exact') assert.equal(r.duplicate?.distance, 0);
      }
    }
  });
}

test('short or empty text is never a duplicate, nor the original of one', () => {
  const d = new DuplicateDetector();
  for (const text of ['', 'Loading…', 'Page not found. Back to the home page.']) {
    const first = d.check({ text });
    assert.deepEqual(first, {
      duplicate: null,
      simhash: null,
      contentHash: null,
      features: first.features,
    });
    d.add(1, first.simhash, first.contentHash);
    assert.equal(d.check({ text }).duplicate, null, JSON.stringify(text));
    assert.equal(d.check({ text, contentHash: 'same-body' }).duplicate, null);
  }
  assert.equal(d.size, 0);
});

test('a caller-supplied content hash is the exact key, compared as given', () => {
  const d = new DuplicateDetector();
  const text = fullPageText(page(5, 'en'));
  const r = d.check({ text, contentHash: 'md5-of-body-1' });
  assert.equal(r.contentHash, 'md5-of-body-1');
  d.add(4, r.simhash, r.contentHash);
  assert.deepEqual(
    d.check({ text: fullPageText(page(6, 'en')), contentHash: 'md5-of-body-1' }).duplicate,
    {
      kind: 'exact',
      of: 4,
      distance: 0,
    },
  );
  // Another key, the same text: a near duplicate at distance 0.
  assert.deepEqual(d.check({ text, contentHash: 'md5-of-body-2' }).duplicate, {
    kind: 'near',
    of: 4,
    distance: 0,
  });
});

test('rebuilt from stored rows, the detector answers as before', () => {
  const d = new DuplicateDetector();
  const rows: DedupRow[] = [];
  for (let id = 1; id <= 40; id++) {
    const lang = id % 2 === 0 ? 'en' : 'zh';
    const r = d.check({ text: fullPageText(page(100 + id, lang)) });
    assert.equal(r.duplicate, null);
    d.add(id, r.simhash, r.contentHash);
    rows.push({ id, simhash: r.simhash && simhashHex(r.simhash), contentHash: r.contentHash });
  }
  rows.push({ id: 41, simhash: null, contentHash: null }); // a page too short to fingerprint
  const rebuilt = DuplicateDetector.fromRows(rows);
  assert.equal(rebuilt.size, 40);
  const probes = [
    fullPageText(page(107, 'zh')),
    printPageText(page(108, 'en'), 'https://grid.test/p/108'),
    fullPageText(oneWordChanged(page(120, 'en'))),
    fullPageText(page(999, 'en')),
  ];
  for (const text of probes) assert.deepEqual(rebuilt.check({ text }), d.check({ text }));
  assert.equal(rebuilt.check({ text: fullPageText(page(107, 'zh')) }).duplicate?.kind, 'exact');
});

test('a malformed stored SimHash is a StoreError naming the row', () => {
  const rows = [{ id: 17, simhash: 'not-hex', contentHash: null }];
  assert.throws(
    () => DuplicateDetector.fromRows(rows),
    (e: unknown) => e instanceof StoreError && /row 17/.test(e.message),
  );
});

test('options: defaults, and InvalidOptionError naming a bad or unknown field', () => {
  assert.deepEqual(new DuplicateDetector().options, {
    maxDistance: 3,
    shingleSize: 3,
    cjkShingleSize: 5,
    minBlockWords: 15,
    minFeatures: 24,
  });
  const cases: Array<[unknown, RegExp]> = [
    [{ maxDistance: 9 }, /maxDistance/],
    [{ maxDistance: -1 }, /maxDistance/],
    [{ maxDistance: '3' }, /maxDistance/],
    [{ minFeatures: 0 }, /minFeatures/],
    [{ shingleSize: 9 }, /shingleSize/],
    [{ maxDistanceBits: 3 }, /maxDistanceBits/],
  ];
  for (const [options, field] of cases) {
    assert.throws(
      () => new DuplicateDetector(options as never),
      (e: unknown) => e instanceof InvalidOptionError && field.test(e.message),
      JSON.stringify(options),
    );
  }
});

test('maxDistance 0: only the same fingerprint is a near duplicate', () => {
  const d = new DuplicateDetector({ maxDistance: 0 });
  const a = page(3, 'en');
  const r = d.check({ text: fullPageText(a) });
  d.add(1, r.simhash, r.contentHash);
  assert.equal(d.check({ text: printPageText(a, 'https://grid.test/3') }).duplicate?.kind, 'near');
  assert.equal(d.check({ text: fullPageText(page(4, 'en')) }).duplicate, null);
});

// LibreOffice's help: each module's start page is short lines (the help's menu, the
// module's sections, the help's footer links) and one long line, the stock note every
// page carries. The long line alone made the fingerprint, so the Calc, Impress and
// Draw start pages were near duplicates (distance 0) of Writer's and were discarded
// with their links.
test('short pages sharing only a stock long line are not near duplicates', () => {
  const page = (module: string, title: string, lines: string[]) =>
    [
      'LibreOffice 7.4 帮助',
      '模块',
      '目录',
      '索引',
      title,
      ...lines,
      '该「帮助」中使用的是系统中程序的默认值。 颜色、鼠标操作或其他可配置项的描述可能与您的程序或系统有所不同。',
      'LibreOffice 帮助',
      '「帮助」索引',
      '将「帮助」页面加入书签',
      '目录 - 主帮助主题',
      '获得支持',
      'Help content debug info:',
      `This page is: /text/${module}/main0000.xhp`,
      `Title is: ${title.replace('LibreOffice', '$[officename]')}`,
    ].join('\n');
  const writer = page('swriter', '欢迎使用 LibreOffice Writer 文本文档帮助', [
    'LibreOffice Writer 文本文档帮助',
    '使用 LibreOffice Writer',
    'LibreOffice Writer 的主要功能',
    'LibreOffice Writer 使用说明',
    '在 LibreOffice 中使用图表',
    '在 LibreOffice Base 中使用数据库',
    '菜单，工具栏及快捷键',
    'Writer 的快捷键',
  ]);
  const calc = page('scalc', '欢迎使用 LibreOffice Calc 帮助', [
    '如何使用 LibreOffice Calc',
    'LibreOffice Calc 使用说明',
    'LibreOffice Calc 电子表格的功能',
    '函数清单 (按类别)',
    '在 LibreOffice 中使用图表',
    'LibreOffice Calc 中的菜单、工具栏和按键',
    '电子表格快捷键',
    '帮助向导',
  ]);
  const d = new DuplicateDetector();
  const w = d.check({ text: writer });
  assert.ok(w.simhash !== null, 'fingerprinted');
  d.add(1, w.simhash, w.contentHash);
  assert.equal(d.check({ text: calc }).duplicate, null);
  assert.equal(d.check({ text: writer }).duplicate?.kind, 'exact');
});
