// The Store conformance suite on PostgreSQL: every contract, each test on a fresh
// schema of one throwaway cluster (test/pg.ts), with the bodies in each of their
// places: the database, a directory (as every worker would mount it), and an
// S3-compatible bucket (test/s3.ts, on 127.0.0.1).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { storeConformance } from '../src/store/conformance.js';
import { openPgStore } from '../src/store/pg-open.js';
import { tempDir } from '../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from './pg.js';
import { type S3Server, startS3 } from './s3.js';

const DB = 'conformance';
const BUCKET = 'bodies';
let pg: PgCluster | undefined;
let s3: S3Server | undefined;
const root = tempDir('pg-bodies');
let counter = 0;

describe('PostgreSQL store', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
    s3 = await startS3(BUCKET);
    Object.assign(process.env, s3.env);
  });
  after(async () => {
    try {
      await s3?.stop();
    } finally {
      await pg?.stop();
    }
  });

  const url = (schema: string, bodies = '') =>
    `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=${schema}${bodies === '' ? '' : `&bodies=${encodeURIComponent(bodies)}`}`;
  const drop = (schema: string) => pg?.psql(DB, ['-c', `DROP SCHEMA IF EXISTS ${schema} CASCADE`]);

  storeConformance('postgres', async () => {
    const schema = `s${++counter}`;
    return {
      store: await openPgStore(url(schema), { create: true }),
      reopen: () => openPgStore(url(schema)),
      another: () => openPgStore(url(schema)),
      cleanup: async () => {
        await drop(schema);
      },
    };
  });

  // `dir`: the suite reads the body files where a store directory keeps them.
  storeConformance('postgres, bodies in a directory', async () => {
    const schema = `s${++counter}`;
    const dir = join(root, schema);
    const at = url(schema, pathToFileURL(dir).href);
    return {
      store: await openPgStore(at, { create: true }),
      reopen: () => openPgStore(at),
      another: () => openPgStore(at),
      dir,
      cleanup: async () => {
        await drop(schema);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });

  storeConformance('postgres, bodies in S3', async () => {
    const schema = `s${++counter}`;
    const at = url(schema, `s3://${BUCKET}/${schema}`);
    return {
      store: await openPgStore(at, { create: true }),
      // Without ?bodies=: the place the store recorded.
      reopen: () => openPgStore(url(schema)),
      another: () => openPgStore(at),
      cleanup: async () => {
        await drop(schema);
      },
    };
  });
});
