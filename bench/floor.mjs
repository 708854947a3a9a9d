// The least a kept page costs, with none of focuscrawl's code: what DESIGN 1.4's data model
// makes every crawler of it pay, measured alone as CPU a page.
//   - the body compressed (gzip level 1, the store's level),
//   - one file a page, written to tmp/ and renamed into pages/ (so a file is whole or absent),
//   - the MD5 of the URL (the file's name),
//   - SQLite (WAL, synchronous=NORMAL), 100 pages a transaction: claim the 100 best waiting
//     URLs, then for each page a row, its 36 links (each looked up or inserted in the URL
//     table, 3 of them new, then a link row) and the page marked done.
// The pages are 2,000 pages of the large test web, served by it on 127.0.0.1.
//
//   npm run build && node bench/floor.mjs [--rounds 3] [--pages 20000]
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    pages: { type: 'string', default: '20000' },
  },
});
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const { startTestWeb, listPageUrls } = await import('../dist/testweb/index.js');

const web = await startTestWeb({ port: 0, seed: 1, size: 'large', maxLogEntries: 0 });
const urls = listPageUrls({ seed: 1, size: 'large' }).slice(0, 2000);
const bodies = [];
for (const u of urls) {
  const url = new URL(u);
  const r = await fetch(`http://127.0.0.1:${web.port}${url.pathname}${url.search}`, {
    headers: { host: url.host },
  });
  bodies.push(Buffer.from(await r.arrayBuffer()));
}
await web.close();
const avg = bodies.reduce((a, b) => a + b.length, 0) / bodies.length;
console.log(`${bodies.length} test-web pages, ${avg.toFixed(0)} bytes on average`);

/** CPU of the whole process (every thread) a unit while `f` runs. */
function cpuMs(f, units) {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / units;
}

function sqliteMs(dir, pages) {
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE urls(id INTEGER PRIMARY KEY, url TEXT UNIQUE, state INT, priority REAL);
    CREATE INDEX waiting ON urls(state, priority);
    CREATE TABLE links(src INT, dst INT, anchor TEXT);
    CREATE TABLE pages(id INTEGER PRIMARY KEY, status INT, title TEXT, relevance REAL, hash TEXT)`);
  const add = db.prepare('INSERT OR IGNORE INTO urls(url, state, priority) VALUES (?, 0, ?)');
  const idOf = db.prepare('SELECT id FROM urls WHERE url = ?').pluck();
  const link = db.prepare('INSERT INTO links VALUES (?, ?, ?)');
  const page = db.prepare('INSERT INTO pages VALUES (?, 200, ?, 0.5, ?)');
  const done = db.prepare('UPDATE urls SET state = 2 WHERE id = ?');
  const best = db
    .prepare('SELECT id FROM urls WHERE state = 0 ORDER BY priority DESC LIMIT 100')
    .pluck();
  const take = db.prepare('UPDATE urls SET state = 1 WHERE id = ?');
  const urlOf = (i) => `http://h${i % 200}.test/section/${i % 97}/page-${i}.html`;
  let next = 0;
  for (let i = 0; i < 200; i++) add.run(urlOf(next++), 1);
  const claim = db.transaction(() => {
    const ids = best.all();
    for (const id of ids) take.run(id);
    return ids;
  });
  const commit = db.transaction((ids) => {
    for (const id of ids) {
      page.run(id, 'A page title', 'd41d8cd98f00b204e9800998ecf8427e');
      done.run(id);
      for (let j = 0; j < 36; j++) {
        const u = j < 3 ? urlOf(next++) : urlOf((next * 31 + j * 977) % next);
        add.run(u, (j * 13) % 100);
        link.run(id, idOf.get(u), 'anchor text');
      }
    }
  });
  const ms = cpuMs(() => {
    for (let n = 0; n < pages; n += 100) commit(claim());
  }, pages);
  db.close();
  return ms;
}

const rows = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-bench-floor-'));
  try {
    mkdirSync(join(dir, 'tmp'));
    mkdirSync(join(dir, 'pages'));
    const gzip = cpuMs(() => {
      for (const b of bodies) gzipSync(b, { level: 1 });
    }, bodies.length);
    const packed = bodies.map((b) => gzipSync(b, { level: 1 }));
    const file = cpuMs(() => {
      packed.forEach((b, i) => {
        const tmp = join(dir, 'tmp', `${i}.gz`);
        writeFileSync(tmp, b);
        renameSync(tmp, join(dir, 'pages', `${i}.gz`));
      });
    }, packed.length);
    const md5 = cpuMs(() => {
      for (const u of urls) createHash('md5').update(u).digest('hex');
    }, urls.length);
    const sqlite = sqliteMs(dir, Number(values.pages));
    const r = { round, gzip, file, md5, sqlite, sum: gzip + file + md5 + sqlite };
    rows.push(r);
    console.log(
      `round ${round}: gzip ${gzip.toFixed(3)} ms, file write + rename ${file.toFixed(3)} ms, ` +
        `MD5 ${md5.toFixed(4)} ms, SQLite rows ${sqlite.toFixed(3)} ms; sum ${r.sum.toFixed(3)} ms a page`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `median: ${median(rows.map((r) => r.sum)).toFixed(3)} ms of CPU a page before fetching, parsing or scoring it`,
);
