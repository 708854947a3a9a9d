// Temporary directories for tests, removed when the test process ends: tests leave
// nothing in the system's temporary directory (scripts/run-tests.mjs checks it).
//
//   const dir = tempDir('export');   // /tmp/focuscrawl-export-XXXXXX, empty
//
// Removed at the process's exit rather than by a `node:test` hook: an `after` registered
// inside a `before` hook runs as soon as that hook ends, one registered inside a test
// when that test ends; the exit of the test file's process comes after every test and
// hook of the file, passed or failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

process.on('exit', () => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory `focuscrawl-<name>-XXXXXX` in the temporary directory. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `focuscrawl-${name}-`));
  made.push(dir);
  return dir;
}
