import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { InvalidOptionError, StoreError, StoreVersionError } from '../errors/index.js';
import { storeConformance } from './conformance.js';
import { collect } from './conformance-kit.js';
import { hash53 } from './hash.js';
import { openStore, SCHEMA_VERSION } from './index.js';
import { openSqliteStore } from './sqlite-open.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-store-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshDir = () => join(root, `s${++counter}`);

storeConformance('sqlite', async () => {
  const dir = freshDir();
  return {
    store: await openStore(dir, { create: true }),
    reopen: () => openStore(dir),
    another: () => openStore(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    dir,
  };
});

// Every URL hash collides with many others: the store must tell URLs apart by text.
storeConformance('sqlite, colliding URL hashes', async () => {
  const dir = freshDir();
  const hash = (u: string) => hash53(u) % 8;
  return {
    store: await openSqliteStore(dir, { create: true }, hash),
    reopen: () => openSqliteStore(dir, {}, hash),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    dir,
  };
});

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

async function smallStore(dir: string): Promise<void> {
  const s = await openStore(dir, { create: true });
  await s.addSeeds(['http://a.test/', 'http://b.test/', 'http://c.test/']);
  await s.claim(2);
  await s.complete('http://a.test/', { fetchedAt: 1, status: 200, bytes: 5, relevance: 0.9 });
  await s.fail('http://b.test/', { fetchedAt: 2, error: 'dns' });
  await s.close();
}

describe('SQLite store files', () => {
  it('is a directory holding crawl.db (WAL, versioned) and pages/', async () => {
    const dir = freshDir();
    await smallStore(dir);
    assert.ok(statSync(join(dir, 'pages')).isDirectory());
    const db = new Database(join(dir, 'crawl.db'), { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      // The five queues of DESIGN 1.1 as views.
      const q = (v: string) => db.prepare(`SELECT url FROM ${v}`).pluck().all();
      assert.deepEqual(q('waiting'), ['http://c.test/']);
      assert.deepEqual(q('processing'), []);
      assert.deepEqual(q('complete'), ['http://a.test/']);
      assert.deepEqual(q('discard'), []);
      assert.deepEqual(db.prepare('SELECT url, error FROM error').all(), [
        { url: 'http://b.test/', error: 'dns' },
      ]);
    } finally {
      db.close();
    }
  });

  it('shows redirects in the view redirect; bodies of dropped pages leave no file', async () => {
    const dir = freshDir();
    const s = await openStore(dir, { create: true });
    const [a, b, f] = ['http://a.test/', 'http://b.test/', 'http://f.test/'];
    await s.addSeeds([a, b, f]);
    await s.claim(3);
    await s.complete(f, {
      fetchedAt: 1,
      status: 200,
      bytes: 1,
      relevance: 1,
      body: Buffer.from('f'),
    });
    await s.commit([
      {
        url: a,
        state: 'complete',
        result: {
          fetchedAt: 2,
          status: 200,
          bytes: 1,
          relevance: 1,
          body: Buffer.from('a'),
          redirects: [{ url: a, status: 301, location: f }],
        },
      },
      {
        url: b,
        state: 'redirect',
        result: { fetchedAt: 3, redirects: [{ url: b, status: 302, location: f }] },
      },
    ]);
    assert.deepEqual(await s.readBody(f), Buffer.from('f'));
    await s.close();
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
    assert.deepEqual(readdirSync(join(dir, 'pages')).length, 1);
    const db = new Database(join(dir, 'crawl.db'), { readonly: true });
    try {
      assert.deepEqual(
        db.prepare('SELECT url, redirect_to, fetched_at, status FROM redirect ORDER BY id').all(),
        [
          { url: a, redirect_to: f, fetched_at: 2, status: 301 },
          { url: b, redirect_to: f, fetched_at: 3, status: 302 },
        ],
      );
      assert.deepEqual(
        db
          .prepare(
            'SELECT u.url, t.url AS target FROM urls u JOIN urls t ON t.id = u.redirect_id ORDER BY u.id',
          )
          .all(),
        [
          { url: a, target: f },
          { url: b, target: f },
        ],
      );
    } finally {
      db.close();
    }
  });

  it('refuses a store from a newer version with StoreVersionError and leaves it untouched', async () => {
    const dir = freshDir();
    await smallStore(dir);
    const file = join(dir, 'crawl.db');
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const before = sha(file);
    for (const options of [{}, { create: true }, { readonly: true }]) {
      await assert.rejects(openStore(dir, options), (e: unknown) => {
        assert.ok(e instanceof StoreVersionError);
        assert.equal(e.code, 'FC_ERR_STORE_VERSION');
        assert.ok(e.message.includes(file));
        assert.match(
          e.message,
          new RegExp(`version ${SCHEMA_VERSION + 1}, newer .*\\(${SCHEMA_VERSION}\\)`),
        );
        return true;
      });
    }
    assert.equal(sha(file), before);
    const check = new Database(file, { readonly: true });
    assert.equal(check.pragma('user_version', { simple: true }), SCHEMA_VERSION + 1);
    check.close();
  });

  it('refuses a crawl.db that is not a store with StoreError naming the path', async () => {
    const junk = freshDir();
    mkdirSync(junk);
    writeFileSync(join(junk, 'crawl.db'), randomBytes(4096));
    const before = sha(join(junk, 'crawl.db'));
    await assert.rejects(openStore(junk, { create: true }), (e: unknown) => {
      assert.ok(e instanceof StoreError);
      assert.ok(e.message.includes(join(junk, 'crawl.db')), e.message);
      return true;
    });
    assert.equal(sha(join(junk, 'crawl.db')), before);

    const foreign = freshDir();
    mkdirSync(foreign);
    const db = new Database(join(foreign, 'crawl.db'));
    db.exec('CREATE TABLE songs (title TEXT)');
    db.close();
    await assert.rejects(
      openStore(foreign, { create: true }),
      /crawl\.db is not a focuscrawl store/,
    );

    const empty = freshDir();
    mkdirSync(empty);
    writeFileSync(join(empty, 'crawl.db'), '');
    await assert.rejects(openStore(empty), /empty database/);
    const s = await openStore(empty, { create: true });
    assert.equal(await s.addSeeds(['http://a.test/']), 1);
    await s.close();
  });

  it('does not create a store unless asked', async () => {
    const missing = freshDir();
    await assert.rejects(openStore(missing), /no store at .*the directory does not exist/);
    assert.equal(existsSync(missing), false);
    const emptyDir = freshDir();
    mkdirSync(emptyDir);
    await assert.rejects(openStore(emptyDir), /no store at .*crawl\.db is missing/);
    assert.equal(existsSync(join(emptyDir, 'crawl.db')), false);
    const file = join(root, `file${++counter}`);
    writeFileSync(file, 'x');
    await assert.rejects(openStore(file, { create: true }), /is not a store: it is a file/);
  });

  it('validates its options', async () => {
    for (const bad of [
      { create: 'yes' },
      { unknown: 1 },
      { create: true, readonly: true },
      { synchronous: 'off' },
    ]) {
      await assert.rejects(openStore(freshDir(), bad as never), InvalidOptionError);
    }
    const s = await openStore(freshDir(), { create: true, synchronous: 'full' });
    await s.addUrls([{ url: 'http://a.test/', depth: 0, priority: 1 }]);
    await s.close();
  });

  it('recover removes body files left half-written in tmp/', async () => {
    const dir = freshDir();
    const s = await openStore(dir, { create: true });
    writeFileSync(join(dir, 'tmp', '123-1.gz'), 'partial');
    await s.recover();
    assert.deepEqual(readdirSync(join(dir, 'tmp')), []);
    await s.close();
  });

  it('can be read while another connection writes, read-only, without recovering', async () => {
    const dir = freshDir();
    const writer = await openStore(dir, { create: true });
    await writer.addSeeds(['http://a.test/', 'http://b.test/']);
    await writer.claim(1);
    const reader = await openStore(dir, { readonly: true });
    assert.deepEqual(await reader.counts(), await writer.counts());
    await assert.rejects(reader.recover(), /read-only/);
    await assert.rejects(
      reader.addUrls([{ url: 'http://c.test/', depth: 1, priority: 0 }]),
      /read-only/,
    );
    await writer.complete('http://a.test/', { fetchedAt: 1, status: 200, bytes: 1, relevance: 1 });
    assert.equal((await reader.counts()).complete, 1);
    assert.equal((await collect(reader.history())).length, 1);
    await reader.close();
    await writer.close();
  });
});

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = join(here, '..', '..');

function startWriter(dir: string, ackFile: string, run: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'crash-writer.ts'), dir, ackFile, String(run)],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) resolve(child);
    });
    child.on('exit', (code, signal) => reject(new Error(`writer exited early: ${code ?? signal}`)));
  });
}

