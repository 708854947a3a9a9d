// What a long-running command (crawl, watch) shows while it runs, and how it stops:
// a progress display (or one JSON object per event with --json-log, or warnings only
// with --quiet) filtered by the log level, a log file, the run's fetch statistics,
// and Ctrl-C / SIGTERM: the first stops gracefully, the second at once.
import type { Parsed } from './args.js';
import type { Io } from './index.js';
import { logSettingsOf, openLogFile } from './log.js';
import {
  createProgressReporter,
  type ProgressBudget,
  type ProgressReporter,
  shows,
} from './progress.js';
import { type FetchStats, FetchTally } from './run-stats.js';

export { runOutputFlags, runOutputFlagsHelp } from './log.js';

export interface RunOutput {
  /** --json-log: events go to stdout as JSON lines. */
  json: boolean;
  /** Give it the run's events: it shows them, logs them and counts the pages. */
  reporter: ProgressReporter;
  /** The fetch statistics of the page events so far (by status, by error, failing hosts). */
  stats(): FetchStats;
  /** Appends `summary` (the text printed at the end) to the log file, and closes it. */
  close(summary?: string): void;
}

const positive = (x: unknown) => (typeof x === 'number' && x > 0 ? x : undefined);

/**
 * The output of a run of `cmd` from its flags (`--log-level`, `-v`, `-q`, `--log-file`,
 * `--json-log`, `--progress-every`, checked here) and its limits (`maxPages`,
 * `durationMs`: shown as a percentage with an ETA).
 */
export function runOutput(
  p: Parsed,
  io: Io,
  limits: { maxPages?: unknown; durationMs?: unknown } = {},
  cmd = 'crawl',
): RunOutput {
  const log = logSettingsOf(p, cmd);
  const { json, level, lineEveryMs } = log;
  const budget: ProgressBudget = {};
  const maxPages = positive(limits.maxPages);
  const durationMs = positive(limits.durationMs);
  if (maxPages !== undefined) budget.maxPages = Math.floor(maxPages);
  if (durationMs !== undefined) budget.durationMs = durationMs;
  const mode = json ? 'json' : log.quiet ? 'quiet' : process.stderr.isTTY ? 'bar' : 'lines';
  const write = (s: string) => {
    if (json) io.out(s);
    else process.stderr.write(s);
  };
  const screen = createProgressReporter({
    mode,
    write,
    level,
    budget,
    lineEveryMs,
    ...(process.stderr.columns ? { columns: () => process.stderr.columns } : {}),
  });
  const file = log.file === undefined ? null : openLogFile(log.file, cmd);
  const logged = file
    ? createProgressReporter({
        mode: json ? 'json' : 'lines',
        write: file.write,
        level,
        budget,
        lineEveryMs,
        endLine: true,
      })
    : null;
  const tally = new FetchTally();
  const reporter: ProgressReporter = {
    progress(x) {
      screen.progress(x);
      logged?.progress(x);
    },
    page(x) {
      // A page event tells its attempt only when it failed: no count of later attempts here.
      const { url, state, status, error, retryAt, fetchMs } = x;
      tally.add({ url, state, status, error, retryAt: retryAt ?? null, fetchMs });
      screen.page(x);
      logged?.page(x);
    },
    warning(x) {
      screen.warning(x);
      logged?.warning(x);
    },
    end(x) {
      screen.end(x);
      logged?.end(x);
    },
  };
  return {
    json,
    reporter,
    stats: () => tally.result(),
    close(summary) {
      if (file === null) return;
      if (summary !== undefined && !json && shows(level, 'info')) {
        const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
        file.write(
          `${summary
            .split('\n')
            .map((l) => `${at} ${l}`)
            .join('\n')}\n`,
        );
      }
      file.close();
    },
  };
}

/** The exit status of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT's number). */
export const EXIT_INTERRUPTED = 130;

/** How a run stops on signals, and whether one came. */
export interface SignalStop {
  /** Whether a SIGINT or SIGTERM stopped the run: the command then exits EXIT_INTERRUPTED. */
  interrupted(): boolean;
  /** Stops listening. */
  unlisten(): void;
}

/**
 * Stops `controller` at the first SIGINT or SIGTERM (saying `stopping` unless quiet
 * about it), exits at once with EXIT_INTERRUPTED at the second. The command asks
 * `interrupted()` once its run has ended: a run a signal stopped exits 130, so that
 * a script can tell it from a finished one.
 */
export function stopOnSignals(
  controller: AbortController,
  io: Io,
  stopping: string | null,
): SignalStop {
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      if (stopping !== null) io.err(stopping);
      controller.abort();
    } else {
      process.exit(EXIT_INTERRUPTED);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    interrupted: () => interrupts > 0,
    unlisten() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
