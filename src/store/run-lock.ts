/**
 * One crawl at a time on a store directory. A crawl takes `crawl.lock` in the store's
 * directory before it recovers the URLs a previous run left in processing, and gives
 * it back when it closes the store. The file names its owner (pid, host, start).
 *
 * A second crawl on the same store is refused (StoreBusyError, FC_ERR_STORE_BUSY)
 * while the owner lives: recovering would move the running crawl's claims back to
 * waiting, and both would fetch them. A lock whose owner is provably gone (same host,
 * pid not running: a `kill -9`, a crash, a power cut) is taken over at once, so that
 * a resume right after a kill works. An owner on another host cannot be checked: the
 * message says to delete the file if that machine's crawl is gone for good.
 *
 * A crawl whose worker thread dies (out of memory) cannot give the lock back itself;
 * the caller's thread removes it (`releaseOwnRunLock`).
 *
 * Readers (status, export, search) take no lock: the store serves them while a crawl
 * runs.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { StoreBusyError, StoreError } from '../errors/index.js';
import { isPermissionError, storePermissionError } from './access.js';
import { pidAlive } from './lease.js';

export const RUN_LOCK_FILE = 'crawl.lock';

/** Who holds a store's lock. */
export interface RunLockOwner {
  pid: number;
  host: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
}

/** A lock file this young with unreadable contents is being written, not abandoned. */
const WRITING_MS = 5_000;

function readOwner(path: string): RunLockOwner | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw e;
  }
  try {
    const o = JSON.parse(text) as Partial<RunLockOwner>;
    if (typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.startedAt === 'number')
      return { pid: o.pid, host: o.host, startedAt: o.startedAt };
  } catch {
    // unreadable: judged by its age below
  }
  return null;
}

/** The owner of `dir`'s lock when a live (or unverifiable) crawl holds it; else null. */
export function runLockOwner(dir: string): RunLockOwner | null {
  const owner = readOwner(join(dir, RUN_LOCK_FILE));
  if (owner === null || owner === 'gone') return null;
  if (owner.host === hostname() && !pidAlive(owner.pid)) return null;
  return owner;
}

/**
 * Takes the store's lock for this process; returns the function that gives it back
 * (idempotent; it leaves a lock that someone else has taken since alone).
 * @throws StoreBusyError naming the running crawl when it lives.
 */
export function acquireRunLock(dir: string): () => void {
  if (statOrNull(dir)?.isDirectory() === false) {
    throw new StoreError(`${dir} is not a store: it is a file, not a directory`);
  }
  try {
    return takeRunLock(dir);
  } catch (e) {
    // A store folder another user owns, or a read-only one: said as such, naming it.
    if (isPermissionError(e)) throw storePermissionError(dir, 'write to', statOrNull(dir), e);
    throw e;
  }
}

function statOrNull(dir: string) {
  try {
    return statSync(dir);
  } catch {
    return null;
  }
}

function takeRunLock(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, RUN_LOCK_FILE);
  const me: RunLockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw e;
    }
    const owner = readOwner(path);
    if (owner === 'gone') continue;
    if (owner === null) {
      let age = Number.POSITIVE_INFINITY;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if (age < WRITING_MS) throw busy(dir, path, null);
    } else if (owner.host !== hostname() || pidAlive(owner.pid)) {
      throw busy(dir, path, owner);
    }
    // Its owner is gone (or the file was never written whole): take it over.
    rmSync(path, { force: true });
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    removeIfHeld(path, (o) => o.pid === me.pid && o.startedAt === me.startedAt);
  };
}

/** Removes the lock file at `path` when its owner is `mine`. */
function removeIfHeld(path: string, mine: (o: RunLockOwner) => boolean): void {
  let owner: ReturnType<typeof readOwner>;
  try {
    owner = readOwner(path);
  } catch {
    return; // a lock this process cannot read is not one it holds
  }
  if (owner !== null && owner !== 'gone' && mine(owner)) rmSync(path, { force: true });
}

/**
 * Removes `dir`'s lock when it names this process: for a crawl whose thread died
 * before it could give the lock back (the process lives on, so no later crawl could
 * take the lock over).
 */
export function releaseOwnRunLock(dir: string): void {
  removeIfHeld(join(dir, RUN_LOCK_FILE), (o) => o.pid === process.pid && o.host === hostname());
}

function busy(dir: string, path: string, o: RunLockOwner | null): Error {
  if (o === null) {
    return new StoreBusyError(
      `store ${dir} is being locked by another crawl right now (${path}); try again in a few seconds`,
    );
  }
  const since = new Date(o.startedAt).toISOString();
  const remote = o.host !== hostname();
  return new StoreBusyError(
    `store ${dir} is in use by a crawl (pid ${o.pid} on ${o.host}, since ${since}): ` +
      `stop it (Ctrl-C in its terminal, or kill ${o.pid}) and run the same command again to resume` +
      (remote ? `; if that machine's crawl is gone for good, delete ${path}` : ''),
  );
}
