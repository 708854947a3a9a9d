/**
 * A store by its location, as users give it to `--store`: a directory (the SQLite
 * store) or a `postgres://` URL (the PostgreSQL store, docs/scale-out.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from './contracts.js';
import { DB_FILE, isPgLocation } from './location.js';
import type { StoreOptionsInput } from './options.js';

/** The directory of a store kept in one (SQLite); undefined for a database URL. */
export function storeDirOf(location: string): string | undefined {
  return isPgLocation(location) ? undefined : location;
}

/**
 * Opens the store at `location`: a directory (`openStore`) or a postgres:// URL
 * (`openPgStore`), with the same options and the same errors.
 */
export async function connectStore(location: string, options?: StoreOptionsInput): Promise<Store> {
  // Loaded here: the command line's thread knows a location without either store.
  if (isPgLocation(location)) {
    const { openPgStore } = await import('./pg-open.js');
    return openPgStore(location, options);
  }
  const { openStore } = await import('./sqlite-open.js');
  return openStore(location, options);
}

/**
 * Whether a store exists at `location` already: for a directory, its database file;
 * for a URL, a schema that opens as a store (an unreachable database counts as none:
 * opening it says why).
 */
export async function storeExists(location: string): Promise<boolean> {
  if (!isPgLocation(location)) return existsSync(join(location, DB_FILE));
  try {
    const s = await connectStore(location, { readonly: true });
    await s.close();
    return true;
  } catch {
    return false;
  }
}
