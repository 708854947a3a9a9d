import { once } from 'node:events';
import { extname } from 'node:path';
import { CliUsageError } from '../../errors/index.js';
import {
  EXPORT_FORMATS,
  EXPORT_WHATS,
  type ExportFormat,
  type ExportOptionsInput,
  type ExportWhat,
  exportStore,
  exportToFile,
} from '../../export/index.js';
import { openStore, URL_STATES } from '../../store/index.js';
import { bool, type FlagSpec, type Parsed, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';

const HELP = `Usage: focuscrawl export --store DIR --what history|pages|urls|links|changes [--format jsonl|csv] [--out FILE]

Writes one table of a crawl store as JSON Lines (one object per line) or CSV
(RFC 4180, header row, UTF-8), streaming: any store size in little memory.
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
  --format F         jsonl | csv (default: from the --out extension .csv, else jsonl)
  --out FILE         write FILE (through FILE.tmp, renamed when complete) instead of
                     standard output
  --state STATE      urls: only ${URL_STATES.join(' | ')}
  --no-text          pages: leave out the page text (read and parsed from the stored
                     bodies, the slow part of a pages export); --text includes it (default)
  --bom              csv: begin with a UTF-8 byte-order mark (for Excel)

Times are ISO 8601 in UTC (2024-05-01T12:00:00.000Z). See docs/export.md.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  what: { type: 'string' },
  format: { type: 'string' },
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

/** --format, else the --out file's extension, else jsonl. */
function formatOf(p: Parsed, out: string | undefined): ExportFormat {
  const given = oneOf(p, 'format', EXPORT_FORMATS);
  if (given) return given;
  return out !== undefined && extname(out).toLowerCase() === '.csv' ? 'csv' : 'jsonl';
}

/** Checks the flags and builds the export options; exported for tests. */
export function exportOptionsFromFlags(p: Parsed): ExportOptionsInput & { store: string } {
  if (p.positionals.length > 0) throw usage(`unexpected argument "${p.positionals[0]}"`);
  const store = str(p, 'store');
  if (store === undefined) throw usage('--store is required (see focuscrawl export --help)');
  const what = oneOf(p, 'what', EXPORT_WHATS);
  if (what === undefined) throw usage(`--what is required: one of ${EXPORT_WHATS.join(', ')}`);
  const format = formatOf(p, str(p, 'out'));
  const state = oneOf(p, 'state', URL_STATES);
  if (state !== undefined && what !== 'urls') throw usage('--state applies to --what urls only');
  const text = bool(p, 'text');
  const noText = bool(p, 'no-text');
  if (text && noText) throw usage('give --text or --no-text, not both');
  if ((text || noText) && what !== 'pages') {
    throw usage(`--${text ? 'text' : 'no-text'} applies to --what pages only`);
  }
  const bom = bool(p, 'bom');
  if (bom && format !== 'csv') throw usage('--bom applies to --format csv only');
  return {
    store,
    what,
    format,
    ...(state !== undefined ? { state } : {}),
    ...(what === 'pages' ? { text: !noText } : {}),
    ...(bom ? { bom } : {}),
  };
}

/** Thrown when standard output's reader went away (`| head`): not a failure. */
class OutputClosed extends Error {}

/**
 * Writes through `io.out`. When that is the process's standard output, a full
 * buffer makes the export wait for 'drain' (backpressure), and a closed pipe
 * stops it.
 */
function stdoutWriter(io: Io): { write: (chunk: string) => Promise<void>; done: () => void } {
  const stdout = process.stdout;
  let closed = false;
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else throw e;
  };
  stdout.on('error', onError);
  return {
    async write(chunk) {
      if (closed) throw new OutputClosed();
      io.out(chunk); // every chunk ends with a line end, so io.out adds nothing
      if (stdout.writableNeedDrain) {
        await once(stdout, 'drain').catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'EPIPE') throw new OutputClosed();
          throw e;
        });
      }
    },
    done: () => {
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
  const store = await openStore(dir, { readonly: true });
  try {
    if (out !== undefined) {
      const { rows } = await exportToFile(store, options, out);
      io.err(`${rows} ${NOUNS[options.what] ?? options.what} written to ${out}`);
      return 0;
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
