// Runs every *.test.ts under src/ and test/ with Node's own test runner (through tsx).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
const tap = join(mkdtempSync(join(tmpdir(), 'focuscrawl-test-')), 'results.tap');
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
  { stdio: 'inherit' },
);
// A plain closing line with the totals, read from the TAP copy of the results.
const text = readFileSync(tap, 'utf8');
const count = (k) => Number(text.match(new RegExp(`^# ${k} (\\d+)$`, 'm'))?.[1] ?? 0);
console.log(`tests: ${count('pass')} passed, ${count('fail')} failed, ${count('skipped')} skipped`);
process.exit(r.status ?? 1);
