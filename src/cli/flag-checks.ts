// Checks on combinations of crawl flags: a flag that another one makes idle, or that
// needs one not given, is refused with a message naming both (rather than accepted and
// ignored, or left to fail later under the option's internal name), and a value the
// crawl's schema refuses is refused naming its flag. Rules are tables: what each
// strategy constant belongs to, what each flag needs or cannot go with.
import { crawlOptionsSchema, type StrategyName } from '../crawl/options.js';
import { CliUsageError, isFocusCrawlError } from '../errors/index.js';
import type { DEFAULT_STRATEGY_OPTIONS } from '../frontier/names.js';
import {
  parseThresholdSpec,
  THRESHOLD_DEFAULTS,
  type ThresholdOverrides,
} from '../relevance/threshold-spec.js';
import { type Parsed, str } from './args.js';
import { CRAWL_FLAGS, THRESHOLD_PARAMS } from './crawl-flag-table.js';
import { flagsByOption, refuseSchemaIssues } from './schema-issues.js';

type ConstantName = keyof typeof DEFAULT_STRATEGY_OPTIONS;

/**
 * The strategies that read each strategy constant (frontier/strategies): a constant
 * given to another strategy would change nothing. Multi-queue is best-first over
 * several queues, so it reads best-first's constants too.
 */
export const CONSTANT_STRATEGIES: Readonly<Record<ConstantName, readonly StrategyName[]>> = {
  width: ['fish', 'shark'],
  decay: ['shark'],
  anchorWeight: ['shark'],
  inheritedWeight: ['shark'],
  seedVal: ['tunnel'],
  tunnelFactor: ['tunnel'],
  tunnelSteps: ['tunnel'],
  exploreSteps: ['best-first', 'multi-queue'],
  siblingWindow: ['best-first', 'multi-queue'],
  siblingDecay: ['best-first', 'multi-queue'],
  depthCost: ['best-first', 'multi-queue'],
  crowdCost: ['best-first', 'multi-queue'],
  queues: ['multi-queue'],
  rankBufferPages: ['pagerank'],
  damping: ['pagerank'],
};

/** A flag given: a switch on, or a flag with a value (one of `is`, when listed). */
export interface Given {
  flag: string;
  is?: readonly string[];
  /** A value to show it with, for a flag with a value and no `is` (`companionsOf`). */
  example?: string;
}

/** A rule on a flag: what it needs beside it, or what it does not go with. */
export interface FlagRule {
  when: Given;
  /** One of these must be given too. */
  needs?: readonly Given[];
  /** This one must not be given too. */
  conflicts?: Given;
  /** Why, in the message. */
  why: string;
}

/** The rules on crawl flags (strategy constants apart: see `CONSTANT_STRATEGIES`). */
export const FLAG_RULES: readonly FlagRule[] = [
  {
    when: { flag: 'adapt-every' },
    needs: [{ flag: 'adapt-topic' }],
    why: 'it sets how often the topic vector is re-estimated, which only --adapt-topic does',
  },
  {
    when: { flag: 'max-drift' },
    needs: [{ flag: 'adapt-topic' }],
    why: 'it bounds how far the topic vector may move, which only --adapt-topic does',
  },
  {
    when: { flag: 'relearn' },
    needs: [{ flag: 'site-model', example: 'learn' }],
    why: 'it learns the site model again when the site changes',
  },
  {
    when: { flag: 'learn-every' },
    needs: [{ flag: 'model', is: ['bayes'] }],
    why: 'it retrains the naive Bayes link model',
  },
  {
    when: { flag: 'strategy', is: ['bayes'] },
    needs: [{ flag: 'model', is: ['bayes'] }],
    why: "its priority is the link model's Pr(+ | context); without the link model it would be the context's keyword score alone",
  },
  {
    when: { flag: 'model', is: ['bayes'] },
    needs: [
      { flag: 'model-file', example: 'model.json' },
      { flag: 'learn-every', example: '100' },
    ],
    why: 'the link model is read from a file of focuscrawl train, or learnt as the crawl goes',
  },
  {
    when: { flag: 'page-model', is: ['bayes'] },
    needs: [{ flag: 'model-file', example: 'model.json' }],
    why: "pages are judged by the model file's classifier",
  },
  {
    when: { flag: 'model-file' },
    needs: [
      { flag: 'model', is: ['bayes'] },
      { flag: 'page-model', is: ['bayes'] },
    ],
    why: 'only the naive Bayes models read it',
  },
  {
    when: { flag: 'page-model', is: ['vsm', 'tfidf'] },
    conflicts: { flag: 'model', is: ['vsm', 'tfidf'] },
    why: '--page-model chooses what judges pages under --model bayes; a keyword model judges pages itself',
  },
  {
    when: { flag: 'dedup-distance' },
    conflicts: { flag: 'no-dedup' },
    why: 'without duplicate detection no distance is measured',
  },
  {
    when: { flag: 'no-learn-copy-keys' },
    conflicts: { flag: 'no-dedup' },
    why: 'copies are told by duplicate detection: without it no key is learnt',
  },
  {
    when: { flag: 'sibling-decay' },
    conflicts: { flag: 'sibling-window', is: ['0'] },
    why: 'with no window nothing is lent, so nothing decays',
  },
  {
    when: { flag: 'host-retry-ms' },
    conflicts: { flag: 'host-dead-after-ms', is: ['0'] },
    why: 'a host is then dead at its first failure and never probed again',
  },
];

