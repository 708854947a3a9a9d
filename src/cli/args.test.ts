import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CliUsageError } from '../errors/index.js';
import { parseDurationMs } from './args.js';
import { readSeeds } from './seeds.js';

test('durations', () => {
  const cases: [string, number | undefined][] = [
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['1d', 86_400_000],
    [' 10S ', 10_000],
    ['10', undefined],
    ['soon', undefined],
    ['0s', undefined],
    ['-5s', undefined],
    ['', undefined],
  ];
  for (const [text, ms] of cases) assert.equal(parseDurationMs(text), ms, text);
});

test('seeds: URLs and files of URLs; errors name the file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-seeds-'));
  const file = join(dir, 'seeds.txt');
  writeFileSync(file, '# start pages\nhttp://a.test/\n\n  https://b.test/x  \n');
  assert.deepEqual(readSeeds(['http://c.test/', file], 'crawl'), [
    'http://c.test/',
    'http://a.test/',
    'https://b.test/x',
  ]);
  const bad = join(dir, 'bad.txt');
  writeFileSync(bad, 'http://a.test/\n\nnot a url\n');
  assert.throws(
    () => readSeeds([bad], 'crawl'),
    (e: unknown) => e instanceof CliUsageError && e.message.includes(`${bad}:3: "not a url"`),
  );
  assert.throws(
    () => readSeeds(['ftp://a.test/'], 'crawl'),
    (e: unknown) => e instanceof CliUsageError && /ftp:\/\/a.test\//.test(e.message),
  );
  assert.throws(
    () => readSeeds([join(dir, 'missing.txt')], 'crawl'),
    (e: unknown) => e instanceof CliUsageError && /missing\.txt/.test(e.message),
  );
});
