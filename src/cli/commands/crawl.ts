import { type CrawlSummary, crawl } from '../../crawl/index.js';
import { bool, type FlagSpec, parseFlags } from '../args.js';
import { crawlFlags, crawlFlagsHelp, crawlOptionsFromFlags } from '../crawl-flags.js';
import { fetchFlags, fetchFlagsHelp } from '../fetch-flags.js';
import type { Io } from '../index.js';
import { runOutput, stopOnSignals } from '../run-output.js';

export { crawlOptionsFromFlags };

const HELP = `Usage: focuscrawl crawl --store DIR --topic FILE --seeds FILE|URL... [options]

Crawls toward a topic: pages whose relevance reaches the threshold are kept
(complete) and their links followed; the others are discarded and their links are
not followed. Seeds' links are always followed. Running the same command again
resumes the crawl; Ctrl-C stops it gracefully (twice: at once, still safely).

  --store DIR                  crawl store (created when missing, resumed otherwise)
  --topic FILE                 topic file: { "keywords": { "word": weight, ... }, "seeds": [...],
                               "threshold": 0.1, "name": "..." }
  --seeds FILE|URL...          seed URLs, or files with one URL per line (repeatable; extra
                               arguments are seeds too)
${crawlFlagsHelp}
  --quiet                      no progress display, only warnings and the summary
  --json-log                   one JSON object per line per event (progress, page, warning, end)

${fetchFlagsHelp}`;

/** Every flag of `crawl`: the crawl and fetcher option flags, and its own. */
export const crawlCommandFlags: FlagSpec = {
  ...fetchFlags,
  store: { type: 'string' },
  topic: { type: 'string' },
  seeds: { type: 'string', multiple: true },
  ...crawlFlags,
  quiet: { type: 'boolean' },
  'json-log': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** `; 12 URLs refused before sending (FC_ERR_HOST_UNREACHABLE 10, …)`, or nothing. */
function refusedText(refused: Record<string, number>): string {
  const e = Object.entries(refused).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (e.length === 0) return '';
  const total = e.reduce((t, [, k]) => t + k, 0);
  return `; ${total} URLs refused before sending (${e.map(([code, k]) => `${code} ${k}`).join(', ')})`;
}

export function formatSummary(s: CrawlSummary, store: string, ranked?: string): string {
  const c = s.counts;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${s.stopReason}: ${s.message}`,
    `this run: ${s.run.fetched} fetched (${s.run.complete} kept, ${s.run.discard} discarded, ${s.run.error} failed, ${s.run.redirect} redirects) in ${(s.elapsedMs / 1000).toFixed(1)} s, ${s.pagesPerSec.toFixed(1)} pages/s; CPU ${(s.resources.cpuMs / 1000).toFixed(1)} s, peak memory ${(s.resources.peakRssBytes / 1048576).toFixed(0)} MiB`,
    `requests: ${s.requests} sent this run${refusedText(s.refused)}; pages fetched (what --max-pages counts): ${s.fetchedTotal}`,
    ...(s.lostClaims > 0
      ? [
          `lost claims: ${s.lostClaims} pages fetched this run were not stored: the run stalled past its lease and another run took their URLs back`,
        ]
      : []),
    `store ${store}: waiting ${c.waiting}, processing ${c.processing}, complete ${c.complete}, discard ${c.discard}, error ${c.error}, redirect ${c.redirect}; harvest rate ${pct(s.harvestRate)}`,
    ...(ranked ? [ranked] : []),
    `next: focuscrawl status --store ${store} | focuscrawl search --store ${store} "words" | focuscrawl report --store ${store} --out report.html`,
  ].join('\n');
}

export async function crawlCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('crawl', argv, crawlCommandFlags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const options = crawlOptionsFromFlags(p);
  const controller = new AbortController();
  options.signal = controller.signal;
  const { json, reporter } = runOutput(p, io);
  const run = crawl(options);
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
  const unlisten = stopOnSignals(
    controller,
    io,
    json ? null : 'stopping: committing what was fetched (Ctrl-C again to quit at once)',
  );
  try {
    const summary = await run;
    if (!json) io.out(formatSummary(summary, options.store as string, ranked));
    const nothing = summary.counts.complete + summary.counts.discard === 0;
    return nothing && summary.seedErrors.length > 0 ? 1 : 0;
  } finally {
    unlisten();
  }
}