/** `0.50` and `.5` alike: a number's text compared as the number. */
function sameValue(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  return a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && x === Number(b);
}

/** The value given for `flag` (`true` for a switch), or undefined. */
function givenValue(p: Parsed, flag: string): string | true | undefined {
  const v = p.values[flag];
  if (v === true) return true;
  return str(p, flag);
}

function isGiven(p: Parsed, g: Given): boolean {
  const v = givenValue(p, g.flag);
  if (v === undefined) return false;
  if (g.is === undefined) return true;
  return v !== true && g.is.some((x) => sameValue(v, x));
}

/** `--model bayes` as given, or as the rule names it (`--model-file`, `--model vsm|tfidf`). */
function shown(p: Parsed, g: Given): string {
  const v = givenValue(p, g.flag);
  if (typeof v === 'string' && isGiven(p, g)) return `--${g.flag} ${v}`;
  return g.is === undefined ? `--${g.flag}` : `--${g.flag} ${g.is.join('|')}`;
}

/** The first rule of `rules` the flags break, as a message; undefined when none. */
export function brokenRule(p: Parsed, rules: readonly FlagRule[] = FLAG_RULES): string | undefined {
  for (const r of rules) {
    if (!isGiven(p, r.when)) continue;
    if (r.needs !== undefined && !r.needs.some((g) => isGiven(p, g))) {
      const needs = r.needs.map((g) => shown(p, g)).join(' or ');
      return `${shown(p, r.when)} needs ${needs}: ${r.why}`;
    }
    if (r.conflicts !== undefined && isGiven(p, r.conflicts)) {
      return `${shown(p, r.when)} does not go with ${shown(p, r.conflicts)}: ${r.why}`;
    }
  }
  return undefined;
}

/** The strategy the crawl will run: `--strategy`, else bayes under `--model bayes`, else best-first. */
export function strategyOf(p: Parsed): string {
  return str(p, 'strategy') ?? (str(p, 'model') === 'bayes' ? 'bayes' : 'best-first');
}

/** A strategy constant given to a strategy that does not read it, as a message; undefined when none. */
export function idleConstant(p: Parsed): string | undefined {
  const strategy = strategyOf(p);
  for (const d of CRAWL_FLAGS) {
    if (!d.option.startsWith('strategyOptions.') || givenValue(p, d.flag) === undefined) continue;
    const owners = CONSTANT_STRATEGIES[d.option.slice('strategyOptions.'.length) as ConstantName];
    if (owners.includes(strategy as StrategyName)) continue;
    const running =
      str(p, 'strategy') !== undefined
        ? `--strategy ${strategy}`
        : `the default strategy, ${strategy} (no --strategy)`;
    return `--${d.flag} is a constant of --strategy ${owners.join(' or ')}: it does nothing under ${running}`;
  }
  return undefined;
}

/**
 * Flags that, beside the flags `values` (a switch: true), satisfy what the rules ask of
 * them: `--width` → `--strategy fish`, `--model-file` → `--model bayes`, `--relearn` →
 * `--site-model learn`. For examples and tests that give one flag at a time.
 */
