// The memory store's full-text index: every term must occur, a Chinese run is a
// phrase, BM25 and highlights as FTS5 computes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MemoryTextIndex, TITLE_WEIGHT } from './memory-index.js';
import { ftsMatch, MARK_END, MARK_START, queryTerms } from './query.js';
import { segmentForIndex, unsegment } from './segment.js';

type Doc = [id: number, title: string, text: string];

function indexOf(docs: readonly Doc[]): MemoryTextIndex {
  const index = new MemoryTextIndex();
  for (const [id, title, text] of docs)
    index.add(id, segmentForIndex(title), segmentForIndex(text));
  return index;
}

const ids = (index: MemoryTextIndex, query: string) =>
  index.search(queryTerms(query)).map((h) => h.id);

/** Marks shown as brackets, for readable expectations. */
const brackets = (s: string) => s.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']');

const near = (actual: number | undefined, expected: number, what = '') =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 1e-9,
    `${what} ${actual} ≈ ${expected}`,
  );

const DOCS: Doc[] = [
  [1, 'Power grid', 'The power grid of the country carries electricity.'],
  [2, 'Power plants', 'A coal power plant burns coal.'],
  [3, 'Grid computing', 'Computing on a grid of machines.'],
  [4, '国家电网', '国家电网负责电力调度。'],
  [5, '电子网络', '电力网络和电子商务是两回事。'],
  [6, 'Cooking', 'Slow cooking keeps meat tender.'],
];

describe('MemoryTextIndex', () => {
  const index = indexOf(DOCS);

  it('holds the documents added', () => assert.equal(index.size, DOCS.length));

  it('finds a document only when it contains every term', () => {
    assert.deepEqual(ids(index, 'power').sort(), [1, 2]);
    assert.deepEqual(ids(index, 'grid').sort(), [1, 3]);
    assert.deepEqual(ids(index, 'power grid'), [1]);
    assert.deepEqual(ids(index, 'power grid cooking'), []);
    assert.deepEqual(ids(index, 'nowhere'), []);
  });

  it('folds case but does not stem', () => {
    assert.deepEqual(ids(index, 'GRID').sort(), [1, 3]);
    assert.deepEqual(ids(index, 'plant'), [2]);
    assert.deepEqual(ids(index, 'cook'), []);
  });

  it('matches a Chinese run as a phrase: 电 and 网 apart do not make 电网', () => {
    // Page 5 has 电 (电力, 电子) and 网 (网络) but never 电网.
    assert.deepEqual(ids(index, '电网'), [4]);
    assert.deepEqual(ids(index, '电力').sort(), [4, 5]);
    assert.deepEqual(ids(index, '电力调度'), [4]);
    assert.deepEqual(ids(index, '网络 电子'), [5]);
    assert.deepEqual(ids(index, '电网 网络'), []);
  });

  it('returns nothing for terms without a token', () => {
    assert.deepEqual(index.search([]), []);
    assert.deepEqual(index.search(['。']), []);
  });

  it('orders ties by id, whatever the order documents were added in', () => {
    const twins = indexOf([
      [9, 'same', 'grid power'],
      [3, 'same', 'grid power'],
      [5, 'other', 'nothing here'],
    ]);
    assert.deepEqual(ids(twins, 'grid'), [3, 9]);
  });
});

