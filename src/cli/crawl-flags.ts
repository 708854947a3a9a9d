// The crawl options as command-line flags, shared by `crawl` and `compare`:
// their spec, their help text, and the options they build.
import { type CrawlOptionsInput, MODELS, PAGE_MODELS, STRATEGIES } from '../crawl/index.js';
import { CliUsageError } from '../errors/index.js';
import { bool, duration, type FlagSpec, int, type Parsed, str, strs } from './args.js';
import { fetcherOptionsFromFlags } from './fetch-flags.js';
import { readSeeds } from './seeds.js';

/** Help lines of the crawl option flags (topic, seeds and store excepted). */
export const crawlFlagsHelp = `  --threshold R|iterative|adaptive
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
                               (default best-first; bayes with --model bayes; docs/strategies.md)
  --rank-buffer N              pagerank: fetched pages between recomputations (default 1000)
  --damping D                  pagerank: damping d, in (0, 1) (default 0.8)
  --model NAME                 ${MODELS.join(' | ')}: what scores links (and pages, for vsm and
                               tfidf); bayes: the naive Bayes link model (docs/bayes.md)
                               (default: the topic's, else vsm)
  --model-file FILE            link model from \`focuscrawl train\` (for --model bayes)
  --page-model NAME            ${PAGE_MODELS.join(' | ')}: what judges pages under --model bayes
                               (default: the topic's model, else vsm; bayes: threshold 0.5)
  --learn-every N              retrain the link model every N fetched pages from the links
                               whose targets were judged, and re-score the frontier (default off)
  --context-chars N            characters of text on each side of a link read as its context
                               (default: the model file's, else 80)
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
  --explore-steps N            best-first: discarded pages in a row whose links are still
                               followed, behind kept pages' links (default 2; 0: DESIGN 1.1's
                               strict gate, a discarded page's links never followed)
  --sibling-window N           best-first: a judged page lends its relevance to the links up
                               to N places from its own on the page that linked it, in its
                               directory (default 1; 0: off)
  --sibling-decay D            best-first: decay of that loan per place beyond the first
                               (default 0.8)
  --queues N                   multi-queue: number of queues (default 4)
  --max-pages N                stop when the store holds N pages fetched (responses received,
                               all runs; redirects, robots refusals, unreachable hosts and
                               other failures without a response do not count)
  --priority-gap G|none        start a fetch only for URLs within G of the best priority
                               waiting or being fetched, so that a busy host's better URLs
                               are not passed by worse ones elsewhere (default 0 with
                               --max-pages, where pages are the budget, unless --threshold 0
                               keeps every page; none otherwise)
  --max-depth N                do not queue links deeper than N (seeds: 0)
  --duration D                 stop this run after D (90s, 15m, 2h, 1h30m)
  --scope MODE                 same-host | same-domain | any (default any): hosts the seeds admit
  --include REGEX              URLs must match one of these (repeatable)
  --exclude REGEX              URLs matching one of these are skipped (repeatable)
  --max-frontier N             keep only the best N waiting URLs
  --host-retry-ms N            an unreachable host's URLs wait; it is probed again after N ms,
                               doubling after each failed probe (default 30000)
  --host-dead-after-ms N       a host unreachable for N ms is dead: its URLs fail together,
                               unsent (default 300000; 0: at the first failure)
  --host-timeouts N            timeouts in a row that make a host unreachable (default 3)
  --store-bodies WHICH         kept | all | none: page bodies saved under pages/ (default kept)
  --full-text WHICH            kept | none: index kept pages' text for focuscrawl search (default none)
  --no-rank                    do not compute PageRank and P when the run ends
  --sitemaps WHOSE             seeds | hosts | none: sitemaps read for URLs (default seeds)
  --no-dedup                   keep duplicates of kept pages as pages of their own
  --dedup-distance N           near duplicates: SimHashes at most N bits apart (0-8, default 3)`;

