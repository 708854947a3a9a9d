import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { TopicFileError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { createTopic, loadTopicFile, parseTopic } from './index.js';

function fails(text: string, message: string): void {
  assert.throws(
    () => parseTopic(text, 'topic.json'),
    (e: unknown) => {
      assert.ok(e instanceof TopicFileError, String(e));
      assert.equal(e.code, 'FC_ERR_TOPIC_FILE');
      assert.equal(e.message, message);
      return true;
    },
  );
}

describe('parseTopic', () => {
  it('reads every field and normalises keywords and seeds', () => {
    const t = parseTopic(
      JSON.stringify({
        name: '电网',
        keywords: { 电网: 1, ' Power  Grid ': 0.8, ＵＨＶ: 0.5 },
        seeds: ['HTTP://WWW.SGCC.COM.CN:80/index.html'],
        threshold: 0.15,
        language: 'zh',
      }),
      'grid.json',
    );
    assert.deepEqual(t, {
      name: '电网',
      keywords: [
        { word: '电网', weight: 1 },
        { word: 'power grid', weight: 0.8 },
        { word: 'uhv', weight: 0.5 },
      ],
      seeds: ['http://www.sgcc.com.cn/'],
      threshold: 0.15,
      language: 'zh',
    });
  });

  it('needs only keywords, and leaves absent fields absent', () => {
    const t = parseTopic('{"keywords": {"grid": 2}}');
    assert.deepEqual(t, { keywords: [{ word: 'grid', weight: 2 }] });
    assert.ok(!('threshold' in t));
  });

  it('accepts a byte-order mark', () => {
    assert.equal(parseTopic('\ufeff{"keywords": {"grid": 1}}').keywords.length, 1);
  });

  // JSON syntax: line and column
  // V8 words the reason differently across versions: check position and shape only.
  it('names line and column of a syntax error', () => {
    const table: [string, string][] = [
      ['{\n  "keywords": {\n    "grid": 1,\n  }\n}', 'line 4, column 3'],
      ['{"keywords": {"a":}}', 'line 1, column 19'],
      ['{"keywords": {"a": 1}', 'line 1, column 22'],
      ['', 'line 1, column 1'],
      ['{\n"keywords": {"电网": 1}}\nx', 'line 3, column 1'],
      ['{"keywords": {"a": tru}}', 'line 1, column 20'],
      ['{"keywords": {"a\tb": 1}}', 'line 1, column 17'],
    ];
    for (const [text, where] of table) {
      assert.throws(
        () => parseTopic(text, 'topic.json'),
        (e: unknown) => {
          assert.ok(e instanceof TopicFileError, String(e));
          const prefix = `topic.json: ${where}: invalid JSON: `;
          assert.ok(e.message.startsWith(prefix), `${JSON.stringify(text)}: ${e.message}`);
          assert.ok(e.message.length > prefix.length, e.message);
          assert.doesNotMatch(e.message, /position|is not valid JSON/);
          return true;
        },
      );
    }
  });

  it('names a key written twice', () => {
    fails(
      '{"keywords": {\n  "grid": 1,\n  "grid": 2\n}}',
      'topic.json: line 3, column 3: keywords: duplicate key "grid"',
    );
  });

  // schema: field paths
  it('names the field of a schema error', () => {
    fails(
      '{"keywords": {"power grid": -1}}',
      'topic.json: keywords."power grid": expected a positive number, got -1',
    );
    fails(
      '{"keywords": {"grid": 0}}',
      'topic.json: keywords.grid: expected a positive number, got 0',
    );
    fails(
      '{"keywords": {"电网": "1"}}',
      'topic.json: keywords."电网": expected a positive number, got "1"',
    );
    fails(
      '{"keywords": ["grid"]}',
      'topic.json: keywords: expected an object mapping each keyword to its weight, got an array',
    );
    fails(
      '{"name": "x"}',
      'topic.json: keywords: missing field (expected an object mapping each keyword to its weight)',
    );
    fails(
      '{"keywords": {"a": 1}, "threshold": 1.5}',
      'topic.json: threshold: expected a number in [0, 1], got 1.5',
    );
    fails(
      '{"keywords": {"a": 1}, "seeds": ["http://a.test/", 7]}',
      'topic.json: seeds[1]: expected a URL string, got 7',
    );
    fails(
      '{"keywords": {"a": 1}, "seeds": ["http://a.test/", "ftp://a.test/"]}',
      'topic.json: seeds[1]: "ftp://a.test/" is not an http(s) URL',
    );
    fails(
      '[1]',
      'topic.json: (top level): expected a JSON object with a "keywords" field, got an array',
    );
  });

  it('reads the learned fields: model, idf (normalised like keywords) and documents', () => {
    const t = parseTopic(
      JSON.stringify({
        keywords: { 电网: 1, Grid: 0.5 },
        model: 'tfidf',
        idf: { 电网: 0.7, GRID: 1.25, unused: 2 },
        documents: 40,
      }),
    );
    assert.equal(t.model, 'tfidf');
    assert.deepEqual(t.idf, { 电网: 0.7, grid: 1.25, unused: 2 });
    assert.equal(t.documents, 40);
  });

  it('names the field at fault in model, idf and documents', () => {
    fails(
      '{"keywords": {"a": 1}, "model": "bayes"}',
      'topic.json: model: expected "vsm" or "tfidf", got "bayes"',
    );
    fails(
      '{"keywords": {"a": 1}, "idf": {"a": -1}}',
      'topic.json: idf.a: expected a non-negative number, got -1',
    );
    fails(
      '{"keywords": {"a": 1}, "idf": [1]}',
      'topic.json: idf: expected an object mapping keywords to their idf, got an array',
    );
    fails(
      '{"keywords": {"a": 1}, "idf": {"A": 1, "a": 2}}',
      'topic.json: idf."a": duplicate word: "A" and "a" both normalise to "a"',
    );
    fails(
      '{"keywords": {"a": 1}, "documents": 2.5}',
      'topic.json: documents: expected a positive integer, got 2.5',
    );
    fails(
      '{"keywords": {"a": 1}, "documents": 0}',
      'topic.json: documents: expected a positive integer, got 0',
    );
  });

  it('names an unknown field', () => {
    fails(
      '{"keyword": {"a": 1}}',
      'topic.json: unknown field "keyword" (allowed: name, keywords, seeds, threshold, language, model, idf, documents)',
    );
  });

  it('reports keywords that normalise alike, and empty ones', () => {
    fails(
      '{"keywords": {"Grid": 1, "ＧＲＩＤ": 2}}',
      'topic.json: keywords."ＧＲＩＤ": duplicate keyword: "Grid" and "ＧＲＩＤ" both normalise to "grid"',
    );
    fails('{"keywords": {" ": 1}}', 'topic.json: keywords." ": empty keyword');
    fails('{"keywords": {}}', 'topic.json: keywords: at least one keyword is needed');
  });
});

describe('createTopic', () => {
  it('validates data given in code', () => {
    assert.deepEqual(createTopic({ keywords: { grid: 1 } }).keywords, [
      { word: 'grid', weight: 1 },
    ]);
    assert.throws(
      () => createTopic({ keywords: { grid: -2 } }, 'my topic'),
      /^TopicFileError: my topic: keywords.grid/,
    );
  });
});

describe('loadTopicFile', () => {
  const dir = tempDir('topic');

  it('reads a file', () => {
    const path = join(dir, 'grid.json');
    writeFileSync(path, '{"name": "grid", "keywords": {"grid": 1}}');
    assert.equal(loadTopicFile(path).name, 'grid');
  });

  it('names the file in errors', () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"keywords": {"grid": 1,}}');
    assert.throws(
      () => loadTopicFile(path),
      (e: unknown) =>
        e instanceof TopicFileError && e.message.startsWith(`${path}: line 1, column 25:`),
    );
  });

  it('names a missing file', () => {
    const path = join(dir, 'nope.json');
    assert.throws(
      () => loadTopicFile(path),
      (e: unknown) =>
        e instanceof TopicFileError &&
        e.message === `${path}: cannot read the topic file (no such file)`,
    );
  });
});