describe('MemoryTextIndex BM25', () => {
  // Five documents of three tokens each (avgdl 3); "grid" in two of them.
  const docs: Doc[] = [
    [1, 'grid', 'power line'],
    [2, 'news', 'grid power'],
    [3, 'sport', 'football match'],
    [4, 'food', 'apple pie'],
    [5, 'music', 'piano sonata'],
  ];
  const index = indexOf(docs);

  it('weights a title match twice a text match (hand-worked)', () => {
    assert.equal(TITLE_WEIGHT, 2);
    const idf = Math.log((5 - 2 + 0.5) / (2 + 0.5));
    // tf 2 (title) → idf·2·2.2/(2 + 1.2); tf 1 (text) → idf·2.2/(1 + 1.2) = idf.
    const [first, second] = index.search(['grid']);
    assert.equal(first?.id, 1);
    near(first?.bm25, (idf * 2 * 2.2) / 3.2, 'title');
    assert.equal(second?.id, 2);
    near(second?.bm25, idf, 'text');
  });

  it('sums the terms and floors a term found everywhere at a tiny idf', () => {
    const all = indexOf([
      [1, 'a', 'x y'],
      [2, 'b', 'x z'],
    ]);
    const [hit] = all.search(['x', 'y']);
    // x is in both documents: log(0.5 / 2.5) < 0 → 1e-6; y in one: log(1.5 / 1.5) = 0 → 1e-6.
    near(hit?.bm25, 2e-6 * (2.2 / 2.2));
  });

  it("agrees with FTS5's bm25() over the same documents", () => {
    const corpus: Doc[] = [
      ...DOCS,
      [7, 'Grid news', 'The grid, the grid and the grid again: power everywhere.'],
      [8, '电网新闻', '电网电网电网，国家电网和南方电网。'],
      [9, 'Long text', `${'filler words '.repeat(40)}power grid`],
      [10, 'Other', 'Nothing of interest to anyone.'],
    ];
    const mem = indexOf(corpus);
    const db = new Database(':memory:');
    try {
      db.exec("CREATE VIRTUAL TABLE t USING fts5(title, text, tokenize = 'unicode61')");
      const insert = db.prepare('INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)');
      for (const [id, title, text] of corpus) {
        insert.run(id, segmentForIndex(title), segmentForIndex(text));
      }
      const fts = db.prepare<[string], { id: number; bm25: number; marked: string }>(
        `SELECT rowid AS id, -bm25(t, 2.0, 1.0) AS bm25, highlight(t, 1, char(57344), char(57345)) AS marked
         FROM t WHERE t MATCH ? ORDER BY bm25 DESC, rowid`,
      );
      for (const query of ['grid', 'power grid', '电网', '国家电网', 'grid news', '电力']) {
        const terms = queryTerms(query);
        const expected = fts.all(ftsMatch(terms));
        const got = mem.search(terms);
        assert.deepEqual(
          got.map((h) => h.id),
          expected.map((r) => r.id),
          query,
        );
        got.forEach((h, i) => {
          near(h.bm25, expected[i]?.bm25 ?? Number.NaN, query);
          assert.equal(mem.highlight(h.id, terms), expected[i]?.marked, query);
        });
      }
    } finally {
      db.close();
    }
  });
});

describe('MemoryTextIndex.highlight', () => {
  const index = indexOf([
    [1, 'Grid', 'The GRID, the grid: gridlock is not a grid.'],
    [2, '电网', '电力网络和国家电网，南方电网。'],
    [3, 'Empty', ''],
  ]);
  const marks = (id: number, query: string) =>
    brackets(unsegment(index.highlight(id, queryTerms(query))));

  it('marks every occurrence of the terms in the text, as written', () => {
    assert.equal(marks(1, 'grid'), 'The [GRID], the [grid]: gridlock is not a [grid].');
  });

  it('marks a Chinese phrase once, around all its characters', () => {
    assert.equal(marks(2, '电网'), '电力网络和国家[电网]，南方[电网]。');
    assert.equal(marks(2, '电网 网络'), '电力[网络]和国家[电网]，南方[电网]。');
  });

  it('leaves the text unmarked when only the title matches', () => {
    assert.equal(marks(1, 'gridlock'), 'The GRID, the grid: [gridlock] is not a grid.');
    assert.equal(marks(2, 'nothing'), '电力网络和国家电网，南方电网。');
  });

  it('is empty for a document without text or an unknown id', () => {
    assert.equal(marks(3, 'empty'), '');
    assert.equal(marks(99, 'grid'), '');
  });
});
