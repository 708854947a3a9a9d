import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CSV_EOL, csvField, csvRecord, jsonRecord } from './csv.js';
import { parseCsv } from './testing.js';

test('csvField quotes only what RFC 4180 requires', () => {
  const cases: [string | number | boolean | null, string][] = [
    [null, ''],
    ['', ''],
    ['plain', 'plain'],
    [0.25, '0.25'],
    [503, '503'],
    [true, 'true'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['显示器市场，价格', '显示器市场，价格'], // a full-width comma is not a separator
    [' padded ', ' padded '],
  ];
  for (const [v, want] of cases) assert.equal(csvField(v), want, JSON.stringify(v));
});

test('csvRecord ends with CRLF and reads back field for field', () => {
  const cells = ['Home, "sweet"\nhome', null, 1.5, '电网', 'x\r\ny', '"'];
  const rec = csvRecord(cells);
  assert.ok(rec.endsWith(CSV_EOL));
  assert.deepEqual(parseCsv(rec), [['Home, "sweet"\nhome', '', '1.5', '电网', 'x\r\ny', '"']]);
});

test('jsonRecord is one line that parses back, Unicode line separators escaped', () => {
  const obj = { title: 'a\u2028b\u2029c\u0085d\ne', n: null, r: 0.1, zh: '显示器' };
  const line = jsonRecord(obj);
  assert.ok(line.endsWith('\n'));
  assert.equal(line.slice(0, -1).split(/[\n\r\u0085\u2028\u2029]/).length, 1);
  assert.match(line, /\\u2028/);
  assert.deepEqual(JSON.parse(line), obj);
});
