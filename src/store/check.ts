/**
 * `focuscrawl check`: what is wrong with a store directory, and what can be put right.
 *
 * - `crawl.db`: present, a SQLite database (its header), opened, and SQLite's own
 *   `quick_check` (or `integrity_check` with `full`); the full-text index's own check.
 * - Page files (bodies.ts): every file a page or a kept version names is there and is
 *   whole gzip; files no row names, and leftovers of interrupted writes in `tmp/`.
 *
 * With `repair` (the crawl's lock taken, so never beside a running crawl): indexes are
 * rebuilt (`REINDEX`), the full-text index is rebuilt from its rows, a missing or
 * damaged page file is forgotten (its row stays, without a body) and the damaged file
 * removed, files no row names and `tmp/` leftovers are removed. A database whose
 * tables themselves are damaged cannot be repaired here: the report says so.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { StoreError } from '../errors/index.js';
import { DB_FILE } from './location.js';
import { acquireRunLock } from './run-lock.js';

export type CheckPart = 'database' | 'search index' | 'page file' | 'leftover';

export interface CheckProblem {
  part: CheckPart;
  /** The file (relative to the store) or table concerned. */
  where: string;
  message: string;
  /** True once `repair` put it right. */
  repaired: boolean;
}

export interface CheckReport {
  dir: string;
  problems: CheckProblem[];
  /** Page files read. */
  pageFiles: number;
  /** Problems left (not repaired). */
  left: number;
}

