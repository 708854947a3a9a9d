// Opening a store written by an older version: the forward migrations of schema.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { collect } from './conformance-kit.js';
import { hash53 } from './hash.js';
import { openStore, SCHEMA_VERSION, SEED_PRIORITY } from './index.js';
import { storeAtVersion } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-migrate-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A new store directory whose crawl.db is as `version` left it: its migrations only, applied the way the opener does. */
function oldStore(version: number) {
  const dir = join(root, `s${++counter}`);
  return { dir, ...storeAtVersion(dir, version) };
}

describe('SQLite store migrations', () => {
  it('brings a version 1 store up to date: its URLs get value 0, its views show value', async () => {
    const { dir, file, old } = oldStore(1);
    // A seed and a URL found on it, written with version 1's columns.
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, parent_id, anchor, discovered_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)',
    );
    const [a, x] = ['http://a.test/', 'http://a.test/x'];
    insert.run(1, a, hash53(a), 0, SEED_PRIORITY, null, null, 10);
    insert.run(2, x, hash53(x), 1, 0.5, 1, 'x', 11);
    old.exec(`INSERT INTO seeds VALUES ('${a}', 10);
      UPDATE counters SET n = 2 WHERE name IN ('waiting', 'discovered');
      UPDATE counters SET n = 3 WHERE name = 'next_id';
      INSERT INTO hosts (host, discovered) VALUES ('a.test', 2);`);
    old.close();

    await assert.rejects(
      openStore(dir, { readonly: true }),
      new RegExp(`schema version 1 and needs upgrading to ${SCHEMA_VERSION}`),
    );
    const s = await openStore(dir);
    assert.deepEqual(
      (await s.claim(5)).map((c) => [c.id, c.url, c.depth, c.priority, c.value, c.parent]),
      [
        [1, a, 0, SEED_PRIORITY, 0, null],
        [2, x, 1, 0.5, 0, a],
      ],
    );
    await s.addUrls([{ url: 'http://a.test/y', depth: 2, priority: 0.1, value: 2.5 }]);
    assert.deepEqual(
      (await collect(s.urls())).map((r) => [r.id, r.value]),
      [
        [1, 0],
        [2, 0],
        [3, 2.5],
      ],
    );
    await s.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(db.prepare('SELECT url, value FROM waiting').all(), [
        { url: 'http://a.test/y', value: 2.5 },
      ]);
      assert.deepEqual(db.prepare('SELECT url, value FROM processing ORDER BY id').all(), [
        { url: a, value: 0 },
        { url: x, value: 0 },
      ]);
    } finally {
      db.close();
    }
    // Opened again, nothing is migrated twice.
    const again = await openStore(dir, { readonly: true });
    assert.deepEqual(await again.counts(), {
      waiting: 1,
      processing: 2,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    await again.close();
  });

  it('brings a version 2 store up to date in place: its URLs get context null, its views show context', async () => {
    const { dir, file, old } = oldStore(2);
    // A seed, a URL found on it and one being fetched, written with version 2's columns.
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, discovered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const [a, x, y] = ['http://a.test/', 'http://a.test/x', 'http://a.test/y'];
    insert.run(1, a, hash53(a), 0, 0, SEED_PRIORITY, 0, null, null, 10);
    insert.run(2, x, hash53(x), 0, 1, 0.5, 1.5, 1, 'x', 11);
    insert.run(3, y, hash53(y), 1, 1, 0.25, 2, 1, null, 12);
    old.exec(`INSERT INTO seeds VALUES ('${a}', 10);
      UPDATE counters SET n = 2 WHERE name = 'waiting';
      UPDATE counters SET n = 1 WHERE name = 'processing';
      UPDATE counters SET n = 3 WHERE name = 'discovered';
      UPDATE counters SET n = 4 WHERE name = 'next_id';
      INSERT INTO hosts (host, discovered) VALUES ('a.test', 3);`);
    old.close();

    await assert.rejects(
      openStore(dir, { readonly: true }),
      new RegExp(`schema version 2 and needs upgrading to ${SCHEMA_VERSION}`),
    );
    const s = await openStore(dir);
    assert.deepEqual(
      (await s.claim(5)).map((c) => [c.id, c.url, c.priority, c.value, c.parent, c.context]),
      [
        [1, a, SEED_PRIORITY, 0, null, null],
        [2, x, 0.5, 1.5, a, null],
      ],
    );
    await s.reclaim([x]);
    // An old URL takes a context with a raise; new URLs keep theirs, or null.
    await s.addUrls([
      { url: x, depth: 1, priority: 0.75, value: 3, context: 'around x' },
      { url: 'http://a.test/z', depth: 2, priority: 0.1, context: 'around z' },
      { url: 'http://a.test/w', depth: 2, priority: 0.2 },
    ]);
    assert.deepEqual(
      (await collect(s.urls())).map((r) => [r.id, r.state, r.value, r.anchor, r.context]),
      [
        [1, 'processing', 0, null, null],
        [2, 'waiting', 3, 'x', 'around x'],
        [3, 'processing', 2, null, null],
        [4, 'waiting', 0, null, 'around z'],
        [5, 'waiting', 0, null, null],
      ],
    );
    assert.deepEqual(
      (await s.scanWaiting({ limit: 10 })).map((w) => [w.id, w.context]),
      [
        [2, 'around x'],
        [4, 'around z'],
        [5, null],
      ],
    );
    await s.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const column = (db.pragma('table_info(urls)') as { name: string }[]).find(
        (c) => c.name === 'context',
      );
      assert.deepEqual(column, {
        cid: 10,
        name: 'context',
        type: 'TEXT',
        notnull: 0,
        dflt_value: null,
        pk: 0,
      });
      assert.deepEqual(db.prepare('SELECT url, value, context FROM waiting ORDER BY id').all(), [
        { url: x, value: 3, context: 'around x' },
        { url: 'http://a.test/z', value: 0, context: 'around z' },
        { url: 'http://a.test/w', value: 0, context: null },
      ]);
      assert.deepEqual(db.prepare('SELECT url, context FROM processing ORDER BY id').all(), [
        { url: a, context: null },
        { url: y, context: null },
      ]);
    } finally {
      db.close();
    }
    // Opened again, nothing is migrated twice.
    const again = await openStore(dir, { readonly: true });
    assert.deepEqual(await again.counts(), {
      waiting: 3,
      processing: 2,
      complete: 0,
      discard: 0,
      error: 0,
      redirect: 0,
    });
    assert.equal((await collect(again.urls())).length, 5);
    await again.close();
  });

  it('brings a version 3 store up to date: old pages have no fingerprint, new kept pages are searchable', async () => {
    const { dir, old } = oldStore(3);
    const [a, b] = ['http://a.test/', 'http://a.test/b'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?)',
    );
    insert.run(1, a, hash53(a), 2, 0, SEED_PRIORITY, null, 10);
    insert.run(2, b, hash53(b), 0, 1, 0.5, 1, 11);
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance) VALUES (1, 20, 200, 10, 'old', 0.9);
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth) VALUES (1, 20, 200, 2, 0.9, 0);
      UPDATE counters SET n = 1 WHERE name = 'waiting';
      UPDATE counters SET n = 1 WHERE name = 'complete';
      UPDATE counters SET n = 2 WHERE name = 'discovered';
      UPDATE counters SET n = 1 WHERE name = 'fetched';
      UPDATE counters SET n = 3 WHERE name = 'next_id';`);
    old.close();
    const s = await openStore(dir);
    const [p] = await collect(s.pages());
    assert.equal(p?.simhash, null);
    assert.equal(p?.duplicate, null);
    assert.deepEqual((await s.stats()).duplicates, { exact: 0, near: 0 });
    await s.claim(1);
    await s.complete(b, {
      fetchedAt: 30,
      status: 200,
      bytes: 10,
      relevance: 0.5,
      title: 'b',
      text: '新的电网页面',
      simhash: '0123456789abcdef',
    });
    assert.deepEqual(
      (await s.search({ query: '电网' })).map((h) => h.url),
      [b],
    );
    await s.close();
  });
  it('brings a version 4 store up to date: urls rebuilt for the redirect state, everything kept', async () => {
    const { dir, file, old } = oldStore(4);
    const [s, a, b, c, d, w] = ['', 'a', 'b', 'c', 'd', 'w'].map((x) => `http://a.test/${x}`) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run(1, s, hash53(s), 2, 0, SEED_PRIORITY, 0, null, null, null, 10);
    insert.run(2, a, hash53(a), 3, 1, 0.5, 1.5, 1, 'A', 'around a', 11);
    insert.run(3, b, hash53(b), 4, 1, 0.4, 0, 1, null, null, 12);
    insert.run(4, c, hash53(c), 4, 1, 0.3, 0, 1, null, null, 13);
    insert.run(5, d, hash53(d), 1, 1, 0.2, 0, 1, null, null, 14);
    insert.run(6, w, hash53(w), 0, 1, 0.1, 2.5, 1, 'W', 'around w', 15);
    old.exec(`INSERT INTO seeds VALUES ('${s}', 10);
      INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance, simhash) VALUES
        (1, 20, 200, 10, '电网', 0.9, '0123456789abcdef'), (2, 21, 200, 5, 'a', 0.1, NULL);
      INSERT INTO page_links VALUES (1, '[["${a}","A"],["${w}","W"]]');
      INSERT INTO page_text (rowid, title, text) VALUES (1, '电 网', 'grid news');
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth, error) VALUES
        (1, 20, 200, 2, 0.9, 0, NULL), (2, 21, 200, 3, 0.1, 1, NULL),
        (3, 22, 404, 4, NULL, 1, 'HTTP 404'), (4, 23, NULL, 4, NULL, 1, 'FC_ERR_DNS: no such host');
      UPDATE counters SET n = 1 WHERE name IN ('waiting', 'processing', 'complete', 'discard');
      UPDATE counters SET n = 2 WHERE name = 'error';
      UPDATE counters SET n = 6 WHERE name = 'discovered';
      UPDATE counters SET n = 4 WHERE name = 'fetched';
      UPDATE counters SET n = 15 WHERE name = 'bytes';
      UPDATE counters SET n = 7 WHERE name = 'next_id';
      INSERT INTO hosts (host, discovered, complete, discard, error, bytes) VALUES ('a.test', 6, 1, 1, 2, 15);`);
    old.close();

    await assert.rejects(
      openStore(dir, { readonly: true }),
      new RegExp(`schema version 4 and needs upgrading to ${SCHEMA_VERSION}`),
    );
    const st = await openStore(dir);
    assert.deepEqual(
      (await collect(st.urls())).map((r) => [
        r.id,
        r.url,
        r.state,
        r.depth,
        r.priority,
        r.value,
        r.parent,
        r.anchor,
        r.context,
        r.discoveredAt,
        r.redirectTo,
      ]),
      [
        [1, s, 'complete', 0, SEED_PRIORITY, 0, null, null, null, 10, null],
        [2, a, 'discard', 1, 0.5, 1.5, s, 'A', 'around a', 11, null],
        [3, b, 'error', 1, 0.4, 0, s, null, null, 12, null],
        [4, c, 'error', 1, 0.3, 0, s, null, null, 13, null],
        [5, d, 'processing', 1, 0.2, 0, s, null, null, 14, null],
        [6, w, 'waiting', 1, 0.1, 2.5, s, 'W', 'around w', 15, null],
      ],
    );
    const stats = await st.stats();
    assert.deepEqual(stats.counts, {
      waiting: 1,
      processing: 1,
      complete: 1,
      discard: 1,
      error: 2,
      redirect: 0,
    });
    // responses: the two pages and the 404; the DNS failure had no response.
    assert.deepEqual(
      [stats.discovered, stats.fetched, stats.responses, stats.redirects, stats.bytes],
      [6, 4, 3, 0, 15],
    );
    assert.deepEqual(stats.errors, [
      { code: 'FC_ERR_DNS', count: 1 },
      { code: 'HTTP 404', count: 1 },
    ]);
    assert.deepEqual(stats.topHosts, [
      {
        host: 'a.test',
        discovered: 6,
        fetched: 4,
        complete: 1,
        discard: 1,
        error: 2,
        redirect: 0,
        bytes: 15,
      },
    ]);
    assert.deepEqual(
      (await collect(st.history())).map((h) => [h.url, h.state, h.status, h.error, h.location]),
      [
        [s, 'complete', 200, null, null],
        [a, 'discard', 200, null, null],
        [b, 'error', 404, 'HTTP 404', null],
        [c, 'error', null, 'FC_ERR_DNS: no such host', null],
      ],
    );
    assert.deepEqual(
      (await collect(st.pages())).map((p) => [p.url, p.state, p.title, p.simhash]),
      [
        [s, 'complete', '电网', '0123456789abcdef'],
        [a, 'discard', 'a', null],
      ],
    );
    assert.equal((await collect(st.links())).length, 2);
    assert.deepEqual(
      (await st.search({ query: 'grid' })).map((h) => h.url),
      [s],
    );
    // The new state is allowed: d redirects to a new URL, which is queued after w.
    const t = 'http://a.test/t';
    await st.redirect(d, { fetchedAt: 30, redirects: [{ url: d, status: 301, location: t }] });
    assert.deepEqual(
      (await st.claim(5)).map((x) => [x.id, x.url]),
      [
        [7, t],
        [6, w],
      ],
    );
    assert.equal((await st.stats()).redirects, 1);
    // Version 7: a page kept before the upgrade can be scheduled for revisits.
    assert.equal(await st.scheduleRevisits([{ url: s, dueAt: 50 }]), 1);
    await st.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(
        db.prepare('SELECT url, redirect_to, fetched_at, status FROM redirect').all(),
        [{ url: d, redirect_to: t, fetched_at: 30, status: 301 }],
      );
      assert.deepEqual(db.prepare('SELECT url, error FROM error ORDER BY id').all(), [
        { url: b, error: 'HTTP 404' },
        { url: c, error: 'FC_ERR_DNS: no such host' },
      ]);
      assert.deepEqual(db.prepare('SELECT url FROM complete').pluck().all(), [s]);
      assert.deepEqual(db.prepare('SELECT url FROM discard').pluck().all(), [a]);
      assert.deepEqual(db.prepare('SELECT url FROM processing ORDER BY id').pluck().all(), [w, t]);
      assert.equal(db.prepare('SELECT count(*) FROM links').pluck().get(), 2);
      assert.deepEqual(db.prepare('SELECT name FROM states WHERE code = 5').pluck().all(), [
        'redirect',
      ]);
      const indexes = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'urls' ORDER BY name",
        )
        .pluck()
        .all();
      assert.deepEqual(indexes, [
        'urls_final',
        'urls_hash',
        'urls_host',
        'urls_processing',
        'urls_retry',
        'urls_waiting',
      ]);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.throws(() => db.prepare('SELECT 1 FROM urls_v5'), /no such table/);
      assert.deepEqual(db.prepare('SELECT due_at, visits FROM revisits').all(), [
        { due_at: 50, visits: 0 },
      ]);
    } finally {
      db.close();
    }
  });

  it("brings a version 7 store up to date: pages get the first fetch's validators, old ones read null", async () => {
    const { dir, file, old } = oldStore(7);
    const [a, b, c] = ['http://a.test/', 'http://a.test/b', 'http://a.test/c'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?)',
    );
    insert.run(1, a, hash53(a), 2, 0, SEED_PRIORITY, null, 10);
    insert.run(2, b, hash53(b), 2, 1, 0.5, 1, 11);
    insert.run(3, c, hash53(c), 0, 1, 0.4, 1, 12);
    // a was revisited before the upgrade (its record holds an ETag); b never was.
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance) VALUES
        (1, 20, 200, 10, 'a', 0.9), (2, 21, 200, 5, 'b', 0.8);
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth) VALUES
        (1, 20, 200, 2, 0.9, 0), (2, 21, 200, 2, 0.8, 1);
      INSERT INTO revisits (url_id, visits, last_visit_at, etag, due_at) VALUES (1, 1, 30, '"r1"', 40);
      INSERT INTO visits (url_id, at, status, change) VALUES (1, 30, 304, 0);
      UPDATE counters SET n = 1 WHERE name = 'waiting';
      UPDATE counters SET n = 2 WHERE name IN ('complete', 'fetched');
      UPDATE counters SET n = 3 WHERE name = 'discovered';
      UPDATE counters SET n = 4 WHERE name = 'next_id';`);
    old.close();

    await assert.rejects(
      openStore(dir, { readonly: true }),
      new RegExp(`schema version 7 and needs upgrading to ${SCHEMA_VERSION}`),
    );
    const s = await openStore(dir);
    assert.deepEqual(
      (await collect(s.pages())).map((p) => [p.url, p.etag, p.lastModified, p.modifiedAt]),
      [
        [a, null, null, null],
        [b, null, null, null],
      ],
    );
    await s.scheduleRevisits([{ url: b, dueAt: 40 }]);
    assert.deepEqual(
      (await s.claimDue(5, { now: 50 })).map((d) => [d.url, d.etag, d.lastModified]),
      [
        [a, '"r1"', null],
        [b, null, null],
      ],
    );
    const lm = 'Mon, 01 Jan 2024 00:00:00 GMT';
    await s.claim(1);
    await s.complete(c, {
      fetchedAt: 60,
      status: 200,
      bytes: 3,
      relevance: 0.5,
      etag: '"c1"',
      lastModified: lm,
      modifiedAt: 1_704_067_200_000,
    });
    assert.deepEqual(
      (await collect(s.pages())).map((p) => [p.url, p.etag, p.lastModified, p.modifiedAt])[2],
      [c, '"c1"', lm, 1_704_067_200_000],
    );
    await s.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      const columns = (db.pragma('table_info(pages)') as { name: string; type: string }[])
        .slice(-3)
        .map((col) => [col.name, col.type]);
      assert.deepEqual(columns, [
        ['etag', 'TEXT'],
        ['last_modified', 'TEXT'],
        ['modified_at', 'INTEGER'],
      ]);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  });

  it('brings a version 8 store up to date: a table of extracted fields, old pages without any', async () => {
    const { dir, file, old } = oldStore(8);
    const [a, b] = ['http://a.test/', 'http://a.test/b'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?)',
    );
    insert.run(1, a, hash53(a), 2, 0, SEED_PRIORITY, null, 10);
    insert.run(2, b, hash53(b), 0, 1, 0.5, 1, 11);
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance, etag) VALUES (1, 20, 200, 10, 'a', 0.9, '"a1"');
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth) VALUES (1, 20, 200, 2, 0.9, 0);
      UPDATE counters SET n = 1 WHERE name IN ('waiting', 'complete', 'fetched');
      UPDATE counters SET n = 2 WHERE name = 'discovered';
      UPDATE counters SET n = 3 WHERE name = 'next_id';`);
    old.close();

    await assert.rejects(
      openStore(dir, { readonly: true }),
      new RegExp(`schema version 8 and needs upgrading to ${SCHEMA_VERSION}`),
    );
    const s = await openStore(dir);
    assert.deepEqual(
      (await collect(s.pages())).map((p) => [p.url, p.title, p.etag]),
      [[a, 'a', '"a1"']],
    );
    assert.deepEqual(await collect(s.fields()), []);
    assert.deepEqual(await s.fieldStats(), []);
    // The page kept before the upgrade takes fields by replaceFields, a new one with its outcome.
    const title = (value: string | null) => ({
      ruleSet: 'news',
      field: 'title',
      position: 0,
      value,
    });
    assert.equal(await s.replaceFields([{ url: a, fields: [title('A')] }]), 1);
    await s.claim(1);
    await s.complete(b, {
      fetchedAt: 30,
      status: 200,
      bytes: 3,
      relevance: 0.5,
      fields: [title(null)],
    });
    assert.deepEqual(
      (await collect(s.fields())).map((f) => [f.url, f.value]),
      [
        [a, 'A'],
        [b, null],
      ],
    );
    assert.deepEqual(await s.fieldStats(), [
      { ruleSet: 'news', pages: 2, fields: [{ field: 'title', filled: 1 }] },
    ]);
    await s.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(
        (db.pragma('table_info(fields)') as { name: string; type: string; pk: number }[]).map(
          (c) => [c.name, c.type, c.pk],
        ),
        [
          ['url_id', 'INTEGER', 1],
          ['rule_set', 'TEXT', 2],
          ['field', 'TEXT', 3],
          ['position', 'INTEGER', 4],
          ['value', 'TEXT', 0],
        ],
      );
      assert.deepEqual(
        db.prepare('SELECT url_id, rule_set, field, position, value FROM fields').all(),
        [
          { url_id: 1, rule_set: 'news', field: 'title', position: 0, value: 'A' },
          { url_id: 2, rule_set: 'news', field: 'title', position: 0, value: null },
        ],
      );
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
    // Opened again, nothing is migrated twice.
    const again = await openStore(dir, { readonly: true });
    assert.equal((await collect(again.fields())).length, 2);
    await again.close();
  });

  it('brings a version 9 store up to date: URLs in error count one attempt, history rows are first attempts', async () => {
    const { dir, file, old } = oldStore(9);
    const [a, b, c] = ['http://a.test/', 'http://a.test/b', 'http://a.test/c'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, value, parent_id, anchor, context, discovered_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, ?)',
    );
    insert.run(1, a, hash53(a), 2, 0, SEED_PRIORITY, null, 10);
    insert.run(2, b, hash53(b), 4, 1, 0.9, 1, 11);
    insert.run(3, c, hash53(c), 0, 1, 0.5, 1, 11);
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, bytes, title, relevance) VALUES (1, 20, 200, 10, 'a', 0.9);
      INSERT INTO history (url_id, fetched_at, status, state, relevance, depth, error) VALUES
        (1, 20, 200, 2, 0.9, 0, NULL), (2, 21, 503, 4, NULL, 1, 'HTTP 503');
      UPDATE counters SET n = 1 WHERE name IN ('waiting', 'complete', 'error');
      UPDATE counters SET n = 2 WHERE name IN ('fetched', 'responses');
      UPDATE counters SET n = 3 WHERE name = 'discovered';
      UPDATE counters SET n = 4 WHERE name = 'next_id';`);
    old.close();

    const s = await openStore(dir);
    assert.deepEqual(
      (await collect(s.history())).map((h) => [h.url, h.attempt, h.retryAt]),
      [
        [a, 1, null],
        [b, 1, null],
      ],
    );
    assert.deepEqual(
      (await collect(s.urls())).map((u) => [u.url, u.state, u.attempts, u.retryAt]),
      [
        [a, 'complete', 0, null],
        [b, 'error', 1, null],
        [c, 'waiting', 0, null],
      ],
    );
    assert.equal((await s.stats()).retries, 0);
    assert.equal(await s.nextRetryAt(), null);
    // The error comes back to be tried again, its attempts reset; both are claimed.
    assert.equal(await s.requeueErrors({ statusClasses: [5] }), 1);
    assert.deepEqual(
      (await s.claim(5)).map((x) => [x.url, x.attempts]),
      [
        [b, 0],
        [c, 0],
      ],
    );
    await s.fail(c, { fetchedAt: 30, error: 'HTTP 503', status: 503, retryAt: 1_000 });
    await s.close();
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      assert.deepEqual(db.prepare('SELECT url, attempts, retry_at FROM waiting').all(), [
        { url: c, attempts: 1, retry_at: 1_000 },
      ]);
      assert.deepEqual(
        db.prepare("SELECT n FROM counters WHERE name = 'retries'").pluck().all(),
        [1],
      );
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      db.close();
    }
  });
});
