// Bodies of a PostgreSQL store outside the database (docs/scale-out.md, Bodies): two
// handles on one store, as two machines, read each other's bodies through a shared
// directory (mounted at another path on each) or an S3-compatible bucket (s3rver on
// 127.0.0.1); the place is recorded with the store, and a process that names another
// place, or whose directory is not the store's (not mounted), is refused; a body
// that cannot be written fails its commit, which then records nothing; a reader
// without S3 credentials still opens the store.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { StoreError } from '../src/errors/index.js';
import { collect, page } from '../src/store/conformance-kit.js';
import { openPgStore, type PgStore } from '../src/store/index.js';
import { md5Hex } from '../src/url/index.js';
import { tempDir } from '../src/util/testing.js';
import { type PgCluster, pgSkipReason, startPg } from './pg.js';
import { type S3Server, startS3 } from './s3.js';

const DB = 'bodies';
const BUCKET = 'crawl-bodies';
let pg: PgCluster | undefined;
let s3: S3Server | undefined;
const root = tempDir('pg-bodies');
let n = 0;

const storeUrl = (schema: string, bodies?: string) =>
  `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=${schema}${bodies === undefined ? '' : `&bodies=${encodeURIComponent(bodies)}`}`;

/** Fetches `url` on `store`: added, claimed and completed with `body`. */
async function fetchPage(store: PgStore, url: string, body: string): Promise<void> {
  await store.addUrls([{ url, depth: 0, priority: 1 }]);
  const [c] = await store.claim(1);
  assert.equal(c?.url, url);
  await store.complete(url, page({ body: Buffer.from(body) }));
}

async function bodyRows(schema: string): Promise<number> {
  const [r] = await (pg as PgCluster).queryJson<{ n: number }>(
    DB,
    `SELECT count(*)::int AS n FROM ${schema}.bodies`,
  );
  return r?.n ?? -1;
}

