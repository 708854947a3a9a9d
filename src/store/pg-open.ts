/**
 * Opening a PostgreSQL store from its URL, `postgres://user@host:port/db?schema=s`:
 * check that the schema is a focuscrawl store this code can read (a newer one is
 * refused untouched), create it when asked, bring an older one up to date under an
 * advisory lock (two processes opening a new store at once create it once), and
 * set the pool up on that schema.
 */
import type pg from 'pg';
import {
  FocusCrawlError,
  InvalidOptionError,
  StoreError,
  StoreVersionError,
} from '../errors/index.js';
import { parseStoreOptions, type StoreOptionsInput } from './options.js';
import { PgStore } from './pg.js';
import type { BodyPlace } from './pg-bodies.js';
import { type BodiesSpec, openBodyPlace, parseBodies } from './pg-body-open.js';
import { PgDb, type Sql } from './pg-db.js';
import { PG_APPLICATION, PG_MIGRATIONS, PG_SCHEMA_VERSION } from './pg-schema.js';

/** The schema a store URL without `?schema=` names. */
export const DEFAULT_PG_SCHEMA = 'focuscrawl';
/** Connections of a store's pool unless `?pool=` says otherwise. */
const DEFAULT_POOL = 8;
const SCHEMA_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export interface PgLocation {
  /** The connection string for the driver (without focuscrawl's own parameters). */
  connectionString: string;
  schema: string;
  pool: number;
  /** Where the bodies live (`?bodies=`); undefined: where the store recorded them. */
  bodies: BodiesSpec | undefined;
  /** The URL without its password, for messages. */
  shown: string;
}

/** Reads a store URL; `InvalidOptionError` naming what is wrong. */
export function parsePgLocation(location: string): PgLocation {
  let u: URL;
  try {
    u = new URL(location);
  } catch {
    throw new InvalidOptionError(
      `not a PostgreSQL store URL: ${JSON.stringify(location)} (expected postgres://user@host:port/database?schema=name)`,
    );
  }
  if (!/^postgres(?:ql)?:$/i.test(u.protocol)) {
    throw new InvalidOptionError(`not a PostgreSQL store URL: ${JSON.stringify(location)}`);
  }
  const schema = u.searchParams.get('schema') ?? DEFAULT_PG_SCHEMA;
  if (!SCHEMA_RE.test(schema)) {
    throw new InvalidOptionError(
      `${redact(u)}: schema must be letters, digits and _ (not starting with a digit, at most 63), got ${JSON.stringify(schema)}`,
    );
  }
  const poolText = u.searchParams.get('pool');
  const pool = poolText === null ? DEFAULT_POOL : Number(poolText);
  if (!Number.isInteger(pool) || pool < 1 || pool > 1000) {
    throw new InvalidOptionError(
      `${redact(u)}: pool must be an integer 1 … 1000, got ${JSON.stringify(poolText)}`,
    );
  }
  const bodiesText = u.searchParams.get('bodies');
  const bodies = bodiesText === null ? undefined : parseBodies(bodiesText, `${redact(u)}: bodies`);
  const shown = redact(u, schema);
  for (const p of ['schema', 'pool', 'bodies']) u.searchParams.delete(p);
  return { connectionString: u.toString(), schema, pool, bodies, shown };
}

function redact(u: URL, schema?: string): string {
  const c = new URL(u.toString());
  if (c.password !== '') c.password = '***';
  if (schema !== undefined) c.searchParams.set('schema', schema);
  return c.toString();
}

