// A full disk (a small tmpfs, mounted by the test: it runs as root in CI) stops a crawl
// with an error that names the store and says why, leaves the store whole (check), and
// the same command resumes and finishes once there is space again.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestWeb, type TestWeb, topicKeywords } from '../../src/testweb/index.js';
import { crawlTestWeb, runCli } from '../run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-full-disk-'));
const disk = join(root, 'disk');
const topic = join(root, 'grid.json');
writeFileSync(topic, JSON.stringify(topicKeywords('grid')));

/** Why the test cannot run here (not root: it mounts a tmpfs), or undefined. */
function skipReason(): string | undefined {
  if (process.getuid?.() === 0) return undefined;
  const why = 'mounting a tmpfs needs root';
  // CI runs as root: there, a test that cannot mount fails instead of skipping.
  if (process.env['CI']) throw new Error(`full-disk test: ${why}`);
  return why;
}
const skip = skipReason();
let web: TestWeb;
let mounted = false;

const mount = (size: string, remount = false) =>
  execFileSync(
    'mount',
    remount
      ? ['-o', `remount,size=${size}`, disk]
      : ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk],
  );

before(async () => {
  if (skip !== undefined) return;
  execFileSync('mkdir', ['-p', disk]);
  mount('1m');
  mounted = true;
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
});
after(async () => {
  await web?.close();
  if (mounted) execFileSync('umount', [disk]);
  rmSync(root, { recursive: true, force: true });
});

describe('a full disk', { skip }, () => {
  for (const bodies of ['all', 'none'] as const) {
    it(`stops the crawl naming the store and why, leaves it whole, and the same command resumes (--store-bodies ${bodies})`, async () => {
      const store = join(disk, `s-${bodies}`);
      try {
        await fullThenResume(store, bodies);
      } finally {
        rmSync(store, { recursive: true, force: true });
        mount('1m', true);
      }
    });
  }
});

async function fullThenResume(store: string, bodies: 'all' | 'none'): Promise<void> {
  const args = ['--store-bodies', bodies, '--sitemaps', 'none'] as const;
  const r = await crawlTestWeb(web, store, topic, 'http://portal.test/', ...args);
  assert.equal(r.code, 1, r.out);
  assert.match(r.err, new RegExp(`FC_ERR_STORE: .*${store}`));
  assert.match(
    r.err,
    /no space left on the device \(ENOSPC\)|database or disk is full: free some space/,
  );
  // Nothing damaged: at most leftovers of the interrupted writes, which repair removes.
  const c = await runCli('check', '--store', store, '--json');
  const report = JSON.parse(c.out) as { problems: { part: string }[] };
  assert.deepEqual(
    report.problems.filter((p) => p.part !== 'leftover'),
    [],
    c.out,
  );
  mount('800m', true);
  {
    const again = await crawlTestWeb(web, store, topic, 'http://portal.test/', ...args);
    assert.equal(again.code, 0, again.err);
    assert.match(again.out, /exhausted/);
    const done = await runCli('check', '--store', store, '--repair');
    assert.equal(done.code, 0, done.out);
    const status = await runCli('status', '--store', store, '--json');
    const counts = (JSON.parse(status.out) as { counts: Record<string, number> }).counts;
    assert.equal(counts['waiting'], 0);
    assert.equal(counts['processing'], 0);
  }
}
