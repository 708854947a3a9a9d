/**
 * Whether this process may use a store directory, said as what it is: a store that
 * another user owns (mode 700) or that is read-only is a permission problem naming the
 * directory, its owner and mode, not "not a focuscrawl store"; a folder that holds
 * other files and no store is refused before a store is made among them.
 */
import { constants, type Stats } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { StoreError } from '../errors/index.js';

/** The error codes of a refusal by permissions or a read-only file system. */
const DENIED = new Set(['EACCES', 'EPERM', 'EROFS']);

/** Whether `e` is a refusal by permissions (or a read-only file system). */
export function isPermissionError(e: unknown): boolean {
  return DENIED.has((e as NodeJS.ErrnoException | null)?.code ?? '');
}

/** `owned by user id 0, mode 700; this process runs as user id 65534`, as far as known. */
function whose(st: Stats | null): string {
  if (st === null) return '';
  const me =
    typeof process.getuid === 'function' ? `; focuscrawl runs as user id ${process.getuid()}` : '';
  return ` (owned by user id ${st.uid}, mode ${(st.mode & 0o777).toString(8)}${me})`;
}

/**
 * The error for a store directory `dir` this process may not `doing` (read, write to):
 * it names the directory, its owner and mode, and what to do.
 */
export function storePermissionError(
  dir: string,
  doing: 'read' | 'write to',
  st: Stats | null,
  cause?: unknown,
  note = '',
): InstanceType<typeof StoreError> {
  const ro = (cause as { code?: unknown } | undefined)?.code === 'EROFS';
  const why = ro ? 'it is on a read-only file system' : `permission denied${whose(st)}`;
  return new StoreError(
    `cannot ${doing} the store ${dir}: ${why}${note}; run focuscrawl as the store's owner, or give this user access to the folder and its files`,
    cause === undefined ? undefined : { cause },
  );
}

/** The refusal by permissions of `mode` on `path`; null when it is allowed. */
async function denied(path: string, mode: number): Promise<unknown> {
  try {
    await access(path, mode);
    return null;
  } catch (e) {
    // Another problem (the path gone meanwhile) is said by whatever uses it next.
    return isPermissionError(e) ? e : null;
  }
}

/**
 * Refuses (StoreError) a store directory `dir` (its `st`) whose folder or database
 * `dbPath` this process may not read, or write when `write`. Reading a store also needs
 * its folder writable while SQLite's shared-memory file is missing; that is said by
 * the open itself (`describeOpenFailure`).
 */
export async function checkStoreAccess(
  dir: string,
  st: Stats,
  dbPath: string,
  dbExists: boolean,
  write: boolean,
): Promise<void> {
  const { R_OK, W_OK, X_OK } = constants;
  const checks: [string, number, 'read' | 'write to'][] = [
    [dir, R_OK | X_OK, 'read'],
    ...(dbExists ? [[dbPath, R_OK, 'read'] as [string, number, 'read']] : []),
    ...(write ? [[dir, W_OK, 'write to'] as [string, number, 'write to']] : []),
    ...(write && dbExists ? [[dbPath, W_OK, 'write to'] as [string, number, 'write to']] : []),
  ];
  for (const [path, mode, doing] of checks) {
    const e = await denied(path, mode);
    if (e !== null) throw storePermissionError(dir, doing, st, e);
  }
}

/** What a store directory may hold before its database is made: the store's own files. */
const STORE_NAMES = new Set([
  'crawl.db',
  'crawl.db-wal',
  'crawl.db-shm',
  'crawl.db-journal',
  'crawl.lock',
  'pages',
  'tmp',
  'site-model.json',
]);

/**
 * Refuses (StoreError) to make a store in `dir`, a folder without a store database,
 * when it holds anything but a store's own files: `--store` pointed at a folder of
 * other files would scatter a store among them. An empty folder is fine.
 */
export async function refuseForeignFolder(dir: string): Promise<void> {
  const names = (await readdir(dir)).filter((n) => !STORE_NAMES.has(n)).sort();
  if (names.length === 0) return;
  const shown = names
    .slice(0, 3)
    .map((n) => JSON.stringify(n))
    .join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  throw new StoreError(
    `${dir} is not a focuscrawl store and not empty (it holds ${shown}${more}): give a new or empty folder to start a crawl in, or the folder of an existing store`,
  );
}

/** SQLite's result codes of an open refused by permissions or a read-only medium. */
const SQLITE_DENIED = /^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)/;

/**
 * The error for a failed SQLite open of `dbPath` in `dir` when it was a permission
 * problem (the database, or its folder where SQLite keeps its WAL and shared memory,
 * not writable by this process); undefined when it was something else.
 */
export async function describeOpenFailure(
  dir: string,
  st: Stats,
  dbPath: string,
  e: unknown,
  readonly: boolean,
): Promise<InstanceType<typeof StoreError> | undefined> {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !SQLITE_DENIED.test(code)) return undefined;
  const { R_OK, W_OK } = constants;
  const read = await denied(dbPath, R_OK);
  if (read !== null) return storePermissionError(dir, 'read', st, read);
  const write = (await denied(dir, W_OK)) ?? (await denied(dbPath, W_OK));
  if (write !== null) {
    // Reading too: SQLite keeps a shared-memory file beside a WAL database.
    const note = readonly
      ? ` (SQLite writes ${basename(dbPath)}-shm beside the database even to read it)`
      : '';
    return storePermissionError(dir, readonly ? 'read' : 'write to', st, write, note);
  }
  return undefined;
}
