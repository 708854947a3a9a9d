// The SQLite store's full-text index keeps no copy of the text (schema V12): a page
// kept with its body gets its snippet from the body, parsed again; a page kept without
// one keeps its indexed text in `page_texts`; a store of version 11 moves its texts out
// of the index when opened, and search still finds and marks them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { MARK_END, MARK_START } from '../search/index.js';
import { addAndClaim, page, url } from './conformance-kit.js';
import { hash53 } from './hash.js';
import { openStore, SCHEMA_VERSION } from './index.js';
import { storeAtVersion } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-sqlite-text-'));
after(() => rmSync(root, { recursive: true, force: true }));

const marked = (word: string) => `${MARK_START}${word}${MARK_END}`;
const TEXT = 'The Telescope observes distant galaxies in infrared light.';
const HTML = `<!DOCTYPE html><html><head><title>Webb</title></head><body><p>${TEXT}</p></body></html>`;

/** Rows of `page_texts`, and the tables named page_text*. */
function inside(dir: string): { kept: number; tables: string[] } {
  const db = new Database(join(dir, 'crawl.db'), { readonly: true });
  try {
    const kept = db.prepare('SELECT count(*) FROM page_texts').pluck().get() as number;
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'page_text%' ORDER BY name")
      .pluck()
      .all() as string[];
    return { kept, tables };
  } finally {
    db.close();
  }
}

describe('SQLite full-text index without a copy of the text', () => {
  it('a page kept with its body: no text stored, the snippet cut from the body', async () => {
    const dir = join(root, 'body');
    const store = await openStore(dir, { create: true });
    await addAndClaim(store, [url('webb')]);
    const body = Buffer.from(HTML);
    await store.commit([
      {
        url: url('webb'),
        state: 'complete',
        result: page({ title: 'Webb', text: TEXT, body, contentType: 'text/html' }),
      },
    ]);
    const [hit] = await store.search({ query: 'telescope' });
    await store.close();
    assert.equal(hit?.url, url('webb'));
    assert.ok(hit.snippet.includes(marked('Telescope')), hit.snippet);
    const { kept, tables } = inside(dir);
    assert.equal(kept, 0);
    assert.ok(!tables.includes('page_text_content'), tables.join(', '));
  });

  it('a page kept without its body keeps its text for snippets', async () => {
    const dir = join(root, 'bodiless');
    const store = await openStore(dir, { create: true });
    await addAndClaim(store, [url('webb')]);
    await store.commit([
      { url: url('webb'), state: 'complete', result: page({ title: 'Webb', text: TEXT }) },
    ]);
    const [hit] = await store.search({ query: 'galaxy' });
    await store.close();
    assert.ok(hit?.snippet.includes(marked('galaxies')), hit?.snippet);
    assert.equal(inside(dir).kept, 1);
  });

  it('a version 11 store moves its texts out of the index, and search still marks them', async () => {
    assert.equal(SCHEMA_VERSION, 12);
    const dir = join(root, 'v11');
    mkdirSync(join(dir, 'pages'), { recursive: true });
    const { old } = storeAtVersion(dir, 11);
    const [a, b] = ['http://a.test/webb', 'http://a.test/hubble'];
    const insert = old.prepare(
      'INSERT INTO urls (id, url, url_hash, state, depth, priority, discovered_at) VALUES (?, ?, ?, 2, 0, 1, 10)',
    );
    insert.run(1, a, hash53(a));
    insert.run(2, b, hash53(b));
    writeFileSync(join(dir, 'pages', 'webb.gz'), gzipSync(HTML));
    old.exec(`INSERT INTO pages (url_id, fetched_at, status, content_type, bytes, title, relevance, body_file) VALUES
        (1, 20, 200, 'text/html', 10, 'Webb', 0.9, 'pages/webb.gz'), (2, 21, 200, NULL, 10, 'Hubble', 0.8, NULL);
      INSERT INTO page_text (rowid, title, text) VALUES
        (1, 'Webb', '${TEXT}'), (2, 'Hubble', 'Hubble saw galaxies in visible light.');
      UPDATE counters SET n = 2 WHERE name IN ('complete', 'discovered', 'fetched');`);
    old.close();

    const store = await openStore(dir);
    const hits = await store.search({ query: 'galaxies' });
    await store.close();
    assert.deepEqual(hits.map((h) => h.url).sort(), [b, a].sort());
    for (const h of hits) assert.ok(h.snippet.includes(marked('galaxies')), h.snippet);
    const { kept, tables } = inside(dir);
    // The page without a body keeps its text; the index holds none.
    assert.equal(kept, 1);
    assert.ok(!tables.includes('page_text_content'), tables.join(', '));
  });
});
