/**
 * Page bodies of a PostgreSQL store: gzip-compressed (as in a store directory, under
 * the same names, `pages/<md5(url)>.gz`) and kept in one of three places, chosen by
 * the store URL's `?bodies=` (pg-body-open.ts):
 * - the `bodies` table (the default), written in the transaction that records the
 *   page, so that a body is stored exactly when its page is;
 * - a directory every worker mounts (pg-body-file.ts) or an S3-compatible bucket
 *   (pg-body-s3.ts), written before that transaction: a page is never recorded
 *   before its body is whole where every worker reads it.
 * The callers see one `BodyPlace` and ask only whether it writes in the transaction.
 */
import { StoreError } from '../errors/index.js';
import { compressBody, decompressBody } from './bodies.js';
import type { Sql } from './pg-db.js';

/** Where the bodies of a PostgreSQL store live. */
export interface BodyPlace {
  /** The place for messages and `status`: `database`, `file:///…`, `s3://bucket/prefix`. */
  readonly shown: string;
  /**
   * True for the database: a body is a row written by the transaction that records
   * its page (`put` and `get` need that transaction's `q`). False for a place
   * outside it, written before the transaction (`q` unused).
   */
  readonly inTransaction: boolean;
  /** Stores the compressed body `gz` under `name`, replacing any body of that name, whole or not at all. */
  put(name: string, gz: Uint8Array, q?: Sql): Promise<void>;
  /** The compressed body stored under `name`; null when there is none. */
  get(name: string, q?: Sql): Promise<Buffer | null>;
  /** Lets go of what the place holds open (connections). */
  close(): Promise<void>;
}

/** Compresses a body before its transaction starts (compression is not the database's work). */
export function packBody(body: Uint8Array): Promise<Buffer> {
  return compressBody(body);
}

function needsQ(op: string, q: Sql | undefined): Sql {
  if (q === undefined) throw new StoreError(`${op}: bodies in the database need a transaction`);
  return q;
}

/** Bodies as rows of the `bodies` table. */
export const DATABASE_BODIES: BodyPlace = {
  shown: 'database',
  inTransaction: true,
  async put(name, gz, q) {
    await needsQ('put body', q)(
      'INSERT INTO bodies (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = excluded.data',
      [name, gz],
    );
  },
  async get(name, q) {
    const rows = await needsQ('get body', q)<{ data: Buffer }>(
      'SELECT data FROM bodies WHERE name = $1',
      [name],
    );
    return rows[0]?.data ?? null;
  },
  async close() {},
};

/** The body stored under `name` in `place`, decompressed; null when there is none. */
export async function getBody(place: BodyPlace, name: string, q?: Sql): Promise<Buffer | null> {
  const gz = await place.get(name, q);
  return gz === null ? null : decompressBody(gz, `${place.shown} body ${name}`);
}

/**
 * Stores bodies outside the database, all at once; `StoreError` naming the first
 * that failed. Sorted by name, as the database place writes its rows.
 */
export async function putOutside(
  place: BodyPlace,
  bodies: Iterable<readonly [string, Uint8Array]>,
): Promise<void> {
  const all = [...bodies].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  await Promise.all(all.map(([name, gz]) => place.put(name, gz)));
}

const NAME_RE = /^pages\/[0-9a-f]{32}\.gz$/;

/**
 * Checks a body's name before it becomes a path or an object key: only the names
 * the store gives (`pages/<md5>.gz`), whatever a row of the database says.
 */
export function checkBodyName(where: string, name: string): void {
  if (!NAME_RE.test(name)) {
    throw new StoreError(`${where}: ${JSON.stringify(name)} is not a body name (pages/<md5>.gz)`);
  }
}
