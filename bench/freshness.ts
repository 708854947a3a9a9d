// Freshness of an incremental crawl (BENCHMARKS.md): `watch` on news.test (articles
// that change at known Poisson rates on the test web's simulated clock, some born
// during the run) under the same request budget and the same simulated duration with
// each revisit policy, one after another, each on a fresh test web server and a fresh
// store: `freshness` (the default), `uniform` (every known page in turn, equally often)
// and `none` (breadth-first discovery, no revisits). Every figure comes from the
// server's request log against the ground truth (bench/freshness/truth.ts).
//
//   node --import tsx bench/freshness.ts [--duration-ms 80000] [--budget 40/s]
//       [--clock-speed 8640] [--seed 1] [--size large] [--plan-interval-ms 2000]
//       [--revisit-concurrency 4] [--delay-ms 0] [--policies freshness,uniform,none]
//       [--samples 400] [--out FILE.md] [--json FILE]
//
// The fetcher runs with no per-host delay and two connections to the one host, so that
// the budget, not politeness, limits the requests (the most requests in any window of
// one budget unit is reported against the budget).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  NEWS_EPOCH_MS,
  newsFingerprint,
  SIZES,
  startTestWeb,
  type WebSize,
} from '../src/testweb/index.js';
import {
  parseBudget,
  perDay,
  REVISIT_POLICIES,
  type RevisitPolicy,
  watch,
} from '../src/watch/index.js';
import { estimateFigures } from './freshness/estimates.js';
import { type BenchResult, markdown, type PolicyResult } from './freshness/report.js';
import { ceiling, runFigures } from './freshness/truth.js';

