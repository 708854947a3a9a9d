// The crawl option flags (topic, seeds, store and output flags excepted): the option
// each one sets, how its value is read, its help and its default, which comes from the
// option's schema (crawl/options.ts) or its constants' defaults.
import {
  crawlOptionsSchema,
  DEFAULT_ADAPT_INTERVAL_PAGES,
  MODELS,
  PAGE_MODELS,
  STRATEGIES,
} from '../crawl/options.js';
import { DEFAULT_STRATEGY_OPTIONS as S } from '../frontier/names.js';
import { ADAPT_DEFAULTS } from '../relevance/adapt-defaults.js';
import { THRESHOLD_DEFAULTS } from '../relevance/threshold-spec.js';
import { DEFAULT_THRESHOLD } from '../relevance/vsm.js';
import {
  count,
  enumValues,
  type FlagDef,
  num,
  numOr,
  on,
  oneOf,
  span,
  text,
  texts,
  whole,
} from './flags.js';

/** The crawl options' defaults, as their schema gives them. */
const D = crawlOptionsSchema.parse({ store: '-', topic: '-' });
const shape = crawlOptionsSchema.shape;
const T = THRESHOLD_DEFAULTS;

/** A flag whose option has a value of `values` (from its schema), shown in its help. */
function choice(
  flag: string,
  arg: string,
  option: keyof typeof shape,
  help: string,
  defaultValue?: string,
): FlagDef {
  const values = enumValues(shape[option]);
  return {
    flag,
    arg,
    option,
    read: oneOf(values),
    help: `${values.join(' | ')}: ${help}`,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
  };
}

/** A strategy constant (`strategyOptions`), its default from the strategies' own. */
function constant(flag: string, arg: string, option: keyof typeof S, help: string): FlagDef {
  return {
    flag,
    arg,
    option: `strategyOptions.${option}`,
    read: num,
    help,
    default: `${S[option]}`,
  };
}

/** A parameter of an iterative or adaptive threshold (read with `--threshold`). */
function param<K extends 'iterative' | 'adaptive'>(
  flag: string,
  arg: string,
  kind: K,
  field: keyof (typeof T)[K],
  help: string,
): FlagDef {
  return {
    flag,
    arg,
    option: `threshold.${String(field)}`,
    help: `${kind}: ${help}`,
    default: `${T[kind][field]}`,
  };
}

/** `--threshold` and its parameters, read together. */
export const THRESHOLD_PARAMS: readonly FlagDef[] = [
  param('t0', 'T', 'iterative', 't0', 'the threshold before the first step'),
  param('epsilon', 'E', 'iterative', 'epsilon', 'a step smaller than this converges'),
  param('batch-pages', 'N', 'iterative', 'batchPages', 'pages between two steps'),
  param('initial', 'T', 'adaptive', 'initial', 'the threshold at the start'),
  param('alpha', 'A', 'adaptive', 'alpha', 'factor of rule 1 (more pages than expected)'),
  param('beta', 'B', 'adaptive', 'beta', 'factor of rule 2 (...and few of them relevant)'),
  param('gamma', 'G', 'adaptive', 'gamma', 'factor of rule 3 (fewer pages than expected)'),
  param('mu', 'M', 'adaptive', 'mu', 'share of relevant pages below which rule 2 applies'),
  param(
    'expected-per-interval',
    'S',
    'adaptive',
    'expectedPerInterval',
    'pages expected per interval',
  ),
  param('interval-ms', 'T', 'adaptive', 'intervalMs', 'length of an interval'),
  param('min-threshold', 'X', 'adaptive', 'min', 'lowest threshold'),
  param('max-threshold', 'Y', 'adaptive', 'max', 'highest threshold'),
];

