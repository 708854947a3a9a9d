// `focuscrawl check`: a store directory's damage found and named (the file, the URL),
// and what can be put right repaired, on stores made by real crawls of the test web.
import assert from 'node:assert/strict';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/index.js';
import { startTestWeb, type TestWeb, topicKeywords } from '../../src/testweb/index.js';
import { crawlTestWeb, runCli } from '../run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-check-'));
const topic = join(root, 'grid.json');
writeFileSync(topic, JSON.stringify(topicKeywords('grid')));
let web: TestWeb;
/** A crawled store, copied for each test to damage. */
const made = join(root, 'made');
/** The same, its text indexed for search. */
const madeText = join(root, 'made-text');
let n = 0;
function copy(from = made): string {
  const dir = join(root, `store${++n}`);
  cpSync(from, dir, { recursive: true });
  return dir;
}

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  const r = await crawlTestWeb(web, made, topic, 'http://dianwang.test/', '--max-pages', '40');
  assert.equal(r.code, 0, r.err);
  const t = await crawlTestWeb(
    web,
    madeText,
    topic,
    'http://dianwang.test/',
    '--max-pages',
    '40',
    '--full-text',
    'kept',
  );
  assert.equal(t.code, 0, t.err);
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

describe('focuscrawl check', () => {
  it('a whole store: nothing is wrong, exit 0', async () => {
    const r = await runCli('check', '--store', copy());
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /ok: nothing is wrong/);
    assert.match(r.out, /[1-9]\d* page files read/);
  });

  it('a missing and a truncated page file are named with their URLs; --repair forgets them and the store reads on', async () => {
    const dir = copy();
    const files = readdirSync(join(dir, 'pages')).sort();
    assert.ok(files.length >= 2, 'the crawl stored bodies');
    const [gone, cut] = files as [string, string];
    rmSync(join(dir, 'pages', gone));
    truncateSync(join(dir, 'pages', cut), Math.floor(statSync(join(dir, 'pages', cut)).size / 2));
    writeFileSync(join(dir, 'pages', 'stray.gz'), 'x');
    const r = await runCli('check', '--store', dir);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, new RegExp(`pages/${gone}: the body of http://\\S+ is missing`));
    assert.match(r.out, new RegExp(`pages/${cut}: the body of http://\\S+ is damaged`));
    assert.match(r.out, /leftover +pages\/: 1 file no row names \(stray\.gz\)/);
    assert.match(r.out, /3 problems left/);
    const fixed = await runCli('check', '--store', dir, '--repair');
    assert.equal(fixed.code, 0, fixed.out);
    assert.match(fixed.out, /ok: 3 problems repaired/);
    assert.equal((await runCli('check', '--store', dir)).code, 0);
    // The pages stay, without those bodies; every other body reads.
    const store = await openStore(dir, { readonly: true });
    try {
      let bodies = 0;
      for await (const p of store.pages()) if ((await store.readBody(p.url)) !== null) bodies++;
      assert.equal(bodies, files.length - 2);
    } finally {
      await store.close();
    }
  });

  it('a damaged full-text index is found and rebuilt', async () => {
    const dir = copy(madeText);
    const db = new Database(join(dir, 'crawl.db'));
    // Shadow tables are written only outside SQLite's defensive mode: as damage would.
    db.unsafeMode(true);
    db.exec('DELETE FROM page_text_data WHERE id > 10');
    db.close();
    const r = await runCli('check', '--store', dir);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /search index +page_text: the full-text index does not match its rows/);
    const fixed = await runCli('check', '--store', dir, '--repair');
    assert.equal(fixed.code, 0, fixed.out);
    assert.equal((await runCli('check', '--store', dir)).code, 0);
    const s = await runCli('search', '--store', dir, '电网');
    assert.equal(s.code, 0, s.err);
    // Rebuilt from the stored bodies (the index keeps no copy of the text).
    assert.match(s.out, /http:\/\//, s.out);
  });

  it('a truncated or foreign crawl.db is named, not repaired, and crawl refuses it clearly', async () => {
    const dir = copy();
    truncateSync(join(dir, 'crawl.db'), 0);
    const r = await runCli('check', '--store', dir, '--repair');
    assert.equal(r.code, 1);
    assert.match(r.out, /database +crawl\.db: the file is empty: restore it from a backup/);
    writeFileSync(join(dir, 'crawl.db'), 'not a database at all, just text');
    const again = await runCli('check', '--store', dir);
    assert.equal(again.code, 1);
    assert.match(again.out, /crawl\.db: the file is not a SQLite database/);
    const status = await runCli('status', '--store', dir);
    assert.equal(status.code, 1);
    assert.match(status.err, /crawl\.db/);
  });

  it('--repair is refused beside a running crawl (its lock), naming the owner', async () => {
    const dir = copy();
    // A crawl's lock held by a live process: the parent of this test's process.
    writeFileSync(
      join(dir, 'crawl.lock'),
      JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() }),
    );
    const r = await runCli('check', '--store', dir, '--repair');
    assert.equal(r.code, 1);
    assert.match(r.err, /FC_ERR_STORE_BUSY/);
    // Checking without repairing is allowed.
    assert.equal((await runCli('check', '--store', dir)).code, 0);
  });

  it('bad input is named: no --store, no store there, a PostgreSQL URL', async () => {
    assert.equal((await runCli('check')).code, 2);
    const none = await runCli('check', '--store', join(root, 'nothing'));
    assert.equal(none.code, 1);
    assert.match(none.err, /nothing: no store directory there/);
    const pg = await runCli('check', '--store', 'postgres://u@127.0.0.1/db');
    assert.equal(pg.code, 2);
    assert.match(pg.err, /PostgreSQL's own tools/);
  });
});
