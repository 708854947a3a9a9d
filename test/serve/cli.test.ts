// `focuscrawl serve` (a child process from the sources) and `crawl --serve` (in
// process): the address printed, the API answering, control reaching the crawl.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/index.js';
import { withServeDefault } from '../../src/cli/serve-flag.js';
import { readControl } from '../../src/crawl/control.js';
import { tempDir } from '../../src/util/testing.js';
import { runCli } from '../run-cli.js';
import { inStore } from '../store-read.js';
import { crawledStore, type Kit, MONITOR } from './kit.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const root = tempDir('serve-cli');
let kit: Kit;

before(async () => {
  kit = await crawledStore(40);
});
after(async () => {
  await kit?.close();
});

/** `focuscrawl serve ARGS` from the sources; resolves with the first line it prints. */
function spawnServe(args: string[]) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repo, 'test', 'crawl', 'cli-child.ts'), 'serve', ...args],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (c: string) => {
    err += c;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: string) => {
      out += c;
      const m = /at (http:\/\/\S+)/.exec(out);
      if (m !== null) resolve(m[1] as string);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}): ${out}${err}`)));
  });
  return { child, url, exited, output: () => out + err };
}

describe('focuscrawl serve', () => {
  test('prints the address with a token; the API answers; Ctrl-C ends it with 0', async () => {
    const s = spawnServe(['--store', kit.dir, '--port', '0']);
    try {
      const printed = new URL(await s.url);
      assert.equal(printed.hostname, '127.0.0.1');
      const token = printed.searchParams.get('token');
      assert.ok(token !== null && token.length >= 16);
      const base = `${printed.origin}/`;
      const status = await fetch(`${base}api/status`);
      assert.equal(status.status, 200);
      assert.equal(
        ((await status.json()) as { counts: { complete: number } }).counts.complete > 0,
        true,
      );
      const refused = await fetch(`${base}api/control/pause`, { method: 'POST' });
      assert.equal(refused.status, 401);
      const paused = await fetch(`${base}api/control/pause`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(paused.status, 200);
      assert.equal((await readControl(kit.store)).paused, true);
      await fetch(`${base}api/control/resume`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
    } finally {
      s.child.kill('SIGINT');
    }
    assert.equal(await s.exited, 0, s.output());
  });

  test('--read-only; a given --token', async () => {
    const token = 'the-given-token-123';
    const s = spawnServe(['--store', kit.dir, '--port', '0', '--read-only', '--token', token]);
    try {
      const printed = new URL(await s.url);
      assert.equal(printed.searchParams.get('token'), token);
      const r = await fetch(`${printed.origin}/api/control/pause`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(r.status, 403);
      assert.equal(
        ((await r.json()) as { error: { code: string } }).error.code,
        'FC_ERR_FORBIDDEN',
      );
    } finally {
      s.child.kill('SIGINT');
    }
    assert.equal(await s.exited, 0);
  });

  test('mistakes: exit 2 for usage, 1 for a missing store', async () => {
    const short = await runCli('serve', '--store', kit.dir, '--token', 'short');
    assert.equal(short.code, 2);
    assert.match(short.err, /FC_ERR_CLI_USAGE: focuscrawl serve: --token must be 16 to 256/);
    const noStore = await runCli('serve');
    assert.equal(noStore.code, 2);
    assert.match(noStore.err, /--store is required/);
    const missing = await runCli('serve', '--store', join(root, 'none'), '--port', '0');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /FC_ERR_STORE: no store at/);
    const help = await runCli('serve', '--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /--read-only/);
  });
});

describe('crawl --serve', () => {
  test('--serve takes an optional port', () => {
    assert.deepEqual(withServeDefault(['--serve', 'http://a.test/']), [
      '--serve=8080',
      'http://a.test/',
    ]);
    assert.deepEqual(withServeDefault(['--serve', '0', '--quiet']), ['--serve', '0', '--quiet']);
    assert.deepEqual(withServeDefault(['--quiet', '--serve']), ['--quiet', '--serve=8080']);
  });

  test('serves the store while crawling; a stop through the API ends the crawl (stopped)', async () => {
    const dir = join(root, 'served');
    const topic = join(root, 'topic.json');
    writeFileSync(topic, JSON.stringify(MONITOR.topic));
    let err = '';
    let out = '';
    let resolveUrl: (u: string) => void = () => {};
    const url = new Promise<string>((resolve) => {
      resolveUrl = resolve;
    });
    const run = main(
      [
        'crawl',
        '--store',
        dir,
        '--topic',
        topic,
        '--seeds',
        ...MONITOR.seeds,
        '--resolve',
        kit.web.resolve,
        '--allow-private',
        '--delay-ms',
        '30',
        '--sitemaps',
        'none',
        '--max-pages',
        '1500',
        '--quiet',
        '--serve',
        '0',
      ],
      {
        out: (s) => {
          out += `${s}\n`;
        },
        err: (s) => {
          err += `${s}\n`;
          const m = /serving the dashboard and the API at (\S+)/.exec(s);
          if (m !== null) resolveUrl(m[1] as string);
        },
      },
    );
    const printed = new URL(await url);
    const token = printed.searchParams.get('token');
    const status = await fetch(`${printed.origin}/api/status`);
    assert.equal(status.status, 200);
    const stop = await fetch(`${printed.origin}/api/control/stop`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(stop.status, 200);
    const code = await run;
    assert.equal(code, 0, err);
    assert.match(out, /stopped/);
    // The server went with the crawl.
    await assert.rejects(fetch(`${printed.origin}/api/status`));
    await inStore(dir, async (s) => assert.equal((await readControl(s)).stop, true));
  });
});