/** The crawl option flags (topic, seeds, store and output flags excepted). */
export const crawlFlags: FlagSpec = {
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
  'model-file': { type: 'string' },
  'page-model': { type: 'string' },
  'learn-every': { type: 'string' },
  'context-chars': { type: 'string' },
  'rank-buffer': { type: 'string' },
  damping: { type: 'string' },
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
  'explore-steps': { type: 'string' },
  'sibling-window': { type: 'string' },
  'sibling-decay': { type: 'string' },
  queues: { type: 'string' },
  'max-pages': { type: 'string' },
  'priority-gap': { type: 'string' },
  'max-depth': { type: 'string' },
  duration: { type: 'string' },
  scope: { type: 'string' },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'max-frontier': { type: 'string' },
  'host-retry-ms': { type: 'string' },
  'host-dead-after-ms': { type: 'string' },
  'host-timeouts': { type: 'string' },
  'store-bodies': { type: 'string' },
  'full-text': { type: 'string' },
  'no-rank': { type: 'boolean' },
  sitemaps: { type: 'string' },
  'no-dedup': { type: 'boolean' },
  'dedup-distance': { type: 'string' },
};

function required(p: Parsed, name: string, cmd: string): string {
  const v = str(p, name);
  if (v === undefined) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${name} is required (see focuscrawl ${cmd} --help)`,
    );
  }
  return v;
}

function oneOf<T extends string>(
  p: Parsed,
  name: string,
  allowed: readonly T[],
  cmd: string,
): T | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${name} must be one of ${allowed.join(', ')}, got "${v}"`,
    );
  }
  return v as T;
}

function positive(p: Parsed, name: string, cmd: string): number | undefined {
  const n = int(p, name, cmd);
  if (n === 0) throw new CliUsageError(`focuscrawl ${cmd}: --${name} must be at least 1`);
  return n;
}

function num(p: Parsed, name: string, cmd: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) {
    throw new CliUsageError(`focuscrawl ${cmd}: --${name} must be a number, got "${v}"`);
  }
  return n;
}

/** The strategy constants given as flags (validated by the crawl's options). */
function strategyOptionsFromFlags(
  p: Parsed,
  cmd: string,
): NonNullable<CrawlOptionsInput['strategyOptions']> {
  const o: NonNullable<CrawlOptionsInput['strategyOptions']> = {};
  const flagOf = {
    width: 'width',
    decay: 'decay',
    anchorWeight: 'anchor-weight',
    inheritedWeight: 'inherited-weight',
    seedVal: 'seed-val',
    tunnelFactor: 'tunnel-factor',
    tunnelSteps: 'tunnel-steps',
    exploreSteps: 'explore-steps',
    siblingWindow: 'sibling-window',
    siblingDecay: 'sibling-decay',
    queues: 'queues',
    rankBufferPages: 'rank-buffer',
    damping: 'damping',
  } as const;
  for (const [key, flag] of Object.entries(flagOf) as [keyof typeof flagOf, string][]) {
    const v = num(p, flag, cmd);
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
function thresholdFromFlags(p: Parsed, cmd: string): CrawlOptionsInput['threshold'] {
  const raw = str(p, 'threshold');
  const params: Record<string, number> = {};
  for (const [flag, field] of Object.entries(THRESHOLD_FLAGS)) {
    const v = num(p, flag, cmd);
    if (v !== undefined) params[field] = v;
  }
  const named = Object.keys(params).length > 0;
  if (raw === undefined) {
    if (!named) return undefined;
    throw new CliUsageError(
      `focuscrawl ${cmd}: threshold parameters need --threshold iterative or --threshold adaptive`,
    );
  }
  if (raw === 'iterative' || raw === 'adaptive') return named ? { kind: raw, ...params } : raw;
  const t = Number(raw);
  if (raw.trim() === '' || !(t >= 0 && t <= 1)) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --threshold must be a number in [0, 1], iterative or adaptive, got "${raw}"`,
    );
  }
  if (named) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${Object.keys(THRESHOLD_FLAGS).find((f) => num(p, f, cmd) !== undefined)} applies to --threshold iterative or adaptive, not to a fixed threshold`,
    );
  }
  return t;
}

/**
 * The crawl options the flags give, all but the store: `crawl` adds `--store`,
 * `compare` runs them once per run spec. `cmd` names the command in errors.
 */
