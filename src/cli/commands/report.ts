import { CliUsageError } from '../../errors/index.js';
import { writeReport } from '../../report/index.js';
import { connectStore } from '../../store/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag } from '../system-errors.js';

const HELP = `Usage: focuscrawl report --store DIR --out FILE.html [--title T] [--top N]

Writes a self-contained HTML report of a crawl store: the statistics table
(DESIGN 1.1), the harvest rate over the crawl, a histogram of the pages'
relevance with the threshold, URL states over time, the most relevant pages and
the busiest hosts; when the crawl adapted them, the threshold over the crawl and
the topic vector's changes. The file has no script and loads nothing from the network.
Reads the store only, so it can run while a crawl works on it.

  --store DIR        the crawl store
  --out FILE         the HTML file to write (replaced if it exists)
  --title T          the report's title (default: "Crawl report: <topic name>")
  --top N            pages in the top-pages table (default 25)
  --top-hosts N      hosts in the top-hosts chart (default 10)`;

const flags: FlagSpec = {
  store: { type: 'string' },
  out: { type: 'string', short: 'o' },
  title: { type: 'string' },
  top: { type: 'string' },
  'top-hosts': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

export async function reportCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('report', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl report: unexpected argument "${p.positionals[0]}" (give the store with --store DIR and the file with --out FILE)`,
    );
  }
  const dir = str(p, 'store');
  if (dir === undefined) {
    throw new CliUsageError(
      'focuscrawl report: --store is required (see focuscrawl report --help)',
    );
  }
  const out = str(p, 'out');
  if (out === undefined) {
    throw new CliUsageError(
      'focuscrawl report: --out is required: the HTML file to write (see focuscrawl report --help)',
    );
  }
  checkOutFile(out, 'report');
  const title = str(p, 'title');
  if (title !== undefined && title.trim() === '') {
    throw new CliUsageError('focuscrawl report: --title must not be empty');
  }
  const topPages = int(p, 'top', 'report') ?? 25;
  const topHosts = int(p, 'top-hosts', 'report') ?? 10;
  if (topPages > 10_000) throw new CliUsageError('focuscrawl report: --top is at most 10000');
  if (topHosts > 1000) throw new CliUsageError('focuscrawl report: --top-hosts is at most 1000');

  const store = await connectStore(dir, { readonly: true });
  try {
    const r = await withFlag('--out', out, () =>
      writeReport(store, out, {
        topPages,
        topHosts,
        storePath: dir,
        ...(title !== undefined ? { title } : {}),
      }),
    );
    io.out(`Report written to ${r.file} (${(r.bytes / 1024).toFixed(1)} KiB)`);
    return 0;
  } finally {
    await store.close();
  }
}
