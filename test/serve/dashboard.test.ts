// The dashboard in a real browser: headless Chromium (Debian's `chromium`, driven by
// playwright-core; no browser download) on `focuscrawl`'s own server, while a crawl of
// the test web runs on the same store. The counters move, a search finds a known page,
// pausing stops new requests (the test web's log), changing the threshold changes what
// is kept, stopping ends the run; a watch shows its freshness. Under CI a missing
// Chromium fails the test; elsewhere it is skipped with a message.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type CrawlRun, type CrawlSummary, crawl, type PageEvent } from '../../src/crawl/index.js';
import { startServer } from '../../src/serve/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { tempDir } from '../../src/util/testing.js';
import { watch } from '../../src/watch/index.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const NO_CHROMIUM = `no Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does) or set CHROMIUM_PATH`;

/** How long after a control is accepted the crawl has surely applied it: its 500 ms poll and fetches under way. */
const SETTLE_MS = 2000;

if (!existsSync(CHROMIUM)) {
  if (process.env['CI']) {
    test('dashboard in Chromium', () => assert.fail(NO_CHROMIUM));
  } else {
    test('dashboard in Chromium', { skip: NO_CHROMIUM }, () => {});
  }
} else {
  dashboardTests();
}

/** A page event with the time it arrived. */
type Seen = PageEvent & { at: number };

