// The PostgreSQL store's tokens, highlights and index parts against SQLite's FTS5
// (the SQLite store's index): the same lexemes for the same text, the same marks.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ftsMatch, MARK_END, MARK_START, queryTerms, segmentForIndex } from '../search/index.js';
import { PART_CORE, PART_OVERLAP, prepareText } from './pg-search-index.js';
import { porterStem } from './pg-search-porter.js';
import { lexemes } from './pg-search-tokens.js';
import { highlight } from './search-hits.js';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const TOKENIZER = `porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'`;

/** FTS5's terms of each text, in order. */
function ftsTerms(texts: readonly string[]): string[][] {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "${TOKENIZER}");
    CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
  const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
  texts.forEach((x, i) => {
    insert.run(i + 1, x);
  });
  const rows = db.prepare<[number], { term: string }>(
    'SELECT term FROM v WHERE doc = ? ORDER BY "offset"',
  );
  const out = texts.map((_, i) => rows.all(i + 1).map((r) => r.term));
  db.close();
  return out;
}

const SUFFIXES = (
  's es ies sses ed ing eed ational tional enci anci izer logi bli alli entli eli ousli ' +
  'ization ation ator alism iveness fulness ousness aliti iviti biliti ical ness icate iciti ' +
  'ful ative alize al ance ence er ic able ible ant ement ment ent ion sion tion ou ism ate ' +
  'iti ous ive ize e ll y ly ingly edly at bl iz'
).split(' ');
const STEMS = (
  'gener sky dy run hop fil agree feed happ rat relat condition valen hesit digit conform ' +
  'radic differ analog predic triplic formal sensitiv sensibil hope electr revival allow ' +
  'infer bowdler adjust depend adopt goodn homolog effect activ angular probat cease ' +
  'control roll caress pony tie cat plaster bled motor sing conflat troubl siz tann fall ' +
  'hiss fizz fail y yy ay by syzygy queue'
).split(' ');

describe('PostgreSQL full-text tokens', () => {
  it('stem English words as FTS5 porter does', () => {
    const words = ['', ...SUFFIXES].flatMap((s) => STEMS.map((w) => w + s));
    const [fts] = ftsTerms([words.join(' ')]);
    assert.deepEqual(
      words.map((w) => porterStem(w)),
      fts,
    );
  });

  it('cut, fold and stem texts as the SQLite store index does', () => {
    const texts = [
      'Café CAFÉ naïve Ærø Øresund Łódź straße ΣΟΦΙΑ σοφίας İstanbul ﬁne ｆｕｌｌ µ ſ ς',
      'e\u0301tude résumés 3.14 e-mail 10:30 under_score O’Brien',
      '国家电网调度中心负责全国电力系统的实时调度。ภาษาไทย 日本語のテキスト 한국어 \uE123abc',
      ...readdirSync(DOCS)
        .filter((f) => f.endsWith('.md'))
        .slice(0, 6)
        .map((f) => readFileSync(join(DOCS, f), 'utf8')),
    ].map((t) => segmentForIndex(t));
    const fts = ftsTerms(texts);
    texts.forEach((t, i) => {
      assert.deepEqual(lexemes(t), fts[i], `text ${i}`);
    });
  });

  it('mark matches as FTS5 highlight() does', () => {
    const texts = [
      '国家电网调度中心负责全国电力系统的实时调度。电网负荷在夏季达到高峰。',
      '哈哈哈哈 哈 哈哈，哈哈哈',
      'The dog runs. Dogs running everywhere; a runner ran to the e-mail at 3.14.',
    ].map((t) => segmentForIndex(t));
    const queries = ['电网', '调度 电网', '哈哈', '哈', 'run dog', 'e-mail 3.14', 'Running'];
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "${TOKENIZER}")`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    texts.forEach((x, i) => {
      insert.run(i + 1, x);
    });
    const marked = db.prepare<[string], { id: number; h: string }>(
      'SELECT rowid AS id, highlight(t, 0, char(57344), char(57345)) AS h FROM t WHERE t MATCH ?',
    );
    let compared = 0;
    for (const query of queries) {
      const terms = queryTerms(query);
      const phrases = terms.map((t) => lexemes(segmentForIndex(t)));
      for (const { id, h } of marked.all(ftsMatch(terms))) {
        assert.equal(highlight(texts[id - 1] as string, phrases), h, `${query} in text ${id}`);
        assert.ok(h.includes(MARK_START) && h.includes(MARK_END));
        compared++;
      }
    }
    assert.ok(compared >= queries.length);
    db.close();
  });

  it('cut long texts in parts that keep every position and repeat the next part’s start', () => {
    const text = '电'.repeat(500) + '网'.repeat(PART_CORE * 2);
    const { parts, docLen } = prepareText('标题', text);
    assert.equal(docLen, 2 + 500 + PART_CORE * 2);
    const [title, ...rest] = parts;
    assert.deepEqual(title, { title: true, core: 2, tsv: "'标':1 '题':2" });
    // A part ends before a lexeme gets more positions than a tsvector keeps with the overlap.
    const cores = rest.map((p) => p.core);
    assert.equal(
      cores.reduce((a, b) => a + b, 0),
      500 + PART_CORE * 2,
    );
    assert.deepEqual(cores.slice(0, 3), [
      256 - PART_OVERLAP,
      256 - PART_OVERLAP,
      500 - 2 * 192 + 192,
    ]);
    for (const p of rest) {
      for (const entry of p.tsv.split(' ')) {
        const positions = (entry.split(':')[1] ?? '').split(',').map(Number);
        assert.ok(positions.length <= 256, entry.slice(0, 20));
        assert.ok(Math.max(...positions) <= p.core + PART_OVERLAP);
      }
    }
    // The first part's overlap holds the next part's first tokens, at the positions after its own.
    const words = Array.from({ length: PART_CORE + 10 }, (_, i) => `w${i}`).join(' ');
    const [one, two] = prepareText(null, words).parts;
    assert.equal(one?.core, PART_CORE);
    assert.match(one?.tsv ?? '', new RegExp(`'w${PART_CORE}':${PART_CORE + 1}( |$)`));
    assert.match(two?.tsv ?? '', new RegExp(`'w${PART_CORE}':1( |$)`));
    assert.equal(two?.core, 10);
  });
});
