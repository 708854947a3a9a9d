// Runs every *.test.ts under src/ and test/ with Node's own test runner (through tsx).
//
//   node scripts/run-tests.mjs [SUBSTRING...]   # only the files whose path holds one of them
//
// Tests leave nothing behind: they run with TMPDIR set to a new directory of this run's
// own (os.tmpdir() and the programs the tests start honour it); whatever is left in it
// when the tests end is listed by name and fails the run. The directory is then removed.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the tools themselves keep in the temporary directory, not a test: tsx's cache of
 * compiled files, `tsx-<user id>`.
 */
const TOOL_CACHES = [/^tsx-\d+$/];

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
let files = [...walk('src', []), ...walk('test', [])].sort();
if (filter.length > 0) files = files.filter((f) => filter.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const runDir = mkdtempSync(join(tmpdir(), 'focuscrawl-test-'));
/** The tests' TMPDIR. */
const testTmp = join(runDir, 'tmp');
mkdirSync(testTmp);
// Open like /tmp: as root the tests run PostgreSQL as user postgres and some commands as
// user nobody, who reach their folders through it.
chmodSync(runDir, 0o755);
chmodSync(testTmp, 0o1777);
const tap = join(runDir, 'results.tap');

let status;
try {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { stdio: 'inherit', env: { ...process.env, TMPDIR: testTmp } },
  );
  status = r.status ?? 1;
  // A plain closing line with the totals, read from the TAP copy of the results.
  const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
  const count = (k) => Number(text.match(new RegExp(`^# ${k} (\\d+)$`, 'm'))?.[1] ?? 0);
  console.log(
    `tests: ${count('pass')} passed, ${count('fail')} failed, ${count('skipped')} skipped`,
  );

  const left = readdirSync(testTmp)
    .filter((name) => !TOOL_CACHES.some((re) => re.test(name)))
    .sort();
  if (left.length > 0) {
    console.error(
      `tests left ${left.length} ${left.length === 1 ? 'entry' : 'entries'} in the temporary directory (TMPDIR); every test removes what it makes:`,
    );
    for (const name of left) console.error(`  ${name}`);
    if (status === 0) status = 1;
  }
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(status);
