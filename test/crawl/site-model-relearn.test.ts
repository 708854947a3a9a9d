// The forum's URL scheme changes mid-crawl (the test web's redesign of forum.test,
// src/testweb/forum-redesign.ts): a crawl with a model learnt before the change warns
// that the structure changed; with `relearn` it learns the model again and goes on
// with the new URLs, following only those the new model finds valid.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { crawl } from '../../src/crawl/index.js';
import { createFetcher } from '../../src/fetch/index.js';
import {
  collectSample,
  learnSiteModel,
  SAMPLE_PAGES,
  SAMPLE_PER_PATTERN,
  type SiteModel,
} from '../../src/sitemodel/index.js';
import { openStore } from '../../src/store/index.js';
import {
  classifyForumUrl,
  FORUM_EPOCH_MS,
  startTestWeb,
  type TestWeb,
} from '../../src/testweb/index.js';
import { createScopeFilter } from '../../src/url/index.js';
import { tempDir } from '../../src/util/testing.js';

const DAY = 86_400_000;
const BEFORE = FORUM_EPOCH_MS + 30 * DAY;
const REDESIGN = FORUM_EPOCH_MS + 31 * DAY;
const dir = tempDir('relearn');
let web: TestWeb;
let modelFile: string;
before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, clockStartMs: BEFORE, forumRedesignMs: REDESIGN });
  // The model of the forum as it was, learnt before the redesign (the default sample).
  const seed = 'http://forum.test/';
  const inScope = createScopeFilter({ mode: 'same-host', seeds: [seed] });
  const f = createFetcher({ ...fetcher(), scope: inScope });
  try {
    const sample = await collectSample({
      seeds: [seed],
      pages: SAMPLE_PAGES,
      perPattern: SAMPLE_PER_PATTERN,
      fetcher: f,
      inScope,
    });
    const model: SiteModel = learnSiteModel(sample.pages);
    modelFile = join(dir, 'forum.json');
    writeFileSync(modelFile, JSON.stringify(model));
  } finally {
    await f.close();
  }
});
after(async () => {
  await web.close();
});

const fetcher = () => ({ resolve: [web.resolve], allowPrivateAddresses: true, delayMs: 0 });

/** Crawls forum.test with the old model; the redesign happens after 40 pages. */
async function crawlThroughRedesign(relearn: boolean, store: string) {
  web.clock.set(BEFORE);
  const warnings: string[] = [];
  let pages = 0;
  const run = crawl({
    store,
    topic: { keywords: { forum: 1 }, threshold: 0 },
    seeds: ['http://forum.test/'],
    strategy: 'bfs',
    scope: 'same-host',
    maxPages: 400,
    sitemaps: 'none',
    siteModel: modelFile,
    relearn,
    fetcher: fetcher(),
  });
  run.on('warning', (w) => warnings.push(w));
  run.on('page', () => {
    if (++pages === 40) web.clock.set(REDESIGN + DAY);
  });
  await run;
  const st = await openStore(store, { readonly: true });
  try {
    const urls: string[] = [];
    for await (const p of st.pages()) urls.push(p.url);
    const filter = (await st.getMeta('sitemodel.filter')) as { relearns?: number };
    return { warnings, urls, filter };
  } finally {
    await st.close();
  }
}

const redesigned = (u: string) => /^\/(forums|topics|members)\//.test(new URL(u).pathname);

test('a forum whose URL scheme changes mid-crawl raises the structure-change warning', async () => {
  const since = Date.now();
  const { warnings } = await crawlThroughRedesign(false, join(dir, 'plain'));
  assert.ok(
    warnings.some((w) =>
      /site model: \d+ links match none of its patterns .*structure may have changed; learn the model again/.test(
        w,
      ),
    ),
    warnings.join('\n'),
  );
  // Without a new model, no link of the new scheme is followed: the only new URLs
  // fetched are where the old URLs the crawl held redirect to.
  const log = web.requests.filter((r) => r.host === 'forum.test' && r.ts >= since);
  const moved = log.filter((r) => r.status === 301).length;
  const fresh = log.filter((r) => redesigned(`http://forum.test${r.path}`)).length;
  assert.ok(moved > 0);
  assert.ok(fresh <= moved, `${fresh} requests of the new scheme, ${moved} redirects`);
});

test('with relearn the crawl learns the new scheme and follows its valid URLs only', async () => {
  const store = join(dir, 'relearn');
  const { warnings, urls, filter } = await crawlThroughRedesign(true, store);
  assert.ok(
    warnings.some((w) => /learning the model again from a fresh sample/.test(w)),
    warnings.join('\n'),
  );
  assert.ok(
    warnings.some((w) => /^site model learnt again from \d+ pages of forum\.test/.test(w)),
    warnings.join('\n'),
  );
  assert.equal(filter.relearns, 1);
  const fresh = urls.filter(redesigned);
  assert.ok(fresh.length >= 100, `${fresh.length} pages of the new scheme`);
  assert.ok(fresh.some((u) => /\/topics\/\d+$/.test(u)));
  // The crawl's own pages of the new scheme are all valid ones (the sample's requests
  // are not the crawl's pages).
  assert.deepEqual(
    fresh.filter((u) => classifyForumUrl(u) !== 'valid'),
    [],
  );
  // The new model is kept in the store for a resumed crawl.
  const kept = JSON.parse(readFileSync(join(store, 'site-model.json'), 'utf8')) as SiteModel;
  assert.ok(existsSync(join(store, 'site-model.json')));
  assert.ok(
    kept.clusters.some(
      (c) => c.decision === 'valid' && c.patterns.some((p) => p.pattern === '/topics/{n}'),
    ),
    JSON.stringify(kept.clusters.map((c) => c.patterns.map((p) => p.pattern))),
  );
});
