// Site models on the test web's forums (BENCHMARKS.md): on each forum, at the same
// request budget, breadth-first without a model, a crawl with a site model learnt
// from a sample (the sample's requests counted in the budget), and a crawl with the
// forum's URL scheme written by hand (`include` expressions: the oracle). Every figure
// comes from the server's request log against the forums' ground truth.
//
//   node --import tsx bench/site-model.ts [--hosts forum.test,bbs.forum.test,phpbb.test,luntan.test]
//       [--size small] [--budget-factor 2] [--days 30]
//       [--out FILE.md] [--json FILE]
//
// The learned run is `crawl --site-model learn` as a user runs it: the product's sample
// (SAMPLE_PAGES, SAMPLE_PER_PATTERN, SAMPLE_SETTLE_AT), whose pages of valid patterns
// the crawl takes from memory.
//
// Budget: budget-factor × the forum's valid URLs at the crawl's simulated time.
// Precision: requests for valid URLs / all requests (robots.txt excluded, the sample
// included). Coverage: threads with one of their valid pages fetched / threads that
// exist at that time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crawl } from '../src/crawl/index.js';
import {
  SAMPLE_PAGES,
  SAMPLE_PER_PATTERN,
  SAMPLE_SETTLE_AT,
  type SiteModel,
} from '../src/sitemodel/index.js';
import {
  classifyForumUrl,
  classifyPhpbbUrl,
  FORUM_EPOCH_MS,
  forumThreads,
  forumValidUrls,
  phpbbThreads,
  phpbbValidUrls,
  startTestWeb,
  type TestWeb,
  type WebSize,
} from '../src/testweb/index.js';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: 'forum.test,bbs.forum.test,phpbb.test,luntan.test' },
    size: { type: 'string', default: 'small' },
    'budget-factor': { type: 'string', default: '2' },
    days: { type: 'string', default: '30' },
    out: { type: 'string' },
    json: { type: 'string' },
  },
});
const size = values.size as WebSize;
const factor = Number(values['budget-factor']);
const at = FORUM_EPOCH_MS + Number(values.days) * 86_400_000;
const hosts = values.hosts.split(',').filter(Boolean);

interface Engine {
  classify: (url: string) => 'valid' | 'duplicate' | 'other';
  valid: (host: string) => string[];
  /** Thread id of a valid thread-page URL, or null. */
  threadOf: (url: URL) => number | null;
  threads: (host: string) => number[];
  root: string;
  /** The forum's valid URL shapes, by hand (the oracle). */
  include: (host: string) => string[];
}

const esc = (h: string) => h.replaceAll('.', '\\.');
const ENGINES: Record<string, Engine> = {
  forum: {
    classify: classifyForumUrl,
    valid: (h) => forumValidUrls(1, size, h as 'forum.test', at),
    threadOf: (u) => {
      const m = /^\/thread\/(\d+)$/.exec(u.pathname);
      return m ? Number(m[1]) : null;
    },
    threads: (h) =>
      forumThreads({ seed: 1, size, host: h as 'forum.test' })
        .filter((t) => t.createdAt <= at)
        .map((t) => t.id),
    root: '/',
    include: (h) => [
      `^http://${esc(h)}(:\\d+)?/((board|thread)/\\d+(\\?page=([2-9]|[1-9]\\d+))?)?$`,
    ],
  },
  phpbb: {
    classify: classifyPhpbbUrl,
    valid: (h) => phpbbValidUrls(1, size, h as 'phpbb.test', at),
    threadOf: (u) =>
      u.pathname === '/viewtopic.php' && u.searchParams.has('t')
        ? Number(u.searchParams.get('t'))
        : null,
    threads: (h) =>
      phpbbThreads({ seed: 1, size, host: h as 'phpbb.test' })
        .filter((t) => t.createdAt <= at)
        .map((t) => t.id),
    root: '/index.php',
    include: (h) => [
      `^http://${esc(h)}(:\\d+)?/(index\\.php|viewforum\\.php\\?f=\\d+(&start=[1-9]\\d*)?|viewtopic\\.php\\?t=\\d+(&start=[1-9]\\d*)?)$`,
    ],
  },
};
const engineOf = (h: string): Engine =>
  h.includes('phpbb') || h.startsWith('luntan')
    ? (ENGINES['phpbb'] as Engine)
    : (ENGINES['forum'] as Engine);

interface RunFigures {
  run: string;
  requests: number;
  valid: number;
  duplicate: number;
  other: number;
  precision: number;
  coverage: number;
  threadsFound: number;
  sample?: number;
  /** Precision of the crawl's requests alone, the sample's left out. */
  afterSample?: number;
}

function figures(web: TestWeb, host: string, e: Engine, since: number, run: string): RunFigures {
  const log = web.requests.filter(
    (r) => r.host === host && r.ts >= since && r.path !== '/robots.txt',
  );
  const counts = { valid: 0, duplicate: 0, other: 0 };
  const found = new Set<number>();
  for (const r of log) {
    const url = `http://${host}${r.path}`;
    const c = e.classify(url);
    counts[c]++;
    if (c === 'valid' && r.status === 200) {
      const t = e.threadOf(new URL(url));
      if (t !== null) found.add(t);
    }
  }
  const threads = e.threads(host);
  const live = new Set(threads);
  const covered = [...found].filter((t) => live.has(t)).length;
  return {
    run,
    requests: log.length,
    ...counts,
    precision: log.length === 0 ? 0 : counts.valid / log.length,
    coverage: threads.length === 0 ? 0 : covered / threads.length,
    threadsFound: covered,
  };
}

