// Site models under `watch`: on each of the test web's forums, the
// incremental crawl over a stretch of simulated time (the forums' posts arrive as Poisson
// processes on the test web's fast clock, new threads are born), once without a model and
// once with `siteModel: 'learn'` (the sample the model is learnt from goes through the
// server first, and its requests are counted), one after another, each on a fresh test
// web server whose clock starts at the same simulated day, and a fresh store. Every
// figure comes from the server's request log (robots.txt left out) against the forums'
// ground truth.
//
//   node --import tsx bench/site-model-watch.ts [--hosts forum.test,bbs.forum.test,phpbb.test,luntan.test]
//       [--size small] [--days 30] [--duration-ms 60000] [--budget 40/s]
//       [--clock-speed 8640] [--samples 200] [--out FILE.md] [--json FILE]
//
// Precision: valid URLs / all requests (the sample's included). Coverage: threads existing
// at the run's last simulated instant with a valid page of theirs answered 200 to the watch
// (the sample's answers the watch stored included) / threads existing then.
// Freshness: at `samples` instants over the second half of the watch proper (after the
// sample), the share of the thread pages existing then whose stored copy (what the last
// 200 or 304 for the URL saw) shows as many posts as the page shows; never fetched is
// stale. "Changing": pages of the threads that existed at the start and got a post later.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SITE_MODEL_FILE } from '../src/crawl/site-model-learn.js';
import { loadSiteModel, type SiteModel } from '../src/sitemodel/index.js';
import { openStore } from '../src/store/index.js';
import {
  classifyForumUrl,
  classifyPhpbbUrl,
  FORUM_EPOCH_MS,
  type ForumHost,
  forumPostCount,
  forumThreads,
  PHPBB_POSTS_PER_PAGE,
  type PhpbbHost,
  POSTS_PER_PAGE,
  phpbbPostCount,
  phpbbThreads,
  type RequestLogEntry,
  SIZES,
  startTestWeb,
  type WebSize,
} from '../src/testweb/index.js';
import { parseBudget, type WatchSummary, watch } from '../src/watch/index.js';
import { webFetcher } from '../test/web-fetcher.js';

