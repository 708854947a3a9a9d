import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { tempDir } from '../util/testing.js';
import { describeTestWeb, startTestWeb } from './index.js';
import { rawGet } from './testing.js';
import { TOPICS } from './topics.js';
import { EN_FILLER, EN_GENERIC, EN_TEMPLATES, EN_TITLES } from './words-en.js';
import { ZH_FILLER, ZH_GENERIC, ZH_TEMPLATES, ZH_TITLES } from './words-zh.js';

describe('server', () => {
  test('logFile gets one JSON line per request; maxLogEntries caps the in-memory log', async () => {
    const file = join(tempDir('testweb'), 'log.jsonl');
    const web = await startTestWeb({ logFile: file, maxLogEntries: 3 });
    for (let i = 0; i < 5; i++) await rawGet(web.port, 'status.test', `/404?i=${i}`);
    await rawGet(web.port, 'status.test', '/', { method: 'HEAD' });
    assert.equal(web.requests.length, 3);
    assert.equal(web.requests.at(-1)?.method, 'HEAD');
    await web.close();
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 6);
    assert.deepEqual(Object.keys(lines[0]).sort(), [
      'bytes',
      'host',
      'method',
      'path',
      'status',
      'ts',
      'userAgent',
    ]);
    assert.equal(lines[0].path, '/404?i=0');
    assert.equal(lines[0].status, 404);
    for (let i = 1; i < lines.length; i++) assert.ok(lines[i].ts >= lines[i - 1].ts);
  });

  test('HEAD answers headers only', async () => {
    const web = await startTestWeb();
    try {
      const r = await rawGet(web.port, 'media.test', '/doc.pdf', { method: 'HEAD' });
      assert.equal(r.status, 200);
      assert.equal(r.body.length, 0);
      assert.ok(Number(r.headers['content-length']) > 100);
    } finally {
      await web.close();
    }
  });

  test("HEAD of the hostile host's streamed bodies answers headers only, and ends", async () => {
    const web = await startTestWeb();
    try {
      for (const path of ['/huge', '/endless', '/endless?fast=1', '/drip']) {
        // Before, a HEAD of /endless never ended and /huge pumped 200 MB into nothing.
        const r = await rawGet(web.port, 'hostile.test', path, { method: 'HEAD', timeoutMs: 5000 });
        assert.equal(r.status, 200, path);
        assert.equal(r.body.length, 0, path);
      }
      const huge = await rawGet(web.port, 'hostile.test', '/huge', { method: 'HEAD' });
      assert.equal(huge.headers['content-length'], String(200 * 1000 * 1000));
    } finally {
      await web.close();
    }
  });

  test('simulated clock: set, advance, speed', async () => {
    const web = await startTestWeb({ clockStartMs: 1_000 });
    assert.equal(web.clock.now(), 1_000);
    web.clock.advance(500);
    assert.equal(web.clock.now(), 1_500);
    web.clock.set(10);
    assert.equal(web.clock.now(), 10);
    await web.close();
    const fast = await startTestWeb({ clockStartMs: 0, clockSpeed: 1000 });
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(fast.clock.now() >= 20_000);
    await fast.close();
  });

  test('close() is idempotent and ends hanging requests', async () => {
    const web = await startTestWeb();
    const pending = rawGet(web.port, 'slow.test', '/hang');
    await new Promise((r) => setTimeout(r, 20));
    await Promise.all([web.close(), web.close()]);
    await assert.rejects(pending);
  });

  test('describeTestWeb names the port, the resolve rule and the hosts', async () => {
    const web = await startTestWeb();
    try {
      const text = describeTestWeb(web);
      assert.ok(text.includes(String(web.port)));
      assert.ok(text.includes(web.resolve));
      for (const h of ['portal.test', 'stargazer.test', 'forum.test', 'gbk-meta.test'])
        assert.ok(text.includes(h), h);
    } finally {
      await web.close();
    }
  });

  test('word lists hold nothing that would need HTML escaping', () => {
    const all = [
      ...Object.values(EN_FILLER),
      ...Object.values(ZH_FILLER),
      ...Object.values(TOPICS).map((t) => t.vocab),
    ];
    for (const v of all) {
      for (const w of [...v.nouns, ...v.adjs, ...v.verbs, ...v.people, ...v.phrases])
        assert.doesNotMatch(w, /[&<>"]/);
    }
    const fixed = [EN_GENERIC, EN_TEMPLATES, EN_TITLES, ZH_GENERIC, ZH_TEMPLATES, ZH_TITLES].flat();
    for (const w of fixed) assert.doesNotMatch(w, /[&<>"]/);
  });
});
