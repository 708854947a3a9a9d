import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { StoreBusyError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { acquireRunLock, RUN_LOCK_FILE, releaseOwnRunLock, runLockOwner } from './run-lock.js';

const dir = () => tempDir('lock');

/** The pid of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

test('a second lock on a store is refused while the first is held, naming its owner', () => {
  const d = dir();
  const release = acquireRunLock(d);
  const owner = runLockOwner(d);
  assert.equal(owner?.pid, process.pid);
  assert.equal(owner?.host, hostname());
  assert.throws(
    () => acquireRunLock(d),
    (e: unknown) =>
      e instanceof StoreBusyError &&
      e.code === 'FC_ERR_STORE_BUSY' &&
      e.message.includes(`pid ${process.pid}`) &&
      e.message.includes('run the same command again'),
  );
  release();
  release(); // idempotent
  assert.equal(runLockOwner(d), null);
  acquireRunLock(d)();
});

test('a lock whose process died on this host is taken over at once (a resume after kill -9)', () => {
  const d = dir();
  const pid = deadPid();
  writeFileSync(
    join(d, RUN_LOCK_FILE),
    JSON.stringify({ pid, host: hostname(), startedAt: Date.now() - 1000 }),
  );
  assert.equal(runLockOwner(d), null);
  const release = acquireRunLock(d);
  assert.equal(JSON.parse(readFileSync(join(d, RUN_LOCK_FILE), 'utf8')).pid, process.pid);
  release();
});

test('another host’s lock is never taken over; a torn lock file is, once old', () => {
  const d = dir();
  writeFileSync(
    join(d, RUN_LOCK_FILE),
    JSON.stringify({ pid: deadPid(), host: 'elsewhere.example', startedAt: 0 }),
  );
  assert.throws(() => acquireRunLock(d), /on elsewhere\.example.*delete .*crawl\.lock/);
  const torn = dir();
  writeFileSync(join(torn, RUN_LOCK_FILE), '{"pid":');
  assert.throws(() => acquireRunLock(torn), StoreBusyError, 'being written: wait');
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(join(torn, RUN_LOCK_FILE), old, old);
  acquireRunLock(torn)();
});

test('release leaves a lock that another owner has taken since', () => {
  const d = dir();
  const release = acquireRunLock(d);
  const other = JSON.stringify({ pid: process.pid, host: hostname(), startedAt: 1 });
  writeFileSync(join(d, RUN_LOCK_FILE), other);
  release();
  assert.equal(readFileSync(join(d, RUN_LOCK_FILE), 'utf8'), other);
});

test('releaseOwnRunLock removes only a lock naming this process', () => {
  const d = dir();
  const other = JSON.stringify({ pid: process.pid + 1, host: hostname(), startedAt: 1 });
  writeFileSync(join(d, RUN_LOCK_FILE), other);
  releaseOwnRunLock(d);
  assert.equal(readFileSync(join(d, RUN_LOCK_FILE), 'utf8'), other);
  writeFileSync(
    join(d, RUN_LOCK_FILE),
    JSON.stringify({ pid: process.pid, host: hostname(), startedAt: 1 }),
  );
  releaseOwnRunLock(d);
  assert.equal(runLockOwner(d), null);
  releaseOwnRunLock(d); // no lock: nothing to do
});
