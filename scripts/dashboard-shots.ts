// Takes the screenshots of docs/dashboard.md: a crawl of the test web (the English
// topic Astronomy) served by focuscrawl's own server, photographed by headless Chromium
// (Debian's `chromium`, or CHROMIUM_PATH) while it runs. Everything stays on 127.0.0.1.
//
//   node --import tsx scripts/dashboard-shots.ts [OUT_DIR]    # default docs/img
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Page } from 'playwright-core';
import { crawl } from '../src/crawl/index.js';
import { startServer } from '../src/serve/index.js';
import { openStore } from '../src/store/index.js';
import { labels, startTestWeb } from '../src/testweb/index.js';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** How long the crawl runs before the first picture. */
const WARM_UP_MS = 25_000;

async function shot(page: Page, path: string): Promise<void> {
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? 'docs/img');
  mkdirSync(out, { recursive: true });
  const topic = labels({ seed: 1, size: 'small' }).topics.find((t) => t.id === 'astronomy');
  if (!topic) throw new Error('the test web has no astronomy topic');
  const root = mkdtempSync(join(tmpdir(), 'focuscrawl-shots-'));
  const web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  const run = crawl({
    store: join(root, 'store'),
    topic: topic.topic,
    // An adaptive threshold (DESIGN 1.5) with short intervals: its chart has steps to show.
    threshold: {
      kind: 'adaptive',
      initial: 0.15,
      intervalMs: 4000,
      expectedPerInterval: 40,
      max: 0.4,
    },
    seeds: topic.seeds,
    fullText: 'kept',
    maxPages: 3000,
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 150,
      concurrency: 6,
      perHostConcurrency: 1,
    },
  });
  const done = new Promise((ok, fail) => {
    run.then(ok, fail);
  });
  await new Promise<void>((ok, fail) => {
    run.once('start', () => ok());
    done.catch(fail);
  });
  const store = await openStore(join(root, 'store'));
  const server = await startServer({ store, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 940 } });
    await sleep(WARM_UP_MS / 2);
    await page.goto(server.dashboardUrl);
    await page.waitForSelector('body[data-ready="true"]');
    // Half the warm-up with the page open: the live chart has points to draw.
    await sleep(WARM_UP_MS / 2);
    await page.evaluate('window.scrollTo(0, 0)');
    await shot(page, join(out, 'dashboard-overview.png'));

    await page.fill('[data-testid="search-input"]', 'telescope');
    await page.click('[data-testid="search-go"]');
    await page.waitForSelector('[data-testid="search-hits"]');
    await page.evaluate("document.getElementById('search').scrollIntoView({ block: 'start' })");
    await shot(page, join(out, 'dashboard-search.png'));

    await page.selectOption('[data-testid="filter-sort"]', 'relevance');
    await page.waitForFunction(
      "document.getElementById('pages-table').getAttribute('aria-busy') === null",
    );
    await page.locator('[data-testid="pages-rows"] a.open-page').first().click();
    await page.waitForSelector('[data-testid="page-view"][data-loaded="true"]');
    await shot(page, join(out, 'dashboard-page.png'));
  } finally {
    await browser.close();
    run.stop();
    await done.catch(() => undefined);
    await server.close();
    await store.close();
    await web.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
