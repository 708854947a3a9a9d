// The read routes of the API through HTTP (fastify's inject, and real requests for the
// event stream), on a store a real crawl of the test web made.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { EXPORT_FORMATS, exportStore } from '../../src/export/index.js';
import type { Server } from '../../src/serve/index.js';
import type { HistoryRecord, PageRow } from '../../src/store/index.js';
import { all } from '../store-read.js';
import { assertError, call, crawledStore, type Json, type Kit, serve } from './kit.js';

let kit: Kit;
let server: Server;
let history: HistoryRecord[];

before(async () => {
  kit = await crawledStore();
  server = await serve(kit.store, { storeName: kit.dir });
  history = await all(kit.store.history());
});
after(async () => {
  await server?.close();
  await kit?.close();
});

/** Every row of /api/pages for `query`, following the cursors. */
async function walk(query: string): Promise<PageRow[]> {
  const rows: PageRow[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const r = await call(
      server,
      'GET',
      `/api/pages?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    assert.equal(r.status, 200, r.text);
    rows.push(...r.json.items);
    cursor = r.json.next;
    if (cursor === null) return rows;
  }
  throw new Error('no end');
}

const kept = () => history.filter((h) => h.state === 'complete');

describe('GET /openapi.json', () => {
  test('lists every route, and every route it lists exists', async () => {
    const r = await call(server, 'GET', '/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.json.openapi, '3.1.0');
    const paths = r.json.paths as Record<string, Record<string, unknown>>;
    const expected = [
      'GET /openapi.json',
      'GET /api/status',
      'GET /api/pages',
      'GET /api/page',
      'GET /api/page/body',
      'GET /api/search',
      'GET /api/frontier',
      'GET /api/hosts',
      'GET /api/series',
      'GET /api/export/{format}',
      'GET /api/events',
      'POST /api/control/pause',
      'POST /api/control/resume',
      'POST /api/control/stop',
      'PUT /api/threshold',
      'PUT /api/topic/weights',
      'POST /api/seeds',
      'GET /',
    ];
    const listed = Object.entries(paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
    );
    assert.deepEqual(listed.sort(), [...expected].sort());
    for (const entry of listed) {
      const [method, path] = entry.split(' ') as ['GET' | 'POST' | 'PUT', string];
      assert.ok(
        server.app.hasRoute({ method, url: path.replace(/\{(\w+)\}/g, ':$1') }),
        `${entry} is served`,
      );
    }
  });
});

describe('GET /api/status', () => {
  test("status's figures, the control value and the live rate", async () => {
    const r = await call(server, 'GET', '/api/status');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.counts.complete, kept().length);
    assert.equal(r.json.control.paused, false);
    assert.equal(r.json.control.stop, false);
    assert.ok('pagesPerSec' in r.json && 'crawlPagesPerSec' in r.json);
    assert.equal(typeof r.json.at, 'number');
    assertError(
      await call(server, 'GET', '/api/status?x=1'),
      400,
      'FC_ERR_INVALID_OPTION',
      /unknown parameter "x"/,
    );
  });
});

describe('GET /api/pages', () => {
  test('walking the cursors gives every known URL once', async () => {
    const rows = await walk('limit=37');
    const urls = rows.map((x) => x.url);
    assert.equal(new Set(urls).size, urls.length, 'no URL twice');
    const known = await all(kit.store.urls());
    assert.equal(urls.length, known.length);
    const first = await call(server, 'GET', '/api/pages');
    assert.equal(first.json.items.length, 50, 'default limit');
  });

  test('filters and sorts', async () => {
    const complete = await walk('state=complete&sort=relevance&order=desc&limit=500');
    assert.equal(complete.length, kept().length);
    assert.ok(complete.every((p) => p.state === 'complete'));
    for (let i = 1; i < complete.length; i++) {
      assert.ok((complete[i - 1]?.relevance as number) >= (complete[i]?.relevance as number));
    }
    const mid = await walk('minRelevance=0.2&maxRelevance=0.6&limit=500');
    assert.ok(mid.every((p) => p.relevance !== null && p.relevance >= 0.2 && p.relevance <= 0.6));
    const host = complete[0]?.host as string;
    const onHost = await walk(`host=${encodeURIComponent(host.toUpperCase())}&limit=500`);
    assert.ok(onHost.length > 0 && onHost.every((p) => p.host === host));
  });

  test('full text (q): the kept pages matching, with a snippet', async () => {
    const word = [...(await kit.store.getKeywords()).keys()][0] as string;
    const r = await call(server, 'GET', `/api/pages?q=${encodeURIComponent(word)}&limit=5`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json.items.length > 0);
    assert.equal(r.json.next, null);
    for (const p of r.json.items) {
      assert.equal(p.state, 'complete');
      assert.equal(typeof p.snippet, 'string');
      assert.equal(typeof p.fetchedAt, 'number');
    }
    assertError(
      await call(server, 'GET', `/api/pages?q=${encodeURIComponent(word)}&sort=rank`),
      400,
      'FC_ERR_INVALID_OPTION',
      /^sort: /,
    );
  });

  test('bad input: 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['state=done', /^state: expected one of waiting, .*, got "done"$/],
      ['limit=-1', /^limit: expected a whole number from 1 to 500, got "-1"$/],
      ['limit=0', /^limit: /],
      ['limit=501', /^limit: /],
      ['limit=1.5', /^limit: /],
      ['cursor=xx', /cursor/],
      ['minRelevance=NaN', /^minRelevance: expected a number from 0 to 1, got "NaN"$/],
      ['minRelevance=0.8&maxRelevance=0.2', /^maxRelevance: /],
      ['sort=size', /^sort: expected one of relevance, fetchedAt, rank/],
      ['order=up', /^order: /],
      ['limit=1&limit=2', /^limit: expected one value/],
      ['lmit=5', /unknown parameter "lmit"/],
      ['q=%21%21%21', /^q: /],
    ];
    for (const [query, message] of cases) {
      assertError(
        await call(server, 'GET', `/api/pages?${query}`),
        400,
        'FC_ERR_INVALID_OPTION',
        message,
      );
    }
    // A cursor made for another sort is refused too.
    const r = await call(server, 'GET', '/api/pages?sort=relevance&limit=2');
    assertError(
      await call(server, 'GET', `/api/pages?sort=rank&cursor=${encodeURIComponent(r.json.next)}`),
      400,
      'FC_ERR_INVALID_OPTION',
      /cursor/,
    );
  });
});

describe('GET /api/page', () => {
  test('a kept page: its row, the keyword counts behind its relevance, links, history', async () => {
    const best = (await call(server, 'GET', '/api/pages?state=complete&sort=relevance&limit=1'))
      .json.items[0] as PageRow;
    const r = await call(server, 'GET', `/api/page?url=${encodeURIComponent(best.url)}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.record, best);
    assert.equal(r.json.state, 'complete');
    const rel = r.json.relevance;
    assert.equal(rel.stored, best.relevance);
    assert.ok(rel.keywords.length > 0);
    assert.ok(
      rel.keywords.some((k: { count: number }) => k.count > 0),
      'some keyword counted',
    );
    assert.ok(
      Math.abs(rel.recomputed - (best.relevance as number)) < 1e-6,
      'the counts give the stored score',
    );
    assert.ok(rel.textChars > 0);
    assert.ok(r.json.links.out.length > 0);
    assert.ok(r.json.history.length >= 1);
    assert.ok(Array.isArray(r.json.fields) && Array.isArray(r.json.visits));
  });

  test('a waiting URL, an unknown one, a bad one', async () => {
    const waiting = (await call(server, 'GET', '/api/pages?state=waiting&limit=1')).json
      .items[0] as PageRow;
    const w = await call(server, 'GET', `/api/page?url=${encodeURIComponent(waiting.url)}`);
    assert.equal(w.status, 200, w.text);
    assert.equal(w.json.state, 'waiting');
    assert.equal(w.json.relevance.stored, null);
    assertError(
      await call(server, 'GET', `/api/page?url=${encodeURIComponent('http://nowhere.test/x')}`),
      404,
      'FC_ERR_NOT_FOUND',
    );
    assertError(
      await call(server, 'GET', '/api/page?url=ftp%3A%2F%2Fx'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^url: /,
    );
    assertError(
      await call(server, 'GET', '/api/page'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^url: .*missing/,
    );
  });

  test('its body, sandboxed; 404 without one', async () => {
    const page = kept()[0] as HistoryRecord;
    const r = await server.app.inject({
      method: 'GET',
      url: `/api/page/body?url=${encodeURIComponent(page.url)}`,
    });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['content-security-policy'], 'sandbox');
    const body = await kit.store.readBody(page.url);
    assert.ok(body !== null && body.length > 0);
    assert.ok(r.rawPayload.equals(body), 'the stored bytes');
    const waiting = (await call(server, 'GET', '/api/pages?state=waiting&limit=1')).json
      .items[0] as PageRow;
    assertError(
      await call(server, 'GET', `/api/page/body?url=${encodeURIComponent(waiting.url)}`),
      404,
      'FC_ERR_NOT_FOUND',
    );
  });
});

