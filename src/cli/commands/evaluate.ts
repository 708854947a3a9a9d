import { CliUsageError } from '../../errors/index.js';
import {
  DEFAULT_BUDGETS,
  evaluateStore,
  formatEvaluation,
  writeEvaluationReport,
} from '../../evaluate/index.js';
import { readLabelsFile } from '../../labels/index.js';
import { connectStore } from '../../store/index.js';
import { bool, type FlagSpec, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag } from '../system-errors.js';

const HELP = `Usage: focuscrawl evaluate --store DIR --labels FILE [--topic ID] [--out FILE.html] [--json]

Measures a crawl against ground-truth labels, in fetch order: the harvest rate
(relevant pages fetched / fetches) and the target recall (relevant pages fetched /
all labelled relevant URLs) at fixed budgets and at the end, and the precision,
recall and F1 of the crawl's keep/discard decision (kept = complete). Reads the
store only, so it can run while a crawl works on it.

  --store DIR        the crawl store
  --labels FILE      the test web's labels (focuscrawl testweb labels > labels.json), or a
                     text file with one relevant URL per line (# comments allowed)
  --topic ID         the labelled topic, for labels with several topics
  --budgets N,N,...  budgets (fetches) to report besides the end (default ${DEFAULT_BUDGETS.join(',')})
  --out FILE         also write a self-contained HTML page with the curves as charts
  --title T          the HTML page's title (default "Crawl evaluation: <topic>")
  --json             print the whole evaluation as JSON (curves included)

See docs/evaluate.md.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  labels: { type: 'string' },
  topic: { type: 'string' },
  budgets: { type: 'string' },
  out: { type: 'string', short: 'o' },
  title: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** `1000,5000` → [1000, 5000], with a message naming the flag when malformed. */
export function budgetsFlag(p: Parsed, command: string): number[] | undefined {
  const v = str(p, 'budgets');
  if (v === undefined) return undefined;
  const parts = v.split(',').map((x) => x.trim().replace(/_/g, ''));
  if (parts.some((x) => !/^[1-9]\d*$/.test(x))) {
    throw new CliUsageError(
      `focuscrawl ${command}: --budgets expects whole numbers ≥ 1 separated by commas, got "${v}"`,
    );
  }
  return parts.map(Number);
}

export async function evaluateCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('evaluate', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw new CliUsageError(
      `focuscrawl evaluate: unexpected argument "${p.positionals[0]}" (give the store with --store DIR)`,
    );
  }
  const dir = str(p, 'store');
  const labelsFile = str(p, 'labels');
  if (dir === undefined || labelsFile === undefined) {
    throw new CliUsageError(
      `focuscrawl evaluate: --${dir === undefined ? 'store' : 'labels'} is required (see focuscrawl evaluate --help)`,
    );
  }
  const budgets = budgetsFlag(p, 'evaluate');
  const out = str(p, 'out');
  if (out !== undefined) checkOutFile(out, 'evaluate');
  const title = str(p, 'title');
  if (title !== undefined && title.trim() === '') {
    throw new CliUsageError('focuscrawl evaluate: --title must not be empty');
  }
  const labels = readLabelsFile(labelsFile, { topic: str(p, 'topic') });

  const store = await connectStore(dir, { readonly: true });
  try {
    const ev = await evaluateStore(store, labels, budgets ? { budgets } : {});
    if (bool(p, 'json')) io.out(JSON.stringify({ store: dir, ...ev }, null, 2));
    else io.out(formatEvaluation(ev, dir));
    if (out !== undefined) {
      const r = await withFlag('--out', out, () =>
        writeEvaluationReport(ev, out, {
          store: dir,
          ...(title !== undefined ? { title } : {}),
        }),
      );
      const line = `Evaluation written to ${r.file} (${(r.bytes / 1024).toFixed(1)} KiB)`;
      if (bool(p, 'json')) io.err(line);
      else io.out(`\n${line}`);
    }
    return 0;
  } finally {
    await store.close();
  }
}
