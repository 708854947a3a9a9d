import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CliUsageError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { type FlagSpec, int, joinNegativeValues, parseDurationMs, parseFlags } from './args.js';
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
  const dir = tempDir('seeds');
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

const SPEC: FlagSpec = {
  store: { type: 'string' },
  'store-bodies': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  threshold: { type: 'string' },
  out: { type: 'string', short: 'o' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
};

test('an unknown flag is answered with the nearest known one: a unique prefix or ≤ 2 edits', () => {
  const cases: [string, RegExp][] = [
    ['--stor', /unknown flag --stor: did you mean --store\?$/],
    ['--stroe', /unknown flag --stroe: did you mean --store\?$/],
    ['--max-pagse', /did you mean --max-pages\?$/],
    ['--max-page', /did you mean --max-pages\?$/],
    ['--thresh', /did you mean --threshold\?$/],
    ['--jsno', /did you mean --json\?$/],
    ['--qiet', /did you mean --quiet\?$/],
    ['--colour', /^focuscrawl crawl: unknown flag --colour \(see focuscrawl crawl --help\)$/],
    ['--max', /^focuscrawl crawl: unknown flag --max \(see focuscrawl crawl --help\)$/],
    ['-x', /^focuscrawl crawl: unknown flag -x \(see focuscrawl crawl --help\)$/],
  ];
  for (const [flag, message] of cases) {
    assert.throws(
      () => parseFlags('crawl', [flag, 'v'], SPEC),
      (e: unknown) => e instanceof CliUsageError && message.test(e.message),
      flag,
    );
  }
});

test("the parser's complaints name the flag in a user's words", () => {
  const cases: [string[], RegExp][] = [
    [['--store'], /^focuscrawl crawl: --store needs a value \(see focuscrawl crawl --help\)$/],
    [['-o'], /^focuscrawl crawl: --out needs a value/],
    [['--json=yes'], /^focuscrawl crawl: --json takes no value/],
    [
      ['--store', '-x'],
      /--store needs a value; a value beginning with a dash is given as --store=VALUE/,
    ],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseFlags('crawl', argv, SPEC),
      (e: unknown) => e instanceof CliUsageError && message.test(e.message),
      argv.join(' '),
    );
  }
});

test('a value-taking flag takes a negative number as its value, for its own check to judge', () => {
  const cases: [string[], string[]][] = [
    [['--max-pages', '-5'], ['--max-pages=-5']],
    [
      ['--threshold', '-0.5', '--json'],
      ['--threshold=-0.5', '--json'],
    ],
    [['--threshold', '-.5'], ['--threshold=-.5']],
    [['-o', '-1'], ['-o-1']],
    [['--max-pages=-5'], ['--max-pages=-5']],
    [
      ['--json', '-5'],
      ['--json', '-5'],
    ],
    [
      ['--max-pages', '-x'],
      ['--max-pages', '-x'],
    ],
    [
      ['--', '--max-pages', '-5'],
      ['--', '--max-pages', '-5'],
    ],
    [
      ['--unknown', '-5'],
      ['--unknown', '-5'],
    ],
  ];
  for (const [argv, want] of cases) {
    assert.deepEqual(joinNegativeValues(argv, SPEC), want, argv.join(' '));
  }
  const p = parseFlags('crawl', ['--max-pages', '-5'], SPEC);
  assert.throws(
    () => int(p, 'max-pages', 'crawl'),
    (e: unknown) =>
      e instanceof CliUsageError &&
      e.message === 'focuscrawl crawl: --max-pages expects a non-negative integer, got "-5"',
  );
});
