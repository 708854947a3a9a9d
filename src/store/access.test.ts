// Opening a store in a folder: a new store in an empty or missing folder, or among the
// store's own files; never among other files; a refusal by permissions said as such.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { StoreError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { isPermissionError, storePermissionError } from './access.js';
import { openStore } from './sqlite-open.js';

const root = tempDir('access');

test('a new store is made in a missing or empty folder, or one holding only its own files', async () => {
  const empty = join(root, 'empty');
  mkdirSync(empty);
  const own = join(root, 'own');
  mkdirSync(join(own, 'pages'), { recursive: true });
  writeFileSync(join(own, 'crawl.lock'), '');
  for (const dir of [join(root, 'missing', 'deeper'), empty, own]) {
    const s = await openStore(dir, { create: true });
    await s.close();
    const again = await openStore(dir, { readonly: true });
    await again.close();
  }
});

test('a folder of other files is not made a store: the message names it and what it holds', async () => {
  const cases: [string[], RegExp][] = [
    [['notes.md'], /holds "notes\.md"\)/],
    [['a', 'b', 'c', 'd', 'e'], /holds "a", "b", "c" and 2 more\)/],
  ];
  for (const [names, holds] of cases) {
    const dir = mkdtempSync(join(root, 'foreign-'));
    for (const n of names) writeFileSync(join(dir, n), 'x');
    await assert.rejects(
      openStore(dir, { create: true }),
      (e: unknown) =>
        e instanceof StoreError &&
        e.message.startsWith(`${dir} is not a focuscrawl store and not empty`) &&
        holds.test(e.message),
    );
    // Reading such a folder says there is no store, as before.
    await assert.rejects(openStore(dir, { readonly: true }), /no store at/);
  }
});

test('a refusal by permissions names the store, its owner and mode, and what to do', () => {
  const dir = join(root, 'mode');
  mkdirSync(dir);
  chmodSync(dir, 0o700);
  const eacces = Object.assign(new Error('EACCES'), { code: 'EACCES' });
  const erofs = Object.assign(new Error('EROFS'), { code: 'EROFS' });
  assert.ok(isPermissionError(eacces) && isPermissionError(erofs));
  assert.ok(!isPermissionError(Object.assign(new Error('x'), { code: 'ENOENT' })));
  const uid = process.getuid?.() ?? 0;
  const st = { uid, mode: 0o40700 } as import('node:fs').Stats;
  const cases: [ReturnType<typeof storePermissionError>, RegExp][] = [
    [
      storePermissionError(dir, 'read', st, eacces),
      new RegExp(
        `^cannot read the store ${dir}: permission denied \\(owned by user id ${uid}, mode 700; focuscrawl runs as user id \\d+\\); run focuscrawl as the store's owner`,
      ),
    ],
    [
      storePermissionError(dir, 'write to', st, erofs),
      new RegExp(`^cannot write to the store ${dir}: it is on a read-only file system;`),
    ],
  ];
  for (const [e, message] of cases) {
    assert.equal(e.code, 'FC_ERR_STORE');
    assert.match(e.message, message);
  }
});