/** 64-bit integers (ids, times) as numbers: they stay below 2^53. */
const INT8 = 20;
function typesOf(driver: typeof pg) {
  return {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8 && format !== 'binary'
        ? (v: string) => Number(v)
        : driver.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
}

/** The store's schema version: 0 for a missing or empty schema; refuses foreign ones. */
async function probe(q: Sql, loc: PgLocation): Promise<{ exists: boolean; version: number }> {
  const ns = await q<{ n: number }>(
    `SELECT count(c.oid)::int AS n FROM pg_namespace s LEFT JOIN pg_class c ON c.relnamespace = s.oid
     WHERE s.nspname = $1 GROUP BY s.oid`,
    [loc.schema],
  );
  if (ns.length === 0) return { exists: false, version: 0 };
  if ((ns[0] as { n: number }).n === 0) return { exists: true, version: 0 };
  const info = await q<{ t: string | null }>(`SELECT to_regclass($1)::text AS t`, [
    `"${loc.schema}".schema_info`,
  ]);
  if (info[0]?.t === null || info[0]?.t === undefined) {
    throw new StoreError(
      `${loc.shown} is not a focuscrawl store: schema ${loc.schema} holds other tables (no schema_info)`,
    );
  }
  const rows = await q<{ application: string; version: number }>(
    `SELECT application, version FROM "${loc.schema}".schema_info`,
  );
  const row = rows[0];
  if (row === undefined || row.application !== PG_APPLICATION) {
    throw new StoreError(
      `${loc.shown} is not a focuscrawl store: schema_info does not name focuscrawl`,
    );
  }
  if (row.version > PG_SCHEMA_VERSION) {
    throw new StoreVersionError(
      `${loc.shown} has store schema version ${row.version}, newer than this focuscrawl understands (${PG_SCHEMA_VERSION}); upgrade focuscrawl to open it. The store was not modified.`,
    );
  }
  return { exists: true, version: row.version };
}

/** Creates or upgrades the schema in one transaction, under an advisory lock. */
async function migrate(client: pg.PoolClient, loc: PgLocation): Promise<void> {
  const q: Sql = async (text, params) => (await client.query(text, params as unknown[])).rows;
  await q('BEGIN');
  try {
    await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`focuscrawl.migrate.${loc.schema}`]);
    const { version } = await probe(q, loc); // again, under the lock
    if (version < PG_SCHEMA_VERSION) {
      await q(`CREATE SCHEMA IF NOT EXISTS "${loc.schema}"`);
      await q(`SET LOCAL search_path TO "${loc.schema}"`);
      if (version === 0) {
        await q('CREATE TABLE schema_info (application text NOT NULL, version integer NOT NULL)');
        await q('INSERT INTO schema_info VALUES ($1, 0)', [PG_APPLICATION]);
      }
      for (let v = version; v < PG_SCHEMA_VERSION; v++) await q(PG_MIGRATIONS[v] as string);
      await q('UPDATE schema_info SET version = $1', [PG_SCHEMA_VERSION]);
    }
    await q('COMMIT');
  } catch (e) {
    await q('ROLLBACK').catch(() => {});
    throw e;
  }
}

/**
 * Opens the PostgreSQL store at `location` (a postgres:// URL; `?schema=` names the
 * schema, default `focuscrawl`; `?pool=` the connections, default 8; `?bodies=` where
 * the bodies live, pg-body-open.ts: default where the store recorded them). Throws
 * `StoreError` naming the URL when the database cannot be reached, the schema is
 * missing (without `create`) or is not a store, `StoreVersionError` for a newer
 * schema (left untouched), `InvalidOptionError` for a bad URL or options.
 *
 * Opening does not recover: a crawler calls `recover()` before claiming.
 */
export async function openPgStore(location: string, options?: StoreOptionsInput): Promise<PgStore> {
  const o = parseStoreOptions(options);
  const loc = parsePgLocation(location);
  // Loaded here: a process that crawls a store directory never loads the driver.
  const { default: driver } = await import('pg');
  const types = typesOf(driver);
  const newPool = (max: number) => {
    const p = new driver.Pool({
      connectionString: loc.connectionString,
      max,
      application_name: 'focuscrawl',
      options: `-c search_path="${loc.schema}"${o.readonly ? ' -c default_transaction_read_only=on' : ''}`,
      types,
      connectionTimeoutMillis: 30_000,
    });
    // An idle client's error (the server went away) must not crash the process: the
    // next call on the pool reports it.
    p.on('error', () => {});
    return p;
  };
  const pool = newPool(loc.pool);
  let bodies: BodyPlace | undefined;
  try {
    const client = await pool.connect().catch((e: Error) => {
      throw new StoreError(`cannot connect to the store ${loc.shown}: ${e.message}`, { cause: e });
    });
    try {
      const q: Sql = async (text, params) => (await client.query(text, params as unknown[])).rows;
      const { exists, version } = await probe(q, loc);
      if (!exists && !o.create) {
        throw new StoreError(`no store at ${loc.shown}: schema ${loc.schema} does not exist`);
      }
      if (version === 0 && !o.create) {
        throw new StoreError(`${loc.shown}: schema ${loc.schema} is empty, not a focuscrawl store`);
      }
      if (version < PG_SCHEMA_VERSION) {
        if (o.readonly) {
          throw new StoreError(
            `${loc.shown} has store schema version ${version} and needs upgrading to ${PG_SCHEMA_VERSION}: open it once for writing`,
          );
        }
        await migrate(client, loc);
      }
      // Fresh statistics for the planner: before autovacuum's first analyze, a claim on a
      // store filled in bulk would sort the whole frontier instead of walking its index.
      if (!o.readonly) await q('ANALYZE urls');
      bodies = await openBodyPlace(q, loc.shown, loc.bodies, !o.readonly);
    } finally {
      client.release();
    }
    return new PgStore(
      new PgDb(pool, loc.shown, loc.schema, o.readonly, () => newPool(1)),
      bodies,
      // The coordinator's lock lives as long as its session: a connection of its own.
      () =>
        new driver.Client({
          connectionString: loc.connectionString,
          application_name: 'focuscrawl coordinator',
          options: `-c search_path="${loc.schema}"`,
          connectionTimeoutMillis: 30_000,
          keepAlive: true,
        }),
    );
  } catch (e) {
    await bodies?.close().catch(() => {});
    await pool.end().catch(() => {});
    if (e instanceof FocusCrawlError) throw e;
    throw new StoreError(`cannot open the store ${loc.shown}: ${(e as Error).message}`, {
      cause: e,
    });
  }
}
