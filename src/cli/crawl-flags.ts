// The crawl options as command-line flags, shared by `crawl` and `compare`: one table
// (crawl-flag-table.ts) gives their spec, their help text and the options they build.
import type { CrawlOptionsInput } from '../crawl/index.js';
import { CliUsageError } from '../errors/index.js';
import { type Parsed, str, strs } from './args.js';
import { CRAWL_FLAGS, THRESHOLD_PARAMS } from './crawl-flag-table.js';
import { fetcherOptionsFromFlags } from './fetch-flags.js';
import { checkCrawlFlags } from './flag-checks.js';
import { applyFlags, flagSpecOf, helpOf, num } from './flags.js';
import { readSeeds } from './seeds.js';

export { CRAWL_FLAGS };

/** Help lines of the crawl option flags (topic, seeds and store excepted). */
export const crawlFlagsHelp = helpOf(CRAWL_FLAGS);

/** The crawl option flags (topic, seeds, store and output flags excepted). */
export const crawlFlags = flagSpecOf(CRAWL_FLAGS);

function required(p: Parsed, name: string, cmd: string): string {
  const v = str(p, name);
  if (v === undefined) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${name} is required (see focuscrawl ${cmd} --help)`,
    );
  }
  return v;
}

/** `--threshold` with its parameter flags (validated by the crawl, errors naming the field). */
function thresholdFromFlags(p: Parsed, cmd: string): CrawlOptionsInput['threshold'] {
  const raw = str(p, 'threshold');
  const params: Record<string, number> = {};
  let named: string | undefined;
  for (const d of THRESHOLD_PARAMS) {
    const v = num(p, d.flag, cmd) as number | undefined;
    if (v === undefined) continue;
    params[d.option.slice('threshold.'.length)] = v;
    named ??= d.flag;
  }
  if (raw === undefined) {
    if (named === undefined) return undefined;
    throw new CliUsageError(
      `focuscrawl ${cmd}: threshold parameters need --threshold iterative or --threshold adaptive`,
    );
  }
  if (raw === 'iterative' || raw === 'adaptive') {
    return named === undefined ? raw : { kind: raw, ...params };
  }
  const t = Number(raw);
  if (raw.trim() === '' || !(t >= 0 && t <= 1)) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --threshold must be a number in [0, 1], iterative or adaptive, got "${raw}"`,
    );
  }
  if (named !== undefined) {
    throw new CliUsageError(
      `focuscrawl ${cmd}: --${named} applies to --threshold iterative or adaptive, not to a fixed threshold`,
    );
  }
  return t;
}

/**
 * The crawl options the flags give, all but the store: `crawl` adds `--store`,
 * `compare` runs them once per run spec. `cmd` names the command in errors.
 */
export function crawlRunOptionsFromFlags(
  p: Parsed,
  cmd: string,
  topic?: CrawlOptionsInput['topic'],
): Omit<CrawlOptionsInput, 'store'> {
  const threshold = thresholdFromFlags(p, cmd);
  const o: Record<string, unknown> = {
    topic: topic ?? required(p, 'topic', cmd),
    seeds: readSeeds([...strs(p, 'seeds'), ...p.positionals], cmd),
    fetcher: fetcherOptionsFromFlags(p, cmd),
  };
  if (threshold !== undefined) o['threshold'] = threshold;
  applyFlags(CRAWL_FLAGS, p, cmd, o);
  checkCrawlFlags(p, o, cmd);
  return o as Omit<CrawlOptionsInput, 'store'>;
}

/** Builds `crawl`'s options from its flags (the topic: `topic`, else `--topic`'s file); exported for tests. */
export function crawlOptionsFromFlags(
  p: Parsed,
  topic?: CrawlOptionsInput['topic'],
): CrawlOptionsInput {
  return { store: required(p, 'store', 'crawl'), ...crawlRunOptionsFromFlags(p, 'crawl', topic) };
}
