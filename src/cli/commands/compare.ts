import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CrawlOptionsInput } from '../../crawl/index.js';
import { CliUsageError, InvalidOptionError } from '../../errors/index.js';
import {
  compareCrawls,
  formatComparison,
  mergeOptions,
  parseRunSpec,
  type RunSpec,
} from '../../evaluate/index.js';
import { readLabelsFile } from '../../labels/index.js';
import {
  bool,
  type FlagSpec,
  int,
  joinNegativeValues,
  type Parsed,
  parseErrorText,
  str,
  strs,
} from '../args.js';
import { crawlFlags, crawlFlagsHelp, crawlRunOptionsFromFlags } from '../crawl-flags.js';
import { fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { createProgressReporter } from '../progress.js';
import { EXIT_INTERRUPTED, stopOnSignals } from '../run-output.js';
import { withFlag } from '../system-errors.js';
import { budgetsFlag } from './evaluate.js';

const HELP = `Usage: focuscrawl compare --out-dir DIR --topic FILE [--seeds FILE|URL...] --labels FILE
                          [--topic-id ID] --max-pages N --runs SPEC... [crawl options]

Runs one crawl per run spec, each into DIR/<name>/ with the same topic, seeds and
page budget, evaluates every run against the labels (see focuscrawl evaluate) and
writes DIR/compare.html: harvest rate and target recall over the crawl, one line
per run, and a table of the figures at the budgets. Prints the table. Running the
same command again skips the runs that are finished and resumes the others.

  --out-dir DIR          the comparison's folder (created when missing)
  --topic FILE           topic file, shared by every run
  --seeds FILE|URL...    seed URLs or files of URLs (repeatable; default: the topic's seeds)
  --labels FILE          ground truth: the test web's labels JSON, or one URL per line
  --topic-id ID          the labelled topic, for labels with several topics
  --max-pages N          the budget of every run, in fetches
  --runs SPEC...         runs (repeatable; several may follow one --runs):
                           bfs | best-first | ...            a strategy, also the run's name
                           NAME:key=value,key=value          crawl options, e.g.
                             tunnel:strategy=tunnel
                             bf-tfidf:strategy=best-first,model=tfidf,threshold=iterative
                           keys: crawl options (strategy, model, threshold, max-depth, ...),
                           a strategy constant (width, decay, ...), or fetcher.KEY
  --budgets N,N,...      budgets to compare at besides the end (default: 1000,5000,20000
                         below --max-pages)
  --title T              compare.html's title
  --json                 print the comparison as JSON instead of the table
  --quiet                no progress lines

Crawl options shared by every run (a run spec overrides them), as for focuscrawl crawl:
${crawlFlagsHelp}
  --set key=value,...          any crawl option for every run, as in a run spec

${fetchFlagsHelp}

See docs/evaluate.md.`;

/** Every flag of `compare`: the crawl and fetcher option flags, and its own. */
export const compareCommandFlags: FlagSpec = {
  ...fetchFlags,
  ...crawlFlags,
  'out-dir': { type: 'string' },
  topic: { type: 'string' },
  seeds: { type: 'string', multiple: true },
  labels: { type: 'string' },
  'topic-id': { type: 'string' },
  runs: { type: 'string', multiple: true },
  budgets: { type: 'string' },
  title: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  set: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
};

/** Flags after which bare arguments are more values of the same flag. */
const LISTS = new Set(['seeds', 'runs']);

/**
 * Strict flag parsing, where bare arguments belong to the last `--seeds` or `--runs`
 * before them: `--runs bfs best-first --seeds a.txt b.txt`.
 */
export function parseCompareFlags(argv: string[]): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv, compareCommandFlags),
      options: compareCommandFlags,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (e) {
    const msg = parseErrorText('compare', e, compareCommandFlags);
    throw new CliUsageError(`focuscrawl compare: ${msg}`, { cause: e });
  }
  const values = parsed.values as Parsed['values'];
  // The lists in command-line order, from the tokens.
  const lists: Record<string, string[]> = { seeds: [], runs: [] };
  let list: string | null = null;
  for (const t of parsed.tokens ?? []) {
    if (t.kind === 'option') {
      list = LISTS.has(t.name) ? t.name : null;
      if (list !== null && t.value !== undefined) lists[list]?.push(t.value);
    } else if (t.kind === 'positional') {
      if (list === null) {
        throw new CliUsageError(
          `focuscrawl compare: unexpected argument "${t.value}" (seeds go after --seeds, run specs after --runs)`,
        );
      }
      lists[list]?.push(t.value);
    }
  }
  for (const name of LISTS) {
    const items = lists[name] ?? [];
    if (items.length > 0) values[name] = items;
  }
  return { values, positionals: [] };
}

