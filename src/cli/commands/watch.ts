import { CliUsageError } from '../../errors/index.js';
import {
  parseBudget,
  REVISIT_POLICIES,
  REVISIT_WEIGHTS,
  type RevisitPolicy,
  type RevisitWeight,
  type WatchOptionsInput,
  type WatchSummary,
  watch,
} from '../../watch/index.js';
import { bool, duration, type FlagSpec, parseFlags, str } from '../args.js';
import { crawlFlagsHelp, crawlRunOptionsFromFlags } from '../crawl-flags.js';
import { fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { EXIT_INTERRUPTED, runOutput, runOutputFlagsHelp, stopOnSignals } from '../run-output.js';
import type { FetchStats } from '../run-stats.js';
import { serveFlagHelp, servePort, serveWhile, withServeDefault } from '../serve-flag.js';
import { crawlCommandFlags, formatSummary } from './crawl.js';

const HELP = `Usage: focuscrawl watch --store DIR --topic FILE --budget N/UNIT [--duration 12h] [options]

Keeps a crawl fresh (incremental crawling): goes on with the frontier (new URLs) and
revisits the kept pages as often as their estimated change rates make worth it,
within one request budget over all hosts (per-host politeness still holds). A
revisit sends the stored ETag / Last-Modified (a 304 costs no body) and counts a
change only when the page's visible text changed. Resumable like a crawl: Ctrl-C,
or kill, then the same command again.

  --store DIR                  crawl store (created when missing, resumed otherwise)
  --topic FILE                 topic file (as for crawl)
  --seeds FILE|URL...          seed URLs (needed only for a new store)
  --budget N/UNIT              requests over all hosts: 30/min, 2/s, 1000/hour, 5000/day (required)
  --duration D                 how long to watch (90s, 15m, 12h); default: until stopped
  --until TIME                 watch until this time (ISO 8601, e.g. 2026-12-01T08:00:00Z)
  --discovery-share X          share of the budget kept for new URLs while some wait (default 0.5)
  --revisit-policy P           freshness (default: revisit rates that maximise freshness),
                               uniform (every page equally often), none (no revisits)
  --revisit-weight W           what a page's freshness is worth: none (default, all alike),
                               relevance, or score (relevance with PageRank)
  --plan-interval D            how often the revisit plan is made again (default 1m)
  --revisit-concurrency N      revisits in flight at most (default 4)
  --keep-versions              keep the body of every version found (default: the newest only;
                               needs stored bodies, --store-bodies kept or all)
${crawlFlagsHelp}
${serveFlagHelp}
${runOutputFlagsHelp}
                               (with --json-log, revisit, plan and watchEnd events too)

${fetchFlagsHelp}`;

export const watchCommandFlags: FlagSpec = {
  ...crawlCommandFlags,
  budget: { type: 'string' },
  until: { type: 'string' },
  'discovery-share': { type: 'string' },
  'revisit-policy': { type: 'string' },
  'revisit-weight': { type: 'string' },
  'plan-interval': { type: 'string' },
  'revisit-concurrency': { type: 'string' },
  'keep-versions': { type: 'boolean' },
};

const usage = (m: string) => new CliUsageError(`focuscrawl watch: ${m}`);

/** The watch options the flags give; `durationMs` is the watch's (--duration or --until). */
export function watchOptionsFromFlags(
  p: ReturnType<typeof parseFlags>,
  now = Date.now(),
): WatchOptionsInput {
  const budget = str(p, 'budget');
  if (budget === undefined)
    throw usage('--budget is required (requests over all hosts, e.g. 30/min)');
  try {
    parseBudget(budget);
  } catch (e) {
    throw usage(e instanceof Error ? e.message : String(e));
  }
  const o: WatchOptionsInput = { budget };
  const d = duration(p, 'duration', 'watch');
  const until = str(p, 'until');
  if (d !== undefined && until !== undefined) throw usage('give --duration or --until, not both');
  if (d !== undefined) {
    if (d <= 0) throw usage(`--duration must be longer than 0, got "${str(p, 'duration')}"`);
    o.durationMs = d;
  }
  if (until !== undefined) {
    const t = Date.parse(until);
    if (!Number.isFinite(t))
      throw usage(`--until expects a time such as 2026-12-01T08:00:00Z, got "${until}"`);
    if (t <= now) throw usage(`--until ${until} is in the past`);
    o.durationMs = Math.max(1, Math.round(t - now));
  }
  const share = str(p, 'discovery-share');
  if (share !== undefined) {
    const x = Number(share);
    if (!(share.trim() !== '' && x >= 0 && x <= 1))
      throw usage(`--discovery-share expects a number from 0 to 1, got "${share}"`);
    o.discoveryShare = x;
  }
  const policy = str(p, 'revisit-policy');
  if (policy !== undefined) {
    if (!REVISIT_POLICIES.includes(policy as RevisitPolicy))
      throw usage(
        `--revisit-policy expects one of ${REVISIT_POLICIES.join(', ')}, got "${policy}"`,
      );
    o.policy = policy as RevisitPolicy;
  }
  const weight = str(p, 'revisit-weight');
  if (weight !== undefined) {
    if (!REVISIT_WEIGHTS.includes(weight as RevisitWeight))
      throw usage(`--revisit-weight expects one of ${REVISIT_WEIGHTS.join(', ')}, got "${weight}"`);
    o.weightBy = weight as RevisitWeight;
  }
  const plan = duration(p, 'plan-interval', 'watch');
  if (plan !== undefined) {
    if (plan <= 0)
      throw usage(`--plan-interval must be longer than 0, got "${str(p, 'plan-interval')}"`);
    o.planIntervalMs = plan;
  }
  const conc = str(p, 'revisit-concurrency');
  if (conc !== undefined) {
    const n = Number(conc);
    if (!(Number.isInteger(n) && n >= 1 && n <= 256))
      throw usage(`--revisit-concurrency expects a whole number from 1 to 256, got "${conc}"`);
    o.revisitConcurrency = n;
  }
  if (bool(p, 'keep-versions')) o.keepVersions = true;
  return o;
}

export function formatWatchSummary(s: WatchSummary, store: string, stats?: FetchStats): string {
  const r = s.revisits;
  const perSec = (n: number) => ((n * 1000) / Math.max(1, s.elapsedMs)).toFixed(2);
  const req = s.requests;
  const sent = req.revisit + req.discovery + req.extra;
  const budgetPerSec = ((s.budget.requests * 1000) / s.budget.perMs).toFixed(2);
  return [
    `watch ${s.stopReason} after ${(s.elapsedMs / 1000).toFixed(1)} s: ${r.unchanged + r.changed + r.gone + r.failed} revisits (${r.changed} changed, ${r.unchanged} unchanged, ${r.gone} gone, ${r.failed} failed), ${r.newUrls} new URLs found by revisits`,
    `requests: ${sent} started (${req.revisit} revisits, ${req.discovery} new pages, ${req.extra} redirect hops and retries), ${perSec(sent)}/s against a budget of ${budgetPerSec}/s`,
    ...(s.plan
      ? [
          `plan: ${s.plan.scheduled} of ${s.plan.pages} kept pages scheduled, ${s.plan.givenUp} given up on; expected freshness ${(s.plan.expectedFreshness * 100).toFixed(1)}%`,
        ]
      : []),
    formatSummary(s.crawl, store, undefined, stats),
  ].join('\n');
}

export async function watchCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('watch', withServeDefault(argv), watchCommandFlags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const store = str(p, 'store');
  if (store === undefined) throw usage('--store is required');
  const w = watchOptionsFromFlags(p);
  // --duration is the watch's: the frontier's run goes on as long as the watch.
  const { durationMs: _d, ...crawlOptions } = crawlRunOptionsFromFlags(p, 'watch') as Record<
    string,
    unknown
  >;
  const controller = new AbortController();
  const output = runOutput(
    p,
    io,
    { maxPages: crawlOptions['maxPages'], durationMs: w.durationMs },
    'watch',
  );
  const { json, reporter } = output;
  const run = watch(
    { ...crawlOptions, store, signal: controller.signal } as Parameters<typeof watch>[0],
    w,
  );
  const serving = serveWhile(servePort(p, 'watch'), run, store, io);
  run.on('progress', (x) => reporter.progress(x));
  run.on('page', (x) => reporter.page(x));
  run.on('warning', (x) => reporter.warning(x));
  run.on('end', (x) => reporter.end(x));
  if (json) {
    run.on('revisit', (e) => io.out(JSON.stringify({ event: 'revisit', ...e })));
    run.on('plan', (e) => io.out(JSON.stringify({ event: 'plan', ...e })));
  }
  const signals = stopOnSignals(
    controller,
    io,
    json ? null : 'stopping: recording what was fetched (Ctrl-C again to quit at once)',
  );
  try {
    const summary = await run;
    const text = formatWatchSummary(summary, store, output.stats());
    if (json) io.out(JSON.stringify({ event: 'watchEnd', ...summary }));
    else io.out(text);
    output.close(text);
    return signals.interrupted() ? EXIT_INTERRUPTED : 0;
  } finally {
    signals.unlisten();
    output.close();
    await serving.close();
  }
}
