import {
  type CrawlOptionsInput,
  type CrawlSummary,
  crawl,
  MODELS,
  STRATEGIES,
} from '../../crawl/index.js';
import { CliUsageError } from '../../errors/index.js';
import { bool, duration, type FlagSpec, int, type Parsed, parseFlags, str, strs } from '../args.js';
import { fetcherOptionsFromFlags, fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { createProgressReporter } from '../progress.js';
import { readSeeds } from '../seeds.js';

const HELP = `Usage: focuscrawl crawl --store DIR --topic FILE --seeds FILE|URL... [options]

Crawls toward a topic: pages whose relevance reaches the threshold are kept
(complete) and their links followed; the others are discarded and their links are
not followed. Seeds' links are always followed. Running the same command again
resumes the crawl; Ctrl-C stops it gracefully (twice: at once, still safely).

  --store DIR                  crawl store (created when missing, resumed otherwise)
  --topic FILE                 topic file: { "keywords": { "word": weight, ... }, "seeds": [...],
                               "threshold": 0.1, "name": "..." }
  --seeds FILE|URL...          seed URLs, or files with one URL per line (repeatable; extra
                               arguments are seeds too)
  --threshold R|iterative|adaptive
                               keep pages with relevance >= R (default: the topic's, else 0.1;
                               0 keeps every page: a plain crawler); iterative: DESIGN 1.2's
                               convergent threshold; adaptive: DESIGN 1.5's rules (docs/topics.md)
  --t0 T, --epsilon E, --batch-pages N
                               iterative: start, convergence step, pages between steps
                               (defaults 0.05, 0.005, 200)
  --initial T, --alpha A, --beta B, --gamma G, --mu M, --expected-per-interval S,
  --interval-ms T, --min-threshold X, --max-threshold Y
                               adaptive: rules 1-3 of DESIGN 1.5 (defaults 0.1, 1.05, 1.2, 0.95,
                               0.3, 1000, 10000, 0.01, 0.6)
  --strategy NAME              ${STRATEGIES.join(' | ')}
                               (default best-first; docs/strategies.md)
  --model NAME                 ${MODELS.join(' | ')}: relevance model (default: the topic's, else vsm)
  --adapt-topic                re-estimate the topic vector from kept pages as the crawl goes
  --adapt-every N              kept pages between re-estimations (default 500)
  --max-drift D                largest 1 - cos(original, adapted topic) allowed (default 0.2)
  --domain-diversity K         any K consecutive fetches from K different domains (default 1: off)
  --width N                    fish/shark: irrelevant pages in a row a path may cross (default 3)
  --decay D                    shark: decay of the inherited score, in (0, 1) (default 0.5)
  --anchor-weight B            shark: weight of the anchor against its context (default 0.8)
  --inherited-weight G         shark: weight of the inherited score (default 0.5)
  --seed-val V                 tunnel: the seeds' Val (default 100)
  --tunnel-factor R            tunnel: Val factor below the threshold, in (0, 1) (default 0.5)
  --tunnel-steps N             tunnel: times the factor may apply along a path (default 4)
  --queues N                   multi-queue: number of queues (default 4)
  --max-pages N                stop when the store holds N fetched pages (all runs)
  --max-depth N                do not queue links deeper than N (seeds: 0)
  --duration D                 stop this run after D (90s, 15m, 2h, 1h30m)
  --scope MODE                 same-host | same-domain | any (default any): hosts the seeds admit
  --include REGEX              URLs must match one of these (repeatable)
  --exclude REGEX              URLs matching one of these are skipped (repeatable)
  --max-frontier N             keep only the best N waiting URLs
  --store-bodies WHICH         kept | all | none: page bodies saved under pages/ (default kept)
  --quiet                      no progress display, only warnings and the summary
  --json-log                   one JSON object per line per event (progress, page, warning, end)
  --progress-ms N              progress interval (default 1000)

${fetchFlagsHelp}`;

const flags: FlagSpec = {
  ...fetchFlags,
  store: { type: 'string' },
  topic: { type: 'string' },
  seeds: { type: 'string', multiple: true },
  threshold: { type: 'string' },
  t0: { type: 'string' },
  epsilon: { type: 'string' },
  'batch-pages': { type: 'string' },
  initial: { type: 'string' },
  alpha: { type: 'string' },
  beta: { type: 'string' },
  gamma: { type: 'string' },
  mu: { type: 'string' },
  'expected-per-interval': { type: 'string' },
  'interval-ms': { type: 'string' },
  'min-threshold': { type: 'string' },
  'max-threshold': { type: 'string' },
  strategy: { type: 'string' },
  model: { type: 'string' },
  'domain-diversity': { type: 'string' },
  'adapt-topic': { type: 'boolean' },
  'adapt-every': { type: 'string' },
  'max-drift': { type: 'string' },
  width: { type: 'string' },
  decay: { type: 'string' },
  'anchor-weight': { type: 'string' },
  'inherited-weight': { type: 'string' },
  'seed-val': { type: 'string' },
  'tunnel-factor': { type: 'string' },
  'tunnel-steps': { type: 'string' },
  queues: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  duration: { type: 'string' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-frontier': { type: 'string' },
  'store-bodies': { type: 'string' },
  quiet: { type: 'boolean' },
  'json-log': { type: 'boolean' },
  'progress-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

function required(p: Parsed, name: string): string {
  const v = str(p, name);
  if (v === undefined) {
    throw new CliUsageError(
      `focuscrawl crawl: --${name} is required (see focuscrawl crawl --help)`,
    );
  }
  return v;
}

function oneOf<T extends string>(p: Parsed, name: string, allowed: readonly T[]): T | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new CliUsageError(
      `focuscrawl crawl: --${name} must be one of ${allowed.join(', ')}, got "${v}"`,
    );
  }
  return v as T;
}

function positive(p: Parsed, name: string): number | undefined {
  const n = int(p, name, 'crawl');
  if (n === 0) throw new CliUsageError(`focuscrawl crawl: --${name} must be at least 1`);
  return n;
}

function num(p: Parsed, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) {
    throw new CliUsageError(`focuscrawl crawl: --${name} must be a number, got "${v}"`);
  }
  return n;
}

