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
