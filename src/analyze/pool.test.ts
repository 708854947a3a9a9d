// The analysis threads answer what the crawl's thread would compute itself: the same
// decoded text, links, robots directives and fingerprints for real responses of the
// test web (English and Chinese pages in their charsets, X-Robots-Tag headers, robots.txt
// as plain text); many analyses at once each get their own answer; a closed pool leaves
// the page to the caller instead of failing it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createFetcher, type Fetcher, type FetchResult } from '../fetch/index.js';
import {
  listPageUrls,
  ROBOTS_TAG_HOST,
  ROBOTS_TAG_PAGES,
  startTestWeb,
  type TestWeb,
} from '../testweb/index.js';
import { AnalysisPool, analyzer, parseThreadCount } from './index.js';
import { MAX_THREAD_BODY_BYTES } from './pool.js';
import type { AnalysisSetup } from './types.js';

const WEB = { seed: 1, size: 'small' as const };
const SETUP: AnalysisSetup = { parse: { contextChars: 80 }, fingerprint: true };
let web: TestWeb;
let fetcher: Fetcher;
const responses: FetchResult[] = [];

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
  fetcher = createFetcher({
    resolve: [web.resolve],
    allowPrivateAddresses: true,
    delayMs: 0,
    concurrency: 16,
    perHostConcurrency: 4,
  });
  const urls = [
    ...listPageUrls(WEB).filter((_, i) => i % 25 === 0),
    ...Object.keys(ROBOTS_TAG_PAGES).map((n) => `http://${ROBOTS_TAG_HOST}/${n}`),
    `http://${new URL(listPageUrls(WEB)[0] as string).host}/robots.txt`,
  ];
  responses.push(...(await Promise.all(urls.map((u) => fetcher.fetch(u)))));
});
after(async () => {
  await fetcher.close();
  await web.close();
});

/** What the caller's thread computes for `res`. */
const local = (res: FetchResult) => analyzer(SETUP)(res);

describe('analysis threads', () => {
  it('answer what the crawl thread computes, for many pages at once', async () => {
    const pool = AnalysisPool.start(2, SETUP);
    assert.ok(pool);
    try {
      assert.ok(responses.length >= 85);
      const got = await Promise.all(responses.map((r) => pool.analyze(r)));
      let chinese = 0;
      let headers = 0;
      for (const [i, r] of responses.entries()) {
        const want = local(r);
        assert.deepEqual(got[i], want, r.finalUrl);
        if (/[\u4e00-\u9fff]/.test(want.body.page?.text ?? '')) chinese++;
        if (r.headers['x-robots-tag'] !== undefined) headers++;
      }
      assert.ok(chinese >= 10, `${chinese} Chinese pages`);
      assert.ok(headers >= 4, `${headers} pages with X-Robots-Tag`);
      const noindex = got[responses.findIndex((r) => r.finalUrl.endsWith('/header-noindex'))];
      assert.equal(noindex?.body.page?.robots.noindex, true);
      const robots = got.at(-1);
      assert.equal(robots?.body.content, 'text');
      // The caller's body is untouched: a copy went to the thread.
      for (const r of responses) assert.equal(r.body.length, r.bytes);
    } finally {
      await pool.close();
    }
  });

  it('answer undefined once closed, and start no thread for 0', async () => {
    assert.equal(AnalysisPool.start(0, SETUP), null);
    const pool = AnalysisPool.start(1, SETUP);
    assert.ok(pool);
    await pool.close();
    assert.equal(await pool.analyze(responses[0] as FetchResult), undefined);
  });
});

describe('a body too large for a thread', () => {
  it('is left to the caller, and the threads go on (a 300 MB page ended the process)', async () => {
    const lost: string[] = [];
    const pool = AnalysisPool.start(1, SETUP, (m) => lost.push(m));
    assert.ok(pool);
    try {
      const page = responses[0] as FetchResult;
      const body = Buffer.alloc(300 * 1000 * 1000, 'word ');
      assert.equal(await pool.analyze({ ...page, body, bytes: body.length }), undefined);
      const edge = Buffer.alloc(MAX_THREAD_BODY_BYTES + 1, 'word ');
      assert.equal(await pool.analyze({ ...page, body: edge, bytes: edge.length }), undefined);
      assert.deepEqual(await pool.analyze(page), local(page));
      assert.equal(pool.threads, 1);
      assert.deepEqual(lost, []);
    } finally {
      await pool.close();
    }
  });
});

describe('parseThreadCount', () => {
  const cases: [number | 'auto', number, number][] = [
    [0, 16, 0],
    [3, 2, 3],
    ['auto', 1, 0],
    ['auto', 2, 0],
    ['auto', 3, 1],
    ['auto', 4, 2],
    ['auto', 6, 4],
    ['auto', 32, 4],
  ];
  for (const [given, cores, want] of cases) {
    it(`${given} on ${cores} cores: ${want}`, () => {
      assert.equal(parseThreadCount(given, cores), want);
    });
  }
});