function dashboardTests(): void {
  const L = labels({ seed: 1, size: 'small' });
  const grid = L.topics.find((t) => t.id === 'grid');
  assert.ok(grid);
  const dir = join(tempDir('dashboard'), 'store');
  const oldThreshold = 0.1;
  let web: TestWeb;
  let run: CrawlRun;
  let ended: Promise<CrawlSummary>;
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  const seen: Seen[] = [];
  /** Every /api/ request the page made, in order. */
  const apiRequests: string[] = [];
  /** Uncaught errors of the page's scripts. */
  const pageErrors: string[] = [];

  before(async () => {
    web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
    run = crawl({
      store: dir,
      topic: { ...grid.topic, threshold: oldThreshold },
      seeds: grid.seeds,
      fullText: 'kept',
      maxPages: 5000,
      fetcher: {
        resolve: [web.resolve],
        allowPrivateAddresses: true,
        // Slow enough for the test to watch (a few pages a second per host), fast
        // enough to see the counters move within a second.
        delayMs: 250,
        concurrency: 4,
        perHostConcurrency: 1,
      },
    });
    run.on('page', (e) => seen.push({ ...e, at: Date.now() }));
    ended = new Promise((resolve, reject) => {
      run.then(resolve, reject);
    });
    // The store exists once the crawl started; the server opens it beside the crawl.
    await new Promise<void>((resolve, reject) => {
      run.once('start', () => resolve());
      ended.catch(reject);
    });
    store = await openStore(dir);
    server = await startServer({ store, port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) apiRequests.push(u.pathname + u.search);
    });
  });

  after(async () => {
    await browser?.close();
    run?.stop();
    await ended?.catch(() => undefined);
    await server?.close();
    await store?.close();
    await web?.close();
  });

  /** An attribute of the first element `selector` finds, as a number (NaN when absent). */
  async function attr(selector: string, name: string): Promise<number> {
    const v = await page.getAttribute(selector, name);
    return v === null || v === '' ? Number.NaN : Number(v);
  }

  /** The number a counter shows (its data-value). */
  function counter(name: string): Promise<number> {
    return attr(`[data-testid="count-${name}"]`, 'data-value');
  }

  /** Waits until `check` holds, checking every 100 ms; fails naming `what` after `timeoutMs`. */
  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms: ${what}`);
      await sleep(100);
    }
  }

  /** Clicks a control and waits for its answer in the page. */
  async function control(testid: string): Promise<void> {
    await page.click(`[data-testid="${testid}"]`);
    await page.waitForSelector('[data-testid="control-msg"][data-state="ok"]', { timeout: 5000 });
  }

  test('first paint: the status and one page of 50 rows, then the live figures', async () => {
    await page.goto(server.dashboardUrl);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
    // The page asks for these two, and for nothing else until both have answered.
    const firstPaint = apiRequests.slice(0, 2);
    assert.deepEqual(
      firstPaint.map((r) => r.split('?')[0]).sort(),
      ['/api/pages', '/api/status'],
      apiRequests.join(', '),
    );
    const pagesRequest = firstPaint.find((r) => r.startsWith('/api/pages'));
    assert.match(pagesRequest ?? '', /[?&]limit=50(&|$)/);
    // The token left the address bar for sessionStorage.
    assert.equal(new URL(page.url()).searchParams.get('token'), null);
    await page.waitForSelector('[data-testid="connection"]:text("live")', { timeout: 10_000 });
    await until(
      'the live chart has points',
      async () => (await attr('#chart-live', 'data-points')) > 0,
    );
  });

  test('the counters move while the crawl runs', async () => {
    const fetched0 = await counter('fetched');
    assert.ok(Number.isFinite(fetched0), 'the fetched counter shows a number');
    await until(
      'the fetched counter moves',
      async () => (await counter('fetched')) > fetched0 + 5,
      15_000,
    );
    assert.ok((await counter('kept')) > 0, 'some pages are kept');
    const runState = await page.getAttribute('[data-testid="run-state"]', 'data-state');
    assert.equal(runState, 'crawling');
    // The tables filled from the API: kept pages, hosts.
    await page.click('[data-testid="pages-first"]', { force: true });
    await until(
      'the pages table has rows',
      async () => (await attr('#pages-table', 'data-rows')) > 0,
    );
    const states = await page.$$eval('[data-testid="pages-rows"] [data-state]', (els) =>
      els.map((e) => e.getAttribute('data-state')),
    );
    assert.ok(states.length > 0 && states.every((s) => s === 'complete'), states.join(','));
    assert.ok(Number(await page.getAttribute('#hosts-table', 'data-rows')) > 0);
  });

  test('a search finds a known kept page, and its page view explains the score', async () => {
    // A page the crawl kept a while ago (committed and indexed), with a title.
    const known = seen.find(
      (e) => e.state === 'complete' && e.title !== null && e.title.length > 0,
    );
    assert.ok(known, 'the crawl kept a page with a title');
    const url = known.finalUrl ?? known.url;
    await page.fill('[data-testid="search-input"]', known.title ?? '');
    await page.click('[data-testid="search-go"]');
    const hit = page.locator(`[data-testid="search-hits"] li[data-url="${url}"]`);
    await hit.waitFor({ timeout: 10_000 });
    await hit.locator('a.open-page').click();
    await page.waitForSelector('[data-testid="page-view"][data-loaded="true"]', {
      timeout: 10_000,
    });
    assert.equal(await page.textContent('[data-testid="page-url"]'), url);
    const explanation = await page.textContent('[data-testid="page-explanation"]');
    assert.match(explanation ?? '', /relevance \d\.\d{3}/);
    assert.match(explanation ?? '', /kept: at or above the threshold/);
    await page.click('[data-testid="page-close"]');
  });

  test('pause stops new requests; resume starts them again', async () => {
    const before = web.requests.length;
    await sleep(2000);
    assert.ok(web.requests.length > before, 'the crawl sends requests before the pause');

    await control('pause');
    await page.waitForSelector('[data-testid="run-state"][data-state="paused"]', {
      timeout: 5000,
    });
    await sleep(SETTLE_MS);
    const paused = web.requests.length;
    await sleep(2500);
    assert.equal(
      web.requests.length,
      paused,
      `no request while paused: ${JSON.stringify(web.requests.slice(paused))}`,
    );
    assert.equal(await page.isDisabled('[data-testid="pause"]'), true);

    await control('resume');
    const deadline = Date.now() + 5000;
    while (web.requests.length === paused && Date.now() < deadline) await sleep(100);
    assert.ok(web.requests.length > paused, 'requests again after resume');
    await page.waitForSelector('[data-testid="run-state"][data-state="crawling"]', {
      timeout: 5000,
    });
  });

  test('changing the threshold changes what is kept', async () => {
    const newThreshold = 0.9;
    await page.fill('[data-testid="threshold-input"]', String(newThreshold));
    await control('threshold-set');
    const changedAt = Date.now();
    await until(
      'the new threshold shows',
      async () => (await counter('threshold')) === newThreshold,
    );
    // Pages judged before the change: kept from the old threshold up.
    const earlier = seen.filter((e) => e.at < changedAt && e.relevance !== null);
    assert.ok(
      earlier.some((e) => e.state === 'complete' && (e.relevance ?? 0) < newThreshold),
      'before the change, pages below the new threshold were kept',
    );
    // Pages judged once the crawl applied it: kept only from the new threshold up.
    const from = changedAt + SETTLE_MS;
    const deadline = Date.now() + 15_000;
    const later = () => seen.filter((e) => e.at >= from && e.relevance !== null);
    while (
      !later().some((e) => e.state === 'discard' && (e.relevance ?? 0) >= oldThreshold) &&
      Date.now() < deadline
    ) {
      await sleep(200);
    }
    const judged = later();
    assert.ok(
      judged.some((e) => e.state === 'discard' && (e.relevance ?? 0) >= oldThreshold),
      `a page the old threshold kept is now discarded: ${JSON.stringify(judged.map((e) => [e.state, e.relevance]))}`,
    );
    for (const e of judged) {
      if (e.state === 'complete')
        assert.ok((e.relevance ?? 0) >= newThreshold, `${e.url} kept at ${e.relevance}`);
    }
  });

  test('stop ends the run', async () => {
    await page.click('[data-testid="stop"]');
    await control('stop-confirm');
    const summary = await Promise.race([
      ended,
      sleep(15_000).then(() => assert.fail('the run did not stop within 15 s')),
    ]);
    assert.equal(summary.stopReason, 'stopped');
    await page.waitForSelector('[data-testid="run-state"][data-state="idle"]', { timeout: 10_000 });
    assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    // No request the page made asked for more than one bounded page of anything.
    for (const r of apiRequests) {
      const limit = new URL(r, 'http://x').searchParams.get('limit');
      assert.ok(limit === null || Number(limit) <= 500, r);
    }
  });

  test('without the token the controls are off and say why', async () => {
    const other = await browser.newPage();
    try {
      await other.goto(new URL('/', server.url).href);
      await other.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      assert.equal(await other.isDisabled('[data-testid="pause"]'), true);
      assert.equal(await other.isDisabled('[data-testid="threshold-set"]'), true);
      assert.match((await other.textContent('[data-testid="control-note"]')) ?? '', /token/);
    } finally {
      await other.close();
    }
  });

  test('on a read-only server a control is refused and the controls go off', async () => {
    const ro = await startServer({ store, port: 0, readOnly: true });
    const other = await browser.newPage();
    other.on('pageerror', (e) => pageErrors.push(e.message));
    try {
      await other.goto(ro.dashboardUrl);
      await other.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
      await other.click('[data-testid="pause"]');
      await other.waitForSelector('[data-testid="control-msg"][data-state="error"]', {
        timeout: 5000,
      });
      assert.match((await other.textContent('[data-testid="control-msg"]')) ?? '', /read-only/);
      assert.equal(await other.isDisabled('[data-testid="pause"]'), true);
      assert.equal(await other.isDisabled('[data-testid="threshold-set"]'), true);
      assert.match((await other.textContent('[data-testid="control-note"]')) ?? '', /read-only/);
    } finally {
      await other.close();
      await ro.close();
    }
  });

  test('a watch shows the freshness of its pages', async () => {
    // The forum of the test web, its clock one simulated day a real second: pages change.
    const forum = await startTestWeb({ port: 0, seed: 1, size: 'small', clockSpeed: 86_400 });
    const wdir = join(dir, '..', 'watched');
    const w = watch(
      {
        store: wdir,
        topic: { keywords: { forum: 1, news: 1 }, threshold: 0 },
        seeds: ['http://forum.test/'],
        include: ['^http://forum\\.test/((board|thread)/\\d+)?$'],
        fetcher: { resolve: [forum.resolve], allowPrivateAddresses: true, delayMs: 0 },
      },
      { budget: '60/s', durationMs: 20_000, planIntervalMs: 1_000 },
    );
    const wdone = new Promise((resolve, reject) => {
      w.then(resolve, reject);
    });
    const other = await browser.newPage();
    other.on('pageerror', (e) => pageErrors.push(e.message));
    let wstore: Store | undefined;
    let wserver: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        w.once('start', () => resolve());
        wdone.catch(reject);
      });
      wstore = await openStore(wdir);
      wserver = await startServer({ store: wstore, port: 0 });
      await other.goto(wserver.dashboardUrl);
      await other.waitForSelector('#freshness:not([hidden]) [data-testid="freshness"]', {
        timeout: 15_000,
      });
      // The plan's expected freshness, a share.
      await other.waitForFunction(
        "/^\\d+\\.\\d%$/.test(document.querySelector('[data-testid=freshness] .card-value').textContent)",
        undefined,
        { timeout: 15_000 },
      );
      assert.deepEqual(pageErrors, [], 'no uncaught error in the page');
    } finally {
      await other.close();
      w.stop();
      await wdone.catch(() => undefined);
      await wserver?.close();
      await wstore?.close();
      await forum.close();
    }
  });
}