const { values } = parseArgs({
  options: {
    hosts: { type: 'string', default: 'forum.test,bbs.forum.test,phpbb.test,luntan.test' },
    size: { type: 'string', default: 'small' },
    days: { type: 'string', default: '30' },
    'duration-ms': { type: 'string', default: '60000' },
    budget: { type: 'string', default: '40/s' },
    'clock-speed': { type: 'string', default: '8640' },
    samples: { type: 'string', default: '200' },
    out: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${readFileSync(import.meta.filename, 'utf8').split('\nimport')[0]}\n`);
  process.exit(0);
}
function num(flag: 'days' | 'duration-ms' | 'clock-speed' | 'samples', min: number): number {
  const v = Number(values[flag]);
  if (!Number.isFinite(v) || v < min) throw new Error(`--${flag}: expected a number ≥ ${min}`);
  return v;
}
const days = num('days', 0);
const durationMs = Math.round(num('duration-ms', 1000));
const clockSpeed = num('clock-speed', 1);
const samples = Math.round(num('samples', 1));
parseBudget(values.budget, '--budget');
const size = values.size as WebSize;
if (!Object.hasOwn(SIZES, size)) throw new Error(`--size: one of ${Object.keys(SIZES).join(', ')}`);
const hosts = values.hosts.split(',').filter(Boolean);
const startAt = FORUM_EPOCH_MS + days * 86_400_000;

interface Engine {
  classify: (url: string) => 'valid' | 'duplicate' | 'other';
  /** Thread and page number (from 1) of a valid thread-page URL, or null. */
  pageOf: (u: URL) => { thread: number; k: number } | null;
  threads: { id: number; createdAt: number }[];
  count: (thread: number, t: number) => number;
  per: number;
  root: string;
}

function engineOf(host: string): Engine {
  if (host === 'forum.test' || host === 'bbs.forum.test') {
    const id = { seed: 1, size, host: host as ForumHost };
    return {
      classify: classifyForumUrl,
      pageOf: (u) => {
        const m = /^\/thread\/(\d+)$/.exec(u.pathname);
        return m ? { thread: Number(m[1]), k: Number(u.searchParams.get('page') ?? '1') } : null;
      },
      threads: forumThreads(id),
      count: (thread, t) => forumPostCount(id, thread, t),
      per: POSTS_PER_PAGE,
      root: '/',
    };
  }
  if (host === 'phpbb.test' || host === 'luntan.test') {
    const id = { seed: 1, size, host: host as PhpbbHost };
    return {
      classify: classifyPhpbbUrl,
      pageOf: (u) =>
        u.pathname === '/viewtopic.php' && u.searchParams.has('t')
          ? {
              thread: Number(u.searchParams.get('t')),
              k: Number(u.searchParams.get('start') ?? '0') / PHPBB_POSTS_PER_PAGE + 1,
            }
          : null,
      threads: phpbbThreads(id),
      count: (thread, t) => phpbbPostCount(id, thread, t),
      per: PHPBB_POSTS_PER_PAGE,
      root: '/index.php',
    };
  }
  throw new Error(`--hosts: not a forum of the test web: ${host}`);
}

/** Posts page k (from 1) shows when the thread has n posts; ≤ 0 when it does not exist. */
const shown = (n: number, k: number, per: number) => Math.min(per, n - (k - 1) * per);

type RunFigures = ReturnType<typeof measure> & {
  run: 'no model' | 'learnt';
  /** Requests of the sample the model was learnt from, and its real time (learnt run). */
  sample: number;
  sampleMs: number;
  realMs: number;
  simDays: number;
  taken: WatchSummary['requests'];
  warnings: string[];
  model?: SiteModel;
};

/** Index of the last element ≤ t of an ascending array, −1 when none. */
function lastAtOrBefore(xs: number[], t: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if ((xs[m] as number) <= t) lo = m + 1;
    else hi = m;
  }
  return lo - 1;
}

const mean = (xs: number[]) => {
  const ys = xs.filter((x) => !Number.isNaN(x));
  return ys.length === 0 ? Number.NaN : ys.reduce((a, b) => a + b, 0) / ys.length;
};

function measure(
  host: string,
  e: Engine,
  log: RequestLogEntry[],
  simOf: (ts: number) => number,
  /** Simulated instants: the run's start, the watch proper's (after the sample), the end. */
  span: { start: number; from: number; end: number },
  /** Paths of the sample's answers the watch stored (taken from memory, not fetched again). */
  primed: ReadonlySet<string>,
) {
  const counts = { valid: 0, duplicate: 0, other: 0 };
  const found = new Set<number>();
  let stale304 = 0; // 304s answered though the page had changed (Last-Modified in whole seconds)
  // What each thread page's answers showed: simulated times and posts shown.
  const held = new Map<string, { at: number[]; v: number[] }>();
  for (const r of [...log].sort((a, b) => a.ts - b.ts)) {
    const url = `http://${host}${r.path}`;
    const c = e.classify(url);
    counts[c]++;
    if (c !== 'valid') continue;
    const p = e.pageOf(new URL(url));
    const t = simOf(r.ts);
    // Of the sample's answers, those the watch stored count (its valid pages, handed to
    // the watch instead of fetched again); the others were not kept.
    if (p === null || (t < span.from && !primed.has(r.path))) continue;
    if (r.status === 200) found.add(p.thread);
    if (r.status !== 200 && r.status !== 304) continue;
    const v = shown(e.count(p.thread, t), p.k, e.per);
    if (v <= 0) continue;
    const key = `${p.thread}:${p.k}`;
    const h = held.get(key) ?? { at: [], v: [] };
    if (r.status === 304 && h.v.length > 0 && h.v[h.v.length - 1] !== v) stale304++;
    h.at.push(t);
    h.v.push(v);
    held.set(key, h);
  }
  const { start, from, end } = span;
  const atEnd = e.threads.filter((t) => t.createdAt <= end);
  const born = atEnd.filter((t) => t.createdAt > start);
  const changing = new Set(
    e.threads
      .filter((t) => t.createdAt <= start && e.count(t.id, end) > e.count(t.id, start))
      .map((t) => t.id),
  );
  const all: number[] = [];
  const ofChanging: number[] = [];
  const mid = (from + end) / 2;
  for (let i = 0; i < samples; i++) {
    const t = mid + ((i + 0.5) * (end - mid)) / samples;
    let n = 0;
    let fresh = 0;
    let nC = 0;
    let freshC = 0;
    for (const th of e.threads) {
      if (th.createdAt > t) continue;
      const posts = e.count(th.id, t);
      for (let k = 1; shown(posts, k, e.per) > 0; k++) {
        const h = held.get(`${th.id}:${k}`);
        const j = h === undefined ? -1 : lastAtOrBefore(h.at, t);
        const ok = j >= 0 && h?.v[j] === shown(posts, k, e.per);
        n++;
        if (ok) fresh++;
        if (changing.has(th.id)) {
          nC++;
          if (ok) freshC++;
        }
      }
    }
    all.push(n === 0 ? Number.NaN : fresh / n);
    ofChanging.push(nC === 0 ? Number.NaN : freshC / nC);
  }
  return {
    requests: log.length,
    ...counts,
    precision: log.length === 0 ? 0 : counts.valid / log.length,
    coverage: atEnd.length === 0 ? 0 : atEnd.filter((t) => found.has(t.id)).length / atEnd.length,
    threadsAtEnd: atEnd.length,
    threadsFound: atEnd.filter((t) => found.has(t.id)).length,
    born: born.length,
    bornFound: born.filter((t) => found.has(t.id)).length,
    freshness: mean(all),
    freshnessChanging: mean(ofChanging),
    changingThreads: changing.size,
    stale304,
  };
}

async function runOne(host: string, learn: boolean): Promise<RunFigures> {
  const e = engineOf(host);
  const web = await startTestWeb({ port: 0, seed: 1, size, clockSpeed });
  const work = mkdtempSync(join(tmpdir(), 'fc-sitemodel-watch-'));
  const store = join(work, 'store');
  const warnings: string[] = [];
  try {
    web.clock.set(startAt);
    const realBase = Date.now() - (web.clock.now() - startAt) / clockSpeed;
    const simOf = (ts: number) => startAt + (ts - realBase) * clockSpeed;
    const t0 = Date.now();
    let tWatch: number | undefined;
    const run = watch(
      {
        store,
        topic: { keywords: { forum: 1 }, threshold: 0 },
        seeds: [`http://${host}${e.root}`],
        strategy: 'bfs',
        scope: 'same-host',
        sitemaps: 'none',
        ...(learn ? { siteModel: 'learn' } : {}),
        fetcher: webFetcher(web),
      },
      { budget: values.budget, durationMs, planIntervalMs: 2000 },
    );
    // The first plan is made once the set-up (and the sample) is done, as the clock starts.
    run.on('plan', () => {
      tWatch ??= Date.now();
    });
    run.on('warning', (w) => {
      if (warnings.length < 20) warnings.push(String(w));
    });
    const summary = await run;
    const t1 = Date.now();
    const from = tWatch ?? t0;
    const log = web.requests.filter((r) => r.host === host && r.path !== '/robots.txt');
    const sample = log.filter((r) => r.ts < from).length;
    const model = learn ? await loadSiteModel(join(store, SITE_MODEL_FILE)) : undefined;
    const span = { start: simOf(t0), from: simOf(from), end: simOf(t1) };
    const primed = new Set<string>();
    const kept = await openStore(store, { readonly: true });
    try {
      for await (const p of kept.pages()) {
        if (p.fetchedAt < from) primed.add(new URL(p.url).pathname + new URL(p.url).search);
      }
    } finally {
      await kept.close();
    }
    return {
      run: learn ? 'learnt' : 'no model',
      sample: learn ? sample : 0,
      sampleMs: learn ? from - t0 : 0,
      realMs: t1 - t0,
      simDays: (span.end - span.start) / 86_400_000,
      ...measure(host, e, log, simOf, span, primed),
      taken: { ...summary.requests },
      warnings,
      ...(model ? { model } : {}),
    };
  } finally {
    await web.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}%`);
const results: { host: string; runs: RunFigures[] }[] = [];
const began = Date.now();
for (const host of hosts) {
  engineOf(host);
  const runs: RunFigures[] = [];
  for (const learn of [false, true]) {
    process.stderr.write(`${host} ${learn ? 'learnt' : 'no model'}: ${durationMs / 1000} s …\n`);
    const f = await runOne(host, learn);
    process.stderr.write(
      `  ${f.requests} requests (sample ${f.sample} in ${(f.sampleMs / 1000).toFixed(1)} s), precision ${pct(f.precision)}, coverage ${pct(f.coverage)}, freshness ${pct(f.freshness)} / changing ${pct(f.freshnessChanging)}, 304s that missed a change ${f.stale304}\n`,
    );
    for (const w of f.warnings) process.stderr.write(`  warning: ${w}\n`);
    runs.push(f);
  }
  results.push({ host, runs });
}

const lines = [
  `\`watch\` on the test web's forums (size ${size}), with and without a site model learnt first: each run on a fresh server whose simulated clock starts at day ${days} after the forums' epoch and runs ${clockSpeed}× real time, ${durationMs / 1000} s of watch (${((durationMs * clockSpeed) / 86_400_000).toFixed(1)} simulated days; the learnt run's sample comes before, its requests counted), budget ${values.budget}, plan every 2 s, breadth-first, same host, no sitemaps, 8 connections (2 per host), no delay. Requests from the server's log, robots.txt left out. Coverage: threads existing at the end with a valid page answered 200 to the watch (the sample's answers count when the watch stored them: its pages of valid patterns, handed to the watch instead of fetched again). New threads: born during the run, found = a valid page answered 200. Freshness: mean over ${samples} instants in the second half of the watch of the share of existing thread pages whose last 200/304 showed the posts the page shows now (never fetched = stale); changing: the pages of threads that existed at the start and got a post during the run.`,
  '',
  '| forum | run | requests | valid / duplicate / other | precision | coverage | new threads found / born | freshness of thread pages | of changing ones |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const r of results) {
  for (const f of r.runs) {
    const run =
      f.run === 'learnt'
        ? `learnt (sample ${f.sample} req., ${(f.sampleMs / 1000).toFixed(1)} s)`
        : f.run;
    lines.push(
      `| ${r.host} | ${run} | ${f.requests} | ${f.valid} / ${f.duplicate} / ${f.other} | ${pct(f.precision)} | ${pct(f.coverage)} (${f.threadsFound}/${f.threadsAtEnd}) | ${f.bornFound} / ${f.born} | ${pct(f.freshness)} | ${pct(f.freshnessChanging)} (${f.changingThreads} threads) |`,
    );
  }
}
for (const r of results) {
  for (const f of r.runs) {
    if (!f.model) continue;
    lines.push('', `${r.host}: learnt model, ${f.model.clusters.length} clusters:`);
    for (const c of f.model.clusters) {
      lines.push(
        `- ${c.id} ${c.kind} ${c.decision} pages ${c.pages}: ${c.patterns.map((p) => `${p.role === 'content' ? '+' : '='}${p.pattern}`).join(', ')}`,
      );
    }
  }
}
const md = `${lines.join('\n')}\n`;
process.stdout.write(md);
process.stderr.write(`site-model-watch: ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
if (values.out) writeFileSync(values.out, md);
if (values.json) {
  const settings = { hosts, size, days, durationMs, budget: values.budget, clockSpeed, samples };
  writeFileSync(values.json, `${JSON.stringify({ settings, results }, null, 2)}\n`);
}