function required(p: Parsed, name: string): string {
  const v = str(p, name);
  if (v === undefined) {
    throw new CliUsageError(
      `focuscrawl compare: --${name} is required (see focuscrawl compare --help)`,
    );
  }
  return v;
}

/** The crawl options every run shares, from the flags (as `crawl` reads them). */
export function sharedOptionsFromFlags(p: Parsed): Omit<CrawlOptionsInput, 'store' | 'maxPages'> {
  const { maxPages: _, ...o } = crawlRunOptionsFromFlags(p, 'compare') as Record<string, unknown>;
  // --set key=value,…: parsed as the options of a run spec.
  for (const s of strs(p, 'set')) {
    let spec: RunSpec;
    try {
      spec = parseRunSpec(`set:${s}`);
    } catch (e) {
      throw new CliUsageError(`focuscrawl compare: --set ${s}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    Object.assign(o, mergeOptions(o, spec.options));
  }
  return o as Omit<CrawlOptionsInput, 'store' | 'maxPages'>;
}

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const p = parseCompareFlags(argv);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const outDir = required(p, 'out-dir');
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    throw new CliUsageError(`focuscrawl compare: --out-dir ${outDir} is a file; give a folder`);
  }
  const maxPages = int(p, 'max-pages', 'compare');
  if (maxPages === undefined || maxPages === 0) {
    throw new CliUsageError(
      `focuscrawl compare: --max-pages ${maxPages === 0 ? 'must be at least 1' : 'is required: the budget of every run'}`,
    );
  }
  const specs = strs(p, 'runs');
  if (specs.length === 0) {
    throw new CliUsageError('focuscrawl compare: --runs is required: at least one run spec');
  }
  let runs: RunSpec[];
  try {
    runs = specs.map(parseRunSpec);
  } catch (e) {
    if (e instanceof InvalidOptionError) {
      throw new CliUsageError(`focuscrawl compare: ${e.message}`, { cause: e });
    }
    throw e;
  }
  const shared = sharedOptionsFromFlags(p);
  const budgets = budgetsFlag(p, 'compare');
  const title = str(p, 'title');
  const labels = readLabelsFile(required(p, 'labels'), { topic: str(p, 'topic-id') });

  const quiet = bool(p, 'quiet');
  const controller = new AbortController();
  const signals = stopOnSignals(
    controller,
    io,
    'stopping: committing what was fetched (Ctrl-C again to quit at once)',
  );
  try {
    const result = await withFlag('--out-dir', outDir, () =>
      compareCrawls({
        outDir,
        shared,
        maxPages,
        runs,
        labels,
        signal: controller.signal,
        ...(budgets ? { budgets } : {}),
        ...(title !== undefined ? { title } : {}),
        onCrawl: (run, spec, i) => {
          io.err(`── run ${i + 1}/${runs.length}: ${spec.name} (${spec.spec})`);
          const reporter = createProgressReporter({
            mode: quiet ? 'quiet' : 'lines',
            write: (s) => io.err(s.replace(/\n$/, '')),
          });
          run.on('progress', (x) => reporter.progress(x));
          run.on('warning', (x) => reporter.warning(x));
        },
        onRunEnd: ({ spec, index, action, summary }) => {
          if (summary === null) {
            io.err(
              `── run ${index + 1}/${runs.length}: ${spec.name}: finished earlier, not crawled again`,
            );
            return;
          }
          io.err(
            `   ${spec.name} (${action}): ${summary.stopReason}, ${summary.run.fetched} fetched in ${(summary.elapsedMs / 1000).toFixed(1)} s (${summary.pagesPerSec.toFixed(0)} pages/s)`,
          );
        },
      }),
    );
    if (result.stopped || result.comparison === null) {
      io.err('compare stopped; run the same command again to resume');
      return EXIT_INTERRUPTED;
    }
    if (bool(p, 'json')) io.out(JSON.stringify(result.comparison, null, 2));
    else io.out(formatComparison(result.comparison));
    if (result.report) {
      const line = `Comparison written to ${result.report.file} (${(result.report.bytes / 1024).toFixed(1)} KiB)`;
      if (bool(p, 'json')) io.err(line);
      else io.out(`\n${line}`);
    }
    return 0;
  } finally {
    signals.unlisten();
  }
}
