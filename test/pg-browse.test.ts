// The PostgreSQL store's browsing indexes (schema version 2): a store of version 1 is
// upgraded when opened for writing, refused read-only until then; and on a store of
// some thousands of pages, listPages reads through the indexes, not the tables.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPgStore } from '../src/store/index.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../src/store/pg-schema.js';
import { type PgCluster, pgSkipReason, startPg } from './pg.js';

const DB = 'browse';
let pg: PgCluster | undefined;

const url = (schema: string) => `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=${schema}`;

describe('PostgreSQL store browsing', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
  });
  after(async () => {
    await pg?.stop();
  });

  test('a version 1 store gets the browsing indexes when opened for writing', async () => {
    assert.equal(PG_SCHEMA_VERSION, 2);
    await pg?.psql(DB, [
      '-c',
      `CREATE SCHEMA v1; SET search_path TO v1; ${PG_MIGRATIONS[0]}
       CREATE TABLE schema_info (application text NOT NULL, version integer NOT NULL);
       INSERT INTO schema_info VALUES ('focuscrawl', 1);
       INSERT INTO urls (id, url, url_key, state, depth, priority, discovered_at) VALUES
         (1, 'http://a.test/', md5('http://a.test/')::uuid, 2, 0, 1, 10),
         (2, 'http://b.test:81/', md5('http://b.test:81/')::uuid, 0, 1, 1, 11);
       INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance) VALUES
         (1, 20, 200, 5, 'A', 0.8);`,
    ]);
    await assert.rejects(
      openPgStore(url('v1'), { readonly: true }),
      /schema version 1 and needs upgrading to 2/,
    );
    const s = await openPgStore(url('v1'));
    try {
      assert.deepEqual(
        (await s.listPages({ sort: 'relevance' })).items.map((r) => [r.url, r.host, r.title]),
        [
          ['http://a.test/', 'a.test', 'A'],
          ['http://b.test:81/', 'b.test', null],
        ],
      );
      assert.deepEqual(
        (await s.listPages({ host: 'a.test' })).items.map((r) => r.url),
        ['http://a.test/'],
      );
    } finally {
      await s.close();
    }
    const rows = await pg?.queryJson<{ indexname: string }>(
      DB,
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'v1' AND indexname IN ('urls_host', 'pages_relevance', 'pages_fetched', 'pages_score') ORDER BY 1",
    );
    assert.deepEqual(
      rows?.map((r) => r.indexname),
      ['pages_fetched', 'pages_relevance', 'pages_score', 'urls_host'],
    );
    assert.deepEqual(await pg?.queryJson(DB, 'SELECT version FROM v1.schema_info'), [
      { version: 2 },
    ]);
  });

  test('listPages plans: the key indexes and the host index, no scan of pages', async () => {
    const s = await openPgStore(url('big'), { create: true });
    await s.close();
    // 20,000 URLs over 50 hosts, the first 10,000 half fetched: 5,000 pages, a quarter ranked.
    await pg?.psql(DB, [
      '-c',
      `SET search_path TO big;
       INSERT INTO urls (id, url, url_key, state, depth, priority, discovered_at)
         SELECT i, 'http://h' || (i % 50) || '.test/' || i, md5('http://h' || (i % 50) || '.test/' || i)::uuid,
           CASE WHEN i > 10000 THEN 0 WHEN i % 4 = 0 THEN 2 WHEN i % 4 = 1 THEN 3 ELSE 0 END, 1, 1, i
         FROM generate_series(1, 20000) i;
       INSERT INTO pages (url_id, fetched_at, status, bytes, relevance, score)
         SELECT id, 1000 + id, 200, 10, (id % 997) / 997.0, CASE WHEN id % 8 = 0 THEN id / 20000.0 END
         FROM urls WHERE state IN (2, 3);
       ANALYZE urls; ANALYZE pages;`,
    ]);
    const plan = async (sql: string) =>
      (await pg?.psql(DB, ['-At', '-c', `SET search_path TO big; EXPLAIN ${sql}`])) ?? '';
    const cols = 'SELECT u.id FROM pages p JOIN urls u ON u.id = p.url_id';
    for (const [sql, index] of [
      [`${cols} ORDER BY p.relevance DESC, p.url_id DESC LIMIT 51`, 'pages_relevance'],
      [`${cols} ORDER BY p.fetched_at DESC, p.url_id DESC LIMIT 51`, 'pages_fetched'],
      [
        `${cols} WHERE p.score IS NOT NULL ORDER BY p.score DESC, p.url_id DESC LIMIT 51`,
        'pages_score',
      ],
      [
        `${cols} WHERE substring(u.url from '^[a-z]+://(\\[[^]]*\\]|[^/:?#]*)') = 'h7.test' AND u.state >= 2 ORDER BY p.fetched_at DESC LIMIT 51`,
        'urls_host',
      ],
    ] as const) {
      assert.match(await plan(sql), new RegExp(index), sql);
    }
    const big = await openPgStore(url('big'));
    try {
      // h8's complete pages: ids ≡ 8 (mod 100) up to 10,000; walked 37 at a time.
      const h8: { url: string; relevance: number | null }[] = [];
      let cursor: string | undefined;
      do {
        const r = await big.listPages({
          host: 'h8.test',
          state: 'complete',
          sort: 'relevance',
          limit: 37,
          ...(cursor ? { cursor } : {}),
        });
        h8.push(...r.items);
        cursor = r.next ?? undefined;
      } while (cursor !== undefined);
      assert.equal(h8.length, 100);
      assert.equal(new Set(h8.map((x) => x.url)).size, 100);
      for (let i = 1; i < h8.length; i++) {
        assert.ok((h8[i - 1]?.relevance ?? 0) >= (h8[i]?.relevance ?? 0), 'relevance desc');
      }
    } finally {
      await big.close();
    }
  });
});