/** The strategy constants given as flags (validated by the crawl's options). */
function strategyOptionsFromFlags(p: Parsed): NonNullable<CrawlOptionsInput['strategyOptions']> {
  const o: NonNullable<CrawlOptionsInput['strategyOptions']> = {};
  const flagOf = {
    width: 'width',
    decay: 'decay',
    anchorWeight: 'anchor-weight',
    inheritedWeight: 'inherited-weight',
    seedVal: 'seed-val',
    tunnelFactor: 'tunnel-factor',
    tunnelSteps: 'tunnel-steps',
    queues: 'queues',
  } as const;
  for (const [key, flag] of Object.entries(flagOf) as [keyof typeof flagOf, string][]) {
    const v = num(p, flag);
    if (v !== undefined) o[key] = v;
  }
  return o;
}

/** Threshold parameter flags → spec fields. */
const THRESHOLD_FLAGS = {
  t0: 't0',
  epsilon: 'epsilon',
  'batch-pages': 'batchPages',
  initial: 'initial',
  alpha: 'alpha',
  beta: 'beta',
  gamma: 'gamma',
  mu: 'mu',
  'expected-per-interval': 'expectedPerInterval',
  'interval-ms': 'intervalMs',
  'min-threshold': 'min',
  'max-threshold': 'max',
} as const;

/** `--threshold` with its parameter flags (validated by the crawl, errors naming the field). */
function thresholdFromFlags(p: Parsed): CrawlOptionsInput['threshold'] {
  const raw = str(p, 'threshold');
  const params: Record<string, number> = {};
  for (const [flag, field] of Object.entries(THRESHOLD_FLAGS)) {
    const v = num(p, flag);
    if (v !== undefined) params[field] = v;
  }
  const named = Object.keys(params).length > 0;
  if (raw === undefined) {
    if (!named) return undefined;
    throw new CliUsageError(
      'focuscrawl crawl: threshold parameters need --threshold iterative or --threshold adaptive',
    );
  }
  if (raw === 'iterative' || raw === 'adaptive') return named ? { kind: raw, ...params } : raw;
  const t = Number(raw);
  if (raw.trim() === '' || !(t >= 0 && t <= 1)) {
    throw new CliUsageError(
      `focuscrawl crawl: --threshold must be a number in [0, 1], iterative or adaptive, got "${raw}"`,
    );
  }
  if (named) {
    throw new CliUsageError(
      `focuscrawl crawl: --${Object.keys(THRESHOLD_FLAGS).find((f) => num(p, f) !== undefined)} applies to --threshold iterative or adaptive, not to a fixed threshold`,
    );
  }
  return t;
}