export interface CheckOptions {
  /** Put right what can be. @default false */
  repair?: boolean;
  /** SQLite's `integrity_check` instead of the quicker `quick_check`. @default false */
  full?: boolean;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

function header(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(16);
    const n = readSync(fd, b, 0, 16, 0);
    return b.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Whether `data` is whole gzip (its trailer read: a truncated file fails). */
function wholeGzip(data: Buffer): string | null {
  if (data.length === 0) return 'empty';
  try {
    gunzipSync(data);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Checks (and with `repair`, repairs) the store in `dir`. */
export async function checkStore(dir: string, options: CheckOptions = {}): Promise<CheckReport> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new StoreError(`${dir}: no store directory there`);
  }
  const dbPath = join(dir, DB_FILE);
  if (!existsSync(dbPath)) throw new StoreError(`${dir}: no ${DB_FILE} (not a store directory)`);
  const repair = options.repair === true;
  const release = repair ? acquireRunLock(dir) : () => {};
  try {
    return await check(dir, dbPath, repair, options.full === true);
  } finally {
    release();
  }
}

async function check(
  dir: string,
  dbPath: string,
  repair: boolean,
  full: boolean,
): Promise<CheckReport> {
  const problems: CheckProblem[] = [];
  const report = (): CheckReport => ({
    dir,
    problems,
    pageFiles,
    left: problems.filter((p) => !p.repaired).length,
  });
  let pageFiles = 0;
  const h = header(dbPath);
  if (!h.equals(SQLITE_HEADER)) {
    problems.push({
      part: 'database',
      where: DB_FILE,
      message:
        h.length === 0
          ? 'the file is empty: restore it from a backup'
          : 'the file is not a SQLite database (its first bytes are not the SQLite header): restore it from a backup',
      repaired: false,
    });
    return report();
  }
  let db: Database.Database;
  try {
    // Writable even to check: the full-text index checks itself through an INSERT
    // (it writes nothing); nothing else is written without `repair`.
    db = new Database(dbPath, { fileMustExist: true });
    db.pragma('busy_timeout = 10000');
  } catch (e) {
    problems.push({
      part: 'database',
      where: DB_FILE,
      message: `cannot be opened: ${(e as Error).message}`,
      repaired: false,
    });
    return report();
  }
  try {
    await checkDatabase(db, problems, repair, full);
    if (problems.some((p) => p.part === 'database' && !p.repaired)) return report();
    await checkSearch(db, dir, problems, repair);
    pageFiles = await checkPageFiles(dir, db, problems, repair);
  } finally {
    db.close();
  }
  return report();
}

function integrity(db: Database.Database, full: boolean): string[] {
  const rows = db.pragma(full ? 'integrity_check' : 'quick_check') as Record<string, string>[];
  const lines = rows.map((r) => String(Object.values(r)[0]));
  // The full-text index's own damage is the search index's problem (checkSearch).
  return lines.filter((l) => l !== 'ok' && !l.startsWith('fts5:'));
}

async function checkDatabase(
  db: Database.Database,
  problems: CheckProblem[],
  repair: boolean,
  full: boolean,
): Promise<void> {
  let lines: string[];
  try {
    lines = integrity(db, full);
  } catch (e) {
    lines = [(e as Error).message];
  }
  if (lines.length === 0) return;
  let repaired = false;
  if (repair) {
    try {
      db.exec('REINDEX');
      repaired = integrity(db, full).length === 0;
    } catch {
      repaired = false;
    }
  }
  const shown = lines.slice(0, 10).join('; ');
  problems.push({
    part: 'database',
    where: DB_FILE,
    message: `SQLite finds it damaged (${lines.length} problem${lines.length === 1 ? '' : 's'}: ${shown})${
      repaired
        ? ''
        : repair
          ? ': rebuilding the indexes did not mend it; restore a backup, or export what can be read'
          : ': --repair rebuilds the indexes, which mends a damaged index'
    }`,
    repaired,
  });
}

async function checkSearch(
  db: Database.Database,
  dir: string,
  problems: CheckProblem[],
  repair: boolean,
): Promise<void> {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'page_text'")
    .get();
  if (exists === undefined) return;
  const ok = () => {
    try {
      db.prepare("INSERT INTO page_text(page_text, rank) VALUES ('integrity-check', 1)").run();
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  const bad = ok();
  if (bad === null) return;
  let repaired = false;
  if (repair) {
    try {
      // Loaded here: rebuilding parses stored bodies, which nothing else of the store needs.
      await (await import('./text-rebuild.js')).rebuildTextIndex(db, dir);
      repaired = ok() === null;
    } catch {
      repaired = false;
    }
  }
  problems.push({
    part: 'search index',
    where: 'page_text',
    message: `the full-text index does not match its rows (${bad})${repaired || repair ? '' : ': --repair rebuilds it'}`,
    repaired,
  });
}

async function checkPageFiles(
  dir: string,
  db: Database.Database,
  problems: CheckProblem[],
  repair: boolean,
): Promise<number> {
  const named = new Map<string, { table: 'pages' | 'visits'; url: string }>();
  // Kept versions (visits) exist from the schema that brought revisits on.
  const visits = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'visits'")
    .get();
  const rows = db
    .prepare(
      `SELECT 'pages' AS t, u.url, p.body_file AS f FROM pages p JOIN urls u ON u.id = p.url_id
       WHERE p.body_file IS NOT NULL${
         visits === undefined
           ? ''
           : ` UNION ALL SELECT 'visits', u.url, v.body_file FROM visits v
               JOIN urls u ON u.id = v.url_id WHERE v.body_file IS NOT NULL`
       }`,
    )
    .all() as { t: 'pages' | 'visits'; url: string; f: string }[];
  for (const r of rows) named.set(r.f, { table: r.t, url: r.url });
  let read = 0;
  for (const [file, { table, url }] of named) {
    let data: Buffer | null = null;
    try {
      data = await readFile(join(dir, file));
    } catch {
      data = null;
    }
    read++;
    const why = data === null ? 'missing' : wholeGzip(data);
    if (why === null) continue;
    if (repair) {
      db.prepare(`UPDATE ${table} SET body_file = NULL WHERE body_file = ?`).run(file);
      if (data !== null) await rm(join(dir, file), { force: true });
    }
    problems.push({
      part: 'page file',
      where: file,
      message: `the body of ${url} is ${data === null ? 'missing' : `damaged (${why})`}${repair ? ': forgotten (the page stays, without its body)' : ': --repair forgets it (the page stays, without its body)'}`,
      repaired: repair,
    });
  }
  for (const sub of ['pages', 'tmp']) {
    const at = join(dir, sub);
    if (!existsSync(at)) continue;
    const stray = readdirSync(at).filter((n) => sub === 'tmp' || !named.has(`${sub}/${n}`));
    if (stray.length === 0) continue;
    if (repair) for (const n of stray) await rm(join(at, n), { force: true, recursive: true });
    problems.push({
      part: 'leftover',
      where: `${sub}/`,
      message: `${stray.length} file${stray.length === 1 ? '' : 's'} no row names (${stray.slice(0, 3).join(', ')}${stray.length > 3 ? ', …' : ''})${repair ? ': removed' : ': --repair removes them'}`,
      repaired: repair,
    });
  }
  return read;
}
