import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from './testing.js';

const KIT = fileURLToPath(new URL('./testing.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** This process's environment without what marks it as a test runner's child (a runner started with it runs no files). */
function outsideTests(): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return env;
}

test('tempDir makes a new empty directory in the temporary directory, named after its use', () => {
  const a = tempDir('kit');
  const b = tempDir('kit');
  assert.notEqual(a, b);
  for (const dir of [a, b]) {
    assert.match(dir, /[/\\]focuscrawl-kit-[^/\\]+$/);
    assert.deepEqual(readdirSync(dir), []);
  }
});

test('temporary directories of a failed test file are gone when it ends: made at the top, in a before hook, in a test', () => {
  const scratch = tempDir('kit-run');
  const childTmp = join(scratch, 'tmp');
  mkdirSync(childTmp);
  const file = join(scratch, 'leaky.test.ts');
  writeFileSync(
    file,
    `import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { tempDir } from ${JSON.stringify(KIT)};
const top = tempDir('top');
let inBefore = '';
before(() => { inBefore = tempDir('before'); });
test('the before hook\\'s directory is still there in the test', () => {
  writeFileSync(join(inBefore, 'x'), 'x');
  writeFileSync(join(top, 'y'), 'y');
});
test('fails after making one', () => {
  writeFileSync(join(tempDir('failing'), 'z'), 'z');
  assert.fail('on purpose');
});
`,
  );
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=tap', file],
    {
      cwd: REPO,
      env: { ...outsideTests(), TMPDIR: childTmp },
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^# pass 1$/m);
  assert.match(r.stdout, /^# fail 1$/m);
  // Only tsx's cache of compiled files, `tsx-<user id>`, is left.
  assert.deepEqual(
    readdirSync(childTmp).filter((n) => !/^tsx-\d+$/.test(n)),
    [],
  );
  assert.ok(existsSync(childTmp));
});