describe('search, frontier, hosts, series', () => {
  test('GET /api/search', async () => {
    const word = [...(await kit.store.getKeywords()).keys()][0] as string;
    const r = await call(server, 'GET', `/api/search?q=${encodeURIComponent(word)}&limit=3`);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.json.items.length > 0 && r.json.items.length <= 3);
    assert.equal(typeof r.json.items[0].snippet, 'string');
    assertError(
      await call(server, 'GET', '/api/search'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^q: .*missing/,
    );
    assertError(
      await call(server, 'GET', '/api/search?q=x&limit=101'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^limit: /,
    );
  });

  test('GET /api/frontier: the best waiting URLs first', async () => {
    const r = await call(server, 'GET', '/api/frontier?limit=10');
    assert.equal(r.status, 200, r.text);
    const items = r.json.items as { priority: number; id: number; host: string }[];
    assert.ok(items.length > 0 && items.length <= 10);
    assert.equal(r.json.complete, true);
    let best = -Infinity;
    for await (const w of kit.store.urls('waiting')) best = Math.max(best, w.priority);
    assert.equal(items[0]?.priority, best);
    for (let i = 1; i < items.length; i++) {
      const a = items[i - 1] as { priority: number; id: number };
      const b = items[i] as { priority: number; id: number };
      assert.ok(a.priority > b.priority || (a.priority === b.priority && a.id < b.id));
    }
    assertError(
      await call(server, 'GET', '/api/frontier?limit=-5'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^limit: /,
    );
  });

  test('GET /api/hosts', async () => {
    const r = await call(server, 'GET', '/api/hosts?limit=3');
    assert.equal(r.status, 200);
    assert.ok(r.json.items.length > 0 && r.json.items.length <= 3);
    assert.equal(typeof r.json.items[0].host, 'string');
  });

  test('GET /api/series: buckets add up to the history; the threshold history', async () => {
    const r = await call(server, 'GET', '/api/series?bucketMs=1000');
    assert.equal(r.status, 200, r.text);
    const buckets = r.json.buckets as {
      fetched: number;
      kept: number;
      harvestRate: number | null;
    }[];
    const sum = (k: 'fetched' | 'kept') => buckets.reduce((t, b) => t + b[k], 0);
    assert.equal(sum('fetched'), history.filter((h) => h.state !== 'redirect').length);
    assert.equal(sum('kept'), kept().length);
    assert.equal(r.json.bucketMs, 1000);
    assert.equal(r.json.threshold.kind, 'fixed');
    assertError(
      await call(server, 'GET', '/api/series?bucketMs=5'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^bucketMs: /,
    );
  });
});

describe('GET /api/export/:format', () => {
  test('every format downloads what focuscrawl export writes', async () => {
    for (const format of EXPORT_FORMATS) {
      const text = format === 'warc' ? '' : '&text=false';
      const r = await server.app.inject({
        method: 'GET',
        url: `/api/export/${format}?what=pages${text}`,
      });
      assert.equal(r.statusCode, 200, `${format}: ${r.body.slice(0, 200)}`);
      assert.match(
        String(r.headers['content-disposition']),
        new RegExp(`^attachment; filename="pages\\.${format === 'warc' ? 'warc\\.gz' : format}"$`),
      );
      if (format === 'warc') {
        assert.equal(r.rawPayload[0], 0x1f, 'gzip');
        continue;
      }
      let expected = '';
      await exportStore(kit.store, { what: 'pages', format, text: false, source: kit.dir }, (c) => {
        expected += c;
      });
      assert.equal(r.body, expected, format);
    }
  });

  test('bad input before the first byte', async () => {
    assertError(
      await call(server, 'GET', '/api/export/pdf'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^format: /,
    );
    assertError(
      await call(server, 'GET', '/api/export/warc?what=urls'),
      400,
      'FC_ERR_INVALID_OPTION',
      /what/,
    );
    assertError(
      await call(server, 'GET', '/api/export/csv?what=links&bom=maybe'),
      400,
      'FC_ERR_INVALID_OPTION',
      /^bom: /,
    );
  });
});

describe('GET /api/events', () => {
  test('a status event arrives', async () => {
    const event = await new Promise<{ name: string; data: Json }>((resolve, reject) => {
      const req = get(`http://127.0.0.1:${server.port}/api/events`, (res) => {
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^text\/event-stream/);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          const m = /event: (\w+)\nid: \d+\ndata: (.*)\n\n/.exec(text);
          if (m !== null) {
            req.destroy();
            resolve({ name: m[1] as string, data: JSON.parse(m[2] as string) });
          }
        });
      });
      req.on('error', reject);
      setTimeout(() => reject(new Error('no event')), 10_000).unref();
    });
    assert.equal(event.name, 'status');
    assert.equal(event.data.counts.complete, kept().length);
  });
});

describe('the dashboard and errors', () => {
  test('/ and its files; no path outside the folder', async () => {
    const index = await call(server, 'GET', '/');
    assert.equal(index.status, 200);
    assert.match(String(index.headers['content-type']), /^text\/html/);
    const uplot = await call(server, 'GET', '/assets/uplot.iife.min.js');
    assert.equal(uplot.status, 200);
    assert.match(String(uplot.headers['content-type']), /^text\/javascript/);
    assert.equal((await call(server, 'GET', '/assets/uPlot.min.css')).status, 200);
    for (const path of [
      '/assets/..%2F..%2F..%2Fpackage.json',
      '/assets/%2E%2E%2Fserver.ts',
      '/..%2Fserver.ts',
      '/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/assets/nope.js',
    ]) {
      assertError(await call(server, 'GET', path), 404, 'FC_ERR_NOT_FOUND');
    }
  });

  test('an unknown route is a JSON 404', async () => {
    assertError(
      await call(server, 'GET', '/api/nothing'),
      404,
      'FC_ERR_NOT_FOUND',
      /no route GET \/api\/nothing/,
    );
  });
});
