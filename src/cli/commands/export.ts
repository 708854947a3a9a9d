import { once } from 'node:events';
import { CliUsageError } from '../../errors/index.js';
import {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  type ExportOptionsInput,
  type ExportWhat,
  exportStore,
  exportToFile,
  PAGE_STATES,
  SQL_DIALECTS,
} from '../../export/index.js';
import { connectStore, URL_STATES } from '../../store/index.js';
import { bool, type FlagSpec, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { checkOutFile } from '../out-file.js';
import { withFlag } from '../system-errors.js';

const HELP = `Usage: focuscrawl export --store DIR --what TABLE [--format F] [--out FILE]

Writes one table of a crawl store as JSON Lines, CSV, XML, an HTML page, an SQL
script, or the stored pages as WARC, streaming: any store size in little memory.
Reads the store only, so it can run while a crawl works on it.

  --store DIR        the crawl store
  --what TABLE       history  every fetch in time order (url, fetchedAt, status, state,
                              relevance, depth, error)
                     pages    fetched pages (url, state, title, relevance, …, text)
                     urls     every known URL (id, url, state, depth, priority, parent, …)
                     links    links between pages (from, to, anchor)
                     changes  every recorded revisit in the order recorded (url, at, status,
                              change: unchanged|changed|gone|failed, contentHash, textHash,
                              lastModified, error)
                     records  one per page and rule set that extracted fields from it
                              (url, title, relevance, fetchedAt, ruleSet, fields)
  --format F         jsonl   one JSON object per line
                     csv     RFC 4180 with a header row (records: a fields.NAME column
                             per field, several values joined with " | ")
                     xml     <focuscrawl-export what=… version="1"> with a <row> per row
                     html    one self-contained page with a table sortable by a click
                     sql     CREATE TABLE and INSERTs in transactions of 1000 rows
                     warc    WARC 1.1, gzipped per record: a request and a response record
                             per page with a stored body (--what pages, the default here)
                     default: from the --out extension (.csv .xml .html .htm .sql .warc
                     .warc.gz), else jsonl
  --dialect D        sql: sqlite (default) | postgres
  --out FILE         write FILE (through FILE.tmp, renamed when complete) instead of
                     standard output
  --state STATE      urls: only the URLs in this state, ${URL_STATES.join(' | ')};
                     pages (and warc): only ${PAGE_STATES.join(' | ')} (complete: the kept pages,
                     e.g. --what pages --state complete --format csv for the relevant URLs)
  --no-text          pages: leave out the page text (read and parsed from the stored
                     bodies, the slow part of a pages export); --text includes it (default)
  --bom              csv: begin with a UTF-8 byte-order mark (for Excel)

Times are ISO 8601 in UTC (2024-05-01T12:00:00.000Z). See docs/export.md.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  what: { type: 'string' },
  format: { type: 'string' },
  dialect: { type: 'string' },
  out: { type: 'string' },
  state: { type: 'string' },
  text: { type: 'boolean' },
  'no-text': { type: 'boolean' },
  bom: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** What the rows of a table are, in the message after `--out`. */
const NOUNS: Partial<Record<ExportWhat, string>> = { history: 'fetches', changes: 'revisits' };

const usage = (msg: string) => new CliUsageError(`focuscrawl export: ${msg}`);

function oneOf<T extends string>(p: Parsed, name: string, allowed: readonly T[]): T | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw usage(`--${name} must be one of ${allowed.join(', ')}, got "${v}"`);
  }
  return v as T;
}

/** The format an --out file's name asks for. */
const EXTENSIONS: readonly [RegExp, ExportFormat][] = [
  [/\.csv$/i, 'csv'],
  [/\.xml$/i, 'xml'],
  [/\.html?$/i, 'html'],
  [/\.sql$/i, 'sql'],
  [/\.warc(\.gz)?$/i, 'warc'],
];

/** --format, else the --out file's extension, else jsonl. */
function formatOf(p: Parsed, out: string | undefined): ExportFormat {
  const given = oneOf(p, 'format', EXPORT_FORMATS);
  if (given) return given;
  return EXTENSIONS.find(([re]) => out !== undefined && re.test(out))?.[1] ?? 'jsonl';
}

/** Checks the flags and builds the export options; exported for tests. */
export function exportOptionsFromFlags(p: Parsed): ExportOptionsInput & { store: string } {
  if (p.positionals.length > 0) throw usage(`unexpected argument "${p.positionals[0]}"`);
  const store = str(p, 'store');
  if (store === undefined) throw usage('--store is required (see focuscrawl export --help)');
  const format = formatOf(p, str(p, 'out'));
  const what = oneOf(p, 'what', EXPORT_WHATS) ?? (format === 'warc' ? 'pages' : undefined);
  if (what === undefined) throw usage(`--what is required: one of ${EXPORT_WHATS.join(', ')}`);
  if (format === 'warc' && what !== 'pages') {
    throw usage(`--format warc writes the stored pages: --what must be pages, got "${what}"`);
  }
  if (str(p, 'state') !== undefined && what !== 'urls' && what !== 'pages') {
    throw usage('--state applies to --what urls or pages only');
  }
  const state = oneOf(p, 'state', what === 'pages' ? PAGE_STATES : URL_STATES);
  const text = bool(p, 'text');
  const noText = bool(p, 'no-text');
  if (text && noText) throw usage('give --text or --no-text, not both');
  const textFlag = text ? 'text' : 'no-text';
  if ((text || noText) && what !== 'pages') {
    throw usage(`--${textFlag} applies to --what pages only`);
  }
  if ((text || noText) && format === 'warc') {
    throw usage(`--${textFlag} does not apply to --format warc (it writes the bodies)`);
  }
  const bom = bool(p, 'bom');
  if (bom && format !== 'csv') throw usage('--bom applies to --format csv only');
  const dialect = oneOf(p, 'dialect', SQL_DIALECTS);
  if (dialect !== undefined && format !== 'sql') {
    throw usage('--dialect applies to --format sql only');
  }
  return {
    store,
    what,
    format,
    ...(state !== undefined ? { state } : {}),
    ...(what === 'pages' && format !== 'warc' ? { text: !noText } : {}),
    ...(bom ? { bom } : {}),
    ...(dialect !== undefined ? { dialect } : {}),
    source: store,
  };
}

/** Thrown when standard output's reader went away (`| head`): not a failure. */
class OutputClosed extends Error {}

/**
 * Writes text through `io.out`, whole lines at a time (`io.out` ends what it prints
 * with a line end: the piece after the last line end waits for the next chunk), and
 * Buffers (WARC) straight to the process's standard output. A full buffer of the
 * process's standard output makes the export wait for 'drain' (backpressure), and a
 * closed pipe stops it.
 */
function stdoutWriter(io: Io): {
  write: (chunk: string | Buffer) => Promise<void>;
  done: () => void;
} {
  const stdout = process.stdout;
  let closed = false;
  let tail = '';
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else throw e;
  };
  stdout.on('error', onError);
  return {
    async write(chunk) {
      if (closed) throw new OutputClosed();
      if (typeof chunk === 'string') {
        const text = tail + chunk;
        const cut = text.lastIndexOf('\n') + 1;
        tail = text.slice(cut);
        if (cut > 0) io.out(text.slice(0, cut));
      } else {
        stdout.write(chunk);
      }
      if (stdout.writableNeedDrain) {
        await once(stdout, 'drain').catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'EPIPE') throw new OutputClosed();
          throw e;
        });
      }
    },
    done: () => {
      if (tail !== '' && !closed) io.out(tail);
      stdout.off('error', onError);
    },
  };
}

export async function exportCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('export', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  const { store: dir, ...options } = exportOptionsFromFlags(p);
  const out = str(p, 'out');
  if (out !== undefined) checkOutFile(out, 'export');
  const store = await connectStore(dir, { readonly: true });
  try {
    if (out !== undefined) {
      const { rows } = await withFlag('--out', out, () => exportToFile(store, options, out));
      io.err(`${rows} ${NOUNS[options.what] ?? options.what} written to ${out}`);
      return 0;
    }
    if (options.format === 'warc' && process.stdout.isTTY) {
      throw usage('--format warc is binary: give --out FILE, or redirect standard output');
    }
    const w = stdoutWriter(io);
    try {
      await exportStore(store, options, w.write);
    } catch (e) {
      if (!(e instanceof OutputClosed)) throw e;
    } finally {
      w.done();
    }
    return 0;
  } finally {
    await store.close();
  }
}
