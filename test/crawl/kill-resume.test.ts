// SIGKILL at seeded random moments, resumed each time by the same command (the small
// version of bench/kill.ts): a crawl killed 3 times (at startup, while fetching, while
// ranking) ends with the store of a crawl never killed, and a watch killed 3 times
// (at startup and during revisits) loses nothing and records no visit twice; after
// every kill the store keeps its invariants and `focuscrawl check` finds nothing but
// the leftovers a crash leaves (none after a run that ended).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { killCrawl } from '../../bench/kill-crawl.js';
import { killWatch } from '../../bench/kill-watch.js';
import { startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { seededRandom } from '../../src/util/index.js';
import { tempDir } from '../../src/util/testing.js';

const root = tempDir('kill-resume');
// One test web each: the two tests run at once, each reading its own request log.
let web: TestWeb;
let watched: TestWeb;

before(async () => {
  web = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  // The clock runs a simulated day per second: news.test changes while it is watched.
  watched = await startTestWeb({ port: 0, seed: 1, size: 'small', clockSpeed: 86_400 });
});
after(async () => {
  await web.close();
  await watched.close();
});

const seedOf = (t: { diagnostic(m: string): void }) => {
  const seed = Number(process.env['FC_KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 32));
  t.diagnostic(`kill moments seeded with ${seed} (replay: FC_KILL_SEED=${seed})`);
  return seed;
};

describe('killed with SIGKILL, resumed by the same command', { concurrency: 2 }, () => {
  test('a crawl killed 3 times ends with the store of a crawl never killed', async (t) => {
    const seed = seedOf(t);
    const r = await killCrawl(
      {
        web,
        root,
        kills: 3,
        shape: 'small',
        maxPages: 10_000,
        delayMs: 5,
        checkCli: false,
        log: (line) => t.diagnostic(line),
      },
      seededRandom(seed),
    );
    assert.deepEqual(r.problems, [], `seed ${seed}`);
    assert.ok(r.exhausted, 'both crawls ran to the end of the closure');
    assert.ok(
      r.records.some((k) => k.killed),
      'never killed',
    );
    assert.ok(r.outLinkPages > 50, `${r.outLinkPages} kept pages checked`);
    // A redirect followed to a page an earlier run finished requests it again (a run
    // knows only the URLs it claimed or reached itself); the store records it once.
    t.diagnostic(`redirect hops requested again: ${r.hopsAgain.length}`);
    for (const url of r.hopsAgain) assert.match(url, /^http:\/\/moved\.test\//);
  });

  test('a watch killed 3 times loses nothing and records no visit twice', async (t) => {
    const seed = seedOf(t);
    const r = await killWatch(
      {
        web: watched,
        root,
        kills: 3,
        durationS: 3,
        windowMs: 1000,
        startupMs: 2000,
        budget: '60/s',
        checkCli: false,
        log: (line) => t.diagnostic(line),
      },
      seededRandom(seed),
    );
    assert.deepEqual(r.problems, [], `seed ${seed}`);
    assert.ok(
      r.records.some((k) => k.killed),
      'never killed',
    );
    assert.ok(r.final.visits.length > 0);
  });
});

// A run follows a redirect only to a URL neither it nor the store has: after a resume, a
// redirect to a page an earlier run finished stops there (recorded as a redirect to
// it) instead of fetching the page again and counting it against --max-pages.
test('a resumed crawl neither fetches again nor counts a page an earlier run finished that a redirect leads to', async () => {
  const own = await startTestWeb({ port: 0, seed: 1, size: 'small' });
  try {
    const dir = `${root}/redirect-resume`;
    const topic = `${root}/redirect-topic.json`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(topic, JSON.stringify({ keywords: { page: 1 } }));
    const { runCrawl } = await import('./resume-helpers.js');
    const args = (seed: string) => [
      ...['--store', dir, '--topic', topic, '--seeds', seed, '--threshold', '0'],
      ...['--max-depth', '0', '--delay-ms', '0', '--resolve', own.resolve, '--allow-private'],
    ];
    const first = await runCrawl(args('http://moved.test/page-3'));
    assert.equal(first.end.fetchedTotal, 1, first.stderr);
    own.clearLog();
    // /legacy/3 → /old/page-3 → /page-3, which the first run finished.
    const second = await runCrawl(args('http://moved.test/legacy/3'));
    assert.equal(second.code, 0, second.stderr);
    const pages = own.requests.filter((r) => r.path === '/page-3').length;
    assert.equal(pages, 0, '/page-3 requested again');
    assert.equal(second.end.fetchedTotal, 1, 'the summary counts the page twice');
  } finally {
    await own.close();
  }
});
