import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { IoError, StoreError } from '../errors/index.js';
import { tempDir } from '../util/testing.js';
import { asIoError, systemErrorOf, systemErrorText, withFlag } from './system-errors.js';

/** The error `work` throws. */
function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (e) {
    return e;
  }
  throw new Error('nothing thrown');
}

test('system errors said in one line naming the flag, the path or port, and why', async () => {
  const dir = tempDir('syserr');
  const file = join(dir, 'f.txt');
  writeFileSync(file, 'x');
  const missing = join(dir, 'no', 'x.html');
  const cases: [unknown, { flag: string; value: string } | undefined, string][] = [
    [
      thrown(() => readFileSync(missing)),
      { flag: '--out', value: missing },
      `--out ${missing}: cannot open it: no such file or folder (ENOENT)`,
    ],
    [
      thrown(() => readFileSync(dir)),
      { flag: '--topic', value: dir },
      `--topic ${dir}: it is a folder, not a file (EISDIR)`,
    ],
    [
      thrown(() => writeFileSync(join(file, 'x'), '')),
      { flag: '--out', value: join(file, 'x') },
      `--out ${join(file, 'x')}: cannot open it: a part of the path is a file, not a folder (ENOTDIR)`,
    ],
    [
      thrown(() => readFileSync(missing)),
      undefined,
      `cannot open ${missing}: no such file or folder (ENOENT)`,
    ],
    // Across a thread only the message is left.
    [
      new Error("EACCES: permission denied, open '/s/crawl.lock'"),
      { flag: '--store', value: '/s' },
      '--store /s: cannot open /s/crawl.lock: permission denied (EACCES): check who owns it and its permissions',
    ],
    [
      new Error("EISDIR: illegal operation on a directory, rename '/a.tmp' -> '/a'"),
      undefined,
      'cannot rename /a.tmp to /a: it is a folder, not a file (EISDIR)',
    ],
    [
      new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080'),
      { flag: '--port', value: '8080' },
      '--port 8080: cannot listen on 127.0.0.1:8080: the port is in use (EADDRINUSE): give another --port, or --port 0 for any free port',
    ],
  ];
  for (const [e, source, text] of cases) {
    const s = systemErrorOf(e);
    assert.ok(s, text);
    assert.equal(systemErrorText(s, source), text);
  }
});

test('only system errors are taken for such: typed errors and plain ones are left alone', () => {
  assert.equal(systemErrorOf(new Error('boom')), undefined);
  assert.equal(systemErrorOf(new StoreError("EACCES: permission denied, open '/x'")), undefined);
  assert.equal(systemErrorOf('ENOENT'), undefined);
  const typed = new StoreError('no store at /x');
  assert.equal(asIoError(typed, { flag: '--store', value: '/x' }), typed);
});

test('withFlag turns a port in use into an IoError naming the flag and the port', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    const second = createServer();
    await assert.rejects(
      withFlag(
        '--port',
        String(port),
        () =>
          new Promise<void>((resolve, reject) => {
            second.once('error', reject);
            second.listen(port, '127.0.0.1', resolve);
          }),
      ),
      (e: unknown) =>
        e instanceof IoError &&
        e.code === 'FC_ERR_IO' &&
        e.message.startsWith(
          `--port ${port}: cannot listen on 127.0.0.1:${port}: the port is in use`,
        ),
    );
  } finally {
    server.close();
  }
});
