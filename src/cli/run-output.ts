// What a long-running command (crawl, watch) shows while it runs, and how it stops:
// a progress display (or one JSON object per event with --json-log, or nothing
// with --quiet), and Ctrl-C / SIGTERM: the first stops gracefully, the second at once.
import { bool, type Parsed } from './args.js';
import type { Io } from './index.js';
import { createProgressReporter, type ProgressReporter } from './progress.js';

export interface RunOutput {
  /** --json-log: events go to stdout as JSON lines. */
  json: boolean;
  reporter: ProgressReporter;
}

export function runOutput(p: Parsed, io: Io): RunOutput {
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
  return { json, reporter };
}

/**
 * Stops `controller` at the first SIGINT or SIGTERM (saying `stopping` unless quiet
 * about it), exits at once at the second; returns the function that stops listening.
 */
export function stopOnSignals(
  controller: AbortController,
  io: Io,
  stopping: string | null,
): () => void {
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      if (stopping !== null) io.err(stopping);
      controller.abort();
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
