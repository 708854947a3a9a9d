// Exit statuses a script can tell apart: a crawl or watch stopped by Ctrl-C (SIGINT) or
// SIGTERM exits 130 (interrupted) after stopping gracefully, a finished crawl 0.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { finished, spawnCli } from '../crawl/resume-helpers.js';

const root = mkdtempSync(join(tmpdir(), 'focuscrawl-interrupt-'));
const topic = join(root, 'topic.json');
let web: TestWeb;

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  writeFileSync(topic, JSON.stringify({ keywords: { telescope: 1, galaxy: 1 } }));
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

const args = (store: string, ...extra: string[]) => [
  '--store',
  join(root, store),
  '--topic',
  topic,
  '--seeds',
  'http://stargazer.test/',
  '--scope',
  'same-host',
  '--threshold',
  '0',
  '--delay-ms',
  '5',
  '--per-host-concurrency',
  '1',
  '--resolve',
  web.resolve,
  '--allow-private',
  '--sitemaps',
  'none',
  ...extra,
];

test('a crawl stopped by SIGTERM exits 130, a finished one 0', async () => {
  const c = spawnCli('crawl', args('term'));
  await c.waitFor((e) => e.event === 'page');
  c.child.kill('SIGTERM');
  const stopped = await finished(c);
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.equal(stopped.end.stopReason, 'stopped');

  const done = await finished(spawnCli('crawl', args('done', '--max-pages', '3')));
  assert.equal(done.code, 0, done.stderr);
  assert.equal(done.end.stopReason, 'max-pages');
});

test('a watch stopped by Ctrl-C exits 130, after its summary', async () => {
  const c = spawnCli('watch', args('watch', '--budget', '20/s'));
  await c.waitFor((e) => e.event === 'page');
  c.child.kill('SIGINT');
  const { code } = await c.exited;
  assert.equal(code, 130, c.stderr());
  assert.ok(
    c.events.some((e) => e.event === 'watchEnd'),
    'the summary is printed before the exit',
  );
});