const { values } = parseArgs({
  options: {
    'duration-ms': { type: 'string', default: '80000' },
    budget: { type: 'string', default: '40/s' },
    'clock-speed': { type: 'string', default: '8640' },
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: 'large' },
    'plan-interval-ms': { type: 'string', default: '2000' },
    'revisit-concurrency': { type: 'string', default: '4' },
    'delay-ms': { type: 'string', default: '0' },
    policies: { type: 'string', default: 'freshness,uniform,none' },
    samples: { type: 'string', default: '400' },
    out: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${readFileSync(import.meta.filename, 'utf8').split('\nimport')[0]}\n`);
  process.exit(0);
}

function whole(flag: string, min: number): number {
  const v = Number(values[flag as keyof typeof values]);
  if (!Number.isInteger(v) || v < min)
    throw new Error(`--${flag}: expected a whole number ≥ ${min}`);
  return v;
}
const durationMs = whole('duration-ms', 1000);
const seed = whole('seed', 0);
const planIntervalMs = whole('plan-interval-ms', 1);
const revisitConcurrency = whole('revisit-concurrency', 1);
const delayMs = whole('delay-ms', 0);
const samples = whole('samples', 10);
const clockSpeed = Number(values['clock-speed']);
if (!(clockSpeed > 0)) throw new Error('--clock-speed: expected a number > 0');
const budget = parseBudget(values.budget, '--budget');
const size = values.size as WebSize;
if (!Object.hasOwn(SIZES, size)) throw new Error(`--size: one of ${Object.keys(SIZES).join(', ')}`);
const policies = values.policies.split(',').filter(Boolean) as RevisitPolicy[];
for (const p of policies) {
  if (!REVISIT_POLICIES.includes(p)) throw new Error(`--policies: unknown policy ${p}`);
}

/** Median and 90th percentile, ms; null without data. */
function quantiles(xs: number[]): { median: number; p90: number; n: number } | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  return { median: at(0.5), p90: at(0.9), n: s.length };
}

async function runPolicy(policy: RevisitPolicy): Promise<PolicyResult> {
  const web = await startTestWeb({ port: 0, seed, size, clockSpeed });
  const work = mkdtempSync(join(tmpdir(), 'fc-freshness-'));
  const dir = join(work, 'store');
  const warnings: string[] = [];
  let plans = 0;
  let lastPlan: PolicyResult['lastPlan'] = null;
  const planLog: PolicyResult['planLog'] = [];
  const due = new Map<string, number>();
  const late: number[] = [];
  try {
    // Every run starts at the same simulated instant, NEWS_EPOCH_MS.
    web.clock.set(NEWS_EPOCH_MS);
    const realBase = Date.now() - (web.clock.now() - NEWS_EPOCH_MS) / clockSpeed;
    const simOf = (ts: number) => NEWS_EPOCH_MS + (ts - realBase) * clockSpeed;
    const t0 = Date.now();
    const run = watch(
      {
        store: dir,
        topic: { keywords: { news: 1 }, threshold: 0 },
        seeds: ['http://news.test/'],
        strategy: 'bfs',
        fetcher: {
          resolve: [web.resolve],
          allowPrivateAddresses: true,
          delayMs,
          concurrency: 8,
          perHostConcurrency: 2,
        },
      },
      { budget, durationMs, planIntervalMs, policy, revisitConcurrency },
    );
    run.on('revisit', (v) => {
      const d = due.get(v.url);
      if (d !== undefined) late.push(v.at - d);
      if (v.dueAt === null) due.delete(v.url);
      else due.set(v.url, v.dueAt);
    });
    run.on('plan', (p) => {
      plans++;
      planLog.push({
        ms: Date.now() - t0,
        refreshPerDay: p.refreshPerDay,
        discoveryPerDay: p.discoveryPerDay,
        pages: p.pages,
        scheduled: p.scheduled,
        givenUp: p.givenUp,
        expectedFreshness: p.expectedFreshness,
      });
      lastPlan = {
        pages: p.pages,
        scheduled: p.scheduled,
        givenUp: p.givenUp,
        expectedFreshness: p.expectedFreshness,
      };
    });
    run.on('warning', (w) => {
      if (warnings.length < 20) warnings.push(String(w));
    });
    const summary = await run;
    const realMs = Date.now() - t0;
    const entries = [...web.requests];
    await web.close();
    const start = simOf(t0);
    const end = start + durationMs * clockSpeed;
    const figures = runFigures({
      seed,
      size,
      entries,
      simOf,
      start,
      end,
      realMs: durationMs,
      budget,
      samples,
    });
    const estimates =
      policy === 'none'
        ? null
        : await estimateFigures(
            dir,
            seed,
            size,
            clockSpeed,
            (url) => newsFingerprint(seed, size, url, start) !== null,
          );
    return {
      policy,
      realMs,
      figures,
      estimates,
      plans,
      lastPlan,
      planLog,
      lateness: quantiles(late),
      revisits: { ...summary.revisits },
      taken: { ...summary.requests },
      warnings,
      ceiling: ceiling(seed, size, start, end, figures.secondHalfPerSimDay),
    };
  } finally {
    await web.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const runs: PolicyResult[] = [];
for (const policy of policies) {
  process.stderr.write(`freshness: ${policy}, ${durationMs / 1000} s …\n`);
  runs.push(await runPolicy(policy));
}
const fresh = runs.find((r) => r.policy === 'freshness');
const uni = runs.find((r) => r.policy === 'uniform');
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !(b > 0) ? null : a / b;
const result: BenchResult = {
  date: new Date().toISOString().slice(0, 10),
  settings: {
    seed,
    size,
    budget: values.budget,
    budgetPerDay: perDay(budget),
    clockSpeed,
    durationMs,
    planIntervalMs,
    revisitConcurrency,
    delayMs,
    samples,
  },
  runs,
  ratios: {
    changing: ratio(fresh?.figures.freshnessChanging, uni?.figures.freshnessChanging),
    changingArticles: ratio(
      fresh?.figures.freshnessChangingArticles,
      uni?.figures.freshnessChangingArticles,
    ),
    all: ratio(fresh?.figures.freshness, uni?.figures.freshness),
    ceilingChanging: ratio(uni?.ceiling.optimal, uni?.ceiling.uniform),
    ceilingAll: ratio(uni?.ceiling.optimalAll, uni?.ceiling.uniformAll),
  },
};
const md = markdown(result);
if (values.out) writeFileSync(values.out, md);
if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(md);
