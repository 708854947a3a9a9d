import { reextract } from '../../crawl/index.js';
import { CliUsageError } from '../../errors/index.js';
import { loadRules } from '../../extract/index.js';
import { connectStore } from '../../store/index.js';
import { bool, type FlagSpec, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { formatFieldStats } from './fields-text.js';

const HELP = `Usage: focuscrawl extract --store DIR --rules FILE [--json]

Runs field extraction rules (docs/extract.md; JSON or YAML) over the pages a crawl
stored, without fetching anything: every page whose body is stored gets the fields
the rules give it now, replacing what it had (a page no rule set matches loses its
fields). Pages whose bodies were not kept (--store-bodies) are left as they were.
Then prints, per rule set, the pages it matched and each field's fill rate.
A crawl extracts as it keeps pages with crawl --extract FILE.

  --store DIR      the crawl store (not while a crawl runs on it)
  --rules FILE     the rule file
  --json           print { pages, noBody, matched, fields } as JSON`;

const flags: FlagSpec = {
  store: { type: 'string' },
  rules: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export async function extractCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('extract', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0)
    throw new CliUsageError(`focuscrawl extract: unexpected argument "${p.positionals[0]}"`);
  const dir = str(p, 'store');
  const file = str(p, 'rules');
  if (dir === undefined || file === undefined)
    throw new CliUsageError(
      'focuscrawl extract: --store DIR and --rules FILE are required (see focuscrawl extract --help)',
    );
  // The rules first: a bad file is refused before the store is opened.
  const rules = await loadRules(file);
  const store = await connectStore(dir);
  try {
    const sum = await reextract(store, rules, (done) => {
      if (done % 5000 === 0) io.err(`extract: ${done} pages`);
    });
    const fields = await store.fieldStats();
    if (bool(p, 'json')) io.out(JSON.stringify({ ...sum, fields }, null, 2));
    else {
      io.out(
        `extract: ${sum.pages} pages, ${sum.matched} matched by a rule set${sum.noBody > 0 ? `, ${sum.noBody} without a stored body (left as they were)` : ''}`,
      );
      const text = formatFieldStats(fields);
      io.out(text === '' ? 'Fields          none' : text);
    }
    return 0;
  } finally {
    await store.close();
  }
}
