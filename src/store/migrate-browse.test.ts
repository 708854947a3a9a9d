// Opening a store of schema version 10 brings it to version 11: `urls.host` and the
// browsing indexes, its URLs and pages listed by listPages at once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { hash53 } from './hash.js';
import { openStore, SCHEMA_VERSION, SEED_PRIORITY } from './index.js';
import { storeAtVersion } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-migrate-browse-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('SQLite store migration to version 11 (browsing)', () => {
  it('adds urls.host and the browsing indexes; old URLs and pages are listed', async () => {
    assert.ok(SCHEMA_VERSION >= 11);
    const dir = join(root, 'v10');
    const { file, old } = storeAtVersion(dir, 10);
    const [a, b, c] = ['https://a.test:8443/', 'http://[::1]/x', 'http://a.test/w'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, parent_id, discovered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run(1, a, hash53(a), 2, 0, SEED_PRIORITY, null, 10);
    insert.run(2, b, hash53(b), 3, 1, 0.9, 1, 11);
    insert.run(3, c, hash53(c), 0, 1, 0.5, 1, 11);
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance, score) VALUES
        (1, 20, 200, 10, 'a', 0.9, 0.4), (2, 30, 200, 10, NULL, 0.2, NULL);
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth) VALUES
        (1, 20, 200, 2, 0.9, 0), (2, 30, 200, 3, 0.2, 1);
      UPDATE counters SET n = 1 WHERE name IN ('waiting', 'complete', 'discard');
      UPDATE counters SET n = 2 WHERE name IN ('fetched', 'responses');
      UPDATE counters SET n = 3 WHERE name = 'discovered';
      UPDATE counters SET n = 4 WHERE name = 'next_id';
      INSERT INTO hosts (host, discovered, complete) VALUES ('a.test', 2, 1);
      INSERT INTO hosts (host, discovered, discard) VALUES ('[::1]', 1, 1);`);
    old.close();

    const s = await openStore(dir);
    try {
      assert.deepEqual(
        (await s.listPages()).items.map((r) => [r.url, r.host, r.fetchedAt]),
        [
          [b, '[::1]', 30],
          [a, 'a.test', 20],
          [c, 'a.test', null],
        ],
      );
      assert.deepEqual(
        (await s.listPages({ host: 'a.test', sort: 'rank' })).items.map((r) => [r.url, r.rank]),
        [
          [a, 0.4],
          [c, null],
        ],
      );
      assert.deepEqual(
        (await s.activity({ bucketMs: 10 })).map((x) => [x.at, x.kept, x.discarded]),
        [
          [20, 1, 0],
          [30, 0, 1],
        ],
      );
    } finally {
      await s.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const indexes = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE ? ORDER BY name",
        )
        .pluck();
      assert.deepEqual(indexes.all('pages_%'), ['pages_fetched', 'pages_relevance', 'pages_score']);
      assert.deepEqual(indexes.all('urls_%'), [
        'urls_final',
        'urls_hash',
        'urls_host',
        'urls_processing',
        'urls_retry',
        'urls_waiting',
      ]);
      assert.deepEqual(db.prepare('SELECT id, host FROM urls ORDER BY id').all(), [
        { id: 1, host: 'a.test' },
        { id: 2, host: '[::1]' },
        { id: 3, host: 'a.test' },
      ]);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  });
});
