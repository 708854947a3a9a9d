// Bad input to `focuscrawl crawl` (DESIGN §3): broken topic files, unreachable
// seeds, a store from a newer version and malformed flags each get an error naming
// the problem, and nothing already stored is lost. In-process through main().
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { main } from '../../src/cli/index.js';
import { DB_FILE, openStore, SCHEMA_VERSION } from '../../src/store/index.js';
import { startTestWeb, type TestWeb, topicKeywords } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';

const root = tempDir('errors');
const topicFile = join(root, 'grid.json');
writeFileSync(topicFile, JSON.stringify(topicKeywords('grid')));
let web: TestWeb;
let n = 0;

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web.close();
});

function newDir(): string {
  return join(root, `store${++n}`);
}

async function crawl(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(['crawl', ...argv], {
    out: (s) => {
      out += `${s}\n`;
    },
    err: (s) => {
      err += `${s}\n`;
    },
  });
  return { code, out, err };
}

/** A free port on 127.0.0.1 that nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise((resolve) => server.close(resolve));
  return address.port;
}

describe('topic files', () => {
  const run = (topic: string) =>
    crawl('--store', newDir(), '--topic', topic, '--seeds', 'http://dianwang.test/', '--quiet');

  test('a JSON syntax error names the file and the line; no store is created', async () => {
    const file = join(root, 'syntax.json');
    writeFileSync(file, '{\n  "name": "grid",\n  "keywords": {\n    "电网": 1,\n  }\n}\n');
    const dir = newDir();
    const r = await crawl('--store', dir, '--topic', file, '--seeds', 'http://dianwang.test/');
    assert.equal(r.code, 1);
    assert.match(r.err, /^FC_ERR_TOPIC_FILE: /);
    assert.ok(r.err.includes(`${file}: line 5, column 3: invalid JSON`), r.err);
    assert.equal(existsSync(dir), false, 'a failed start leaves no empty store behind');
  });

  test('a negative keyword weight names the field', async () => {
    const file = join(root, 'negative.json');
    writeFileSync(file, JSON.stringify({ keywords: { 电网: 1, 'power grid': -1 } }, null, 2));
    const r = await run(file);
    assert.equal(r.code, 1);
    assert.ok(
      r.err.startsWith(`FC_ERR_TOPIC_FILE: ${file}: keywords."power grid": expected a positive`),
      r.err,
    );
    assert.match(r.err, /got -1/);
  });

  test('a missing topic file is named', async () => {
    const file = join(root, 'no-such-topic.json');
    const r = await run(file);
    assert.equal(r.code, 1);
    assert.equal(r.err, `FC_ERR_TOPIC_FILE: ${file}: cannot read the topic file (no such file)\n`);
  });
});

test('unreachable seeds: exit 1, each seed named with its error, recorded in state error', async () => {
  const port = await closedPort();
  const dir = newDir();
  const dead = 'http://dead.test/';
  const missing = 'http://status.test/404';
  web.clearLog();
  const r = await crawl(
    '--store',
    dir,
    '--topic',
    topicFile,
    '--seeds',
    dead,
    '--seeds',
    missing,
    // An exact name wins over the wildcard: dead.test goes to the closed port.
    '--resolve',
    `dead.test=127.0.0.1:${port}`,
    '--resolve',
    web.resolve,
    '--allow-private',
    '--retries',
    '0',
    // One attempt: a refused connection is not tried again by a later run.
    '--max-attempts',
    '1',
    '--delay-ms',
    '0',
    '--quiet',
  );
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /^exhausted: no seed could be fetched: /);
  // dead.test: its robots.txt cannot be fetched, so the site counts as disallowed
  // (RFC 9309); the reason given is the refused connection.
  assert.match(
    r.out,
    /http:\/\/dead\.test\/ \(FC_ERR_[A-Z_]+: [^\n]*ECONNREFUSED[^\n]*127\.0\.0\.1:\d+/,
  );
  assert.ok(r.out.includes(`${missing} (HTTP 404)`), r.out);
  assert.match(r.out, /error 2, redirect 0;/);
  assert.ok(
    web.requests.every((x) => x.host === 'status.test'),
    'nothing reached the test web for dead.test',
  );

  const store = await openStore(dir, { readonly: true });
  try {
    const states = new Map<string, string>();
    for await (const u of store.urls()) states.set(u.url, u.state);
    assert.deepEqual(
      states,
      new Map([
        [dead, 'error'],
        [missing, 'error'],
      ]),
    );
    const history = new Map<string, { status: number | null; error: string | null }>();
    for await (const h of store.history()) history.set(h.url, h);
    assert.equal(history.get(missing)?.status, 404);
    assert.equal(history.get(missing)?.error, 'HTTP 404');
    assert.match(history.get(dead)?.error ?? '', /ECONNREFUSED/);
  } finally {
    await store.close();
  }
});

test('no seeds for a new store: exit 1 naming --seeds, and no empty store left behind', async () => {
  const dir = newDir();
  const r = await crawl('--store', dir, '--topic', topicFile, '--quiet');
  assert.equal(r.code, 1);
  assert.match(r.err, /^FC_ERR_INVALID_OPTION: no seeds: .*--seeds/);
  assert.equal(existsSync(dir), false, 'a failed start leaves no empty store behind');
});

/** Every file under `dir` with its size, modification time and content hash. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${prefix}${name}/`);
      else {
        const hash = createHash('sha256').update(readFileSync(p)).digest('hex');
        out[`${prefix}${name}`] = `${st.size} ${st.mtimeMs} ${hash}`;
      }
    }
  };
  walk(dir, '');
  return out;
}

test('a store from a newer version is refused by name and left untouched', async () => {
  const dir = newDir();
  const store = await openStore(dir, { create: true });
  await store.addSeeds(['http://dianwang.test/']);
  await store.setMeta('topic', { name: 'grid' });
  await store.close();
  const dbPath = join(dir, DB_FILE);
  const db = new Database(dbPath);
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const before = fingerprint(dir);
  assert.ok(before[DB_FILE], JSON.stringify(before));

  const r = await crawl(
    '--store',
    dir,
    '--topic',
    topicFile,
    '--seeds',
    'http://dianwang.test/',
    '--resolve',
    web.resolve,
    '--allow-private',
    '--quiet',
  );
  assert.equal(r.code, 1);
  assert.ok(
    r.err.startsWith(
      `FC_ERR_STORE_VERSION: ${dbPath} has store schema version ${SCHEMA_VERSION + 1}`,
    ),
    r.err,
  );
  const after = fingerprint(dir);
  assert.equal(after[DB_FILE], before[DB_FILE], 'crawl.db is byte for byte as it was');
  for (const [file, print] of Object.entries(before)) assert.equal(after[file], print, file);
  // Reading a WAL-mode database may leave SQLite's empty -wal and -shm beside it;
  // nothing else may appear, and nothing is written to the WAL.
  const added = Object.keys(after).filter((f) => !(f in before));
  for (const f of added) assert.match(f, /^crawl\.db-(wal|shm)$/);
  if (after[`${DB_FILE}-wal`]) assert.match(after[`${DB_FILE}-wal`] as string, /^0 /);
});

describe('usage errors exit 2 and name the flag', () => {
  const valid = (dir: string) => [
    '--store',
    dir,
    '--topic',
    topicFile,
    '--seeds',
    'http://dianwang.test/',
  ];

  const cases: { name: string; argv: (dir: string) => string[]; message: RegExp }[] = [
    {
      name: 'missing --store',
      argv: () => ['--topic', topicFile, '--seeds', 'http://dianwang.test/'],
      message: /--store is required/,
    },
    {
      name: 'missing --topic',
      argv: (dir) => ['--store', dir, '--seeds', 'http://dianwang.test/'],
      message: /--topic is required/,
    },
    {
      name: '--strategy nope',
      argv: (dir) => [...valid(dir), '--strategy', 'nope'],
      message:
        /--strategy must be one of best-first, bfs, dfs, fish, shark, tunnel, multi-queue, bayes, pagerank, got "nope"/,
    },
    {
      name: '--duration soon',
      argv: (dir) => [...valid(dir), '--duration', 'soon'],
      message: /--duration expects a duration such as 90s.*got "soon"/,
    },
    {
      name: '--threshold 2',
      argv: (dir) => [...valid(dir), '--threshold', '2'],
      message: /--threshold must be a number in \[0, 1\], iterative or adaptive, got "2"/,
    },
    {
      name: '--scope planet',
      argv: (dir) => [...valid(dir), '--scope', 'planet'],
      message: /--scope must be one of same-host, same-domain, any, got "planet"/,
    },
    {
      name: '--alpha without --threshold adaptive',
      argv: (dir) => [...valid(dir), '--threshold', '0.2', '--alpha', '1.05'],
      message: /--alpha applies to --threshold iterative or adaptive, not to a fixed threshold/,
    },
    {
      name: '--model nb',
      argv: (dir) => [...valid(dir), '--model', 'nb'],
      message: /--model must be one of vsm, tfidf, bayes, got "nb"/,
    },
    {
      name: 'an unknown flag',
      argv: (dir) => [...valid(dir), '--max-page', '3'],
      message: /--max-page/,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const dir = newDir();
      const r = await crawl(...c.argv(dir));
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, /^FC_ERR_CLI_USAGE: focuscrawl crawl: /);
      assert.match(r.err, c.message);
      assert.equal(r.out, '');
      assert.equal(existsSync(dir), false, 'no store is created');
    });
  }

  test('a seeds file with a bad URL on line 3 is named with file:3', async () => {
    const file = join(root, 'seeds.txt');
    writeFileSync(file, 'http://dianwang.test/\n# hubs\nhttp//dianwang.test/blog/\n');
    const dir = newDir();
    const r = await crawl('--store', dir, '--topic', topicFile, '--seeds', file);
    assert.equal(r.code, 2, r.err);
    assert.ok(
      r.err.includes(`${file}:3: "http//dianwang.test/blog/" is not an http(s) URL`),
      r.err,
    );
    assert.equal(existsSync(dir), false, 'no store is created');
  });
});
