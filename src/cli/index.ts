// The `focuscrawl` command line: dispatches to one module per command.
import { createRequire } from 'node:module';
import { CliUsageError, isFocusCrawlError } from '../errors/index.js';
import { cliFlagNames, inFlagWords, mayNameOptions } from './flag-words.js';
import { nearest } from './near.js';
import { systemErrorOf, systemErrorText } from './system-errors.js';

export const VERSION: string = (
  createRequire(import.meta.url)('../../package.json') as { version: string }
).version;

const USAGE = `focuscrawl ${VERSION}: a focused (topical) web crawler

Usage: focuscrawl <command> [options]

Commands:
  crawl --store DIR|URL --topic FILE --seeds FILE|URL... [options]
                                          focused crawl into a resumable store (a directory,
                                          or postgres://… for a crawl shared by workers)
  worker --store postgres://… [--concurrency N]
                                          join a PostgreSQL store's crawl from this machine
  watch --store DIR --topic FILE --budget 30/min [--duration 12h] [options]
                                          keep a crawl fresh: new URLs and revisits by change rate
  status --store DIR [--json]             crawl statistics, states, harvest rate, top hosts
  check --store DIR [--repair]            a store directory whole? page files, indexes; repairs what it can
  export --store DIR --what history|pages|urls|links|changes|records [--format jsonl|csv|...]
         [--state complete|...] [--out FILE]
                                          export a store's tables (--what pages --state complete:
                                          the kept pages only)
  report --store DIR --out FILE.html      self-contained HTML report with charts
  serve --store DIR|URL [--port 8080] [--host 127.0.0.1] [--token T] [--read-only]
                                          a dashboard and a REST API over a store: watch,
                                          pause, stop, re-threshold a running crawl
  rank --store DIR [--w1 0.6 --w2 0.4 --damping 0.8]
                                          PageRank (or HITS) and the final score P of kept pages
  search --store DIR "words" [--limit N] [--json]
                                          full-text search of kept pages (Chinese and English)
  extract --store DIR --rules FILE        run field extraction rules over the stored pages
  inspect URL [--topic FILE] [--rules FILE] [--json]
                                          fetch one page as the crawler would and explain it
  topic learn --positive SRC... [--negative SRC...] [--expert FILE] [--out FILE]
                                          learn a topic file from example pages (TF-IDF)
  train --positive SRC... --negative SRC... --out MODEL.json [--density normal|kernel]
                                          train the naive Bayes link classifier (DESIGN 1.4)
  testweb [--port N] [--seed S] [--size small|medium|large] [--log FILE]
                                          serve the synthetic test web on 127.0.0.1
  testweb labels [--seed S] [--size ...] [--topic ID] [--format json|urls|topic]
                                          print the test web's ground-truth labels
  demo                                    start the test web and show focuscrawl at work
  evaluate --store DIR --labels FILE [--topic ID] [--out FILE.html] [--json]
                                          harvest rate, target recall, keep precision/recall vs labels
  compare --out-dir DIR --topic FILE --labels FILE --max-pages N --runs SPEC...
                                          crawl once per run spec and compare them (compare.html)
  site-model learn --seeds URL... --out FILE [--sample N]
                                          learn which URL patterns of a site carry content
  site-model show FILE | test FILE URL... show a site model; say how it decides URLs
  help [COMMAND]                          show help (also: COMMAND --help)
  version                                 print the version

Exit status: 0 finished, 1 an error, 2 a command-line mistake, 130 interrupted (Ctrl-C);
a closed output pipe (| head) ends a command quietly with 0.
From a clone, run the commands as npx focuscrawl ... (npm install builds them).
See docs/cli.md for every option.`;

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

const defaultIo: Io = {
  out: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
  err: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
};

/**
 * The exit status when standard output's (or standard error's) reader goes away, as
 * `focuscrawl export … | head -1` does: the command ends at once, quietly, and this is
 * no failure. Documented in docs/cli.md.
 */
export const EXIT_OUTPUT_CLOSED = 0;

let closedOutputHandled = false;

/** Ends the process quietly with EXIT_OUTPUT_CLOSED once a reader of its output is gone. */
function endQuietlyOnClosedOutput(): void {
  if (closedOutputHandled) return;
  closedOutputHandled = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(EXIT_OUTPUT_CLOSED);
      throw e;
    });
  }
}

/** `message` with the library's option names replaced by their flags, when they can be. */
async function flagWords(message: string): Promise<string> {
  if (!mayNameOptions(message)) return message;
  try {
    return inFlagWords(message, await cliFlagNames());
  } catch {
    return message;
  }
}

/**
 * What `main` prints for an error and the status it exits with: `CODE: message` for a
 * typed error (2 for usage, else 1), one line naming the path or port for a system
 * error that no command said in its own words (1); anything else is a fault of
 * focuscrawl's own and is thrown on.
 */
async function reportError(e: unknown, io: Io): Promise<number> {
  if (isFocusCrawlError(e)) {
    io.err(`${e.code}: ${await flagWords(e.message)}`);
    return e.code === 'FC_ERR_CLI_USAGE' ? 2 : 1;
  }
  const sys = systemErrorOf(e);
  if (sys !== undefined) {
    io.err(`FC_ERR_IO: ${systemErrorText(sys)}`);
    return 1;
  }
  throw e;
}

type Command = (argv: string[], io: Io) => Promise<number>;
// Each command's modules load when it runs: a crawl's process holds only what it uses.
const commands: Record<string, () => Promise<Command>> = {
  crawl: async () => (await import('./commands/crawl.js')).crawlCommand,
  worker: async () => (await import('./commands/worker.js')).workerCommand,
  watch: async () => (await import('./commands/watch.js')).watchCommand,
  status: async () => (await import('./commands/status.js')).statusCommand,
  check: async () => (await import('./commands/check.js')).checkCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  report: async () => (await import('./commands/report.js')).reportCommand,
  serve: async () => (await import('./commands/serve.js')).serveCommand,
  rank: async () => (await import('./commands/rank.js')).rankCommand,
  search: async () => (await import('./commands/search.js')).searchCommand,
  extract: async () => (await import('./commands/extract.js')).extractCommand,
  inspect: async () => (await import('./commands/inspect.js')).inspectCommand,
  topic: async () => (await import('./commands/topic.js')).topicCommand,
  train: async () => (await import('./commands/train.js')).trainCommand,
  testweb: async () => (await import('./commands/testweb.js')).testwebCommand,
  demo: async () => (await import('./commands/demo.js')).demoCommand,
  evaluate: async () => (await import('./commands/evaluate.js')).evaluateCommand,
  compare: async () => (await import('./commands/compare.js')).compareCommand,
  'site-model': async () => (await import('./commands/site-model.js')).siteModelCommand,
};

/** Runs the CLI; resolves to the process exit status. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [name, ...rest] = argv;
  if (io === defaultIo) endQuietlyOnClosedOutput();
  try {
    if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
      const sub = rest[0];
      const load = sub === undefined ? undefined : commands[sub];
      if (load) return await (await load())(['--help'], io);
      io.out(USAGE);
      return 0;
    }
    if (name === 'version' || name === '--version' || name === '-v') {
      io.out(VERSION);
      return 0;
    }
    const load = commands[name];
    if (!load) {
      const near = nearest(name, Object.keys(commands));
      throw new CliUsageError(
        `focuscrawl: unknown command "${name}"${near === undefined ? '' : `: did you mean ${near}?`} (try: focuscrawl help)`,
      );
    }
    return await (await load())(rest, io);
  } catch (e) {
    return await reportError(e, io);
  }
}
