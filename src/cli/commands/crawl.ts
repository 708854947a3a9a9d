import { crawl } from '../../crawl/run.js';
import { bool, type FlagSpec, type Parsed, parseFlags } from '../args.js';
import { crawlFlags, crawlFlagsHelp, crawlOptionsFromFlags } from '../crawl-flags.js';
import { crawlSettings } from '../crawl-settings.js';
import { fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { legendLines } from '../progress.js';
import {
  EXIT_INTERRUPTED,
  runOutput,
  runOutputFlags,
  runOutputFlagsHelp,
  stopOnSignals,
} from '../run-output.js';
import {
  serveFlag,
  serveFlagHelp,
  servePort,
  serveWhile,
  withServeDefault,
} from '../serve-flag.js';
import { withSources } from '../settings.js';
import { formatSummary } from '../summary.js';

export { crawlOptionsFromFlags, formatSummary };

const HELP = `Usage: focuscrawl crawl --store DIR|URL --topic FILE --seeds FILE|URL... [options]

Crawls toward a topic: pages whose relevance reaches the threshold are kept
(complete) and their links followed; the others are discarded and their links are
not followed. Seeds' links are always followed. Running the same command again
resumes the crawl; Ctrl-C stops it gracefully (twice: at once, still safely).

  --store DIR|URL              crawl store (created when missing, resumed otherwise: with the
                               settings it recorded, which flags given now override): a
                               directory, or postgres://user@host/db?schema=name for a crawl
                               that workers on other machines join (focuscrawl worker)
  --config FILE                settings file (JSON or YAML), keys named as the flags
                               (max-pages: 3000); FOCUSCRAWL_MAX_PAGES=3000 and the like set
                               them too. Precedence: flags, then FOCUSCRAWL_* variables, then
                               the --config file, then the store's recorded settings
  --topic FILE                 topic file: { "keywords": { "word": weight, ... }, "seeds": [...],
                               "threshold": 0.1, "name": "..." }
  --seeds FILE|URL...          seed URLs, or files with one URL per line (repeatable; extra
                               arguments are seeds too)
${crawlFlagsHelp}
${serveFlagHelp}
${runOutputFlagsHelp}

On a terminal the progress is a line redrawn in place; a narrow one gets short forms,
explained once by a legend line when the crawl starts:
${legendLines(88)}
Elsewhere a compact line every --progress-every. At the end a summary: what this run
fetched, by HTTP status and by error code, retries, bytes, the hosts failing most, and
the commands to go on with.

${fetchFlagsHelp}`;

/** Every flag of `crawl`: the crawl and fetcher option flags, and its own. */
export const crawlCommandFlags: FlagSpec = {
  ...fetchFlags,
  store: { type: 'string' },
  config: { type: 'string' },
  topic: { type: 'string' },
  seeds: { type: 'string', multiple: true },
  ...crawlFlags,
  ...serveFlag,
  ...runOutputFlags,
  help: { type: 'boolean', short: 'h' },
};

export async function crawlCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('crawl', withServeDefault(argv), crawlCommandFlags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  return runCrawl(p, io, true);
}

/**
 * Runs the crawl the parsed flags describe, with the store's recorded settings under
 * them; `record`: the settings in force become the store's (a worker joining the
 * crawl leaves them).
 */
export async function runCrawl(p: Parsed, io: Io, record: boolean): Promise<number> {
  const settings = await crawlSettings(p, crawlCommandFlags, process.env);
  const options = withSources(settings.layer, () =>
    crawlOptionsFromFlags(settings.parsed, settings.topic),
  );
  if (record) options.settings = settings.record as unknown as Record<string, unknown>;
  for (const note of settings.notes) io.err(note);
  const controller = new AbortController();
  options.signal = controller.signal;
  const output = runOutput(settings.parsed, io, options);
  const { json, reporter } = output;
  const run = crawl(options);
  const serving = serveWhile(
    servePort(settings.parsed, record ? 'crawl' : 'worker'),
    run,
    options.store as string,
    io,
  );
  run.on('progress', (x) => reporter.progress(x));
  run.on('page', (x) => reporter.page(x));
  run.on('warning', (x) => reporter.warning(x));
  run.on('end', (x) => reporter.end(x));
  let ranked = '';
  run.on('ranked', (r) => {
    if (json) io.out(JSON.stringify({ event: 'ranked', ...r }));
    else
      ranked = `ranked ${r.pages} pages by PageRank over ${r.nodes} URLs and ${r.edges} links (${r.iterations} iterations, ${r.ms} ms): P = ${r.w1}·relevance + ${r.w2}·PR`;
  });
  const signals = stopOnSignals(
    controller,
    io,
    json ? null : 'stopping: committing what was fetched (Ctrl-C again to quit at once)',
  );
  try {
    const summary = await run;
    const text = formatSummary(summary, options.store as string, ranked, output.stats());
    if (!json) io.out(text);
    output.close(text);
    const nothing = summary.counts.complete + summary.counts.discard === 0;
    if (signals.interrupted()) return EXIT_INTERRUPTED;
    // Stopped because every fetch failed for a while (the circuit breaker): an error.
    if (summary.stopReason === 'failing') return 1;
    return nothing && summary.seedErrors.length > 0 ? 1 : 0;
  } finally {
    signals.unlisten();
    output.close();
    await serving.close();
  }
}
