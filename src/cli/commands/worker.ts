import { CliUsageError } from '../../errors/index.js';
import { isPgLocation } from '../../store/index.js';
import { bool, parseFlags, str } from '../args.js';
import { crawlFlagsHelp } from '../crawl-flags.js';
import { storedSettings } from '../crawl-settings.js';
import { fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { runOutputFlagsHelp } from '../run-output.js';
import { crawlCommandFlags, runCrawl } from './crawl.js';

const HELP = `Usage: focuscrawl worker --store postgres://user@host/db?schema=name [--concurrency N] [options]

Joins the crawl of a PostgreSQL store from this machine (docs/scale-out.md): the
crawl's topic, seeds and settings are the store's (recorded by the focuscrawl crawl
that started it), flags given here apply to this worker only. Workers claim URLs
from the shared frontier (no URL goes to two of them), keep every host's delay
together, and stop when the crawl has nothing left that no other worker holds.
A worker killed at any moment loses nothing: its claims return to the frontier once
its lease expires. Ctrl-C stops it gracefully.

  --store URL                  the crawl's PostgreSQL store
${crawlFlagsHelp}
${runOutputFlagsHelp}

${fetchFlagsHelp}`;

export async function workerCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('worker', argv, crawlCommandFlags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const store = str(p, 'store');
  if (store === undefined) {
    throw new CliUsageError(
      'focuscrawl worker: --store is required (see focuscrawl worker --help)',
    );
  }
  if (!isPgLocation(store)) {
    throw new CliUsageError(
      `focuscrawl worker: --store must be a PostgreSQL store (postgres://…), got ${JSON.stringify(store)}: a store directory is crawled by one process at a time (focuscrawl crawl)`,
    );
  }
  for (const f of ['topic', 'seeds', 'new-topic'] as const) {
    if (p.values[f] !== undefined) {
      throw new CliUsageError(
        `focuscrawl worker: --${f} is the crawl's, not a worker's: give it to focuscrawl crawl --store ${store}`,
      );
    }
  }
  if ((await storedSettings(store)) === null) {
    throw new CliUsageError(
      `focuscrawl worker: no crawl recorded at ${store}: start one with focuscrawl crawl --store ${store} --topic FILE --seeds URL...`,
    );
  }
  return runCrawl(p, io, false);
}
