// `npm run demo`: start the test web on 127.0.0.1, run a focused crawl of it for a
// labelled Chinese topic into a SQLite store, print the statistics, write the HTML
// report, then crawl the same web breadth-first with the same page budget and compare
// how many relevant pages each one found (by the test web's ground truth).

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CrawlSummary, crawl, REFUSED_CODES, type StrategyName } from '../../crawl/index.js';
import { CliUsageError } from '../../errors/index.js';
import { formatStatus, gatherStatus } from '../../export/index.js';
import { writeReport } from '../../report/index.js';
import { errorCode, openStore } from '../../store/index.js';
import { labels, startTestWeb, type TestWeb, type WebSize } from '../../testweb/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { createProgressReporter } from '../progress.js';
import { withFlagSync } from '../system-errors.js';
import { jobsDemo } from './demo-jobs.js';
import { formatHits, readableSearch } from './search.js';

const HELP = `Usage: focuscrawl demo [--dir DIR] [--size small|medium|large] [--pages N] [--topic ID] [--quiet]
       focuscrawl demo jobs [--dir DIR] [--pages N] [--quiet]   (the job-board demo: see demo jobs --help)

Starts the test web on 127.0.0.1 and runs a focused crawl of it (best-first, keyword
VSM, threshold 0.1) for one of its labelled Chinese topics into DIR/focused (a SQLite
store), prints the statistics and writes DIR/report.html; then crawls the same web
breadth-first as a plain crawler with the same page budget into DIR/bfs and compares
the share of relevant pages each fetched.

  --dir DIR      where the stores and the report go (default ./focuscrawl-demo; emptied first)
  --size SIZE    test web size (default medium: 20,000 topical pages)
  --pages N      page budget of each crawl (default 1000)
  --topic ID     labelled topic (default monitor; see focuscrawl testweb labels)
  --quiet        no progress lines`;

