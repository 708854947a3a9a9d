/**
 * What a store's location says without opening it: a `postgres://` URL is the
 * PostgreSQL store, anything else the directory of a SQLite store holding `DB_FILE`.
 * Kept apart from the stores so that a thread that only needs to know (the command
 * line's) loads neither database's code.
 */

/** The SQLite store's database file, in its directory. */
export const DB_FILE = 'crawl.db';

/** Whether `location` names a PostgreSQL store. */
export function isPgLocation(location: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(location);
}
