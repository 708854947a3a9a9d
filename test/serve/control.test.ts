// The control routes and the token rules of the API through HTTP, on a store a real
// crawl of the test web made.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readControl } from '../../src/crawl/control.js';
import { InvalidOptionError } from '../../src/errors/index.js';
import { createTopic, META_THRESHOLD } from '../../src/relevance/index.js';
import { createGuard, isLoopback, tokenFor } from '../../src/serve/auth.js';
import type { Server } from '../../src/serve/index.js';
import { parseServeOptions } from '../../src/serve/options.js';
import { buildApp } from '../../src/serve/server.js';
import { assertError, call, crawledStore, type Kit, serve } from './kit.js';

let kit: Kit;
let server: Server;
const TOKEN = 'a-token-of-twenty-chars';

before(async () => {
  kit = await crawledStore(60);
  server = await serve(kit.store, { token: TOKEN });
});
after(async () => {
  await server?.close();
  await kit?.close();
});

describe('control routes', () => {
  test('need the token: none 401, a wrong one 401, the right one writes the control value', async () => {
    assertError(
      await call(server, 'POST', '/api/control/pause'),
      401,
      'FC_ERR_UNAUTHORIZED',
      /Authorization: Bearer/,
    );
    const none = await call(server, 'POST', '/api/control/pause');
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    assertError(
      await call(server, 'POST', '/api/control/pause', { token: `${TOKEN}x` }),
      401,
      'FC_ERR_UNAUTHORIZED',
      /wrong/,
    );
    // Not from the URL: a link or a form of another site cannot carry it.
    assertError(
      await call(server, 'POST', `/api/control/pause?token=${TOKEN}`),
      401,
      'FC_ERR_UNAUTHORIZED',
    );
    assert.equal((await readControl(kit.store)).paused, false);

    const paused = await call(server, 'POST', '/api/control/pause', { token: TOKEN });
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.json.control.paused, true);
    assert.equal((await readControl(kit.store)).paused, true);
    const status = await call(server, 'GET', '/api/status');
    assert.equal(status.json.control.paused, true);

    const stopped = await call(server, 'POST', '/api/control/stop', { token: TOKEN });
    assert.equal(stopped.json.control.stop, true);
    assert.ok(stopped.json.control.seq > paused.json.control.seq);
    const resumed = await call(server, 'POST', '/api/control/resume', {
      token: TOKEN,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(resumed.status, 200, 'an empty JSON body is no body');
    assert.deepEqual([resumed.json.control.paused, resumed.json.control.stop], [false, false]);
  });

  test('PUT /api/threshold', async () => {
    const recorded = await kit.store.getMeta<{ value: number }>(META_THRESHOLD);
    const r = await call(server, 'PUT', '/api/threshold', { token: TOKEN, body: { value: 0.35 } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.control.threshold, 0.35);
    const c = await readControl(kit.store);
    assert.deepEqual(c.threshold, { value: 0.35, seq: c.seq });
    const bad: [unknown, RegExp][] = [
      [{ value: 2 }, /^value: expected a number from 0 to 1, got 2$/],
      [{ value: '0.3' }, /^value: /],
      [{}, /^value: .*missing$/],
      [{ value: 0.3, extra: 1 }, /unknown field "extra"/],
    ];
    for (const [body, message] of bad) {
      assertError(
        await call(server, 'PUT', '/api/threshold', { token: TOKEN, body }),
        400,
        'FC_ERR_INVALID_OPTION',
        message,
      );
    }
    const broken = await server.app.inject({
      method: 'PUT',
      url: '/api/threshold',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      payload: '{"value": ',
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(JSON.parse(broken.body).error.code, 'FC_ERR_INVALID_OPTION');
    // The control value only: the crawl (none runs here) records the change when it applies it.
    assert.deepEqual(await kit.store.getMeta(META_THRESHOLD), recorded);
  });

  test('PUT /api/topic/weights', async () => {
    const r = await call(server, 'PUT', '/api/topic/weights', {
      token: TOKEN,
      body: { weights: { ' Grid  Monitor ': 1, 电网: 0.5 } },
    });
    assert.equal(r.status, 200, r.text);
    const topic = createTopic({ keywords: { ' Grid  Monitor ': 1, 电网: 0.5 } });
    const expected = Object.fromEntries(topic.keywords.map((k) => [k.word, k.weight]));
    assert.ok('Grid Monitor' in expected || 'grid monitor' in expected);
    assert.deepEqual(r.json.control.weights, expected, 'normalised as a topic');
    const bad: [unknown, RegExp][] = [
      [{ weights: { a: -1 } }, /^weights\.a: expected a positive number, got -1$/],
      [{ weights: {} }, /^weights: expected at least one keyword/],
      [{ weights: { A: 1, a: 2 } }, /duplicate keyword/],
      [{ weights: 'a' }, /^weights: /],
    ];
    for (const [body, message] of bad) {
      assertError(
        await call(server, 'PUT', '/api/topic/weights', { token: TOKEN, body }),
        400,
        'FC_ERR_INVALID_OPTION',
        message,
      );
    }
  });

  test('POST /api/seeds adds them to the frontier', async () => {
    const url = `${kit.web.url('portal.test', '/new-seed-from-the-api')}`;
    const before = (await kit.store.counts()).waiting;
    const r = await call(server, 'POST', '/api/seeds', {
      token: TOKEN,
      body: { urls: [url, url] },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { added: 1, seeds: 1 });
    assert.equal((await kit.store.counts()).waiting, before + 1);
    assert.ok((await kit.store.getSeeds()).some((s) => s.endsWith('/new-seed-from-the-api')));
    assertError(
      await call(server, 'POST', '/api/seeds', { token: TOKEN, body: { urls: ['ftp://x.test/'] } }),
      400,
      'FC_ERR_INVALID_OPTION',
      /^urls\.0: /,
    );
    assertError(
      await call(server, 'POST', '/api/seeds', { token: TOKEN, body: { urls: [] } }),
      400,
      'FC_ERR_INVALID_OPTION',
      /^urls: /,
    );
  });

  test('a read-only server refuses control (403) whatever the token, and still reads', async () => {
    const ro = await serve(kit.store, { token: TOKEN, readOnly: true });
    try {
      assertError(
        await call(ro, 'POST', '/api/control/pause', { token: TOKEN }),
        403,
        'FC_ERR_FORBIDDEN',
        /read-only/,
      );
      assertError(
        await call(ro, 'PUT', '/api/threshold', { body: { value: 0.2 } }),
        403,
        'FC_ERR_FORBIDDEN',
      );
      assert.equal((await call(ro, 'GET', '/api/status')).status, 200);
    } finally {
      await ro.close();
    }
  });
});

describe('tokens and hosts', () => {
  test('loopback: a token is generated when none is given', async () => {
    const s = await serve(kit.store);
    try {
      assert.equal(s.tokenGenerated, true);
      assert.match(s.token, /^[\w-]{43}$/);
      assert.equal(s.dashboardUrl, `http://127.0.0.1:${s.port}/?token=${s.token}`);
      assert.equal((await call(s, 'POST', '/api/control/pause', { token: s.token })).status, 200);
      await call(s, 'POST', '/api/control/resume', { token: s.token });
    } finally {
      await s.close();
    }
  });

  test('another address: refused to start without a token, unless one is generated', async () => {
    await assert.rejects(
      serve(kit.store, { host: '0.0.0.0' }),
      (e: unknown) =>
        e instanceof InvalidOptionError &&
        /serve\.token: host 0\.0\.0\.0 is not loopback/.test(e.message),
    );
    const generated = tokenFor(parseServeOptions({ host: '0.0.0.0', generateToken: true }));
    assert.equal(generated.generated, true);
    assert.equal(tokenFor(parseServeOptions({ host: '10.1.2.3', token: TOKEN })).token, TOKEN);
    assert.ok(
      isLoopback('127.0.0.1') &&
        isLoopback('::1') &&
        isLoopback('[::1]') &&
        isLoopback('localhost'),
    );
    assert.ok(!isLoopback('0.0.0.0') && !isLoopback('192.168.1.2') && !isLoopback('example.org'));
  });

  test('another address: every API route needs the token (header, or ?token= on a GET); the dashboard does not', async () => {
    // Built without listening: nothing is bound off loopback.
    const o = parseServeOptions({ host: '0.0.0.0', token: TOKEN });
    const { app } = buildApp(kit.store, o, createGuard(o, TOKEN));
    try {
      const open = { app } as unknown as Server;
      assertError(await call(open, 'GET', '/api/status'), 401, 'FC_ERR_UNAUTHORIZED');
      assertError(await call(open, 'GET', '/openapi.json'), 401, 'FC_ERR_UNAUTHORIZED');
      assertError(
        await call(open, 'GET', '/api/status?token=wrong-token-12345'),
        401,
        'FC_ERR_UNAUTHORIZED',
        /wrong/,
      );
      assert.equal((await call(open, 'GET', `/api/status?token=${TOKEN}`)).status, 200);
      assert.equal((await call(open, 'GET', '/api/status', { token: TOKEN })).status, 200);
      assert.equal((await call(open, 'GET', '/')).status, 200);
      assert.equal(
        (
          await call(open, 'GET', '/api/status', {
            headers: { host: 'crawler.example.org' },
            token: TOKEN,
          })
        ).status,
        200,
      );
    } finally {
      await app.close();
    }
  });

  test('loopback: a request for another host (DNS rebinding) is refused', async () => {
    assertError(
      await call(server, 'GET', '/api/status', { headers: { host: 'attacker.example:8080' } }),
      403,
      'FC_ERR_FORBIDDEN',
      /asked for host "attacker\.example"/,
    );
    for (const host of ['localhost:1234', '127.0.0.1', '[::1]:80']) {
      assert.equal(
        (await call(server, 'GET', '/api/status', { headers: { host } })).status,
        200,
        host,
      );
    }
  });

  test('options are checked, naming the field', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ port: 70000 }, /^serve\.port: /],
      [{ token: 'short' }, /^serve\.token: expected 16 to 256/],
      [{ readOnly: 'yes' }, /^serve\.readOnly: /],
      [{ colour: 'red' }, /^serve: unknown option "colour"/],
    ];
    for (const [o, message] of bad) {
      await assert.rejects(
        serve(kit.store, o as never),
        (e: unknown) => e instanceof InvalidOptionError && message.test(e.message),
      );
    }
  });
});
