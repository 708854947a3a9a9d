// Nothing silent: flags that conflict are refused before the store is touched; full
// text turned on in a store crawled without it indexes the pages kept before (or says
// it cannot); rank weights given to `rank` outlive the next crawl run. On the test web,
// through the command line.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { META_RANK_SETTINGS } from '../../src/crawl/rank-settings.js';
import type { RankingSummary } from '../../src/ranking/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { labels, startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { runCli } from '../run-cli.js';

const WEB = { seed: 1, size: 'small' as const };
const L = labels(WEB);
const root = mkdtempSync(join(tmpdir(), 'focuscrawl-nothing-silent-'));
const topicFile = join(root, 'grid.json');
let web: TestWeb;

before(async () => {
  web = await startTestWeb({ port: 0, ...WEB });
  const t = L.topics.find((x) => x.id === 'grid');
  assert.ok(t);
  writeFileSync(topicFile, JSON.stringify(t.topic));
});
after(async () => {
  await web.close();
  rmSync(root, { recursive: true, force: true });
});

/** `focuscrawl crawl` of the test web into `store`, JSON log on standard output. */
function crawl(store: string, ...extra: string[]) {
  return runCli(
    'crawl',
    '--store',
    store,
    '--topic',
    topicFile,
    '--seeds',
    ...L.seeds,
    '--resolve',
    web.resolve,
    '--allow-private',
    '--delay-ms',
    '0',
    '--sitemaps',
    'none',
    '--json-log',
    ...extra,
  );
}

/** The warnings of a `--json-log` run. */
function warnings(out: string): string[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { event: string; message?: string })
    .filter((e) => e.event === 'warning')
    .map((e) => e.message ?? '');
}

async function withStore<T>(dir: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(dir, { readonly: true });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe('conflicting flags', () => {
  const cases: [argv: string[], message: RegExp][] = [
    [['--strategy', 'bayes'], /--strategy bayes needs --model bayes/],
    [['--no-dedup', '--dedup-distance', '5'], /--dedup-distance 5 does not go with --no-dedup/],
    [['--strategy', 'bfs', '--width', '7'], /--width .*--strategy bfs/],
    [['--adapt-every', '100'], /--adapt-every 100 needs --adapt-topic/],
    [['--concurrency', '1000000'], /--concurrency must be at most 1024/],
    [['--dedup-distance', '12'], /--dedup-distance must be at most 8, got 12/],
  ];
  for (const [argv, message] of cases) {
    it(`crawl ${argv.join(' ')}: exit 2, naming the flags, no store made`, async () => {
      const store = join(root, `refused-${argv.join('')}`);
      const r = await crawl(store, ...argv);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, message);
      assert.equal(existsSync(store), false);
    });
  }

  it('inspect --timeout-ms 0: the fetcher flags are checked for every command', async () => {
    const r = await runCli('inspect', 'http://example.test/', '--timeout-ms', '0');
    assert.equal(r.code, 2);
    assert.match(r.err, /--timeout-ms must be at least 1/);
  });
});

describe('full text turned on in a store crawled without it', () => {
  it('indexes the kept pages already stored, from their bodies', async () => {
    const store = join(root, 'later-full-text');
    const first = await crawl(store, '--max-pages', '60');
    assert.equal(first.code, 0, first.err);
    const keptBefore = await withStore(store, async (s) => (await s.textCoverage()).kept);
    assert.ok(keptBefore >= 10, `${keptBefore} kept`);
    assert.deepEqual(await withStore(store, (s) => s.textCoverage()), {
      kept: keptBefore,
      indexed: 0,
    });

    const second = await crawl(store, '--max-pages', '80', '--full-text', 'kept');
    assert.equal(second.code, 0, second.err);
    const said = warnings(second.out).find((w) => w.startsWith('full text: indexed'));
    assert.equal(
      said,
      `full text: indexed ${keptBefore} kept pages crawled without --full-text kept, from their stored bodies: search finds them now`,
    );
    const coverage = await withStore(store, (s) => s.textCoverage());
    assert.equal(coverage.indexed, coverage.kept);

    const search = await runCli('search', '--store', store, '电网');
    assert.equal(search.code, 0, search.err);
    assert.doesNotMatch(search.err, /not searchable/);
    // A page kept by the first run is found.
    const firstKept = await withStore(store, async (s) => {
      for await (const p of s.pages()) if (p.state === 'complete') return p.url;
      return '';
    });
    const json = await runCli('search', '--store', store, '--json', '--limit', '1000', '电网');
    const urls = (JSON.parse(json.out) as { hits: { url: string }[] }).hits.map((h) => h.url);
    assert.ok(urls.includes(firstKept), `${firstKept} not found`);
  });

  it('says which kept pages cannot be indexed: no stored body', async () => {
    const store = join(root, 'no-bodies');
    const first = await crawl(store, '--max-pages', '40', '--store-bodies', 'none');
    assert.equal(first.code, 0, first.err);
    const kept = await withStore(store, async (s) => (await s.textCoverage()).kept);
    assert.ok(kept > 0);
    const second = await crawl(store, '--max-pages', '60', '--full-text', 'kept');
    assert.equal(second.code, 0, second.err);
    assert.ok(
      warnings(second.out).includes(
        `full text: ${kept} kept pages were crawled without full text and have no stored body (--store-bodies none): they are not searchable`,
      ),
      warnings(second.out).join('\n'),
    );
    const coverage = await withStore(store, (s) => s.textCoverage());
    assert.equal(coverage.kept - coverage.indexed, kept);
    const search = await runCli('search', '--store', store, '电网');
    assert.equal(search.code, 0, search.err);
    assert.match(
      search.err,
      new RegExp(`^note: ${kept} of ${coverage.kept} kept pages are not searchable`, 'm'),
    );
  });
});

describe('rank weights', () => {
  it('given to rank, they are used by the next crawl run', async () => {
    const store = join(root, 'rank-weights');
    assert.equal((await crawl(store, '--max-pages', '40')).code, 0);
    const rank = await runCli('rank', '--store', store, '--w1', '0.8', '--w2', '0.2');
    assert.equal(rank.code, 0, rank.err);
    const again = await crawl(store, '--max-pages', '60');
    assert.equal(again.code, 0, again.err);
    await withStore(store, async (s) => {
      assert.deepEqual(await s.getMeta(META_RANK_SETTINGS), { w1: 0.8, w2: 0.2 });
      const ranking = await s.getMeta<RankingSummary>('ranking');
      assert.deepEqual([ranking?.w1, ranking?.w2], [0.8, 0.2]);
      let scored = 0;
      for await (const p of s.pages()) {
        if (p.state !== 'complete') continue;
        scored++;
        const expected = 0.8 * p.relevance + 0.2 * (p.pageRank ?? 0);
        assert.ok(Math.abs((p.score ?? -1) - expected) < 1e-9, `${p.url}: P ${p.score}`);
      }
      assert.ok(scored > 0);
    });
  });
});
