/**
 * Opening a SQLite store: find or create the directory, make sure `crawl.db` is a
 * focuscrawl store this code can read (probing it read-only first, so that a store
 * from a newer version or a foreign file is refused without being touched), bring
 * an older schema up to date, and set the connection up.
 */
import { existsSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  FocusCrawlError,
  InvalidOptionError,
  StoreError,
  StoreVersionError,
} from '../errors/index.js';
import {
  checkStoreAccess,
  describeOpenFailure,
  isPermissionError,
  refuseForeignFolder,
  storePermissionError,
} from './access.js';
import { BodyFiles, type BodyWriting } from './bodies.js';
/** The database file inside a store directory. */
import { DB_FILE } from './location.js';
import { parseStoreOptions, type StoreOptionsInput } from './options.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { SqliteStore } from './sqlite.js';

/** SQLite page cache of the connection, in KiB (the frontier itself stays on disk). */
const CACHE_KIB = 8 * 1024;
/** WAL size (in 4 KiB pages) that triggers a checkpoint (SQLite's default: 1000). */
const CHECKPOINT_PAGES = 10_000;

/**
 * The schema version of the store at `dbPath`, or 0 for an empty database file.
 * Refuses foreign files (`StoreError`) and newer stores (`StoreVersionError`).
 */
function probe(dbPath: string): number {
  let db: Database.Database | undefined;
  let app: number;
  let version: number;
  let objects: number;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    app = db.pragma('application_id', { simple: true }) as number;
    version = db.pragma('user_version', { simple: true }) as number;
    objects = db.prepare('SELECT count(*) FROM sqlite_master').pluck().get() as number;
  } catch (e) {
    throw new StoreError(`${dbPath} is not a focuscrawl store: ${(e as Error).message}`, {
      cause: e,
    });
  } finally {
    db?.close();
  }
  if (app === APPLICATION_ID) {
    if (version > SCHEMA_VERSION) {
      throw new StoreVersionError(
        `${dbPath} has store schema version ${version}, newer than this focuscrawl understands (${SCHEMA_VERSION}); upgrade focuscrawl to open it. The store was not modified.`,
      );
    }
    return version;
  }
  if (app === 0 && version === 0 && objects === 0) return 0;
  throw new StoreError(
    `${dbPath} is not a focuscrawl store (SQLite application_id ${app}, ${objects} schema objects)`,
  );
}

/** Applies the missing migrations in one transaction. */
function migrate(db: Database.Database, dbPath: string): void {
  db.transaction(() => {
    const from = db.pragma('user_version', { simple: true }) as number;
    if (from > SCHEMA_VERSION) {
      throw new StoreVersionError(
        `${dbPath} has store schema version ${from}, newer than this focuscrawl understands (${SCHEMA_VERSION})`,
      );
    }
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v] as string);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/**
 * Opens the SQLite store in directory `dir` (`crawl.db` and `pages/`), creating it
 * when `create` is set. Throws `StoreError` naming the path when there is no store
 * or the file is not one, `StoreVersionError` when it was written by a newer
 * version (the store is left untouched), `InvalidOptionError` for bad options.
 *
 * Opening does not recover: a crawler calls `recover()` before claiming.
 */
export function openStore(dir: string, options?: StoreOptionsInput): Promise<SqliteStore> {
  return openSqliteStore(dir, options);
}

/**
 * `openStore` with a replaceable URL hash (for tests of hash collisions) and a
 * choice of where page files are written (`inline` inside the store's own thread).
 */
export async function openSqliteStore(
  dir: string,
  options: StoreOptionsInput | undefined,
  hashUrl?: (url: string) => number,
  bodyWriting: BodyWriting = 'thread',
): Promise<SqliteStore> {
  const o = parseStoreOptions(options);
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidOptionError(`openStore: expected a directory path, got ${String(dir)}`);
  }
  const dbPath = join(dir, DB_FILE);
  const st = await stat(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    if (isPermissionError(e)) throw storePermissionError(dir, 'read', null, e);
    throw new StoreError(`cannot open the store ${dir}: ${e.message}`, { cause: e });
  });
  if (st === null) {
    if (!o.create) {
      throw new StoreError(`no store at ${dir}: the directory does not exist`);
    }
    await mkdir(dir, { recursive: true }).catch((e: Error) => {
      throw new StoreError(`cannot create the store directory ${dir}: ${e.message}`, { cause: e });
    });
  } else if (!st.isDirectory()) {
    throw new StoreError(`${dir} is not a store: it is a file, not a directory`);
  }

  const exists = existsSync(dbPath);
  if (st !== null) {
    // A store this user may not use is said to be so, not taken for a missing one.
    await checkStoreAccess(dir, st, dbPath, exists, !o.readonly);
    if (!exists && o.create) await refuseForeignFolder(dir);
  }
  if (!exists && !o.create) throw new StoreError(`no store at ${dir}: ${dbPath} is missing`);
  let version = 0;
  try {
    version = exists ? probe(dbPath) : 0;
  } catch (e) {
    throw (
      (st !== null
        ? await describeOpenFailure(dir, st, dbPath, (e as Error).cause, o.readonly)
        : undefined) ?? e
    );
  }
  if (version === 0 && !o.create) {
    throw new StoreError(`${dbPath} is an empty database, not a focuscrawl store`);
  }
  if (version < SCHEMA_VERSION && o.readonly) {
    throw new StoreError(
      `${dbPath} has store schema version ${version} and needs upgrading to ${SCHEMA_VERSION}: open it once for writing`,
    );
  }

  let db: Database.Database | undefined;
  try {
    db = new Database(dbPath, { readonly: o.readonly });
    if (!o.readonly) db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${o.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('busy_timeout = 10000');
    db.pragma(`cache_size = -${CACHE_KIB}`);
    // Fewer, larger checkpoints: a page written by many transactions is copied back once.
    db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${CHECKPOINT_PAGES * 4096 * 2}`);
    if (version < SCHEMA_VERSION) migrate(db, dbPath);
    const bodies = new BodyFiles(dir, bodyWriting);
    if (!o.readonly) await bodies.init();
    return new SqliteStore(db, dbPath, bodies, o.readonly, hashUrl);
  } catch (e) {
    db?.close();
    if (e instanceof FocusCrawlError) throw e;
    const denied =
      st === null ? undefined : await describeOpenFailure(dir, st, dbPath, e, o.readonly);
    if (denied !== undefined) throw denied;
    throw new StoreError(`cannot open the store ${dbPath}: ${(e as Error).message}`, { cause: e });
  }
}