const fetcherOpts = (web: TestWeb) => ({
  resolve: [web.resolve],
  allowPrivateAddresses: true,
  delayMs: 0,
  concurrency: 8,
  perHostConcurrency: 4,
});

async function crawlRun(
  web: TestWeb,
  seed: string,
  maxPages: number,
  extra: object,
  learnt?: (model: SiteModel, sampled: number, crawlSince: number) => void,
) {
  const dir = mkdtempSync(join(tmpdir(), 'fc-sitemodel-'));
  try {
    const run = crawl({
      store: join(dir, 'store'),
      topic: { keywords: { forum: 1 }, threshold: 0 },
      seeds: [seed],
      strategy: 'bfs',
      scope: 'same-host',
      maxPages,
      sitemaps: 'none',
      fetcher: fetcherOpts(web),
      ...extra,
    });
    let sampled = 0;
    let crawlSince = 0;
    // The sample is taken before the crawl starts.
    run.on('start', () => {
      crawlSince = Date.now();
    });
    run.on('warning', (w) => {
      const m = /^site model learnt from (\d+) pages/.exec(w);
      if (m !== null) sampled = Number(m[1]);
    });
    await run;
    if (learnt !== undefined) {
      const model = JSON.parse(
        readFileSync(join(dir, 'store', 'site-model.json'), 'utf8'),
      ) as SiteModel;
      learnt(model, sampled, crawlSince);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: {
  host: string;
  budget: number;
  validUrls: number;
  threads: number;
  runs: RunFigures[];
  model?: SiteModel;
}[] = [];
for (const host of hosts) {
  const e = engineOf(host);
  const validUrls = e.valid(host).length;
  const budget = Math.round(factor * validUrls);
  const runs: RunFigures[] = [];
  let model: SiteModel | undefined;
  for (const run of ['bfs', 'learned', 'oracle'] as const) {
    const web = await startTestWeb({ port: 0, seed: 1, size, clockStartMs: at });
    try {
      const seed = `http://${host}${e.root}`;
      const since = Date.now();
      let sampled = 0;
      let crawlSince = since;
      if (run === 'bfs') await crawlRun(web, seed, budget, {});
      else if (run === 'oracle') await crawlRun(web, seed, budget, { include: e.include(host) });
      else {
        // As a user runs it: `--site-model learn`, the sample's pages of valid patterns
        // taken from memory by the crawl, not fetched again.
        await crawlRun(web, seed, budget, { siteModel: 'learn' }, (m, n, t) => {
          model = m;
          sampled = n;
          crawlSince = t;
        });
      }
      const f = figures(web, host, e, since, run);
      if (run === 'learned') {
        f.sample = sampled;
        f.afterSample = figures(web, host, e, crawlSince, 'after the sample').precision;
      }
      runs.push(f);
      process.stderr.write(
        `${host} ${run}: ${f.requests} requests, precision ${(100 * f.precision).toFixed(1)}%, coverage ${(100 * f.coverage).toFixed(1)}%\n`,
      );
    } finally {
      await web.close();
    }
  }
  results.push({
    host,
    budget,
    validUrls,
    threads: e.threads(host).length,
    runs,
    ...(model ? { model } : {}),
  });
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const lines = [
  `Site models on the test web's forums (size ${size}, simulated day ${values.days}); budget ${factor} × the valid URLs; \`crawl --site-model learn\`: a sample of at most ${SAMPLE_PAGES} pages, stopping once each URL pattern found has ${SAMPLE_PER_PATTERN} or was settled after ${SAMPLE_SETTLE_AT} (counted in the learned run's requests; its pages of valid patterns not fetched again).`,
  '',
  '| forum | valid URLs | threads | budget | run | requests | valid / duplicate / other | precision | precision after the sample | coverage |',
  '| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of results) {
  for (const f of r.runs) {
    lines.push(
      `| ${r.host} | ${r.validUrls} | ${r.threads} | ${r.budget} | ${f.run}${f.sample ? ` (sample ${f.sample})` : ''} | ${f.requests} | ${f.valid} / ${f.duplicate} / ${f.other} | ${pct(f.precision)} | ${f.afterSample === undefined ? '' : pct(f.afterSample)} | ${pct(f.coverage)} |`,
    );
  }
}
for (const r of results) {
  if (!r.model) continue;
  lines.push('', `${r.host}: learnt model, ${r.model.clusters.length} clusters:`);
  for (const c of r.model.clusters) {
    lines.push(
      `- ${c.id} ${c.kind} ${c.decision} inf ${c.informativeness.toFixed(3)} pages ${c.pages}: ${c.patterns.map((p) => `${p.role === 'content' ? '+' : '='}${p.pattern}`).join(', ')}`,
    );
  }
}
const md = `${lines.join('\n')}\n`;
process.stdout.write(md);
if (values.out) writeFileSync(values.out, md);
if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
