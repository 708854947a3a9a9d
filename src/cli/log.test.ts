import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseFlags } from './args.js';
import { type LogSettings, logSettingsOf, openLogFile, runOutputFlags } from './log.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-log-'));
after(() => rmSync(root, { recursive: true, force: true }));

const settings = (...argv: string[]) =>
  logSettingsOf(parseFlags('crawl', argv, runOutputFlags), 'crawl');

describe('logSettingsOf', () => {
  const base: LogSettings = { level: 'info', quiet: false, json: false, lineEveryMs: 10_000 };
  const cases: [string[], LogSettings][] = [
    [[], base],
    [['--log-level', 'warn'], { ...base, level: 'warn' }],
    [['--log-level', 'error'], { ...base, level: 'error' }],
    [['-v'], { ...base, level: 'debug' }],
    [['--verbose'], { ...base, level: 'debug' }],
    [['-q'], { ...base, quiet: true }],
    [['--quiet'], { ...base, quiet: true }],
    [['--json-log'], { ...base, json: true }],
    [['--progress-every', '30s'], { ...base, lineEveryMs: 30_000 }],
    [['--log-file', 'x.log'], { ...base, file: 'x.log' }],
    // With a log file, -q quiets the terminal and the level is the file's.
    [['-q', '-v', '--log-file', 'x.log'], { ...base, level: 'debug', quiet: true, file: 'x.log' }],
    [
      ['-q', '--log-level', 'debug', '--log-file', 'x.log'],
      { ...base, level: 'debug', quiet: true, file: 'x.log' },
    ],
  ];
  for (const [argv, want] of cases) {
    it(argv.join(' ') || '(no flags)', () => assert.deepEqual(settings(...argv), want));
  }

  const refused: [string[], RegExp][] = [
    [['--log-level', 'loud'], /--log-level must be one of error, warn, info, debug, got "loud"/],
    [['-v', '--log-level', 'info'], /-v\/--verbose .*--log-level info/],
    [['-q', '-v'], /-q\/--quiet and -v\/--verbose contradict/],
    [['-q', '--log-level', 'debug'], /-q\/--quiet and --log-level debug contradict/],
    [['--log-file', ' '], /--log-file needs a file name/],
    [['--progress-every', 'often'], /--progress-every expects a duration/],
  ];
  for (const [argv, re] of refused) {
    it(`refuses ${argv.join(' ')}`, () =>
      assert.throws(
        () => settings(...argv),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, 'FC_ERR_CLI_USAGE');
          assert.match(e.message, /^focuscrawl crawl: /);
          assert.match(e.message, re);
          return true;
        },
      ));
  }
});

describe('openLogFile', () => {
  it('appends to the file, and stops writing once closed', () => {
    const file = join(root, 'run.log');
    writeFileSync(file, 'before\n');
    const log = openLogFile(file, 'crawl');
    log.write('one\n');
    log.write('two\n');
    log.close();
    log.write('after close\n');
    log.close();
    assert.equal(readFileSync(file, 'utf8'), 'before\none\ntwo\n');
  });

  const where = () => {
    const file = join(root, 'a-file');
    writeFileSync(file, '');
    const dir = join(root, 'a-dir');
    mkdirSync(dir, { recursive: true });
    return { file, dir };
  };
  const refused: [string, (w: ReturnType<typeof where>) => string, RegExp][] = [
    [
      'a missing directory',
      () => join(root, 'nope', 'run.log'),
      /the directory .*nope does not exist/,
    ],
    [
      'a file in place of the directory',
      (w) => join(w.file, 'run.log'),
      /a-file is not a directory/,
    ],
    ['a directory in place of the file', (w) => w.dir, /cannot write to it: it is a directory/],
  ];
  for (const [what, path, re] of refused) {
    it(`names --log-file and the problem: ${what}`, () => {
      const p = path(where());
      assert.throws(
        () => openLogFile(p, 'watch'),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, 'FC_ERR_CLI_USAGE');
          assert.ok(e.message.startsWith(`focuscrawl watch: --log-file ${p}: `), e.message);
          assert.match(e.message, re);
          return true;
        },
      );
    });
  }
});
