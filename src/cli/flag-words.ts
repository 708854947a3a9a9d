// Messages in the command line's words: the library's errors name options
// (`allowPrivateAddresses`, `fetcher.perHostConcurrency`, `modelFile`), a user types
// flags (`--allow-private`, `--per-host-concurrency`, `--model-file`). The flag tables
// say which flag sets which option; an option name in a message becomes its flag.
import type { FlagDef } from './flags.js';

/** Options set by flags outside the crawl and fetcher tables (watch, rank, …). */
const OTHER_FLAGS: Readonly<Record<string, string>> = {
  discoveryShare: 'discovery-share',
  planIntervalMs: 'plan-interval',
  revisitConcurrency: 'revisit-concurrency',
  keepVersions: 'keep-versions',
  weightBy: 'revisit-weight',
  maxIterations: 'max-iterations',
  topHosts: 'top-hosts',
  topPages: 'top-pages',
  scoreWeight: 'score-weight',
  fullText: 'full-text',
  logFile: 'log-file',
  logLevel: 'log-level',
};

/** Option path → flag, from flag tables (`prefix`: the path of the options they set). */
export function flagNames(
  tables: readonly { defs: readonly FlagDef[]; prefix?: string }[],
): Map<string, string> {
  const m = new Map<string, string>(Object.entries(OTHER_FLAGS));
  for (const { defs, prefix = '' } of tables) {
    for (const d of defs) {
      const path = prefix + d.option;
      m.set(path, d.flag);
      // `strategyOptions.width` and `fetcher.maxBytes` are also named by their last part.
      const last = path.slice(path.lastIndexOf('.') + 1);
      if (last !== path && /[A-Z]/.test(last) && !m.has(last)) m.set(last, d.flag);
    }
  }
  return m;
}

/**
 * Names that read as options: camelCase words (`modelFile`) and dotted paths
 * (`fetcher.maxBytes`). Plain words (`topic`, `scope`, `resolve`) are left alone:
 * they are also the message's own words; so are quoted values (`got "maxPages"`).
 */
const NAME =
  /(?<![\w.\-/:"'])([a-z][a-zA-Z0-9]*(?:\.[a-z][a-zA-Z0-9]*)+|[a-z]+[A-Z][a-zA-Z0-9]*)(?![\w/-]|\.\w)/g;

/** Whether `message` has a word that may be an option's name (so the tables are worth loading). */
export function mayNameOptions(message: string): boolean {
  return (
    new RegExp(NAME.source).test(message) ||
    new RegExp(ITEM.source).test(message) ||
    /\bwith resolve\b/.test(message)
  );
}

/** An item of a list option (`include[0]`, `fetcher.resolve[1]`): the list's flag. */
const ITEM = /(?<![\w.\-/:"'])([a-z][a-zA-Z0-9]*(?:\.[a-z][a-zA-Z0-9]*)*)\[\d+\]/g;

/**
 * `message` with every option name of `flags` (path → flag) replaced by its flag:
 * `set allowPrivateAddresses, or map the host with resolve` → `set --allow-private,
 * or map the host with --resolve`. A flag that would then follow itself in brackets
 * (`relearn (--relearn)`) is said once.
 */
export function inFlagWords(message: string, flags: ReadonlyMap<string, string>): string {
  const flagOf = (name: string) => flags.get(name) ?? flags.get(name.replace(/^fetcher\./, ''));
  let out = message.replace(ITEM, (item: string, name: string) => {
    const flag = flagOf(name);
    return flag === undefined ? item : `--${flag}`;
  });
  out = out.replace(NAME, (name: string) => {
    const flag = flagOf(name);
    return flag === undefined ? name : `--${flag}`;
  });
  out = out.replace(/\bmap the host with resolve\b/g, 'map the host with --resolve');
  return out.replace(/(--[a-z][\w-]*) \(\1\)/g, '$1');
}

/** Option path → flag for every flag of `crawl`, `watch` and the fetching commands. */
export async function cliFlagNames(): Promise<Map<string, string>> {
  const [{ CRAWL_FLAGS, THRESHOLD_PARAMS }, { FETCH_FLAGS }] = await Promise.all([
    import('./crawl-flag-table.js'),
    import('./fetch-flags.js'),
  ]);
  return flagNames([
    { defs: CRAWL_FLAGS },
    { defs: THRESHOLD_PARAMS },
    { defs: FETCH_FLAGS, prefix: 'fetcher.' },
  ]);
}