/** Builds crawl options from the flags; exported for tests. */
export function crawlOptionsFromFlags(p: Parsed): CrawlOptionsInput {
  const threshold = thresholdFromFlags(p);
  const o: CrawlOptionsInput = {
    store: required(p, 'store'),
    topic: required(p, 'topic'),
    seeds: readSeeds([...strs(p, 'seeds'), ...p.positionals], 'crawl'),
    include: strs(p, 'include'),
    exclude: strs(p, 'exclude'),
    fetcher: fetcherOptionsFromFlags(p, 'crawl'),
  };
  const set = <K extends keyof CrawlOptionsInput>(k: K, v: CrawlOptionsInput[K] | undefined) => {
    if (v !== undefined) o[k] = v;
  };
  set('threshold', threshold);
  set('strategy', oneOf(p, 'strategy', STRATEGIES));
  set('model', oneOf(p, 'model', MODELS));
  set('domainDiversity', positive(p, 'domain-diversity'));
  const adaptEvery = positive(p, 'adapt-every');
  const maxDrift = num(p, 'max-drift');
  if (bool(p, 'adapt-topic') || adaptEvery !== undefined || maxDrift !== undefined) {
    o.adaptTopic =
      adaptEvery === undefined && maxDrift === undefined
        ? true
        : {
            ...(adaptEvery !== undefined ? { intervalPages: adaptEvery } : {}),
            ...(maxDrift !== undefined ? { maxDrift } : {}),
          };
  }
  const strategyOptions = strategyOptionsFromFlags(p);
  if (Object.keys(strategyOptions).length > 0) o.strategyOptions = strategyOptions;
  set('maxPages', positive(p, 'max-pages'));
  set('maxDepth', int(p, 'max-depth', 'crawl'));
  set('durationMs', duration(p, 'duration', 'crawl'));
  set('scope', oneOf(p, 'scope', ['same-host', 'same-domain', 'any'] as const));
  set('maxFrontier', positive(p, 'max-frontier'));
  set('storeBodies', oneOf(p, 'store-bodies', ['kept', 'all', 'none'] as const));
  set('progressIntervalMs', positive(p, 'progress-ms'));
  return o;
}

export function formatSummary(s: CrawlSummary, store: string): string {
  const c = s.counts;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${s.stopReason}: ${s.message}`,
    `this run: ${s.run.fetched} fetched (${s.run.complete} kept, ${s.run.discard} discarded, ${s.run.error} failed) in ${(s.elapsedMs / 1000).toFixed(1)} s, ${s.pagesPerSec.toFixed(1)} pages/s; CPU ${(s.resources.cpuMs / 1000).toFixed(1)} s, peak memory ${(s.resources.peakRssBytes / 1048576).toFixed(0)} MiB`,
    `store ${store}: waiting ${c.waiting}, processing ${c.processing}, complete ${c.complete}, discard ${c.discard}, error ${c.error}; harvest rate ${pct(s.harvestRate)}`,
    `next: focuscrawl status --store ${store} | focuscrawl report --store ${store} --out report.html`,
  ].join('\n');
}

export async function crawlCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('crawl', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const options = crawlOptionsFromFlags(p);
  const controller = new AbortController();
  options.signal = controller.signal;
  const json = bool(p, 'json-log');
  const mode = json ? 'json' : bool(p, 'quiet') ? 'quiet' : process.stderr.isTTY ? 'bar' : 'lines';
  const write = (s: string) => {
    if (json) io.out(s);
    else process.stderr.write(s);
  };
  const reporter = createProgressReporter({
    mode,
    write,
    ...(process.stderr.columns ? { columns: process.stderr.columns } : {}),
  });
  const run = crawl(options);
  run.on('progress', (x) => reporter.progress(x));
  run.on('page', (x) => reporter.page(x));
  run.on('warning', (x) => reporter.warning(x));
  run.on('end', (x) => reporter.end(x));
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      if (!json) io.err('stopping: committing what was fetched (Ctrl-C again to quit at once)');
      controller.abort();
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const summary = await run;
    if (!json) io.out(formatSummary(summary, options.store as string));
    const nothing = summary.counts.complete + summary.counts.discard === 0;
    return nothing && summary.seedErrors.length > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