export function crawlRunOptionsFromFlags(p: Parsed, cmd: string): Omit<CrawlOptionsInput, 'store'> {
  const threshold = thresholdFromFlags(p, cmd);
  const o: Omit<CrawlOptionsInput, 'store'> = {
    topic: required(p, 'topic', cmd),
    seeds: readSeeds([...strs(p, 'seeds'), ...p.positionals], cmd),
    fetcher: fetcherOptionsFromFlags(p, cmd),
  };
  const set = <K extends keyof CrawlOptionsInput>(k: K, v: CrawlOptionsInput[K] | undefined) => {
    if (v !== undefined) (o as CrawlOptionsInput)[k] = v;
  };
  if (strs(p, 'include').length > 0) o.include = strs(p, 'include');
  if (strs(p, 'exclude').length > 0) o.exclude = strs(p, 'exclude');
  set('threshold', threshold);
  set('strategy', oneOf(p, 'strategy', STRATEGIES, cmd));
  set('model', oneOf(p, 'model', MODELS, cmd));
  set('modelFile', str(p, 'model-file'));
  set('pageModel', oneOf(p, 'page-model', PAGE_MODELS, cmd));
  set('learnEvery', positive(p, 'learn-every', cmd));
  set('linkContextChars', int(p, 'context-chars', cmd));
  set('domainDiversity', positive(p, 'domain-diversity', cmd));
  const adaptEvery = positive(p, 'adapt-every', cmd);
  const maxDrift = num(p, 'max-drift', cmd);
  if (bool(p, 'adapt-topic') || adaptEvery !== undefined || maxDrift !== undefined) {
    o.adaptTopic =
      adaptEvery === undefined && maxDrift === undefined
        ? true
        : {
            ...(adaptEvery !== undefined ? { intervalPages: adaptEvery } : {}),
            ...(maxDrift !== undefined ? { maxDrift } : {}),
          };
  }
  const strategyOptions = strategyOptionsFromFlags(p, cmd);
  if (Object.keys(strategyOptions).length > 0) o.strategyOptions = strategyOptions;
  set('maxPages', positive(p, 'max-pages', cmd));
  const gap = str(p, 'priority-gap');
  if (gap !== undefined) {
    const g = Number(gap);
    if (gap !== 'none' && (gap.trim() === '' || !Number.isFinite(g) || g < 0))
      throw new CliUsageError(
        `focuscrawl ${cmd}: --priority-gap must be a number ≥ 0 or "none", got "${gap}"`,
      );
    o.priorityGap = gap === 'none' ? 'none' : g;
  }
  set('maxDepth', int(p, 'max-depth', cmd));
  set('durationMs', duration(p, 'duration', cmd));
  set('scope', oneOf(p, 'scope', ['same-host', 'same-domain', 'any'] as const, cmd));
  set('maxFrontier', positive(p, 'max-frontier', cmd));
  set('hostRetryMs', int(p, 'host-retry-ms', cmd));
  set('hostDeadAfterMs', int(p, 'host-dead-after-ms', cmd));
  set('hostTimeouts', positive(p, 'host-timeouts', cmd));
  set('storeBodies', oneOf(p, 'store-bodies', ['kept', 'all', 'none'] as const, cmd));
  set('fullText', oneOf(p, 'full-text', ['kept', 'none'] as const, cmd));
  if (bool(p, 'no-rank')) set('rankOnFinish', false);
  set('sitemaps', oneOf(p, 'sitemaps', ['seeds', 'hosts', 'none'] as const, cmd));
  if (bool(p, 'no-dedup')) set('dedup', false);
  set('dedupMaxDistance', int(p, 'dedup-distance', cmd));
  set('progressIntervalMs', positive(p, 'progress-ms', cmd));
  return o;
}

/** Builds `crawl`'s options from its flags; exported for tests. */
export function crawlOptionsFromFlags(p: Parsed): CrawlOptionsInput {
  return { store: required(p, 'store', 'crawl'), ...crawlRunOptionsFromFlags(p, 'crawl') };
}
