import { CliUsageError } from '../../errors/index.js';
import { type CheckReport, checkStore, isPgLocation } from '../../store/index.js';
import { bool, type FlagSpec, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl check --store DIR [--repair] [--full] [--json]

Checks a store directory: crawl.db is a SQLite database that SQLite finds whole
(quick_check; --full: integrity_check, slower), the full-text index matches its rows,
every page file a row names is there and is whole gzip, and no file is left that no
row names. Run it when no crawl runs on the store (--repair refuses beside one).

  --store DIR   the store directory (required)
  --repair      put right what can be: rebuild indexes and the full-text index, forget
                a missing or damaged page file (the page stays, without its body),
                remove files no row names; a database whose tables are damaged cannot
                be repaired here (restore a backup, or export what can be read)
  --full        SQLite's integrity_check instead of quick_check
  --json        the report as JSON

Exit status: 0 when nothing is wrong (or all was repaired), 1 when problems are left,
2 for a usage error.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  repair: { type: 'boolean' },
  full: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

function describe(r: CheckReport): string {
  const lines = [`store ${r.dir}: ${r.pageFiles} page files read`];
  for (const p of r.problems) {
    lines.push(`  ${p.repaired ? 'repaired' : 'problem '}  ${p.part}  ${p.where}: ${p.message}`);
  }
  lines.push(
    r.problems.length === 0
      ? 'ok: nothing is wrong'
      : r.left === 0
        ? `ok: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'} repaired`
        : `${r.left} problem${r.left === 1 ? '' : 's'} left`,
  );
  return lines.join('\n');
}

export async function checkCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('check', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const store = str(p, 'store');
  if (store === undefined) throw new CliUsageError('focuscrawl check: --store DIR is required');
  if (isPgLocation(store)) {
    throw new CliUsageError(
      "focuscrawl check: checks a store directory; a PostgreSQL store is checked with PostgreSQL's own tools (amcheck, pg_dump), see docs/scale-out.md",
    );
  }
  const r = await checkStore(store, { repair: bool(p, 'repair'), full: bool(p, 'full') });
  io.out(bool(p, 'json') ? JSON.stringify(r, null, 2) : describe(r));
  return r.left === 0 ? 0 : 1;
}
