// The PostgreSQL store at its edges: what opening refuses (and how it says so), what
// PostgreSQL cannot hold that pages carry, read-only handles.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InvalidOptionError, StoreError, StoreVersionError } from '../src/errors/index.js';
import { connectStore, openPgStore, parsePgLocation } from '../src/store/index.js';
import { type PgCluster, pgSkipReason, startPg } from './pg.js';

const DB = 'edges';
let pg: PgCluster | undefined;
let n = 0;

const url = (schema = `e${++n}`, extra = '') =>
  `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=${schema}${extra}`;

describe('PostgreSQL store edges', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
  });
  after(async () => {
    await pg?.stop();
  });

  test('a bad store URL is refused naming what is wrong, the password hidden', () => {
    assert.throws(
      () => parsePgLocation('postgres://u:secret@h/db?schema=1bad'),
      (e: unknown) =>
        e instanceof InvalidOptionError &&
        /schema must be letters, digits and _/.test(e.message) &&
        !e.message.includes('secret') &&
        e.message.includes('***'),
    );
    assert.throws(
      () => parsePgLocation('postgres://h/db?pool=0'),
      /pool must be an integer 1 … 1000/,
    );
    assert.equal(parsePgLocation('postgresql://h/db').schema, 'focuscrawl');
  });

  test('a missing schema is no store unless created; an unreachable server says so', async () => {
    await assert.rejects(openPgStore(url()), (e: unknown) => {
      assert.ok(e instanceof StoreError);
      assert.match(e.message, /no store at postgres:\/\/.*: schema e\d+ does not exist/);
      return true;
    });
    await assert.rejects(
      openPgStore('postgres://postgres:pw@127.0.0.1:1/x?schema=s'),
      (e: unknown) =>
        e instanceof StoreError &&
        /cannot connect to the store postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x/.test(
          e.message,
        ),
    );
  });

  test('a schema of other tables, or of a newer focuscrawl, is refused and left untouched', async () => {
    await pg?.psql(DB, ['-c', 'CREATE SCHEMA other; CREATE TABLE other.t (x int)']);
    await assert.rejects(
      openPgStore(url('other'), { create: true }),
      /is not a focuscrawl store: schema other holds other tables/,
    );
    const newer = url();
    const s = await openPgStore(newer, { create: true });
    await s.close();
    const schema = new URL(newer).searchParams.get('schema');
    await pg?.psql(DB, ['-c', `UPDATE ${schema}.schema_info SET version = 99`]);
    await assert.rejects(openPgStore(newer), (e: unknown) => {
      assert.ok(e instanceof StoreVersionError);
      assert.match(e.message, /schema version 99, newer than this focuscrawl understands/);
      return true;
    });
    const rows = await pg?.queryJson<{ version: number }>(
      DB,
      `SELECT version FROM ${schema}.schema_info`,
    );
    assert.deepEqual(rows, [{ version: 99 }]);
  });

  test('text PostgreSQL cannot hold (U+0000) is stored as U+FFFD instead of failing the commit', async () => {
    const store = await connectStore(url(), { create: true });
    try {
      await store.addSeeds(['http://h.test/']);
      const [c] = await store.claim(1);
      assert.ok(c);
      await store.complete(c.url, {
        fetchedAt: 1000,
        status: 200,
        bytes: 10,
        relevance: 0.5,
        title: 'a\u0000b',
        text: 'x\u0000y',
        links: [{ url: 'http://h.test/n', anchor: 'an\u0000chor' }],
        newUrls: [{ url: 'http://h.test/n', depth: 1, priority: 1, anchor: 'an\u0000chor' }],
      });
      const pages = [];
      for await (const p of store.pages()) pages.push(p);
      assert.equal(pages[0]?.title, 'a\uFFFDb');
      const links = [];
      for await (const l of store.links()) links.push(l);
      // Links are kept as JSON text, which escapes it: they keep it as given.
      assert.equal(links[0]?.anchor, 'an\u0000chor');
      const urls = [];
      for await (const u of store.urls('waiting')) urls.push(u);
      assert.equal(urls[0]?.anchor, 'an\uFFFDchor');
    } finally {
      await store.close();
    }
  });

  test('a read-only handle reads and refuses writes, naming the store', async () => {
    const where = url();
    const w = await openPgStore(where, { create: true });
    await w.addSeeds(['http://h.test/']);
    await w.close();
    const r = await openPgStore(where, { readonly: true });
    try {
      assert.equal((await r.counts()).waiting, 1);
      await assert.rejects(r.addSeeds(['http://h.test/2']), (e: unknown) => {
        assert.ok(e instanceof StoreError);
        assert.match(e.message, /open read-only/);
        return true;
      });
    } finally {
      await r.close();
    }
  });

  // Regression: two watches starting together on one store failed with a duplicate key
  // in `keywords` (both emptied the table, then both inserted the topic's words).
  test('processes setting the keywords at once leave one set, none failing', async () => {
    const where = url();
    const first = await openPgStore(where, { create: true });
    const stores = [first, ...(await Promise.all([1, 2, 3].map(() => openPgStore(where))))];
    try {
      for (let round = 0; round < 5; round++) {
        await Promise.all(
          stores.map((s, i) => s.setKeywords({ forum: 1, news: 1, [`w${i}`]: 0.5 })),
        );
        const words = [...((await stores[0]?.getKeywords()) ?? new Map()).keys()].sort();
        assert.equal(words.length, 3, words.join(' '));
        assert.deepEqual(words.slice(0, 2), ['forum', 'news']);
      }
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
