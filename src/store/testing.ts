/**
 * Test kit of the SQLite store's migrations (not published: tsconfig.build.json leaves
 * testing.ts files out).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { APPLICATION_ID, MIGRATIONS } from './schema.js';

/**
 * Makes `dir` a store directory whose crawl.db is as schema `version` left it: its
 * migrations only, applied the way the opener does. The caller writes rows and closes it.
 */
export function storeAtVersion(
  dir: string,
  version: number,
): { file: string; old: Database.Database } {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'crawl.db');
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  old
    .transaction(() => {
      for (const m of MIGRATIONS.slice(0, version)) old.exec(m);
      old.pragma(`application_id = ${APPLICATION_ID}`);
      old.pragma(`user_version = ${version}`);
    })
    .immediate();
  return { file, old };
}
