// Two `watch` runs on one PostgreSQL store (as on two machines) share its request
// budget: together they send no more than the budget allows, in the test web's own
// log, though each alone would send as much (the budget is a token bucket in the
// store's database, watch/budget.ts and store/pg-pace.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestWeb, type TestWeb } from '../../src/testweb/index.js';
import { watch } from '../../src/watch/index.js';
import { type PgCluster, pgSkipReason, startPg } from '../pg.js';

const DB = 'watches';
const HOST = 'forum.test';
/** Requests a second over both runs. */
const BUDGET = 20;
const RUNS = 2;
let pg: PgCluster | undefined;
let web: TestWeb;

/** Page requests (robots.txt aside) the server logged for HOST since `since`, by time. */
function requestTimes(since: number): number[] {
  return web.requests
    .filter((r) => r.host === HOST && r.path !== '/robots.txt' && r.ts >= since)
    .map((r) => r.ts)
    .sort((a, b) => a - b);
}

describe('watch runs on one PostgreSQL store', { skip: pgSkipReason() }, () => {
  before(async () => {
    pg = await startPg();
    await pg.createDatabase(DB);
    web = await startTestWeb({ port: 0, seed: 1, size: 'small', clockSpeed: 86_400 });
  });
  after(async () => {
    await web?.close();
    await pg?.stop();
  });

  test('two watches together keep one request budget', async () => {
    const store = `postgres://postgres@127.0.0.1:${pg?.port}/${DB}?schema=watch1`;
    const since = Date.now();
    const runs = Array.from({ length: RUNS }, () =>
      watch(
        {
          store,
          topic: { keywords: { forum: 1, news: 1 }, threshold: 0 },
          seeds: [`http://${HOST}/`],
          // Boards and threads: a few hundred pages, more than the budget lets through.
          include: ['^http://forum\\.test/((board|thread)/\\d+)?$'],
          fetcher: {
            resolve: [web.resolve],
            allowPrivateAddresses: true,
            delayMs: 0,
            concurrency: 8,
            perHostConcurrency: 4,
          },
        },
        { budget: `${BUDGET}/s`, durationMs: 5_000, planIntervalMs: 1_000 },
      ),
    );
    const summaries = await Promise.all(runs);
    const sent = summaries.map((s) => s.requests.revisit + s.requests.discovery);
    // Each run took its part.
    for (const [i, n] of sent.entries()) assert.ok(n > 0, `run ${i} sent no request`);
    const ts = requestTimes(since);
    // Within the budget over the whole run, give or take: one request of the bucket's
    // burst, one per run (a start it reserved ahead, taken late), one for the time
    // requests take to reach the server; two runs on budgets of their own would send
    // twice it. (Counted over the run, not per second: the log's times are taken by
    // this busy process, which bunches arrivals into one second now and then.)
    const SLACK = 1 + RUNS + 1;
    const spanS = ((ts.at(-1) ?? 0) - (ts[0] ?? 0)) / 1_000;
    assert.ok(
      ts.length <= Math.ceil(spanS * BUDGET) + SLACK,
      `${ts.length} requests in ${spanS.toFixed(1)} s against a shared budget of ${BUDGET}/s`,
    );
  });
});