describe('PostgreSQL store bodies outside the database', { skip: pgSkipReason() }, () => {
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

  test('two machines mounting one directory at different paths read each other’s bodies', async () => {
    const schema = `f${++n}`;
    const shared = join(root, schema);
    // Machine B mounts the same directory elsewhere.
    const elsewhere = join(root, `${schema}-mount`);
    mkdirSync(shared);
    symlinkSync(shared, elsewhere);
    const a = await openPgStore(storeUrl(schema, pathToFileURL(shared).href), { create: true });
    const b = await openPgStore(storeUrl(schema, pathToFileURL(elsewhere).href));
    try {
      assert.equal(a.bodies, pathToFileURL(shared).href);
      await fetchPage(a, 'http://a.test/', 'page fetched by A');
      await fetchPage(b, 'http://b.test/', 'page fetched by B');
      assert.equal(String(await b.readBody('http://a.test/')), 'page fetched by A');
      assert.equal(String(await a.readBody('http://b.test/')), 'page fetched by B');
      // The store-directory layout, under the names the records give; none in the table.
      const [rec] = (await collect(a.pages())).filter((p) => p.url === 'http://a.test/');
      assert.equal(rec?.bodyFile, `pages/${md5Hex('http://a.test/')}.gz`);
      assert.equal(
        String(gunzipSync(readFileSync(join(shared, rec?.bodyFile ?? '')))),
        'page fetched by A',
      );
      assert.equal(await bodyRows(schema), 0);
    } finally {
      await a.close();
      await b.close();
    }
    // A process that gives no ?bodies= finds them where the store recorded them.
    const c = await openPgStore(storeUrl(schema), { readonly: true });
    try {
      assert.equal(String(await c.readBody('http://b.test/')), 'page fetched by B');
    } finally {
      await c.close();
    }
  });

  test('a writer refuses a directory that is not the store’s, and another kind of place', async () => {
    const schema = `f${++n}`;
    const shared = join(root, schema);
    const a = await openPgStore(storeUrl(schema, pathToFileURL(shared).href), { create: true });
    await fetchPage(a, 'http://a.test/', 'A');
    await a.close();
    // Not mounted: an empty directory where the shared one should be.
    const empty = join(root, `${schema}-unmounted`);
    mkdirSync(empty);
    await assert.rejects(openPgStore(storeUrl(schema, pathToFileURL(empty).href)), (e: unknown) => {
      assert.ok(e instanceof StoreError);
      assert.match(
        e.message,
        /holds no focuscrawl-bodies\.json: .*is the shared directory mounted\?/,
      );
      return true;
    });
    // Another store's directory.
    const other = `f${++n}`;
    const otherDir = join(root, other);
    await (
      await openPgStore(storeUrl(other, pathToFileURL(otherDir).href), { create: true })
    ).close();
    await assert.rejects(
      openPgStore(storeUrl(schema, pathToFileURL(otherDir).href)),
      /holds the bodies of another store/,
    );
    // The database, or a bucket, instead of the store's directory.
    await assert.rejects(
      openPgStore(storeUrl(schema, 'db')),
      /keeps its bodies in file:\/\/.*, not db: give every process the same \?bodies=/,
    );
    await assert.rejects(openPgStore(storeUrl(schema, `s3://${BUCKET}/x`)), /not s3:\/\//);
    // A store whose bodies are in its database keeps them there.
    const inDb = `f${++n}`;
    await (await openPgStore(storeUrl(inDb), { create: true })).close();
    await assert.rejects(
      openPgStore(storeUrl(inDb, pathToFileURL(join(root, inDb)).href)),
      /keeps its bodies in db, not file:/,
    );
  });

  test('a body that cannot be written fails its commit, which records nothing', async () => {
    const schema = `f${++n}`;
    const shared = join(root, schema);
    const store = await openPgStore(storeUrl(schema, pathToFileURL(shared).href), {
      create: true,
    });
    try {
      await store.addUrls([{ url: 'http://a.test/', depth: 0, priority: 1 }]);
      await store.claim(1);
      // The place breaks: pages/ is no longer a directory.
      rmSync(join(shared, 'pages'), { recursive: true });
      writeFileSync(join(shared, 'pages'), 'not a directory');
      await assert.rejects(
        store.complete('http://a.test/', page({ body: Buffer.from('A') })),
        /cannot write the body pages\/[0-9a-f]{32}\.gz/,
      );
      const [u] = await collect(store.urls());
      assert.equal(u?.state, 'processing');
      assert.deepEqual(await collect(store.history()), []);
    } finally {
      await store.close();
    }
  });

  test('two machines on one bucket read each other’s bodies', async () => {
    const schema = `s${++n}`;
    const place = `s3://${BUCKET}/crawls/${schema}`;
    const a = await openPgStore(storeUrl(schema, place), { create: true });
    const b = await openPgStore(storeUrl(schema));
    try {
      assert.equal(b.bodies, place);
      await fetchPage(a, 'http://a.test/', 'page fetched by A');
      await fetchPage(b, 'http://b.test/', 'page fetched by B');
      assert.equal(String(await b.readBody('http://a.test/')), 'page fetched by A');
      assert.equal(String(await a.readBody('http://b.test/')), 'page fetched by B');
      assert.ok(s3?.has(`crawls/${schema}/pages/${md5Hex('http://a.test/')}.gz`));
      assert.equal(await bodyRows(schema), 0);
    } finally {
      await a.close();
      await b.close();
    }
    await assert.rejects(
      openPgStore(storeUrl(schema, `s3://${BUCKET}/crawls/other`)),
      /keeps its bodies in s3:\/\/crawl-bodies\/crawls\/s\d+, not s3:\/\/crawl-bodies\/crawls\/other/,
    );
  });

  test('a reader without credentials opens the store; reading a body says what is missing', async () => {
    const schema = `s${++n}`;
    const at = storeUrl(schema, `s3://${BUCKET}/${schema}`);
    const writer = await openPgStore(at, { create: true });
    await fetchPage(writer, 'http://a.test/', 'A');
    await writer.close();
    const saved = { ...process.env };
    delete process.env['AWS_ACCESS_KEY_ID'];
    delete process.env['AWS_SECRET_ACCESS_KEY'];
    try {
      const reader = await openPgStore(storeUrl(schema), { readonly: true });
      try {
        assert.equal((await reader.counts()).complete, 1);
        await assert.rejects(
          reader.readBody('http://a.test/'),
          /bodies in s3:\/\/crawl-bodies\/s\d+ need credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
        );
      } finally {
        await reader.close();
      }
    } finally {
      Object.assign(process.env, saved);
    }
  });

  test('credentials the bucket refuses are named in the error, the secret is not', async () => {
    const schema = `s${++n}`;
    const saved = process.env['AWS_ACCESS_KEY_ID'];
    process.env['AWS_ACCESS_KEY_ID'] = 'nobody';
    try {
      await assert.rejects(
        openPgStore(storeUrl(schema, `s3://${BUCKET}/${schema}`), { create: true }),
        (e: unknown) => {
          assert.ok(e instanceof StoreError);
          assert.match(
            e.message,
            /PUT s3:\/\/crawl-bodies\/s\d+\/focuscrawl-bodies\.json failed: HTTP 403 InvalidAccessKeyId/,
          );
          assert.doesNotMatch(e.message, /S3RVER/);
          return true;
        },
      );
    } finally {
      process.env['AWS_ACCESS_KEY_ID'] = saved;
    }
  });
});
