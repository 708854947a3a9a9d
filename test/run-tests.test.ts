// scripts/run-tests.mjs, the `npm test` runner, on a tree of its own: its summary line,
// its exit status, and its guard that tests leave nothing in the temporary directory.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../src/util/testing.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(REPO, 'scripts', 'run-tests.mjs');

/** This process's environment without what marks it as a test runner's child (a runner started with it runs no files). */
function outsideTests(): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return env;
}

/** A tree with src/ and test/ holding `files`, where run-tests.mjs finds tsx. */
function tree(files: Record<string, string>): string {
  const dir = tempDir('run-tests');
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** run-tests.mjs in `cwd`, with its own temporary directory `tmp` (returned, to look into). */
function runTests(cwd: string, ...filter: string[]) {
  const tmp = mkdtempSync(join(cwd, 'tmp-'));
  const r = spawnSync(process.execPath, [SCRIPT, ...filter], {
    cwd,
    env: { ...outsideTests(), TMPDIR: tmp },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr, tmp };
}

const PASSES = `import { test } from 'node:test';
test('passes', () => {});
`;
const LEAKS = `import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
test('leaves a folder and a file behind', () => {
  mkdtempSync(join(tmpdir(), 'focuscrawl-leak-'));
  writeFileSync(join(tmpdir(), 'stray.txt'), 'x');
});
`;
const CLEAN = `import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
test('removes what it makes', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-clean-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
});
`;

test('a test that leaves something in the temporary directory fails the run, which names it', () => {
  const dir = tree({ 'src/a.test.ts': PASSES, 'src/leak.test.ts': LEAKS });
  const r = runTests(dir);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /^tests: 2 passed, 0 failed, 0 skipped$/m);
  assert.match(r.err, /tests left 2 entries in the temporary directory/);
  assert.match(r.err, /^ {2}focuscrawl-leak-\w{6}$/m);
  assert.match(r.err, /^ {2}stray\.txt$/m);
  // The run's own directory is removed, what was left in it too.
  assert.deepEqual(readdirSync(r.tmp), []);
});

test('a run whose tests remove what they make passes, and leaves nothing either', () => {
  const dir = tree({ 'src/a.test.ts': PASSES, 'test/clean.test.ts': CLEAN });
  const r = runTests(dir);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /^tests: 2 passed, 0 failed, 0 skipped$/m);
  assert.doesNotMatch(r.err, /tests left/);
  assert.deepEqual(readdirSync(r.tmp), []);
});

test('the filter keeps the files whose path holds a word; a failed test fails the run as before', () => {
  const failing = `import { test } from 'node:test';\ntest('fails', () => { throw new Error('no'); });\n`;
  const dir = tree({ 'src/a.test.ts': PASSES, 'test/b.test.ts': failing });
  const only = runTests(dir, 'src/a');
  assert.equal(only.code, 0, only.out + only.err);
  assert.match(only.out, /^tests: 1 passed, 0 failed, 0 skipped$/m);
  const all = runTests(dir);
  assert.equal(all.code, 1);
  assert.match(all.out, /^tests: 1 passed, 1 failed, 0 skipped$/m);
  const none = runTests(dir, 'nothing-matches');
  assert.equal(none.code, 1);
  assert.match(none.err, /no test files found/);
});