describe('SQLite store crash safety', () => {
  it('after SIGKILL at random moments no discovered URL is lost and none is completed twice', async (t) => {
    const dir = freshDir();
    const ackFile = join(root, `acks${++counter}.txt`);
    let outcomes = 0;
    for (let run = 1; run <= 4; run++) {
      const child = await startWriter(dir, ackFile, run);
      const delay = 100 + Math.floor(Math.random() * 700);
      t.diagnostic(`run ${run}: SIGKILL after ${delay} ms`);
      await new Promise((r) => setTimeout(r, delay));
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;

      const added = new Set<string>();
      const done = new Map<string, string>();
      for (const line of readFileSync(ackFile, 'utf8').split('\n')) {
        const [kind, ...rest] = line.split(' ');
        if (kind === 'added') for (const u of rest) added.add(u);
        else if (kind === 'done' && rest.length === 2)
          done.set(rest[1] as string, rest[0] as string);
      }
      outcomes = done.size;

      const store = await openStore(dir);
      const recovered = await store.recover();
      const states = new Map<string, string>();
      const tally: Record<string, number> = {};
      for await (const r of store.urls()) {
        states.set(r.url, r.state);
        tally[r.state] = (tally[r.state] ?? 0) + 1;
      }
      for (const u of added) assert.ok(states.has(u), `run ${run}: ${u} was lost`);
      for (const [u, s] of done) assert.equal(states.get(u), s, `run ${run}: outcome of ${u}`);
      // One history row per fetched URL, in the URL's state: never completed twice,
      // never an outcome without its row.
      const fetches = new Map<string, number>();
      for await (const h of store.history()) {
        assert.equal(h.state, states.get(h.url), `run ${run}: history of ${h.url}`);
        fetches.set(h.url, (fetches.get(h.url) ?? 0) + 1);
      }
      for (const [u, s] of states) {
        const want = s === 'waiting' ? 0 : 1;
        assert.equal(
          fetches.get(u) ?? 0,
          want,
          `run ${run}: ${u} (${s}) has ${fetches.get(u) ?? 0} fetches`,
        );
      }
      const pageUrls = new Set<string>();
      const counts = await store.counts();
      assert.equal(counts.processing, 0);
      for (const s of ['waiting', 'complete', 'discard', 'error'] as const) {
        assert.equal(counts[s], tally[s] ?? 0, `run ${run}: count of ${s}`);
      }
      for await (const p of store.pages()) {
        pageUrls.add(p.url);
        assert.equal(p.state, states.get(p.url), `run ${run}: page of ${p.url}`);
        // A recorded body file is whole: the writer stored 2000-2007 bytes of the URL repeated.
        const body = await store.readBody(p.url);
        assert.ok(body !== null && body.length >= 2000 && body.length < 2008, `body of ${p.url}`);
        assert.ok(body.equals(Buffer.alloc(body.length, p.url)), `body of ${p.url}`);
      }
      for (const [u, s] of states) {
        assert.equal(
          pageUrls.has(u),
          s === 'complete' || s === 'discard',
          `run ${run}: page of ${u}`,
        );
      }
      t.diagnostic(
        `run ${run}: ${added.size} URLs acknowledged, ${done.size} outcomes, ${recovered} recovered`,
      );
      await store.close();
      const db = new Database(join(dir, 'crawl.db'), { readonly: true });
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
    }
    assert.ok(outcomes > 0, 'the writer recorded outcomes');
  });
});