export function companionsOf(
  values: Readonly<Record<string, string | true>>,
): Record<string, string | true> {
  const extra: Record<string, string | true> = {};
  for (let round = 0; round < 8; round++) {
    const p: Parsed = { values: { ...values, ...extra }, positionals: [] };
    const rule = FLAG_RULES.find(
      (r) => isGiven(p, r.when) && r.needs !== undefined && !r.needs.some((g) => isGiven(p, g)),
    );
    const need = rule?.needs?.[0];
    if (need !== undefined) {
      extra[need.flag] = need.is?.[0] ?? need.example ?? true;
      continue;
    }
    const constant = CRAWL_FLAGS.find(
      (d) =>
        d.option.startsWith('strategyOptions.') &&
        givenValue(p, d.flag) !== undefined &&
        !CONSTANT_STRATEGIES[d.option.slice('strategyOptions.'.length) as ConstantName].includes(
          strategyOf(p) as StrategyName,
        ),
    );
    if (constant === undefined) break;
    const owners =
      CONSTANT_STRATEGIES[constant.option.slice('strategyOptions.'.length) as ConstantName];
    extra['strategy'] = owners[0] as string;
  }
  return extra;
}

/** The threshold parameters' flags by field (`min` → `min-threshold`). */
const PARAM_FLAG = new Map(
  THRESHOLD_PARAMS.map((d) => [d.option.slice('threshold.'.length), d.flag]),
);

/** The threshold kind each parameter belongs to (`t0` → iterative, `alpha` → adaptive). */
function paramKind(field: string): 'iterative' | 'adaptive' {
  return field in THRESHOLD_DEFAULTS.iterative ? 'iterative' : 'adaptive';
}

/**
 * Threshold parameters of the other kind (`--threshold iterative --alpha 2`), and
 * parameter values the threshold refuses, as messages naming the flags.
 */
export function thresholdProblem(p: Parsed): string | undefined {
  const kind = str(p, 'threshold');
  if (kind !== 'iterative' && kind !== 'adaptive') return undefined;
  const params: ThresholdOverrides = {};
  for (const d of THRESHOLD_PARAMS) {
    const v = str(p, d.flag);
    if (v === undefined) continue;
    const field = d.option.slice('threshold.'.length);
    if (paramKind(field) !== kind) {
      return `--${d.flag} applies to --threshold ${paramKind(field)}, not to --threshold ${kind}`;
    }
    (params as Record<string, string>)[field] = v;
  }
  try {
    parseThresholdSpec(kind, params);
  } catch (e) {
    if (!isFocusCrawlError(e)) throw e;
    // `threshold.max: expected a number ≥ min (0.01), got 0`: said with the flags.
    const m = /^threshold\.(\w+): (?:expected )?(.*)$/.exec(e.message);
    const flag = m === null ? undefined : PARAM_FLAG.get(m[1] as string);
    if (flag === undefined || m === null) throw e;
    const why = (m[2] as string).replace(/\b[a-zA-Z]\w*\b/g, (w) =>
      PARAM_FLAG.has(w) ? `--${PARAM_FLAG.get(w)}` : w,
    );
    return `--${flag} must be ${why}`;
  }
  return undefined;
}

/** The crawl options by the flag that sets them. */
const FLAG_OF = flagsByOption(CRAWL_FLAGS);

/**
 * Refuses what the crawl flags `p` (which built the options `o`) say that makes no
 * sense: a value the crawl's schema refuses (naming its flag), and for `crawl` a flag
 * that needs another or is idle beside it (`FLAG_RULES`), a strategy constant of
 * another strategy (`CONSTANT_STRATEGIES`), a threshold parameter of the other kind.
 * `compare` is spared the combinations: its run specs set strategies, models and
 * thresholds run by run, over the flags.
 */
export function checkCrawlFlags(p: Parsed, o: Record<string, unknown>, cmd: string): void {
  const { fetcher: _, ...crawlOnly } = o;
  refuseSchemaIssues(crawlOptionsSchema, { ...crawlOnly, store: '-' }, FLAG_OF, cmd);
  if (cmd === 'compare') return;
  const problem = thresholdProblem(p) ?? brokenRule(p) ?? idleConstant(p);
  if (problem !== undefined) throw new CliUsageError(`focuscrawl ${cmd}: ${problem}`);
}