export const CRAWL_FLAGS: readonly FlagDef[] = [
  {
    flag: 'new-topic',
    option: 'newTopic',
    read: on(true),
    help: 'resume with a --topic that differs from the one the store was crawled with (refused without it)',
  },
  {
    flag: 'threshold',
    arg: 'R|iterative|adaptive',
    option: 'threshold',
    help: `keep pages with relevance >= R (default: the topic's, else ${DEFAULT_THRESHOLD}; 0 keeps every page: a plain crawler); iterative: DESIGN 1.2's convergent threshold; adaptive: DESIGN 1.5's rules 1-3 (docs/topics.md)`,
  },
  ...THRESHOLD_PARAMS,
  {
    flag: 'strategy',
    arg: 'NAME',
    option: 'strategy',
    read: oneOf(STRATEGIES),
    help: `${STRATEGIES.join(' | ')} (default best-first; bayes with --model bayes; docs/strategies.md)`,
  },
  constant('rank-buffer', 'N', 'rankBufferPages', 'pagerank: fetched pages between recomputations'),
  constant('damping', 'D', 'damping', 'pagerank: damping d, in (0, 1)'),
  {
    flag: 'model',
    arg: 'NAME',
    option: 'model',
    read: oneOf(MODELS),
    help: `${MODELS.join(' | ')}: what scores links (and pages, for vsm and tfidf); bayes: the naive Bayes link model (docs/bayes.md) (default: the topic's, else vsm)`,
  },
  {
    flag: 'model-file',
    arg: 'FILE',
    option: 'modelFile',
    read: text,
    help: 'link model from `focuscrawl train` (for --model bayes)',
  },
  {
    flag: 'page-model',
    arg: 'NAME',
    option: 'pageModel',
    read: oneOf(PAGE_MODELS),
    help: `${PAGE_MODELS.join(' | ')}: what judges pages under --model bayes (default: the topic's model, else vsm; bayes: threshold 0.5)`,
  },
  {
    flag: 'learn-every',
    arg: 'N',
    option: 'learnEvery',
    read: count,
    help: 'retrain the link model every N fetched pages from the links whose targets were judged, and re-score the frontier (default off)',
  },
  {
    flag: 'context-chars',
    arg: 'N',
    option: 'linkContextChars',
    read: whole,
    help: "characters of text on each side of a link read as its context (default: the model file's, else 80)",
  },
  {
    flag: 'adapt-topic',
    option: 'adaptTopic',
    read: on(true),
    help: 're-estimate the topic vector from kept pages as the crawl goes',
  },
  {
    flag: 'adapt-every',
    arg: 'N',
    option: 'adaptTopic.intervalPages',
    read: count,
    help: 'kept pages between re-estimations',
    default: `${DEFAULT_ADAPT_INTERVAL_PAGES}`,
  },
  {
    flag: 'max-drift',
    arg: 'D',
    option: 'adaptTopic.maxDrift',
    read: num,
    help: 'largest 1 - cos(original, adapted topic) allowed',
    default: `${ADAPT_DEFAULTS.maxDrift}`,
  },
  {
    flag: 'domain-diversity',
    arg: 'K',
    option: 'domainDiversity',
    read: count,
    help: 'any K consecutive fetches from K different domains; 1 turns it off',
    default: `${D.domainDiversity}`,
  },
  constant('width', 'N', 'width', 'fish/shark: irrelevant pages in a row a path may cross'),
  constant('decay', 'D', 'decay', 'shark: decay of the inherited score, in (0, 1)'),
  constant('anchor-weight', 'B', 'anchorWeight', 'shark: weight of the anchor against its context'),
  constant('inherited-weight', 'G', 'inheritedWeight', 'shark: weight of the inherited score'),
  constant('seed-val', 'V', 'seedVal', "tunnel: the seeds' Val"),
  constant(
    'tunnel-factor',
    'R',
    'tunnelFactor',
    'tunnel: Val factor below the threshold, in (0, 1)',
  ),
  constant('tunnel-steps', 'N', 'tunnelSteps', 'tunnel: times the factor may apply along a path'),
  constant(
    'explore-steps',
    'N',
    'exploreSteps',
    "best-first: discarded pages in a row whose links are still followed, behind kept pages' links (0: DESIGN 1.1's strict gate, a discarded page's links never followed)",
  ),
  constant(
    'sibling-window',
    'N',
    'siblingWindow',
    'best-first: a judged page lends its relevance to the links up to N places from its own on the page that linked it, in its directory (0: off)',
  ),
  constant(
    'sibling-decay',
    'D',
    'siblingDecay',
    'best-first: decay of that loan per place beyond the first',
  ),
  constant(
    'depth-cost',
    'C',
    'depthCost',
    'best-first: priority a link loses per link of depth of the page it was found on, in [0, 1] (0: off)',
  ),
  constant(
    'crowd-cost',
    'C',
    'crowdCost',
    'best-first: priority a link loses per tenfold of links beyond 100 on the page it was found on, in [0, 1] (0: off)',
  ),
  constant('queues', 'N', 'queues', 'multi-queue: number of queues'),
  {
    flag: 'max-pages',
    arg: 'N',
    option: 'maxPages',
    read: count,
    help: 'stop when the store holds N pages fetched: responses that ended a URL (kept, discarded, or an HTTP error on its last attempt), all runs; failed attempts tried again, redirects, robots refusals, unreachable hosts and failures without a response do not count',
  },
  {
    flag: 'priority-gap',
    arg: 'G|none',
    option: 'priorityGap',
    read: numOr('none'),
    help: "start a fetch only for URLs within G of the best priority waiting or being fetched, so that a busy host's better URLs are not passed by worse ones elsewhere (default 0 with --max-pages, where pages are the budget, unless --threshold 0 keeps every page; none otherwise)",
  },
  {
    flag: 'max-depth',
    arg: 'N',
    option: 'maxDepth',
    read: whole,
    help: 'do not queue links deeper than N (seeds: 0)',
  },
  {
    flag: 'duration',
    arg: 'D',
    option: 'durationMs',
    read: span,
    help: 'stop this run after D (90s, 15m, 2h, 1h30m)',
  },
  choice('scope', 'MODE', 'scope', 'hosts the seeds admit', D.scope),
  {
    flag: 'include',
    arg: 'REGEX',
    option: 'include',
    read: texts,
    multiple: true,
    help: 'URLs must match one of these (repeatable)',
  },
  {
    flag: 'exclude',
    arg: 'REGEX',
    option: 'exclude',
    read: texts,
    multiple: true,
    help: 'URLs matching one of these are skipped (repeatable)',
  },
  {
    flag: 'site-model',
    arg: 'FILE|learn',
    option: 'siteModel',
    read: text,
    help: 'follow links on its hosts only where a valid pattern of this site model takes them (focuscrawl site-model learn); learn: learn one first from the seeds',
  },
  {
    flag: 'extract',
    arg: 'FILE',
    option: 'extract',
    read: text,
    help: 'extract fields from kept pages by these rules (JSON or YAML; docs/extract.md) into the store',
  },
  {
    flag: 'relearn',
    option: 'relearn',
    read: on(true),
    help: "with --site-model: when the site's links stop matching the model (50 unknown), learn it again from a fresh sample",
  },
  {
    flag: 'max-frontier',
    arg: 'N',
    option: 'maxFrontier',
    read: count,
    help: 'keep only the best N waiting URLs',
  },
  {
    flag: 'host-retry-ms',
    arg: 'N',
    option: 'hostRetryMs',
    read: whole,
    help: "an unreachable host's URLs wait; it is probed again after N ms, doubling after each failed probe",
    default: `${D.hostRetryMs}`,
  },
  {
    flag: 'host-dead-after-ms',
    arg: 'N',
    option: 'hostDeadAfterMs',
    read: whole,
    help: 'a host unreachable for N ms is dead: its URLs fail together, unsent (0: at the first failure)',
    default: `${D.hostDeadAfterMs}`,
  },
  {
    flag: 'host-timeouts',
    arg: 'N',
    option: 'hostTimeouts',
    read: count,
    help: 'timeouts in a row that make a host unreachable',
    default: `${D.hostTimeouts}`,
  },
  {
    flag: 'max-attempts',
    arg: 'N',
    option: 'maxAttempts',
    read: count,
    help: 'attempts a URL gets over all runs: a transient failure (DNS, refused or reset connection, timeout, 5xx, 429, a host given up) goes back to waiting until its last attempt (1: no retry)',
    default: `${D.maxAttempts}`,
  },
  {
    flag: 'retry-backoff-ms',
    arg: 'N',
    option: 'retryBackoffMs',
    read: whole,
    help: 'wait before the second attempt at a failed URL, twice that before the third, …; a longer Retry-After of a 429 or 503 wins',
    default: `${D.retryBackoffMs}`,
  },
  {
    flag: 'retry-errors',
    arg: 'WHICH',
    option: 'retryErrors',
    read: text,
    help: 'first put URLs in error back to waiting, their attempts reset: all, transient, or a comma list of error codes, statuses and classes (FC_ERR_DNS,404,5xx)',
  },
  {
    flag: 'stop-when-failing-ms',
    arg: 'N',
    option: 'failingStopMs',
    read: whole,
    help: 'stop when every fetch of the last N ms failed (3 at least), naming the commonest cause; the URLs stay to be tried again (0: never)',
    default: `${D.failingStopMs}`,
  },
  choice('store-bodies', 'WHICH', 'storeBodies', 'page bodies saved under pages/', D.storeBodies),
  choice(
    'full-text',
    'WHICH',
    'fullText',
    "index kept pages' text for focuscrawl search",
    D.fullText,
  ),
  {
    flag: 'parse-threads',
    arg: 'N|auto',
    option: 'parseThreads',
    read: numOr('auto'),
    help: 'threads that decode, parse and fingerprint pages beside the crawl thread (auto: one per core past two, at most 4; 0: none)',
    default: `${D.parseThreads}`,
  },
  {
    flag: 'no-rank',
    option: 'rankOnFinish',
    read: on(false),
    help: 'do not compute PageRank and P when the run ends',
  },
  choice('sitemaps', 'WHOSE', 'sitemaps', 'sitemaps read for URLs', D.sitemaps),
  {
    flag: 'no-dedup',
    option: 'dedup',
    read: on(false),
    help: 'keep duplicates of kept pages as pages of their own',
  },
  {
    flag: 'dedup-distance',
    arg: 'N',
    option: 'dedupMaxDistance',
    read: whole,
    help: 'near duplicates: SimHashes at most N bits apart (0-8)',
    default: `${D.dedupMaxDistance}`,
  },
  {
    flag: 'no-learn-copy-keys',
    option: 'learnCopyKeys',
    read: on(false),
    help: 'do not learn the query keys (session ids) that only make copies of pages',
  },
  {
    flag: 'progress-ms',
    arg: 'N',
    option: 'progressIntervalMs',
    read: count,
    help: 'progress interval',
    default: `${D.progressIntervalMs}`,
  },
];