const flags: FlagSpec = {
  dir: { type: 'string' },
  size: { type: 'string' },
  pages: { type: 'string' },
  topic: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

interface Outcome {
  summary: CrawlSummary;
  fetched: number;
  relevantFetched: number;
  keptByRelevance: number;
}

export async function demoCommand(argv: string[], io: Io): Promise<number> {
  if (argv[0] === 'jobs') return jobsDemo(argv.slice(1), io);
  const p = parseFlags('demo', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const size = (str(p, 'size') ?? 'medium') as WebSize;
  if (!['small', 'medium', 'large'].includes(size)) {
    throw new CliUsageError(
      `focuscrawl demo: --size must be small, medium or large, got "${size}"`,
    );
  }
  const budget = int(p, 'pages', 'demo') ?? 1000;
  const dir = resolve(str(p, 'dir') ?? 'focuscrawl-demo');
  const all = labels({ seed: 1, size });
  const topicId = str(p, 'topic') ?? 'monitor';
  const t = all.topics.find((x) => x.id === topicId);
  if (!t) {
    throw new CliUsageError(
      `focuscrawl demo: --topic must be one of ${all.topics.map((x) => x.id).join(', ')}, got "${topicId}"`,
    );
  }
  const topicFile = join(dir, 'topic.json');
  withFlagSync('--dir', dir, () => {
    for (const sub of ['focused', 'bfs', 'report.html', 'topic.json']) {
      rmSync(join(dir, sub), { recursive: true, force: true });
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(topicFile, `${JSON.stringify({ ...t.topic, seeds: t.seeds }, null, 2)}\n`);
  });

  const web = await startTestWeb({ port: 0, seed: 1, size });
  try {
    io.out(
      `focuscrawl demo: test web on http://127.0.0.1:${web.port} (${web.hosts.length} hosts, size ${size}), every request through --resolve '${web.resolve}'`,
    );
    io.out(
      `Topic "${t.name}" (${t.id}, ${t.language}): ${t.topic.keywords ? Object.keys(t.topic.keywords).length : 0} weighted keywords in ${topicFile}; ${t.seeds.length} seeds; ${t.relevant.length} relevant pages in the web.\n`,
    );
    io.out(
      `── 1. Focused crawl (best-first, threshold 0.1), ${budget} pages. The same from the shell:\n   focuscrawl crawl --store ${join(dir, 'focused')} --topic ${topicFile} --max-pages ${budget} --resolve '*.test=127.0.0.1:${web.port}' --allow-private --delay-ms 0 --concurrency 32 --per-host-concurrency 8 --full-text kept`,
    );
    const focused = await runCrawl(
      io,
      web,
      join(dir, 'focused'),
      topicFile,
      'best-first',
      budget,
      t.relevant,
      p,
    );
    const store = await openStore(join(dir, 'focused'), { readonly: true });
    try {
      io.out(`\n${formatStatus(await gatherStatus(store, { topHosts: 5 }))}`);
      const report = await writeReport(store, join(dir, 'report.html'), {
        storePath: join(dir, 'focused'),
      });
      io.out(
        `\nReport: ${report.file} (${Math.round(report.bytes / 1024)} KiB), open it in a browser.`,
      );
      const word = Object.keys(t.topic.keywords ?? {})[0] ?? t.name;
      const { hits } = await readableSearch(store, { query: word, limit: 3 });
      io.out(
        `\nSearch: focuscrawl search --store ${join(dir, 'focused')} ${JSON.stringify(word)} --limit 3\n${formatHits(word, hits, false)}`,
      );
    } finally {
      await store.close();
    }

    io.out(
      `\n── 2. Plain breadth-first crawl (threshold 0: every page kept), same ${budget} pages`,
    );
    const bfs = await runCrawl(
      io,
      web,
      join(dir, 'bfs'),
      topicFile,
      'bfs',
      budget,
      t.relevant,
      p,
      0,
    );

    io.out('\n── 3. Harvest rate: share of fetched pages that are relevant');
    const row = (name: string, o: Outcome) =>
      `  ${name.padEnd(22)} ${String(o.fetched).padStart(7)} ${pct(o.relevantFetched, o.fetched).padStart(12)} ${pct(o.keptByRelevance, o.fetched).padStart(15)} ${o.summary.pagesPerSec.toFixed(0).padStart(8)}`;
    io.out(
      `  ${'crawl'.padEnd(22)} ${'fetched'.padStart(7)} ${'ground truth'.padStart(12)} ${'relevance>=0.1'.padStart(15)} ${'pages/s'.padStart(8)}`,
    );
    io.out(row('focused (best-first)', focused));
    io.out(row('plain (bfs)', bfs));
    const gain = focused.relevantFetched / Math.max(1, bfs.relevantFetched);
    io.out(
      `\nOn the same budget the focused crawl fetched ${focused.relevantFetched} relevant pages, the plain crawl ${bfs.relevantFetched} (${gain.toFixed(2)}×).`,
    );
    const focusedDir = join(dir, 'focused');
    io.out(
      [
        'Explore (from a clone: npx focuscrawl …):',
        `  focuscrawl status --store ${focusedDir}`,
        `  focuscrawl search --store ${focusedDir} "words"`,
        `  focuscrawl serve --store ${focusedDir}        # the dashboard and the API, on 127.0.0.1:8080`,
        `  focuscrawl export --store ${focusedDir} --what pages --state complete --format csv --out kept.csv`,
      ].join('\n'),
    );
    return 0;
  } finally {
    await web.close();
  }
}

function pct(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '-';
}

async function runCrawl(
  io: Io,
  web: TestWeb,
  store: string,
  topicFile: string,
  strategy: StrategyName,
  budget: number,
  relevant: readonly string[],
  p: ReturnType<typeof parseFlags>,
  threshold?: number,
): Promise<Outcome> {
  const reporter = createProgressReporter({
    mode: bool(p, 'quiet') ? 'quiet' : 'lines',
    write: (s) => io.err(s.replace(/\n$/, '')),
  });
  const run = crawl({
    store,
    topic: topicFile,
    strategy,
    ...(threshold !== undefined ? { threshold } : {}),
    maxPages: budget,
    fullText: 'kept',
    // The test web is ours and on loopback: no politeness delay needed there.
    fetcher: {
      resolve: [web.resolve],
      allowPrivateAddresses: true,
      delayMs: 0,
      concurrency: 32,
      perHostConcurrency: 8,
    },
  });
  run.on('progress', (x) => reporter.progress(x));
  run.on('warning', (x) => reporter.warning(x));
  const summary = await run;
  io.out(
    `${summary.stopReason}: ${summary.run.fetched} pages in ${(summary.elapsedMs / 1000).toFixed(1)} s (${summary.pagesPerSec.toFixed(0)} pages/s): ${summary.run.complete} kept, ${summary.run.discard} discarded, ${summary.run.error} failed`,
  );
  const s = await openStore(store, { readonly: true });
  const truth = new Set(relevant);
  let fetched = 0;
  let relevantFetched = 0;
  let keptByRelevance = 0;
  try {
    for await (const h of s.history()) {
      // A URL refused before any request (a session-id copy, robots.txt) was not fetched.
      if (h.status === null && h.error !== null && REFUSED_CODES.has(errorCode(h.error))) continue;
      fetched++;
      if (truth.has(h.url)) relevantFetched++;
      if ((h.relevance ?? 0) >= 0.1) keptByRelevance++;
    }
  } finally {
    await s.close();
  }
  return { summary, fetched, relevantFetched, keptByRelevance };
}
