// Through the CLI on the test web: a crawl honours what pages ask of crawlers, by the
// X-Robots-Tag header as by <meta name=robots>, as `inspect` does: nofollow (the page's
// links are not followed), noindex (the page is judged and its links followed, but it
// is not kept), none (both), and the agent-specific form (`focuscrawl: nofollow`
// applies, `otherbot: …` does not). Requests counted from the test web's own log.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { inspectUrl } from '../../src/inspect/index.js';
import {
  ROBOTS_TAG_HOST,
  ROBOTS_TAG_PAGES,
  startTestWeb,
  type TestWeb,
} from '../../src/testweb/index.js';
import { crawlTestWeb } from '../run-cli.js';
import { all, inStore } from '../store-read.js';

let web: TestWeb;
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-robots-directives-'));

before(async () => {
  web = await startTestWeb({ port: 0 });
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

// Regression: `crawl` never read X-Robots-Tag (only `inspect` did), so it followed
// links that a site asked it not to follow.
test('crawl honours X-Robots-Tag and <meta name=robots>: nofollow, noindex, none, agent-specific', async () => {
  const topic = join(root, 'topic.json');
  // Threshold 0: every page is relevant, so only the directives keep pages out.
  writeFileSync(topic, JSON.stringify({ name: 'any', keywords: { page: 1 }, threshold: 0 }));
  const store = join(root, 'store');
  web.clearLog();
  const r = await crawlTestWeb(web, store, topic, web.url(ROBOTS_TAG_HOST, '/'));
  assert.equal(r.code, 0, r.err);
  const requested = new Set(
    web.requests.filter((q) => q.host === ROBOTS_TAG_HOST).map((q) => q.path),
  );
  await inStore(store, async (s) => {
    const state = new Map((await all(s.urls())).map((u) => [new URL(u.url).pathname, u.state]));
    for (const [name, spec] of Object.entries(ROBOTS_TAG_PAGES)) {
      assert.ok(requested.has(`/${name}`), `/${name} fetched`);
      assert.equal(state.get(`/${name}`), spec.index ? 'complete' : 'discard', `/${name} kept?`);
      assert.equal(requested.has(`/child/${name}`), spec.follow, `/${name}'s link followed?`);
      if (spec.follow) assert.equal(state.get(`/child/${name}`), 'complete', `/child/${name}`);
    }
    // A page not kept leaves no body and no text behind.
    const pages = await all(s.pages());
    const noindex = pages.find((p) => new URL(p.url).pathname === '/header-noindex');
    assert.equal(noindex?.bodyFile ?? null, null);
  });
});

// crawl and inspect run one page pipeline (src/page/): inspect's verdict is the crawl's.
test('inspect judges each directive page as the crawl does: kept only when not noindex', async () => {
  const fetcher = { resolve: [web.resolve], allowPrivateAddresses: true, delayMs: 0 };
  const topic = { name: 'any', keywords: [{ word: 'page', weight: 1 }], threshold: 0 };
  for (const [name, spec] of Object.entries(ROBOTS_TAG_PAGES)) {
    const r = await inspectUrl(web.url(ROBOTS_TAG_HOST, `/${name}`), { fetcher, topic });
    assert.equal(r.relevance?.relevant, true, `/${name} relevant`);
    assert.equal(r.relevance?.verdict, spec.index ? 'keep' : 'discard', `/${name} verdict`);
    assert.equal(r.page?.metaRobots.nofollow, !spec.follow, `/${name} nofollow`);
  }
});
